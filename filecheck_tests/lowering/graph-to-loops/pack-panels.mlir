// RUN: infer-opt %s -p graph-to-loops,canonicalize,cse | filecheck %s

// B [2, K, 37] into panels of 32 columns, per batch: the full panel is a copy with the
// columns innermost, the last panel copies B's 5 remaining columns (32 + c) and zeros
// the other 27; nothing reads past column 36.
// CHECK-LABEL: func.func @pack
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %p = memref.alloc(%{{.*}}) {{.*}} : memref<2x2x?x32xf32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK:         scf.for %[[N:.*]] = %[[C0]]
// CHECK-NEXT:      scf.for %[[K:.*]] = %[[C0]]
// CHECK-NEXT:        scf.for %[[C:.*]] = %[[C0]] to %[[C32]]
// CHECK-NEXT:          %[[V:.*]] = memref.load %b[%[[N]], %[[K]], %[[C]]]
// CHECK-NEXT:          memref.store %[[V]], %p[%[[N]], %[[C0]], %[[K]], %[[C]]]
// CHECK:           scf.for %[[K2:.*]] = %[[C0]]
// CHECK-NEXT:        scf.for %[[C2:.*]] = %[[C0]] to %[[C5]]
// CHECK-NEXT:          %[[J:.*]] = arith.addi %[[C2]], %[[C32]]
// CHECK-NEXT:          %[[W:.*]] = memref.load %b[%[[N]], %[[K2]], %[[J]]]
// CHECK-NEXT:          memref.store %[[W]], %p[%[[N]], %[[C1]], %[[K2]], %[[C2]]]
// CHECK:           scf.for %[[K3:.*]] = %[[C0]]
// CHECK-NEXT:        scf.for %[[C3:.*]] = %[[C5]] to %[[C32]]
// CHECK-NEXT:          memref.store %[[ZERO]], %p[%[[N]], %[[C1]], %[[K3]], %[[C3]]]
func.func @pack(%b: tensor<2x?x37xf32>) -> tensor<2x2x?x32xf32> {
  %p = graph.pack_panels %b {width = 32 : i64} : (tensor<2x?x37xf32>) -> tensor<2x2x?x32xf32>
  func.return %p : tensor<2x2x?x32xf32>
}

// Transposed (B [N, K]: Gemm's transB), k runs innermost along B's rows.
// CHECK-LABEL: func.func @pack_transposed
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[V:.*]] = memref.load %b[%[[J]], %[[K]]] : memref<20x8xf32>
// CHECK-NEXT:        memref.store %[[V]], %p[%{{.*}}, %[[K]], %[[J]]] : memref<1x8x32xf32>
func.func @pack_transposed(%b: tensor<20x8xf32>) -> tensor<1x8x32xf32> {
  %p = graph.pack_panels %b {width = 32 : i64, transposed = 1 : i64} : (tensor<20x8xf32>) -> tensor<1x8x32xf32>
  func.return %p : tensor<1x8x32xf32>
}

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// x and y seen as [outer, n, inner] around the axis; the running sum is carried along n,
// here from the end (reverse).
// CHECK-LABEL: func.func @cumsum
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<3x?xf32>
// CHECK:         %[[X:.*]] = memref.reinterpret_cast %x to offset: [0], sizes: [%{{[0-9]+}}, %[[N]], %{{[0-9]+}}]
// CHECK:         %[[Y:.*]] = memref.reinterpret_cast %y to offset: [0], sizes: [%{{[0-9]+}}, %[[N]], %{{[0-9]+}}]
// CHECK:         scf.for %[[O:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[T:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32)
// CHECK:               %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK-NEXT:          %[[AT:.*]] = arith.subi %[[LAST]], %[[T]] : index
// CHECK-NEXT:          %[[V:.*]] = memref.load %[[X]][%[[O]], %[[AT]], %[[I]]] : memref<?x?x?xf32>
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[ACC]], %[[V]] fastmath<contract> : f32
// CHECK-NEXT:          memref.store %[[S]], %[[Y]][%[[O]], %[[AT]], %[[I]]] : memref<?x?x?xf32>
// CHECK-NEXT:          scf.yield %[[S]] : f32
func.func @cumsum(%x: tensor<3x?xf32>) -> tensor<3x?xf32> {
  %a = graph.constant dense<1> : tensor<i64>
  %y = graph.cumulative %x, %a {reverse = 1 : i64} : (tensor<3x?xf32>, tensor<i64>) -> tensor<3x?xf32>
  func.return %y : tensor<3x?xf32>
}

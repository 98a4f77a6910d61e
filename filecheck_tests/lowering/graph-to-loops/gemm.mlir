// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Gemm without transB: the row starts as beta * C (C broadcast from [N]); alpha scales
// A's loop-invariant scalar; innermost j (i-k-j order).
// CHECK-LABEL: func.func @gemm
// CHECK:         %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x5xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J0:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[C:.*]] = memref.load %c[%[[J0]]] : memref<5xf32>
// CHECK-NEXT:        %[[BETA:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:        %[[BC:.*]] = arith.mulf %[[C]], %[[BETA]] fastmath<contract> : f32
// CHECK-NEXT:        memref.store %[[BC]], %[[Y]][%[[I]], %[[J0]]]
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[A:.*]] = memref.load %a[%[[I]], %[[K]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[ALPHA:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:        %[[AA:.*]] = arith.mulf %[[A]], %[[ALPHA]] fastmath<contract> : f32
// CHECK:             scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[ACC:.*]] = memref.load %[[Y]][%[[I]], %[[J]]]
// CHECK-NEXT:          %[[B:.*]] = memref.load %b[%[[K]], %[[J]]] : memref<4x5xf32>
// CHECK-NEXT:          %[[P:.*]] = arith.mulf %[[AA]], %[[B]] fastmath<contract> : f32
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[ACC]], %[[P]] fastmath<contract> : f32
// CHECK-NEXT:          memref.store %[[S]], %[[Y]][%[[I]], %[[J]]]
func.func @gemm(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<5xf32>) -> tensor<3x5xf32> {
  %y = graph.gemm %a, %b, %c {alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  func.return %y : tensor<3x5xf32>
}

// transB (a fully connected layer): rows of A and B are contiguous in k, so each output
// is a reassociable dot product, each on any thread (one loop over (i, j)); the bias is
// added after (alpha = beta = 1: no mulf).
// CHECK-LABEL: func.func @gemm_trans_b
// CHECK:         scf.for %[[IJ:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[J:.*]] = arith.remui %[[IJ]], %{{.*}} : index
// CHECK-NEXT:      %[[I:.*]] = arith.divui %[[IJ]], %{{.*}} : index
// CHECK:             %[[DOT:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:          %[[A:.*]] = memref.load %a[%[[I]], %[[K]]] : memref<?x8xf32>
// CHECK-NEXT:          %[[B:.*]] = memref.load %b[%[[J]], %[[K]]] : memref<10x8xf32>
// CHECK-NEXT:          %[[P:.*]] = arith.mulf %[[A]], %[[B]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[ACC]], %[[P]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:          scf.yield %[[S]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[C:.*]] = memref.load %c[%[[J]]] : memref<10xf32>
// CHECK-NEXT:        %[[Y:.*]] = arith.addf %[[DOT]], %[[C]] fastmath<contract> : f32
// CHECK-NEXT:        memref.store %[[Y]], %{{.*}}[%[[I]], %[[J]]] : memref<?x10xf32>
func.func @gemm_trans_b(%a: tensor<?x8xf32>, %b: tensor<10x8xf32>, %c: tensor<10xf32>) -> tensor<?x10xf32> {
  %y = graph.gemm %a, %b, %c {transB = 1 : i64} : (tensor<?x8xf32>, tensor<10x8xf32>, tensor<10xf32>) -> tensor<?x10xf32>
  func.return %y : tensor<?x10xf32>
}

// transA reads A[k, i]; without C the row starts at 0.
// CHECK-LABEL: func.func @gemm_trans_a
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           memref.store %[[ZERO]]
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        memref.load %a[%[[K]], %[[I]]] : memref<4x3xf32>
func.func @gemm_trans_a(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %y = graph.gemm %a, %b {transA = 1 : i64} : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  func.return %y : tensor<3x5xf32>
}

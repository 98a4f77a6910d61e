// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// A loop per output label (i, k), a reduction loop per summed label (j), the product of
// the operands' elements at each point.
// CHECK-LABEL: func.func @matmul
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[S:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32)
// CHECK-NEXT:          %[[A:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:          %[[B:.*]] = memref.load %b[%[[J]], %[[K]]] : memref<4x5xf32>
// CHECK-NEXT:          %[[P:.*]] = arith.mulf %[[A]], %[[B]] fastmath<contract> : f32
// CHECK-NEXT:          %[[T:.*]] = arith.addf %[[ACC]], %[[P]] fastmath<contract> : f32
// CHECK-NEXT:          scf.yield %[[T]] : f32
// CHECK:             memref.store %[[S]], %{{.*}}[%[[I]], %[[K]]] : memref<3x5xf32>
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %y = graph.einsum %a, %b {equation = "ij,jk->ik"} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  func.return %y : tensor<3x5xf32>
}

// A repeated letter reads the diagonal.
// CHECK-LABEL: func.func @diagonal
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           memref.load %m[%[[I]], %[[I]]] : memref<6x6xi32>
func.func @diagonal(%m: tensor<6x6xi32>) -> tensor<6xi32> {
  %d = graph.einsum %m {equation = "ii->i"} : (tensor<6x6xi32>) -> tensor<6xi32>
  func.return %d : tensor<6xi32>
}

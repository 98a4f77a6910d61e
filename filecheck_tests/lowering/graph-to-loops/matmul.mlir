// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Batched MatMul broadcasting B: one loop over (batch, i), each row of Y on any thread;
// the row is zeroed, then k, and innermost j with contiguous loads of B and loads/stores
// of Y (i-k-j order).
// CHECK-LABEL: func.func @matmul_batched
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3x5xf32>
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[I:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[BT:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK:             scf.for %[[J0:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          memref.store %[[ZERO]], %[[Y]][%[[BT]], %[[I]], %[[J0]]]
// CHECK:             scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[A:.*]] = memref.load %a[%[[BT]], %[[I]], %[[K]]] : memref<?x3x4xf32>
// CHECK:               scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[ACC:.*]] = memref.load %[[Y]][%[[BT]], %[[I]], %[[J]]]
// CHECK-NEXT:            %[[B:.*]] = memref.load %b[%[[K]], %[[J]]] : memref<4x5xf32>
// CHECK-NEXT:            %[[P:.*]] = arith.mulf %[[A]], %[[B]] fastmath<contract> : f32
// CHECK-NEXT:            %[[S:.*]] = arith.addf %[[ACC]], %[[P]] fastmath<contract> : f32
// CHECK-NEXT:            memref.store %[[S]], %[[Y]][%[[BT]], %[[I]], %[[J]]]
func.func @matmul_batched(%a: tensor<?x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<?x3x5xf32> {
  %y = graph.matmul %a, %b : (tensor<?x3x4xf32>, tensor<4x5xf32>) -> tensor<?x3x5xf32>
  func.return %y : tensor<?x3x5xf32>
}

// Both batch dims broadcast: A's size-1 batch dim is read at index 0.
// CHECK-LABEL: func.func @matmul_broadcast
// CHECK:         scf.for %[[B0:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[B1:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             memref.load %a[%[[B0]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x1x3x4xf32>
// CHECK:               memref.load %b[%[[B1]], %{{.*}}, %{{.*}}] : memref<3x4x5xf32>
func.func @matmul_broadcast(%a: tensor<2x1x3x4xf32>, %b: tensor<3x4x5xf32>) -> tensor<2x3x3x5xf32> {
  %y = graph.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x3x5xf32>
  func.return %y : tensor<2x3x3x5xf32>
}

// A 1-D right operand makes a matrix-vector product: a dot product per row into a
// loop-carried accumulator whose adds may be reassociated (vector partial sums).
// CHECK-LABEL: func.func @matmul_matvec
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[DOT:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[A:.*]] = memref.load %a[%[[I]], %[[K]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[B:.*]] = memref.load %b[%[[K]]] : memref<4xf32>
// CHECK-NEXT:        %[[P:.*]] = arith.mulf %[[A]], %[[B]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[ACC]], %[[P]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:        scf.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %[[DOT]], %{{.*}}[%[[I]]] : memref<3xf32>
func.func @matmul_matvec(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<3xf32> {
  %y = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  func.return %y : tensor<3xf32>
}

// A 1-D left operand is a row: A is indexed by k alone and Y has no row dim.
// CHECK-LABEL: func.func @vecmat
// CHECK:         memref.load %a[%{{.*}}] : memref<4xf64>
// CHECK:           memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x5xf64>
// CHECK:           arith.addf {{.*}} fastmath<contract> : f64
func.func @vecmat(%a: tensor<4xf64>, %b: tensor<2x4x5xf64>) -> tensor<2x5xf64> {
  %y = graph.matmul %a, %b : (tensor<4xf64>, tensor<2x4x5xf64>) -> tensor<2x5xf64>
  func.return %y : tensor<2x5xf64>
}

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// A conv's fused activation runs over each finished output row (after the last input
// channel's taps), while the row is still in cache: load, max(0), store.
// CHECK-LABEL: func.func @conv_relu
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[M:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK:             scf.for %[[OH:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[IC:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                 arith.mulf
// CHECK-NEXT:            arith.addf
// CHECK:               }
// CHECK:               scf.for %[[OW:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[V:.*]] = memref.load %[[Y:.*]][%[[N]], %[[M]], %[[OH]], %[[OW]]]
// CHECK-NEXT:            %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:            %[[R:.*]] = arith.maximumf %[[V]], %[[Z]] : f32
// CHECK-NEXT:            memref.store %[[R]], %[[Y]][%[[N]], %[[M]], %[[OH]], %[[OW]]]
// CHECK-NEXT:          }
// CHECK-NEXT:        }
func.func @conv_relu(%x: tensor<?x2x5x5xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<?x4x3x3xf32> {
  %y = graph.conv %x, %w, %b {activation = "relu"} : (tensor<?x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<?x4x3x3xf32>
  func.return %y : tensor<?x4x3x3xf32>
}

// Gemm i-k-j: the row is finished after the k loop; clip(0, 6) then runs over it (Clip's
// scalar body, its bounds materialized as constants).
// CHECK-LABEL: func.func @gemm_relu6
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               arith.mulf
// CHECK-NEXT:          arith.addf
// CHECK-NEXT:          memref.store
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[V:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:        %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        %[[HI:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT:        %[[M:.*]] = arith.maximumf %[[V]], %[[LO]]
// CHECK-NEXT:        arith.minimumf %[[M]], %[[HI]]
// CHECK-NEXT:        memref.store
func.func @gemm_relu6(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  %y = graph.gemm %a, %b, %c {activation = "clip", activation_params = array<f32: 0.0, 6.0>} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// Gemm i-j-k (transB): the activation applies to the dot product before its one store.
// CHECK-LABEL: func.func @gemm_trans_b_sigmoid
// CHECK:         %[[DOT:.*]] = scf.for
// CHECK:         %[[S:.*]] = arith.addf %[[DOT]]
// CHECK:         arith.negf %[[S]]
// CHECK-NEXT:    math.exp
// CHECK:         arith.divf
// CHECK-NEXT:    memref.store
func.func @gemm_trans_b_sigmoid(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  %y = graph.gemm %a, %b, %c {transB = 1 : i64, activation = "sigmoid"} : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// Matmul: leaky_relu with its alpha as a constant, after the k loop of each row.
// CHECK-LABEL: func.func @matmul_leaky_relu
// CHECK:         arith.cmpf olt
// CHECK:         arith.constant 2.000000e-01 : f32
// CHECK:         arith.select
func.func @matmul_leaky_relu(%a: tensor<2x2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x2x3xf32> {
  %y = graph.matmul %a, %b {activation = "leaky_relu", activation_params = array<f32: 0.2>} : (tensor<2x2x4xf32>, tensor<4x3xf32>) -> tensor<2x2x3xf32>
  func.return %y : tensor<2x2x3xf32>
}

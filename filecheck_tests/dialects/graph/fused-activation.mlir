// The optional activation of conv / gemm / matmul and graph.pad round-trip; an absent
// activation prints nothing. Verifier cases: fused-activation-invalid.mlir.
// RUN: infer-opt %s | infer-opt | filecheck %s

// CHECK-LABEL: func.func @ok
// CHECK-NEXT:    graph.conv %x, %w {activation = "relu"} :
// CHECK-NEXT:    graph.gemm %a, %b {activation = "clip", activation_params = array<f32: 0.000000e+00, 6.000000e+00>} :
// CHECK-NEXT:    graph.matmul %a, %b :
// CHECK-NEXT:    graph.pad %x, %p, %v {mode = "edge"} :
func.func @ok(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>, %a: tensor<2x4xf32>, %b: tensor<4x3xf32>, %p: tensor<8xi64>, %v: tensor<f32>) {
  %0 = graph.conv %x, %w {activation = "relu"} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %1 = graph.gemm %a, %b {activation = "clip", activation_params = array<f32: 0.0, 6.0>} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %2 = graph.matmul %a, %b : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %3 = graph.pad %x, %p, %v {mode = "edge"} : (tensor<1x2x4x4xf32>, tensor<8xi64>, tensor<f32>) -> tensor<?x?x?x?xf32>
  func.return
}

// Verifier rules of the fused activation (known names, parameter counts) and graph.pad.
// RUN: infer-opt %s --split-input-file --verify-diagnostics | filecheck %s
func.func @unknown(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'graph.matmul' unknown activation "swish"}}
  %0 = graph.matmul %a, %b {activation = "swish"} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  func.return
}
// CHECK: 'graph.matmul' unknown activation "swish" (known: relu, clip,

// -----

func.func @param_count(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'graph.gemm' activation "leaky_relu" takes 1 params, got 2}}
  %0 = graph.gemm %a, %b {activation = "leaky_relu", activation_params = array<f32: 0.1, 0.2>} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  func.return
}
// CHECK: 'graph.gemm' activation "leaky_relu" takes 1 params, got 2

// -----

func.func @params_alone(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) {
  // expected-error @+1 {{'graph.conv' has activation_params but no activation}}
  %0 = graph.conv %x, %w {activation_params = array<f32: 1.0>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  func.return
}
// CHECK: 'graph.conv' has activation_params but no activation

// -----

func.func @pad_mode(%x: tensor<4xf32>, %p: tensor<2xi64>, %v: tensor<f32>) {
  // expected-error @+1 {{'graph.pad' mode must be constant, reflect, edge or wrap}}
  %0 = graph.pad %x, %p, %v {mode = "mirror"} : (tensor<4xf32>, tensor<2xi64>, tensor<f32>) -> tensor<?xf32>
  func.return
}
// CHECK: 'graph.pad' mode must be constant, reflect, edge or wrap

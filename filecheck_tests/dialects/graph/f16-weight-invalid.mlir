// An op's F16_WEIGHT operand (graph.conv's W here) may hold f16 when the op computes in
// f32 (store-weights-f16 makes such weights); no other operand may, nor may it of others.
// RUN: infer-opt %s --split-input-file --verify-diagnostics | filecheck %s
func.func @half_bias(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x1x1xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'graph.conv' operands have different element types: f32 and f16}}
  %y = graph.conv %x, %w, %b : (tensor<1x2x5x5xf32>, tensor<4x2x1x1xf32>, tensor<4xf16>) -> tensor<1x4x5x5xf32>
  func.return
}
// CHECK: 'graph.conv' operands have different element types: f32 and f16

// -----
func.func @half_weight_of_f64(%x: tensor<1x2x5x5xf64>, %w: tensor<4x2x1x1xf16>) {
  // expected-error @+1 {{'graph.conv' operands have different element types: f64 and f16}}
  %y = graph.conv %x, %w : (tensor<1x2x5x5xf64>, tensor<4x2x1x1xf16>) -> tensor<1x4x5x5xf64>
  func.return
}
// CHECK: 'graph.conv' operands have different element types: f64 and f16

// -----
func.func @half_matmul_input(%a: tensor<2x5xf16>, %p: tensor<1x5x16xf32>) {
  // expected-error @+1 {{'graph.matmul_packed' operands have different element types: f16 and f32}}
  %y = graph.matmul_packed %a, %p {n = 10 : i64} : (tensor<2x5xf16>, tensor<1x5x16xf32>) -> tensor<2x10xf16>
  func.return
}
// CHECK: 'graph.matmul_packed' operands have different element types: f16 and f32

// One case per verifier rule of shape.of (and of graph ops typed from a shape.of).
// RUN: infer-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @dims_vs_rank(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{'shape.of' map has 3 dims and 0 symbols, expected 2 dims (the input's rank) and no symbols}}
  %s = shape.of %x {map = affine_map<(d0, d1, d2) -> (d0)>} : tensor<?x3xf32> -> tensor<1xi64>
  func.return
}
// CHECK: 'shape.of' map has 3 dims and 0 symbols, expected 2 dims (the input's rank) and no symbols

// -----

func.func @symbols(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{'shape.of' map has 2 dims and 1 symbols, expected 2 dims (the input's rank) and no symbols}}
  %s = shape.of %x {map = affine_map<(d0, d1)[s0] -> (d0 + s0)>} : tensor<?x3xf32> -> tensor<1xi64>
  func.return
}
// CHECK: 'shape.of' map has 2 dims and 1 symbols, expected 2 dims (the input's rank) and no symbols

// -----

func.func @results_vs_length(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{'shape.of' map has 2 results but the result type is tensor<3xi64>}}
  %s = shape.of %x {map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<?x3xf32> -> tensor<3xi64>
  func.return
}
// CHECK: 'shape.of' map has 2 results but the result type is tensor<3xi64>

// -----

func.func @scalar_needs_one_result(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{'shape.of' map has 2 results but the result type is tensor<i64>}}
  %s = shape.of %x {map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<?x3xf32> -> tensor<i64>
  func.return
}
// CHECK: 'shape.of' map has 2 results but the result type is tensor<i64>

// -----

func.func @rank_two_result(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{'shape.of' map has 2 results but the result type is tensor<1x2xi64>}}
  %s = shape.of %x {map = affine_map<(d0, d1) -> (d0, d1)>} : tensor<?x3xf32> -> tensor<1x2xi64>
  func.return
}
// CHECK: 'shape.of' map has 2 results but the result type is tensor<1x2xi64>

// -----

func.func @float_result(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{'shape.of' result must hold i32 or i64, got f32}}
  %s = shape.of %x {map = affine_map<(d0, d1) -> (d0)>} : tensor<?x3xf32> -> tensor<1xf32>
  func.return
}
// CHECK: 'shape.of' result must hold i32 or i64, got f32

// -----

func.func @nonpositive_divisor(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{'shape.of' divides by a non-positive constant in (d0 floordiv -2)}}
  %s = shape.of %x {map = affine_map<(d0, d1) -> (d0 floordiv -2)>} : tensor<?x3xf32> -> tensor<1xi64>
  func.return
}
// CHECK: 'shape.of' divides by a non-positive constant in (d0 floordiv -2)

// -----

func.func @reshape_from_map(%x: tensor<?x116x28x28xf32>) {
  // expected-error @+2 {{'graph.reshape' result #0 has type tensor<?x4x29x28x28xf32>, but its operands give tensor<?x2x58x28x28xf32>}}
  %s = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0, 2, d1 floordiv 2, d2, d3)>} : tensor<?x116x28x28xf32> -> tensor<5xi64>
  %r = graph.reshape %x, %s : (tensor<?x116x28x28xf32>, tensor<5xi64>) -> tensor<?x4x29x28x28xf32>
  func.return
}
// CHECK: 'graph.reshape' result #0 has type tensor<?x4x29x28x28xf32>, but its operands give tensor<?x2x58x28x28xf32>

// -----

func.func @channel_shuffle_groups(%x: tensor<?x6x2x2xf32>) {
  // expected-error @+1 {{'graph.channel_shuffle': 6 channels do not split into 4 groups}}
  %y = graph.channel_shuffle %x {groups = 4 : i64} : (tensor<?x6x2x2xf32>) -> tensor<?x6x2x2xf32>
  func.return
}
// CHECK: 'graph.channel_shuffle': 6 channels do not split into 4 groups

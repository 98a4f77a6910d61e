// One case per verifier rule of the graph dialect. --verify-diagnostics matches each
// `expected-error` against the error produced at its line (as mlir-opt does) and prints the
// diagnostic, which FileCheck checks too.
// RUN: infer-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @dtype_mismatch(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{'graph.add' operands have different element types: f32 and i32}}
  %0 = graph.add %a, %b : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  func.return
}
// CHECK: 'graph.add' operands have different element types: f32 and i32

// -----

func.func @broadcast_mismatch(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.mul': shapes [2, 3] and [4] do not broadcast}}
  %0 = graph.mul %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return
}
// CHECK: 'graph.mul': shapes [2, 3] and [4] do not broadcast

// -----

func.func @wrong_result_type(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.relu' result #0 has type tensor<2x4xf32>, but its operands give tensor<2x3xf32>}}
  %0 = graph.relu %a : (tensor<2x3xf32>) -> tensor<2x4xf32>
  func.return
}
// CHECK: 'graph.relu' result #0 has type tensor<2x4xf32>, but its operands give tensor<2x3xf32>

// -----

func.func @wrong_result_element(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.less' result #0 has type tensor<2x3xf32>, but its operands give tensor<2x3xi1>}}
  %0 = graph.less %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}
// CHECK: 'graph.less' result #0 has type tensor<2x3xf32>, but its operands give tensor<2x3xi1>

// -----

func.func @float_only(%a: tensor<2xi32>) {
  // expected-error @+1 {{'graph.sigmoid' expects a floating-point tensor, got tensor<2xi32>}}
  %0 = graph.sigmoid %a : (tensor<2xi32>) -> tensor<2xi32>
  func.return
}
// CHECK: 'graph.sigmoid' expects a floating-point tensor, got tensor<2xi32>

// -----

func.func @rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv': X [3, 8, 8] and W [4, 3, 3, 3] must have one rank >= 3}}
  %0 = graph.conv %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<4x6x6xf32>
  func.return
}
// CHECK: 'graph.conv': X [3, 8, 8] and W [4, 3, 3, 3] must have one rank >= 3

// -----

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv': input channels 3 != 2 x group 1}}
  %0 = graph.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}
// CHECK: 'graph.conv': input channels 3 != 2 x group 1

// -----

func.func @conv_strides(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv': strides, dilations and kernel dims must be >= 1, pads >= 0}}
  %0 = graph.conv %x, %w {strides = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}
// CHECK: 'graph.conv': strides, dilations and kernel dims must be >= 1, pads >= 0

// -----

func.func @conv_pads_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv': strides/dilations/pads/kernel_shape do not match 2 spatial dims}}
  %0 = graph.conv %x, %w {pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}
// CHECK: 'graph.conv': strides/dilations/pads/kernel_shape do not match 2 spatial dims

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'graph.conv': bias [5] must be [4]}}
  %0 = graph.conv %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x4x6x6xf32>
  func.return
}
// CHECK: 'graph.conv': bias [5] must be [4]

// -----

func.func @pool_window(%x: tensor<1x3x2x2xf32>) {
  // expected-error @+1 {{'graph.max_pool': window of 3 (dilation 1) does not fit input length 2}}
  %0 = graph.max_pool %x {kernel_shape = array<i64: 3, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32>
  func.return
}
// CHECK: 'graph.max_pool': window of 3 (dilation 1) does not fit input length 2

// -----

func.func @matmul_contraction(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'graph.matmul': contraction dims differ: [2, 3] x [4, 5]}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return
}
// CHECK: 'graph.matmul': contraction dims differ: [2, 3] x [4, 5]

// -----

func.func @gemm_rank(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'graph.gemm': A and B must be 2-D, got [2, 3, 4], [4, 5]}}
  %0 = graph.gemm %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return
}
// CHECK: 'graph.gemm': A and B must be 2-D, got [2, 3, 4], [4, 5]

// -----

func.func @batch_norm_params(%x: tensor<1x3x4x4xf32>, %p: tensor<4xf32>) {
  // expected-error @+1 {{'graph.batch_normalization': parameter [4] must be [3]}}
  %0 = graph.batch_normalization %x, %p, %p, %p, %p : (tensor<1x3x4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x3x4x4xf32>
  func.return
}
// CHECK: 'graph.batch_normalization': parameter [4] must be [3]

// -----

func.func @lrn_size(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'graph.lrn' size must be >= 1}}
  %0 = graph.lrn %x {size = 0 : i64} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return
}
// CHECK: 'graph.lrn' size must be >= 1

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.softmax': axis 2 is out of range for rank 2}}
  %0 = graph.softmax %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}
// CHECK: 'graph.softmax': axis 2 is out of range for rank 2

// -----

func.func @reduce_axis(%x: tensor<2x3xf32>) {
  %axes = graph.constant dense<5> : tensor<1xi64>
  // expected-error @+1 {{'graph.reduce_sum': axis 5 is out of range for rank 2}}
  %0 = graph.reduce_sum %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  func.return
}
// CHECK: 'graph.reduce_sum': axis 5 is out of range for rank 2

// -----

func.func @reshape_shape_type(%x: tensor<2x3xf32>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'graph.reshape' shape must be a 1-D i64 tensor}}
  %0 = graph.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  func.return
}
// CHECK: 'graph.reshape' shape must be a 1-D i64 tensor

// -----

func.func @reshape_size(%x: tensor<2x3xf32>) {
  %s = graph.constant dense<[4, 2]> : tensor<2xi64>
  // expected-error @+1 {{'graph.reshape': cannot reshape [2, 3] to [4, 2]}}
  %0 = graph.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  func.return
}
// CHECK: 'graph.reshape': cannot reshape [2, 3] to [4, 2]

// -----

func.func @transpose_perm(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.transpose': perm [0, 0] is not a permutation of 2 axes}}
  %0 = graph.transpose %x {perm = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  func.return
}
// CHECK: 'graph.transpose': perm [0, 0] is not a permutation of 2 axes

// -----

func.func @gather_indices(%x: tensor<2x3xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{'graph.gather' indices must be i32 or i64}}
  %0 = graph.gather %x, %i : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return
}
// CHECK: 'graph.gather' indices must be i32 or i64

// -----

func.func @slice_step(%x: tensor<4xf32>) {
  %c = graph.constant dense<0> : tensor<1xi64>
  // expected-error @+1 {{'graph.slice': slice step must not be 0}}
  %0 = graph.slice %x, %c, %c, %c, %c : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<0xf32>
  func.return
}
// CHECK: 'graph.slice': slice step must not be 0

// -----

func.func @concat_types(%a: tensor<2xf32>, %b: tensor<2xf16>) {
  // expected-error @+1 {{'graph.concat' inputs have different element types}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf16>) -> tensor<4xf32>
  func.return
}
// CHECK: 'graph.concat' inputs have different element types

// -----

func.func @concat_dims(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'graph.concat': inputs differ in dim 1: 3 and 4}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  func.return
}
// CHECK: 'graph.concat': inputs differ in dim 1: 3 and 4

// -----

func.func @unsqueeze_dynamic_axes(%x: tensor<2xf32>, %axes: tensor<?xi64>) {
  // expected-error @+1 {{'graph.unsqueeze': axes computed at run time must have a static length}}
  %0 = graph.unsqueeze %x, %axes : (tensor<2xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  func.return
}
// CHECK: 'graph.unsqueeze': axes computed at run time must have a static length

// -----

func.func @squeeze_non_unit(%x: tensor<2x3xf32>) {
  %axes = graph.constant dense<0> : tensor<1xi64>
  // expected-error @+1 {{'graph.squeeze': cannot squeeze axis 0 of size 2}}
  %0 = graph.squeeze %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<3xf32>
  func.return
}
// CHECK: 'graph.squeeze': cannot squeeze axis 0 of size 2

// -----

func.func @split_sizes(%x: tensor<6xf32>) {
  %s = graph.constant dense<[1, 2, 3]> : tensor<3xi64>
  // expected-error @+1 {{'graph.split': split has 3 sizes for 2 outputs}}
  %0, %1 = graph.split %x, %s {num_outputs = 2 : i64} : (tensor<6xf32>, tensor<3xi64>) -> (tensor<1xf32>, tensor<2xf32>)
  func.return
}
// CHECK: 'graph.split': split has 3 sizes for 2 outputs

// -----

func.func @split_results(%x: tensor<6xf32>) {
  // expected-error @+1 {{'graph.split' has 2 results, expected 3}}
  %0, %1 = graph.split %x {num_outputs = 3 : i64} : (tensor<6xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}
// CHECK: 'graph.split' has 2 results, expected 3

// -----

func.func @where_condition(%c: tensor<2xf32>, %a: tensor<2xf32>) {
  // expected-error @+1 {{'graph.where' condition must be a bool (i1) tensor}}
  %0 = graph.where %c, %a, %a : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return
}
// CHECK: 'graph.where' condition must be a bool (i1) tensor

// -----

func.func @clip_bounds(%x: tensor<4xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'graph.clip' bounds must be scalars, got tensor<2xf32>}}
  %0 = graph.clip %x, %b, %b : (tensor<4xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'graph.clip' bounds must be scalars, got tensor<2xf32>

// -----

func.func @constant_type() {
  // expected-error @+1 {{'graph.constant' value type tensor<2xi64> differs from result type tensor<3xi64>}}
  %0 = "graph.constant"() <{value = dense<[1, 2]> : tensor<2xi64>}> : () -> tensor<3xi64>
  func.return
}
// CHECK: 'graph.constant' value type tensor<2xi64> differs from result type tensor<3xi64>

// -----

func.func @constant_dynamic() {
  // expected-error @+1 {{'graph.constant' needs a static tensor type, got tensor<?xf32>}}
  %0 = graph.constant elided<"abc"> : tensor<?xf32>
  func.return
}
// CHECK: 'graph.constant' needs a static tensor type, got tensor<?xf32>

// -----

func.func @operand_count(%x: tensor<2xf32>) {
  // expected-error @+1 {{Expected 2 operands, but got 1}}
  %0 = "graph.add"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}
// CHECK: Expected 2 operands, but got 1

// -----

func.func @cast_to(%x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.cast' to must be an integer or float type, got 3 : i64}}
  %0 = "graph.cast"(%x) <{to = 3 : i64}> : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}
// CHECK: 'graph.cast' to must be an integer or float type, got 3 : i64

// -----

func.func @gelu_approximate(%x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.gelu' approximate must be "none" or "tanh"}}
  %0 = graph.gelu %x {approximate = "fast"} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}
// CHECK: 'graph.gelu' approximate must be "none" or "tanh"

// -----

func.func @constant_of_shape_value(%s: tensor<2xi64>) {
  // expected-error @+1 {{'graph.constant_of_shape' value must have one element}}
  %0 = graph.constant_of_shape %s {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  func.return
}
// CHECK: 'graph.constant_of_shape' value must have one element

// -----

func.func @split_sum(%x: tensor<6xf32>) {
  %s = graph.constant dense<[1, 2]> : tensor<2xi64>
  // expected-error @+1 {{'graph.split': split sizes [1, 2] do not add up to dim 6}}
  %0, %1 = graph.split %x, %s {num_outputs = 2 : i64} : (tensor<6xf32>, tensor<2xi64>) -> (tensor<1xf32>, tensor<2xf32>)
  func.return
}
// CHECK: 'graph.split': split sizes [1, 2] do not add up to dim 6

// -----

func.func @unsqueeze_without_axes(%x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.unsqueeze': needs its axes as an operand}}
  %0 = graph.unsqueeze %x : (tensor<2xf32>) -> tensor<1x2xf32>
  func.return
}
// CHECK: 'graph.unsqueeze': needs its axes as an operand

// -----

func.func @matmul_packed_panels(%a: tensor<3x5xf32>, %w: tensor<2x5x32xf32>) {
  // expected-error @+1 {{'graph.matmul_packed': 2 panels of 32 columns do not hold N = 70}}
  %0 = graph.matmul_packed %a, %w {n = 70 : i64} : (tensor<3x5xf32>, tensor<2x5x32xf32>) -> tensor<3x70xf32>
  func.return
}
// CHECK: 'graph.matmul_packed': 2 panels of 32 columns do not hold N = 70

// -----

func.func @matmul_packed_bias(%a: tensor<3x5xf32>, %w: tensor<2x5x32xf32>, %c: tensor<37xf32>) {
  // expected-error @+1 {{'graph.matmul_packed': bias [37] must be [64]}}
  %0 = graph.matmul_packed %a, %w, %c {n = 37 : i64} : (tensor<3x5xf32>, tensor<2x5x32xf32>, tensor<37xf32>) -> tensor<3x37xf32>
  func.return
}
// CHECK: 'graph.matmul_packed': bias [37] must be [64]

// -----

func.func @matmul_packed_tile(%a: tensor<3x5xf32>, %w: tensor<2x5x32xf32>) {
  // expected-error @+1 {{'graph.matmul_packed' tile must be array<i64> of 2 positive sizes, got array<i64: 6, 0>}}
  %0 = graph.matmul_packed %a, %w {n = 37 : i64, tile = array<i64: 6, 0>} : (tensor<3x5xf32>, tensor<2x5x32xf32>) -> tensor<3x37xf32>
  func.return
}
// CHECK: 'graph.matmul_packed' tile must be array<i64> of 2 positive sizes, got array<i64: 6, 0>

// -----

func.func @conv_nchwc_tile(%x: tensor<1x2x8x14x8xf32>, %w: tensor<2x2x3x3x8x8xf32>) {
  // expected-error @+1 {{'graph.conv_nchwc' tile must be array<i64: outputs, blocks> of positive sizes, got array<i64: 6>}}
  %0 = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, tile = array<i64: 6>} : (tensor<1x2x8x14x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<1x2x8x14x8xf32>
  func.return
}
// CHECK: 'graph.conv_nchwc' tile must be array<i64: outputs, blocks> of positive sizes, got array<i64: 6>

// -----

func.func @conv_nchwc_row_tiles_cover(%x: tensor<1x2x8x14x8xf32>, %w: tensor<2x2x3x3x8x8xf32>) {
  // expected-error @+1 {{'graph.conv_nchwc' row_tiles covers 12 outputs of a row of 14, got array<i64: 6, 2, 0>}}
  %0 = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, row_tiles = array<i64: 6, 2, 0>} : (tensor<1x2x8x14x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<1x2x8x14x8xf32>
  func.return
}
// CHECK: 'graph.conv_nchwc' row_tiles covers 12 outputs of a row of 14, got array<i64: 6, 2, 0>

// -----

func.func @conv_nchwc_flat_rows_3x3(%x: tensor<1x2x8x14x8xf32>, %w: tensor<2x2x3x3x8x8xf32>) {
  // expected-error @+1 {{'graph.conv_nchwc' flat_rows needs a pointwise conv (kernel 1, strides 1, no padding) of blocked input with static spatial dims}}
  %0 = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, flat_rows} : (tensor<1x2x8x14x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<1x2x8x14x8xf32>
  func.return
}
// CHECK: 'graph.conv_nchwc' flat_rows needs a pointwise conv (kernel 1, strides 1, no padding) of blocked input with static spatial dims

// -----

func.func @conv_nchwc_row_tiles_kind(%x: tensor<1x2x8x14x8xf32>, %w: tensor<2x2x3x3x8x8xf32>) {
  // expected-error @+1 {{'graph.conv_nchwc' row_tiles has an edge run of several tiles or single outputs of size > 1, got array<i64: 7, 2, 1>}}
  %0 = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, row_tiles = array<i64: 7, 2, 1>} : (tensor<1x2x8x14x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<1x2x8x14x8xf32>
  func.return
}
// CHECK: 'graph.conv_nchwc' row_tiles has an edge run of several tiles or single outputs of size > 1, got array<i64: 7, 2, 1>

// -----

func.func @conv_nchwc_row_tiles_dynamic(%x: tensor<1x2x8x?x8xf32>, %w: tensor<2x2x3x3x8x8xf32>) {
  // expected-error @+1 {{'graph.conv_nchwc' row_tiles needs a static row, got array<i64: 1, 14, 2>}}
  %0 = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, row_tiles = array<i64: 1, 14, 2>} : (tensor<1x2x8x?x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<1x2x8x?x8xf32>
  func.return
}
// CHECK: 'graph.conv_nchwc' row_tiles needs a static row, got array<i64: 1, 14, 2>

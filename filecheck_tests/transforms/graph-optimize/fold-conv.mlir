// Convs and pools on constants fold at level 1 (numpy im2col forms in
// dialects/graph/evaluate.py), with the bias and the fused activation applied.
// RUN: infer-opt %s -p 'graph-optimize{level=1}' | filecheck %s
// RUN: infer-opt %s -p constant-folding | filecheck %s

// 2x2 windows of 1..9 sum to 12, 16, 24, 28; the bias -20 and relu give 0, 0, 4, 8.
// CHECK-LABEL: func.func @conv_of_constants
// CHECK-NEXT:    %c = graph.constant dense<{{\[\[\[\[}}0.000000e+00, 0.000000e+00], [4.000000e+00, 8.000000e+00]]]]> : tensor<1x1x2x2xf32>
// CHECK-NEXT:    %y = graph.add %x, %c
// CHECK-NOT:     graph.conv
func.func @conv_of_constants(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %i = graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %w = graph.constant dense<1.0> : tensor<1x1x2x2xf32>
  %b = graph.constant dense<[-20.0]> : tensor<1xf32>
  %c = graph.conv %i, %w, %b {activation = "relu"} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32>
  %y = graph.add %x, %c : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  func.return %y : tensor<1x1x2x2xf32>
}

// A max pool with begin padding (never the max: windows {1}, {2, 3}, {4, 7}, {5, 6, 8, 9}
// give 1, 3, 7, 9), then a global average pool (5), on a constant.
// CHECK-LABEL: func.func @pools_of_constants
// CHECK-NEXT:    %g = graph.constant dense<5.000000e+00> : tensor<1x1x1x1xf32>
// CHECK-NEXT:    graph.mul %x, %g
func.func @pools_of_constants(%x: tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %i = graph.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>
  %p = graph.max_pool %i {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  %g = graph.global_average_pool %p : (tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32>
  %y = graph.mul %x, %g : (tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  func.return %y : tensor<1x1x1x1xf32>
}

// Not every operand constant: the conv stays.
// CHECK-LABEL: func.func @conv_of_an_argument
// CHECK:         graph.conv %x, %w
func.func @conv_of_an_argument(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  %w = graph.constant dense<1.0> : tensor<1x1x2x2xf32>
  %c = graph.conv %x, %w : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  func.return %c : tensor<1x1x2x2xf32>
}

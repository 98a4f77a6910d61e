// RUN: infer-opt %s -p "nchwc-layout{block=8}" | filecheck %s

// Between blocked convs, activations, residual adds and pools stay blocked: one reorder in
// at the start of the region, one out at its end (to_nchwc(from_nchwc(x)) cancels).
// CHECK-LABEL: func.func @residual_block
// CHECK:         %x_nchwc = graph.to_nchwc %x
// CHECK-NOT:     graph.from_nchwc
// CHECK:         %a_nchwc = graph.conv_nchwc %x_nchwc
// CHECK-NEXT:    %r_nchwc = graph.relu %a_nchwc : (tensor<1x2x8x8x8xf32>) -> tensor<1x2x8x8x8xf32>
// CHECK-NOT:     graph.from_nchwc
// CHECK:         %c_nchwc = graph.conv_nchwc %r_nchwc
// CHECK-NEXT:    %s_nchwc = graph.add %c_nchwc, %x_nchwc : (tensor<1x2x8x8x8xf32>, tensor<1x2x8x8x8xf32>) -> tensor<1x2x8x8x8xf32>
// CHECK:         %t_nchwc = graph.clip %s_nchwc, %lo, %hi
// CHECK-NEXT:    %p_nchwc = graph.max_pool_nchwc %t_nchwc {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8x8xf32>) -> tensor<1x2x4x4x8xf32>
// CHECK-NEXT:    %{{.*}} = graph.constant dense<[2, 3]> : tensor<2xi64>
// CHECK-NEXT:    %g_nchwc = graph.reduce_mean %p_nchwc, %{{.*}} : (tensor<1x2x4x4x8xf32>, tensor<2xi64>) -> tensor<1x2x1x1x8xf32>
// CHECK-NEXT:    %g = graph.from_nchwc %g_nchwc : (tensor<1x2x1x1x8xf32>) -> tensor<1x16x1x1xf32>
// CHECK-NEXT:    %f = graph.flatten %g
func.func @residual_block(%x: tensor<1x16x8x8xf32>) -> tensor<1x16xf32> {
  %w = graph.constant dense<0.5> : tensor<16x16x3x3xf32>
  %a = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %r = graph.relu %a : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c = graph.conv %r, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %s = graph.add %c, %x : (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %lo = graph.constant dense<0.0> : tensor<f32>
  %hi = graph.constant dense<6.0> : tensor<f32>
  %t = graph.clip %s, %lo, %hi : (tensor<1x16x8x8xf32>, tensor<f32>, tensor<f32>) -> tensor<1x16x8x8xf32>
  %p = graph.max_pool %t {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x8x8xf32>) -> tensor<1x16x4x4xf32>
  %g = graph.global_average_pool %p : (tensor<1x16x4x4xf32>) -> tensor<1x16x1x1xf32>
  %f = graph.flatten %g : (tensor<1x16x1x1xf32>) -> tensor<1x16xf32>
  func.return %f : tensor<1x16xf32>
}

// Channel concats of whole blocks concatenate blocks; a BatchNormalization becomes a
// blocked per-channel Mul and Add; per-channel constants are packed [1, C/8, 1, 1, 8].
// CHECK-LABEL: func.func @densenet_like
// CHECK:         %cat_nchwc = graph.concat %x_nchwc, %a_nchwc {axis = 1 : i64} : (tensor<?x2x4x4x8xf32>, tensor<?x1x4x4x8xf32>) -> tensor<?x3x4x4x8xf32>
// CHECK:         graph.mul %cat_nchwc, %{{.*}} : (tensor<?x3x4x4x8xf32>, tensor<1x3x1x1x8xf32>) -> tensor<?x3x4x4x8xf32>
// CHECK:         %bn_nchwc = graph.add %{{.*}}, %{{.*}} : (tensor<?x3x4x4x8xf32>, tensor<1x3x1x1x8xf32>) -> tensor<?x3x4x4x8xf32>
// CHECK:         %m_nchwc = graph.mul %bn_nchwc, %{{.*}} : (tensor<?x3x4x4x8xf32>, tensor<1x3x1x1x8xf32>) -> tensor<?x3x4x4x8xf32>
// CHECK:         %h_nchwc = graph.mul %m_nchwc, %half : (tensor<?x3x4x4x8xf32>, tensor<f32>) -> tensor<?x3x4x4x8xf32>
// CHECK:         graph.conv_nchwc %h_nchwc
// CHECK-NOT:     graph.batch_normalization
// CHECK-NOT:     graph.to_nchwc
func.func @densenet_like(%x: tensor<?x16x4x4xf32>) -> tensor<?x8x4x4xf32> {
  %w = graph.constant dense<0.5> : tensor<8x16x1x1xf32>
  %a = graph.conv %x, %w : (tensor<?x16x4x4xf32>, tensor<8x16x1x1xf32>) -> tensor<?x8x4x4xf32>
  %cat = graph.concat %x, %a {axis = 1 : i64} : (tensor<?x16x4x4xf32>, tensor<?x8x4x4xf32>) -> tensor<?x24x4x4xf32>
  %p = graph.constant dense<1.5> : tensor<24xf32>
  %bn = graph.batch_normalization %cat, %p, %p, %p, %p : (tensor<?x24x4x4xf32>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>) -> tensor<?x24x4x4xf32>
  %k = graph.constant dense<2.0> : tensor<24x1x1xf32>
  %m = graph.mul %bn, %k : (tensor<?x24x4x4xf32>, tensor<24x1x1xf32>) -> tensor<?x24x4x4xf32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %h = graph.mul %m, %half : (tensor<?x24x4x4xf32>, tensor<f32>) -> tensor<?x24x4x4xf32>
  %w2 = graph.constant dense<0.5> : tensor<8x24x1x1xf32>
  %y = graph.conv %h, %w2 : (tensor<?x24x4x4xf32>, tensor<8x24x1x1xf32>) -> tensor<?x8x4x4xf32>
  func.return %y : tensor<?x8x4x4xf32>
}

// An op that broadcasts the blocked operand, or that has no blocked form (LRN), reads NCHW.
// CHECK-LABEL: func.func @boundaries
// CHECK:         %a = graph.from_nchwc %a_nchwc
// CHECK-NEXT:    %b = graph.add %a, %row : (tensor<1x16x4x4xf32>, tensor<1x16x1x4xf32>) -> tensor<1x16x4x4xf32>
// CHECK-NEXT:    %l = graph.lrn %a
func.func @boundaries(%x: tensor<1x16x4x4xf32>, %row: tensor<1x16x1x4xf32>) -> (tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) {
  %w = graph.constant dense<0.5> : tensor<16x16x1x1xf32>
  %a = graph.conv %x, %w : (tensor<1x16x4x4xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x4x4xf32>
  %b = graph.add %a, %row : (tensor<1x16x4x4xf32>, tensor<1x16x1x4xf32>) -> tensor<1x16x4x4xf32>
  %l = graph.lrn %a {size = 3 : i64} : (tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  func.return %b, %l : tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>
}

// A slice of spatial axes only (negative axes counted from NCHW's rank) is the same slice
// of the blocked tensor: the subsampled input of a strided 1x1 conv stays blocked. A slice
// of channels does not.
// CHECK-LABEL: func.func @spatial_slice
// CHECK:         %a_nchwc = graph.conv_nchwc
// CHECK:         %[[AXES:.*]] = graph.constant dense<[2, 3]> : tensor<2xi64>
// CHECK-NEXT:    %s_nchwc = graph.slice %a_nchwc, %starts, %ends, %[[AXES]], %steps : (tensor<1x2x8x8x8xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2x4x4x8xf32>
// CHECK-NOT:     graph.from_nchwc
// CHECK:         %c_nchwc = graph.conv_nchwc %s_nchwc
// CHECK:         %c = graph.from_nchwc %c_nchwc
// CHECK:         %k = graph.slice %c, %starts, %ends, %channel
func.func @spatial_slice(%x: tensor<1x16x8x8xf32>) -> tensor<1x4x4x2xf32> {
  %w = graph.constant dense<0.5> : tensor<16x16x3x3xf32>
  %w1 = graph.constant dense<0.5> : tensor<16x16x1x1xf32>
  %a = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %starts = graph.constant dense<0> : tensor<2xi64>
  %ends = graph.constant dense<8> : tensor<2xi64>
  %axes = graph.constant dense<[-2, -1]> : tensor<2xi64>
  %steps = graph.constant dense<2> : tensor<2xi64>
  %s = graph.slice %a, %starts, %ends, %axes, %steps : (tensor<1x16x8x8xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x16x4x4xf32>
  %c = graph.conv %s, %w1 : (tensor<1x16x4x4xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x4x4xf32>
  %channel = graph.constant dense<[1, 3]> : tensor<2xi64>
  %k = graph.slice %c, %starts, %ends, %channel, %steps : (tensor<1x16x4x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x4x4x2xf32>
  func.return %k : tensor<1x4x4x2xf32>
}

// RUN: infer-opt %s -p graph-fuse | filecheck %s

// BN(conv(x, W, B)) = conv(x, W * a, (B - mean) * a + beta), a = scale / sqrt(var + eps):
// here a = [1, 2], so W's second channel doubles and B = [(1-1)*1+0.5, (2-1)*2+0.5].
// CHECK-LABEL: func.func @conv_bn
// CHECK-NEXT:    %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}2.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-NEXT:    %[[B:.*]] = graph.constant dense<[5.000000e-01, 2.500000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %{{.*}} = graph.conv %x, %[[W]], %[[B]] : (tensor<?x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<?x2x4x4xf32>
// CHECK-NOT:     graph.batch_normalization
func.func @conv_bn(%x: tensor<?x1x4x4xf32>) -> tensor<?x2x4x4xf32> {
  %w = graph.constant dense<1.0> : tensor<2x1x1x1xf32>
  %b = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %s = graph.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %beta = graph.constant dense<0.5> : tensor<2xf32>
  %mean = graph.constant dense<1.0> : tensor<2xf32>
  %var = graph.constant dense<[0.0, 3.0]> : tensor<2xf32>
  %c = graph.conv %x, %w, %b : (tensor<?x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<?x2x4x4xf32>
  %y = graph.batch_normalization %c, %s, %beta, %mean, %var {epsilon = 1.0 : f32} : (tensor<?x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<?x2x4x4xf32>
  func.return %y : tensor<?x2x4x4xf32>
}

// The conv's result is also returned: folding would change it, so nothing happens.
// CHECK-LABEL: func.func @conv_two_users
// CHECK:         graph.conv
// CHECK:         graph.batch_normalization
func.func @conv_two_users(%x: tensor<1x1x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = graph.constant dense<1.0> : tensor<2x1x1x1xf32>
  %p = graph.constant dense<1.0> : tensor<2xf32>
  %c = graph.conv %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = graph.batch_normalization %c, %p, %p, %p, %p : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  func.return %c, %y : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// Weights that are not constants (a function argument) cannot be folded.
// CHECK-LABEL: func.func @weights_not_constant
// CHECK:         graph.batch_normalization
func.func @weights_not_constant(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %p = graph.constant dense<1.0> : tensor<2xf32>
  %c = graph.conv %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = graph.batch_normalization %c, %p, %p, %p, %p : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  func.return %y : tensor<1x2x4x4xf32>
}

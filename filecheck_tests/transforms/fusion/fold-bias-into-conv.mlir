// RUN: infer-opt %s -p graph-fuse | filecheck %s

// conv(x, W) + c = conv(x, W, c) for c per output channel; a missing bias is 0.
// CHECK-LABEL: func.func @conv_add
// CHECK:         %[[B:.*]] = graph.constant dense<[5.000000e-01, 1.500000e+00]> : tensor<2xf32>
// CHECK-NEXT:    graph.conv %x, %{{.*}}, %[[B]]
// CHECK-NOT:     graph.add
func.func @conv_add(%x: tensor<?x1x4x4xf32>) -> tensor<?x2x4x4xf32> {
  %w = graph.constant dense<1.0> : tensor<2x1x1x1xf32>
  %c0 = graph.constant dense<[[[[0.5]], [[1.5]]]]> : tensor<1x2x1x1xf32>
  %c = graph.conv %x, %w : (tensor<?x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<?x2x4x4xf32>
  %y = graph.add %c, %c0 : (tensor<?x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<?x2x4x4xf32>
  func.return %y : tensor<?x2x4x4xf32>
}

// conv(x, W, B) - c = conv(x, W, B - c); a scalar c is per channel too.
// CHECK-LABEL: func.func @conv_sub
// CHECK:         %[[B:.*]] = graph.constant dense<[-1.000000e+00, 0.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    graph.conv %x, %{{.*}}, %[[B]]
// CHECK-NOT:     graph.sub
func.func @conv_sub(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<1.0> : tensor<2x1x1x1xf32>
  %b = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c0 = graph.constant dense<2.0> : tensor<f32>
  %c = graph.conv %x, %w, %b : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %y = graph.sub %c, %c0 : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  func.return %y : tensor<1x2x4x4xf32>
}

// c - conv is not a bias (it negates the conv): nothing happens.
// CHECK-LABEL: func.func @sub_from_constant
// CHECK:         graph.sub
func.func @sub_from_constant(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<1.0> : tensor<2x1x1x1xf32>
  %c0 = graph.constant dense<2.0> : tensor<f32>
  %c = graph.conv %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = graph.sub %c0, %c : (tensor<f32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  func.return %y : tensor<1x2x4x4xf32>
}

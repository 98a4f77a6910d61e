// RUN: infer-opt %s -p transformer-fusion | filecheck %s

// PyTorch's LayerNorm at opset < 17: ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div,
// Mul, Add over the last axis → one op holding the scale and bias.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME:    (%x: tensor<?x8x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>)
// The epsilon is the default (1e-5), so it is not printed.
// CHECK-NEXT:    %[[Y:.*]] = graph.layer_normalization %x, %g, %b : (tensor<?x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x8x16xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @layer_norm(%x: tensor<?x8x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<?x8x16xf32> {
  %axes = graph.constant dense<[-1]> : tensor<1xi64>
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-05> : tensor<f32>
  %mean = graph.reduce_mean %x, %axes : (tensor<?x8x16xf32>, tensor<1xi64>) -> tensor<?x8x1xf32>
  %d = graph.sub %x, %mean : (tensor<?x8x16xf32>, tensor<?x8x1xf32>) -> tensor<?x8x16xf32>
  %sq = graph.pow %d, %two : (tensor<?x8x16xf32>, tensor<f32>) -> tensor<?x8x16xf32>
  %var = graph.reduce_mean %sq, %axes : (tensor<?x8x16xf32>, tensor<1xi64>) -> tensor<?x8x1xf32>
  %ve = graph.add %var, %eps : (tensor<?x8x1xf32>, tensor<f32>) -> tensor<?x8x1xf32>
  %std = graph.sqrt %ve : (tensor<?x8x1xf32>) -> tensor<?x8x1xf32>
  %n = graph.div %d, %std : (tensor<?x8x16xf32>, tensor<?x8x1xf32>) -> tensor<?x8x16xf32>
  %s = graph.mul %n, %g : (tensor<?x8x16xf32>, tensor<16xf32>) -> tensor<?x8x16xf32>
  %y = graph.add %s, %b : (tensor<?x8x16xf32>, tensor<16xf32>) -> tensor<?x8x16xf32>
  func.return %y : tensor<?x8x16xf32>
}

// Mul(d, d) for the square, operands commuted, no affine part, two trailing axes: a
// scale of ones is made, and axis = -2.
// CHECK-LABEL: func.func @layer_norm_plain_two_axes
// CHECK-NEXT:    %[[ONE:.*]] = graph.constant dense<1.000000e+00> : tensor<1xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.layer_normalization %x, %[[ONE]] {axis = -2 : i64, epsilon = 1.000000e-03 : f32} : (tensor<2x4x6xf32>, tensor<1xf32>) -> tensor<2x4x6xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @layer_norm_plain_two_axes(%x: tensor<2x4x6xf32>) -> tensor<2x4x6xf32> {
  %axes = graph.constant dense<[1, 2]> : tensor<2xi64>
  %eps = graph.constant dense<1.0e-03> : tensor<1xf32>
  %mean = graph.reduce_mean %x, %axes : (tensor<2x4x6xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  %d = graph.sub %x, %mean : (tensor<2x4x6xf32>, tensor<2x1x1xf32>) -> tensor<2x4x6xf32>
  %sq = graph.mul %d, %d : (tensor<2x4x6xf32>, tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %var = graph.reduce_mean %sq, %axes : (tensor<2x4x6xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  %ve = graph.add %eps, %var : (tensor<1xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %std = graph.sqrt %ve : (tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %y = graph.div %d, %std : (tensor<2x4x6xf32>, tensor<2x1x1xf32>) -> tensor<2x4x6xf32>
  func.return %y : tensor<2x4x6xf32>
}

// Not a LayerNorm: the mean is over a leading axis (a normalization over axis 1 that is not
// trailing), and in the second function the mean is also returned (fusing would compute it
// twice).
// CHECK-LABEL: func.func @not_trailing_axis
// CHECK-NOT:     graph.layer_normalization
// CHECK:         graph.div
func.func @not_trailing_axis(%x: tensor<2x4x6xf32>) -> tensor<2x4x6xf32> {
  %axes = graph.constant dense<[1]> : tensor<1xi64>
  %eps = graph.constant dense<1.0e-05> : tensor<f32>
  %mean = graph.reduce_mean %x, %axes : (tensor<2x4x6xf32>, tensor<1xi64>) -> tensor<2x1x6xf32>
  %d = graph.sub %x, %mean : (tensor<2x4x6xf32>, tensor<2x1x6xf32>) -> tensor<2x4x6xf32>
  %sq = graph.mul %d, %d : (tensor<2x4x6xf32>, tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %var = graph.reduce_mean %sq, %axes : (tensor<2x4x6xf32>, tensor<1xi64>) -> tensor<2x1x6xf32>
  %ve = graph.add %var, %eps : (tensor<2x1x6xf32>, tensor<f32>) -> tensor<2x1x6xf32>
  %std = graph.sqrt %ve : (tensor<2x1x6xf32>) -> tensor<2x1x6xf32>
  %y = graph.div %d, %std : (tensor<2x4x6xf32>, tensor<2x1x6xf32>) -> tensor<2x4x6xf32>
  func.return %y : tensor<2x4x6xf32>
}

// CHECK-LABEL: func.func @mean_used_outside
// CHECK-NOT:     graph.layer_normalization
// CHECK:         func.return
func.func @mean_used_outside(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x1xf32>) {
  %axes = graph.constant dense<[-1]> : tensor<1xi64>
  %two = graph.constant dense<2.0> : tensor<f32>
  %eps = graph.constant dense<1.0e-05> : tensor<f32>
  %mean = graph.reduce_mean %x, %axes : (tensor<4x6xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  %d = graph.sub %x, %mean : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf32>
  %sq = graph.pow %d, %two : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  %var = graph.reduce_mean %sq, %axes : (tensor<4x6xf32>, tensor<1xi64>) -> tensor<4x1xf32>
  %ve = graph.add %var, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %std = graph.sqrt %ve : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %y = graph.div %d, %std : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf32>
  func.return %y, %mean : tensor<4x6xf32>, tensor<4x1xf32>
}

// RUN: infer-opt %s -p graph-fuse | filecheck %s

// conv(pad(x, p, 0)) = conv(x; pads += p) when p pads only the spatial dims with zeros.
// CHECK-LABEL: func.func @pad_conv
// CHECK-NOT:     graph.pad
// CHECK:         graph.conv %x, %w {pads = array<i64: 2, 1, 1, 3>} : (tensor<?x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<?x3x6x7xf32>
func.func @pad_conv(%x: tensor<?x2x5x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<?x3x6x7xf32> {
  %p = graph.constant dense<[0, 0, 1, 1, 0, 0, 1, 2]> : tensor<8xi64>
  %v = graph.constant dense<0.0> : tensor<f32>
  %x1 = graph.pad %x, %p, %v : (tensor<?x2x5x5xf32>, tensor<8xi64>, tensor<f32>) -> tensor<?x2x7x8xf32>
  %y = graph.conv %x1, %w {pads = array<i64: 1, 0, 0, 1>} : (tensor<?x2x7x8xf32>, tensor<3x2x3x3xf32>) -> tensor<?x3x6x7xf32>
  func.return %y : tensor<?x3x6x7xf32>
}

// Not folded: a non-zero fill, padded channels, a non-constant mode.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: graph.pad
func.func @kept(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>, %w3: tensor<3x3x3x3xf32>) -> (tensor<1x3x5x5xf32>, tensor<1x3x3x3xf32>, tensor<1x3x5x5xf32>) {
  %p = graph.constant dense<[0, 0, 1, 1, 0, 0, 1, 1]> : tensor<8xi64>
  %pc = graph.constant dense<[0, 1, 0, 0, 0, 0, 0, 0]> : tensor<8xi64>
  %one = graph.constant dense<1.0> : tensor<f32>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %a = graph.pad %x, %p, %one : (tensor<1x2x5x5xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x7x7xf32>
  %y0 = graph.conv %a, %w : (tensor<1x2x7x7xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
  %b = graph.pad %x, %pc, %zero : (tensor<1x2x5x5xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x3x5x5xf32>
  %y1 = graph.conv %b, %w3 : (tensor<1x3x5x5xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %c = graph.pad %x, %p, %zero {mode = "reflect"} : (tensor<1x2x5x5xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x7x7xf32>
  %y2 = graph.conv %c, %w : (tensor<1x2x7x7xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
  func.return %y0, %y1, %y2 : tensor<1x3x5x5xf32>, tensor<1x3x3x3xf32>, tensor<1x3x5x5xf32>
}

// RUN: infer-opt %s -p graph-fuse | filecheck %s

// conv(x; 1x1 kernel, strides s, no pads) = conv(slice(x, steps = s); strides 1): the
// subsampled input copied out first, the conv pointwise.
// CHECK-LABEL: func.func @strided_pointwise
// CHECK-DAG:     %[[STARTS:.*]] = graph.constant dense<0> : tensor<2xi64>
// CHECK-DAG:     %[[ENDS:.*]] = graph.constant dense<9223372036854775807> : tensor<2xi64>
// CHECK-DAG:     %[[AXES:.*]] = graph.constant dense<[2, 3]> : tensor<2xi64>
// CHECK-DAG:     %[[STEPS:.*]] = graph.constant dense<[2, 3]> : tensor<2xi64>
// CHECK:         %[[SUB:.*]] = graph.slice %x, %[[STARTS]], %[[ENDS]], %[[AXES]], %[[STEPS]] : (tensor<?x4x7x9xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x4x4x3xf32>
// CHECK-NEXT:    graph.conv %[[SUB]], %w, %b {activation = "relu"} : (tensor<?x4x4x3xf32>, tensor<8x4x1x1xf32>, tensor<8xf32>) -> tensor<?x8x4x3xf32>
func.func @strided_pointwise(%x: tensor<?x4x7x9xf32>, %w: tensor<8x4x1x1xf32>, %b: tensor<8xf32>) -> tensor<?x8x4x3xf32> {
  %y = graph.conv %x, %w, %b {strides = array<i64: 2, 3>, activation = "relu"} : (tensor<?x4x7x9xf32>, tensor<8x4x1x1xf32>, tensor<8xf32>) -> tensor<?x8x4x3xf32>
  func.return %y : tensor<?x8x4x3xf32>
}

// Kept: a 1x1 conv with pads (it reads zeros around the edge), a 3x3 strided conv, an
// unstrided 1x1 conv.
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     graph.slice
func.func @kept(%x: tensor<1x4x8x8xf32>, %w1: tensor<8x4x1x1xf32>, %w3: tensor<8x4x3x3xf32>) -> (tensor<1x8x5x5xf32>, tensor<1x8x3x3xf32>, tensor<1x8x8x8xf32>) {
  %a = graph.conv %x, %w1 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x5x5xf32>
  %c = graph.conv %x, %w3 {strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x3x3xf32>
  %d = graph.conv %x, %w1 : (tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x8x8xf32>
  func.return %a, %c, %d : tensor<1x8x5x5xf32>, tensor<1x8x3x3xf32>, tensor<1x8x8x8xf32>
}

// RUN: infer-opt %s -p graph-fuse | filecheck %s

// max_pool(pad(x, p, -inf)) = max_pool(x; pads += p).
// CHECK-LABEL: func.func @pad_max_pool
// CHECK-NOT:     graph.pad
// CHECK:         graph.max_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}
func.func @pad_max_pool(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32> {
  %p = graph.constant dense<[0, 0, 1, 1, 0, 0, 1, 1]> : tensor<8xi64>
  %v = graph.constant dense<"0x000080FF"> : tensor<f32>
  %x1 = graph.pad %x, %p, %v : (tensor<1x2x5x5xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x7x7xf32>
  %y = graph.max_pool %x1 {kernel_shape = array<i64: 3, 3>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x5x5xf32>
  func.return %y : tensor<1x2x5x5xf32>
}

// A zero pad before max_pool is not the pool's padding (0 may win the max): kept.
// CHECK-LABEL: func.func @zero_pad_max_pool
// CHECK:         graph.pad
func.func @zero_pad_max_pool(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32> {
  %p = graph.constant dense<[0, 0, 1, 1, 0, 0, 1, 1]> : tensor<8xi64>
  %v = graph.constant dense<0.0> : tensor<f32>
  %x1 = graph.pad %x, %p, %v : (tensor<1x2x5x5xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x7x7xf32>
  %y = graph.max_pool %x1 {kernel_shape = array<i64: 3, 3>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x5x5xf32>
  func.return %y : tensor<1x2x5x5xf32>
}

// average_pool(pad(x, p, 0)) = average_pool(x; pads = p, count_include_pad = 1): the
// padded zeros are counted either way.
// CHECK-LABEL: func.func @pad_average_pool
// CHECK-NOT:     graph.pad
// CHECK:         graph.average_pool %x {kernel_shape = array<i64: 3, 3>, count_include_pad = 1 : i64, pads = array<i64: 1, 0, 2, 1>}
func.func @pad_average_pool(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x6x4xf32> {
  %p = graph.constant dense<[0, 0, 1, 0, 0, 0, 2, 1]> : tensor<8xi64>
  %v = graph.constant dense<0.0> : tensor<f32>
  %x1 = graph.pad %x, %p, %v : (tensor<1x2x5x5xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x8x6xf32>
  %y = graph.average_pool %x1 {kernel_shape = array<i64: 3, 3>} : (tensor<1x2x8x6xf32>) -> tensor<1x2x6x4xf32>
  func.return %y : tensor<1x2x6x4xf32>
}

// The pool's own pads are not counted (count_include_pad = 0) but the pad's would be:
// the two cannot be merged.
// CHECK-LABEL: func.func @mixed_counting
// CHECK:         graph.pad
func.func @mixed_counting(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x7x7xf32> {
  %p = graph.constant dense<[0, 0, 1, 1, 0, 0, 1, 1]> : tensor<8xi64>
  %v = graph.constant dense<0.0> : tensor<f32>
  %x1 = graph.pad %x, %p, %v : (tensor<1x2x5x5xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x7x7xf32>
  %y = graph.average_pool %x1 {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32>
  func.return %y : tensor<1x2x7x7xf32>
}

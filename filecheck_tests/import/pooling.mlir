// Pooling: auto_pad SAME_LOWER resolved (the odd pad goes first), ceil_mode, LRN.

// RUN: infer-opt %inputs/pooling.onnx | filecheck %s

// CHECK:      %max = graph.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT: %avg = graph.average_pool %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>, ceil_mode = 1 : i64, count_include_pad = 1 : i64} : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
// CHECK-NEXT: %gmax = graph.global_max_pool %x : (tensor<1x2x6x6xf32>) -> tensor<1x2x1x1xf32>
// CHECK-NEXT: %lrn = graph.lrn %x {size = 3 : i64} : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>

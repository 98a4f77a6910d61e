// RUN: infer-opt %s -p "nchwc-layout{block=8}" | filecheck %s

// A conv whose channels fill 8-wide blocks runs blocked: its input is reordered in, its
// weights are packed [M/8, C/8, kh, kw, 8, 8] at compile time, its output reordered out.
// CHECK-LABEL: func.func @conv
// CHECK:         %x_nchwc = graph.to_nchwc %x {block = 8 : i64} : (tensor<?x16x8x8xf32>) -> tensor<?x2x8x8x8xf32>
// CHECK-NEXT:    %w_packed = graph.constant elided<{{.*}}> : tensor<4x2x3x3x8x8xf32>
// CHECK-NEXT:    %y_nchwc = graph.conv_nchwc %x_nchwc, %w_packed, %b {pads = array<i64: 1, 1, 1, 1>, activation = "relu"} : (tensor<?x2x8x8x8xf32>, tensor<4x2x3x3x8x8xf32>, tensor<32xf32>) -> tensor<?x4x8x8x8xf32>
// CHECK-NEXT:    %y = graph.from_nchwc %y_nchwc : (tensor<?x4x8x8x8xf32>) -> tensor<?x32x8x8xf32>
// CHECK-NEXT:    func.return %y
func.func @conv(%x: tensor<?x16x8x8xf32>) -> tensor<?x32x8x8xf32> {
  %w = graph.constant dense<0.5> : tensor<32x16x3x3xf32>
  %b = graph.constant dense<0.25> : tensor<32xf32>
  %y = graph.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, activation = "relu"} : (tensor<?x16x8x8xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>) -> tensor<?x32x8x8xf32>
  func.return %y : tensor<?x32x8x8xf32>
}

// A depthwise conv (group = C = M) packs one input channel per group: [C/8, 1, kh, kw, 1, 8].
// It joins the region of a blocked producer ...
// CHECK-LABEL: func.func @depthwise
// CHECK:         %[[P:.*]] = graph.conv_nchwc %x_nchwc
// CHECK-NEXT:    %{{.*}} = graph.constant elided<{{.*}}> : tensor<2x1x3x3x1x8xf32>
// CHECK-NEXT:    graph.conv_nchwc %[[P]], %{{.*}} {group = 16 : i64} : (tensor<1x2x8x8x8xf32>, tensor<2x1x3x3x1x8xf32>) -> tensor<1x2x6x6x8xf32>
func.func @depthwise(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x6x6xf32> {
  %wp = graph.constant dense<0.5> : tensor<16x16x1x1xf32>
  %p = graph.conv %x, %wp : (tensor<1x16x8x8xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x8x8xf32>
  %w = graph.constant dense<0.5> : tensor<16x1x3x3xf32>
  %y = graph.conv %p, %w {group = 16 : i64} : (tensor<1x16x8x8xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x6x6xf32>
  func.return %y : tensor<1x16x6x6xf32>
}

// ... but does not start one: alone, its reorders in and out would cost what it saves.
// CHECK-LABEL: func.func @lone_depthwise
// CHECK-NOT:     nchwc
// CHECK:         func.return
func.func @lone_depthwise(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x6x6xf32> {
  %w = graph.constant dense<0.5> : tensor<16x1x3x3xf32>
  %y = graph.conv %x, %w {group = 16 : i64} : (tensor<1x16x8x8xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x6x6xf32>
  func.return %y : tensor<1x16x6x6xf32>
}

// A group-1 conv with fewer input channels than a block (the 3-channel image stem) reads
// its NCHW input as is: no reorder in, weights packed [M/8, 1, kh, kw, C, 8]. The max pool
// after it then runs blocked, and so does the next conv: no reorder in anywhere.
// CHECK-LABEL: func.func @stem
// CHECK-NOT:     graph.to_nchwc
// CHECK:         %w_packed = graph.constant elided<{{.*}}> : tensor<2x1x7x7x3x8xf32>
// CHECK-NEXT:    %y_nchwc = graph.conv_nchwc %x, %w_packed, %b {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>, activation = "relu"} : (tensor<?x3x32x31xf32>, tensor<2x1x7x7x3x8xf32>, tensor<16xf32>) -> tensor<?x2x16x16x8xf32>
// CHECK-NEXT:    %p_nchwc = graph.max_pool_nchwc %y_nchwc
// CHECK:         graph.conv_nchwc %p_nchwc, %{{.*}} : (tensor<?x2x8x8x8xf32>, tensor<2x2x1x1x8x8xf32>) -> tensor<?x2x8x8x8xf32>
// CHECK-NOT:     graph.to_nchwc
// CHECK:         func.return
func.func @stem(%x: tensor<?x3x32x31xf32>) -> tensor<?x16x8x8xf32> {
  %w = graph.constant dense<0.5> : tensor<16x3x7x7xf32>
  %b = graph.constant dense<0.25> : tensor<16xf32>
  %y = graph.conv %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>, activation = "relu"} : (tensor<?x3x32x31xf32>, tensor<16x3x7x7xf32>, tensor<16xf32>) -> tensor<?x16x16x16xf32>
  %p = graph.max_pool %y {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x16x16x16xf32>) -> tensor<?x16x8x8xf32>
  %w2 = graph.constant dense<0.5> : tensor<16x16x1x1xf32>
  %z = graph.conv %p, %w2 : (tensor<?x16x8x8xf32>, tensor<16x16x1x1xf32>) -> tensor<?x16x8x8xf32>
  func.return %z : tensor<?x16x8x8xf32>
}

// Blocks must be whole otherwise: 12 output channels (also of a 3-channel input), 12
// input channels (more than a block, not a multiple), or a grouped conv with 4 channels
// per group stay NCHW.
// CHECK-LABEL: func.func @not_blocked
// CHECK-NOT:     nchwc
// CHECK:         func.return
func.func @not_blocked(%x: tensor<1x3x8x8xf32>, %x12: tensor<1x12x8x8xf32>, %x16: tensor<1x16x8x8xf32>) -> (tensor<1x12x8x8xf32>, tensor<1x16x8x8xf32>, tensor<1x12x8x8xf32>, tensor<1x16x8x8xf32>) {
  %w3 = graph.constant dense<0.5> : tensor<12x3x1x1xf32>
  %y3 = graph.conv %x, %w3 : (tensor<1x3x8x8xf32>, tensor<12x3x1x1xf32>) -> tensor<1x12x8x8xf32>
  %wi = graph.constant dense<0.5> : tensor<16x12x1x1xf32>
  %yi = graph.conv %x12, %wi : (tensor<1x12x8x8xf32>, tensor<16x12x1x1xf32>) -> tensor<1x16x8x8xf32>
  %w12 = graph.constant dense<0.5> : tensor<12x16x1x1xf32>
  %y12 = graph.conv %x16, %w12 : (tensor<1x16x8x8xf32>, tensor<12x16x1x1xf32>) -> tensor<1x12x8x8xf32>
  %wg = graph.constant dense<0.5> : tensor<16x4x1x1xf32>
  %yg = graph.conv %x16, %wg {group = 4 : i64} : (tensor<1x16x8x8xf32>, tensor<16x4x1x1xf32>) -> tensor<1x16x8x8xf32>
  func.return %y3, %yi, %y12, %yg : tensor<1x12x8x8xf32>, tensor<1x16x8x8xf32>, tensor<1x12x8x8xf32>, tensor<1x16x8x8xf32>
}

// Weights that are not constants cannot be packed at compile time: the conv stays.
// CHECK-LABEL: func.func @runtime_weights
// CHECK-NOT:     nchwc
// CHECK:         func.return
func.func @runtime_weights(%x: tensor<1x16x8x8xf32>, %w: tensor<16x16x1x1xf32>) -> tensor<1x16x8x8xf32> {
  %y = graph.conv %x, %w : (tensor<1x16x8x8xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x8x8xf32>
  func.return %y : tensor<1x16x8x8xf32>
}

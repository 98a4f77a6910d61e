// The vision ops parse, verify, print and round-trip.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @resize(%x: tensor<1x3x4x6xf32>, %scales: tensor<2xf32>, %sizes: tensor<2xi64>, %roi: tensor<4xf32>) {
    %c = "graph.constant"() {value = dense<[2.0, 0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
    %static = graph.resize %x, %c {axes = array<i64: 2, 3>, mode = "linear"} : (tensor<1x3x4x6xf32>, tensor<2xf32>) -> tensor<1x3x8x3xf32>
    %scaled = graph.resize %x, %scales {axes = array<i64: 2, 3>} : (tensor<1x3x4x6xf32>, tensor<2xf32>) -> tensor<1x3x?x?xf32>
    %crop = graph.resize %x, %sizes, %roi {axes = array<i64: 3, 2>, mode = "cubic", coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.000000e+00 : f32} : (tensor<1x3x4x6xf32>, tensor<2xi64>, tensor<4xf32>) -> tensor<1x3x?x?xf32>
    func.return
  }

  func.func @conv_transpose(%x: tensor<1x4x5x6xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<6xf32>) {
    %plain = graph.conv_transpose %x, %w : (tensor<1x4x5x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x3x7x8xf32>
    %strided = graph.conv_transpose %x, %w, %b {strides = array<i64: 2, 3>, pads = array<i64: 1, 0, -1, 2>, group = 2 : i64} : (tensor<1x4x5x6xf32>, tensor<4x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x11x16xf32>
    func.return
  }

  func.func @grid_sample(%x: tensor<2x3x7x9xf32>, %grid: tensor<2x5x6x2xf32>) {
    %linear = graph.grid_sample %x, %grid : (tensor<2x3x7x9xf32>, tensor<2x5x6x2xf32>) -> tensor<2x3x5x6xf32>
    %cubic = graph.grid_sample %x, %grid {mode = "cubic", padding_mode = "reflection", align_corners = 1 : i64} : (tensor<2x3x7x9xf32>, tensor<2x5x6x2xf32>) -> tensor<2x3x5x6xf32>
    func.return
  }

  func.func @lp_pool(%x: tensor<1x3x9x11xf32>) {
    %pool = graph.lp_pool %x {kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 1>, p = 3 : i64} : (tensor<1x3x9x11xf32>) -> tensor<1x3x4x10xf32>
    func.return
  }

  func.func @col2im(%x: tensor<1x6x9xf32>, %image: tensor<2xi64>, %block: tensor<2xi64>) {
    %i = "graph.constant"() {value = dense<[4, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
    %b = "graph.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
    %static = graph.col2im %x, %i, %b : (tensor<1x6x9xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x4x5xf32>
    %dynamic = graph.col2im %x, %image, %block {strides = array<i64: 2, 1>} : (tensor<1x6x9xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x?x?x?xf32>
    func.return
  }

  func.func @max_unpool(%x: tensor<1x2x3x4xf32>, %i: tensor<1x2x3x4xi64>, %shape: tensor<4xi64>) {
    %pooled = graph.max_unpool %x, %i {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xi64>) -> tensor<1x2x6x8xf32>
    %shaped = graph.max_unpool %x, %i, %shape {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xi64>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
    func.return
  }

  func.func @max_roi_pool(%x: tensor<2x3x10x12xf32>, %rois: tensor<?x5xf32>) {
    %y = graph.max_roi_pool %x, %rois {pooled_shape = array<i64: 3, 2>, spatial_scale = 6.250000e-02 : f32} : (tensor<2x3x10x12xf32>, tensor<?x5xf32>) -> tensor<?x3x3x2xf32>
    func.return
  }
  func.func @roi_align(%x: tensor<2x3x10x12xf32>, %rois: tensor<4x4xf32>, %b: tensor<4xi64>) {
    %avg = graph.roi_align %x, %rois, %b {output_height = 3 : i64, output_width = 4 : i64} : (tensor<2x3x10x12xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x3x4xf32>
    %max = graph.roi_align %x, %rois, %b {mode = "max", sampling_ratio = 2 : i64, spatial_scale = 5.000000e-01 : f32} : (tensor<2x3x10x12xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x1x1xf32>
    func.return
  }

  func.func @affine_grid(%theta: tensor<2x2x3xf32>, %size: tensor<4xi64>) {
    %c = "graph.constant"() {value = dense<[2, 3, 5, 7]> : tensor<4xi64>} : () -> tensor<4xi64>
    %static = graph.affine_grid %theta, %c : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x5x7x2xf32>
    %dynamic = graph.affine_grid %theta, %size {align_corners = 1 : i64} : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x?x?x2xf32>
    func.return
  }
  func.func @deform_conv(%x: tensor<?x4x7x7xf32>, %w: tensor<4x2x3x2xf32>, %off: tensor<?x12x4x7xf32>, %b: tensor<4xf32>, %m: tensor<?x6x4x7xf32>) {
    %y = graph.deform_conv %x, %w, %off, %b, %m {pads = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 1>, group = 2 : i64} : (tensor<?x4x7x7xf32>, tensor<4x2x3x2xf32>, tensor<?x12x4x7xf32>, tensor<4xf32>, tensor<?x6x4x7xf32>) -> tensor<?x4x4x7xf32>
    func.return
  }
}

// CHECK-LABEL: func.func @resize
// CHECK:       graph.resize %{{.*}}, %{{.*}} {axes = array<i64: 2, 3>, mode = "linear"} : (tensor<1x3x4x6xf32>, tensor<2xf32>) -> tensor<1x3x8x3xf32>
// CHECK-NEXT:  graph.resize %{{.*}}, %{{.*}} {axes = array<i64: 2, 3>} : (tensor<1x3x4x6xf32>, tensor<2xf32>) -> tensor<1x3x?x?xf32>
// CHECK-NEXT:  graph.resize %{{.*}}, %{{.*}}, %{{.*}} {axes = array<i64: 3, 2>, mode = "cubic", coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.000000e+00 : f32} : (tensor<1x3x4x6xf32>, tensor<2xi64>, tensor<4xf32>) -> tensor<1x3x?x?xf32>

// CHECK-LABEL: func.func @conv_transpose
// CHECK:       graph.conv_transpose %{{.*}}, %{{.*}} : (tensor<1x4x5x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x3x7x8xf32>
// CHECK-NEXT:  graph.conv_transpose %{{.*}}, %{{.*}}, %{{.*}} {strides = array<i64: 2, 3>, pads = array<i64: 1, 0, -1, 2>, group = 2 : i64} : (tensor<1x4x5x6xf32>, tensor<4x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x11x16xf32>

// CHECK-LABEL: func.func @grid_sample
// CHECK:       graph.grid_sample %{{.*}}, %{{.*}} : (tensor<2x3x7x9xf32>, tensor<2x5x6x2xf32>) -> tensor<2x3x5x6xf32>
// CHECK-NEXT:  graph.grid_sample %{{.*}}, %{{.*}} {mode = "cubic", padding_mode = "reflection", align_corners = 1 : i64} : (tensor<2x3x7x9xf32>, tensor<2x5x6x2xf32>) -> tensor<2x3x5x6xf32>

// CHECK-LABEL: func.func @lp_pool
// CHECK:       graph.lp_pool %{{.*}} {kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 1>, p = 3 : i64} : (tensor<1x3x9x11xf32>) -> tensor<1x3x4x10xf32>

// CHECK-LABEL: func.func @col2im
// CHECK:       graph.col2im %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x6x9xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x4x5xf32>
// CHECK-NEXT:  graph.col2im %{{.*}}, %{{.*}}, %{{.*}} {strides = array<i64: 2, 1>} : (tensor<1x6x9xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x?x?x?xf32>

// CHECK-LABEL: func.func @max_unpool
// CHECK:       graph.max_unpool %{{.*}}, %{{.*}} {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xi64>) -> tensor<1x2x6x8xf32>
// CHECK-NEXT:  graph.max_unpool %{{.*}}, %{{.*}}, %{{.*}} {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xi64>, tensor<4xi64>) -> tensor<?x?x?x?xf32>

// CHECK-LABEL: func.func @max_roi_pool
// CHECK:       graph.max_roi_pool %{{.*}}, %{{.*}} {pooled_shape = array<i64: 3, 2>, spatial_scale = 6.250000e-02 : f32} : (tensor<2x3x10x12xf32>, tensor<?x5xf32>) -> tensor<?x3x3x2xf32>
// CHECK-LABEL: func.func @roi_align
// CHECK:       graph.roi_align %{{.*}}, %{{.*}}, %{{.*}} {output_height = 3 : i64, output_width = 4 : i64} : (tensor<2x3x10x12xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x3x4xf32>
// CHECK-NEXT:  graph.roi_align %{{.*}}, %{{.*}}, %{{.*}} {mode = "max", sampling_ratio = 2 : i64, spatial_scale = 5.000000e-01 : f32} : (tensor<2x3x10x12xf32>, tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x3x1x1xf32>

// CHECK-LABEL: func.func @affine_grid
// CHECK:       graph.affine_grid %{{.*}}, %{{.*}} : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x5x7x2xf32>
// CHECK-NEXT:  graph.affine_grid %{{.*}}, %{{.*}} {align_corners = 1 : i64} : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x?x?x2xf32>

// CHECK-LABEL: func.func @deform_conv
// CHECK-NEXT:  graph.deform_conv %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {pads = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 1>, group = 2 : i64} : (tensor<?x4x7x7xf32>, tensor<4x2x3x2xf32>, tensor<?x12x4x7xf32>, tensor<4xf32>, tensor<?x6x4x7xf32>) -> tensor<?x4x4x7xf32>

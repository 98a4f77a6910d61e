// One case per verifier rule of the qnn dialect (see dialects/graph/invalid.mlir for how
// the diagnostics are checked).
// RUN: infer-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @float_operand(%a: tensor<2x4xf32>, %b: tensor<4x3xi8>, %az: tensor<f32>, %bz: tensor<i8>) {
  // expected-error @+1 {{'qnn.matmul': a must be 8-bit integers, got tensor<2x4xf32>}}
  %0 = qnn.matmul %a, %b, %az, %bz : (tensor<2x4xf32>, tensor<4x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xi32>
  func.return
}
// CHECK: 'qnn.matmul': a must be 8-bit integers, got tensor<2x4xf32>

// -----

func.func @zero_point_type(%a: tensor<2x4xui8>, %b: tensor<4x3xi8>, %az: tensor<i8>, %bz: tensor<i8>) {
  // expected-error @+1 {{'qnn.matmul': a_zero_point must be ui8 like its operand, got tensor<i8>}}
  %0 = qnn.matmul %a, %b, %az, %bz : (tensor<2x4xui8>, tensor<4x3xi8>, tensor<i8>, tensor<i8>) -> tensor<2x3xi32>
  func.return
}
// CHECK: 'qnn.matmul': a_zero_point must be ui8 like its operand, got tensor<i8>

// -----

func.func @zero_point_rank(%a: tensor<2x4xui8>, %b: tensor<4x3xi8>, %az: tensor<1x1xui8>, %bz: tensor<i8>) {
  // expected-error @+1 {{'qnn.matmul': a_zero_point must be a scalar or 1-D, got tensor<1x1xui8>}}
  %0 = qnn.matmul %a, %b, %az, %bz : (tensor<2x4xui8>, tensor<4x3xi8>, tensor<1x1xui8>, tensor<i8>) -> tensor<2x3xi32>
  func.return
}
// CHECK: 'qnn.matmul': a_zero_point must be a scalar or 1-D, got tensor<1x1xui8>

// -----

func.func @zero_point_per_column(%a: tensor<2x4xui8>, %b: tensor<4x3xi8>, %az: tensor<ui8>, %bz: tensor<2xi8>) {
  // expected-error @+1 {{'qnn.matmul': b_zero_point (one per column of b) has 2 elements, not 1 or 3}}
  %0 = qnn.matmul %a, %b, %az, %bz : (tensor<2x4xui8>, tensor<4x3xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<2x3xi32>
  func.return
}
// CHECK: 'qnn.matmul': b_zero_point (one per column of b) has 2 elements, not 1 or 3

// -----

func.func @conv_zero_point_per_channel(%x: tensor<1x2x4x4xui8>, %w: tensor<3x2x1x1xi8>, %xz: tensor<ui8>, %wz: tensor<2xi8>) {
  // expected-error @+1 {{'qnn.conv': w_zero_point (one per output channel) has 2 elements, not 1 or 3}}
  %0 = qnn.conv %x, %w, %xz, %wz : (tensor<1x2x4x4xui8>, tensor<3x2x1x1xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<1x3x4x4xi32>
  func.return
}
// CHECK: 'qnn.conv': w_zero_point (one per output channel) has 2 elements, not 1 or 3

// -----

func.func @conv_input_zero_point_per_tensor(%x: tensor<1x2x4x4xui8>, %w: tensor<3x2x1x1xi8>, %xz: tensor<2xui8>, %wz: tensor<i8>) {
  // expected-error @+1 {{'qnn.conv': x_zero_point (one per tensor) has 2 elements, not 1}}
  %0 = qnn.conv %x, %w, %xz, %wz : (tensor<1x2x4x4xui8>, tensor<3x2x1x1xi8>, tensor<2xui8>, tensor<i8>) -> tensor<1x3x4x4xi32>
  func.return
}
// CHECK: 'qnn.conv': x_zero_point (one per tensor) has 2 elements, not 1

// -----

func.func @requantize_not_int32(%x: tensor<4xi64>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.requantize': x must be int32, got tensor<4xi64>}}
  %0 = qnn.requantize %x, %s, %s, %z : (tensor<4xi64>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  func.return
}
// CHECK: 'qnn.requantize': x must be int32, got tensor<4xi64>

// -----

func.func @requantize_scale_types(%x: tensor<4xi32>, %si: tensor<f32>, %so: tensor<f16>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.requantize': the scales must be floats of one type, got tensor<f32> and tensor<f16>}}
  %0 = qnn.requantize %x, %si, %so, %z : (tensor<4xi32>, tensor<f32>, tensor<f16>, tensor<ui8>) -> tensor<4xui8>
  func.return
}
// CHECK: 'qnn.requantize': the scales must be floats of one type, got tensor<f32> and tensor<f16>

// -----

func.func @requantize_scale_per_axis(%x: tensor<4xi32>, %so: tensor<f32>, %z: tensor<ui8>) {
  %si = graph.constant dense<[0.5, 0.25]> : tensor<2xf32>
  // expected-error @+1 {{'qnn.requantize': input_scale (one per tensor or along axis 0) has 2 elements, not 1 or 4}}
  %0 = qnn.requantize %x, %si, %so, %z {axis = 0 : i64} : (tensor<4xi32>, tensor<2xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  func.return
}
// CHECK: 'qnn.requantize': input_scale (one per tensor or along axis 0) has 2 elements, not 1 or 4

// -----

func.func @requantize_scale_positive(%x: tensor<2xi32>, %so: tensor<f32>, %z: tensor<ui8>) {
  %si = graph.constant dense<[0.5, -1.0]> : tensor<2xf32>
  // expected-error @+1 {{'qnn.requantize': input_scale must be positive, got [0.5, -1.0]}}
  %0 = qnn.requantize %x, %si, %so, %z {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>, tensor<f32>, tensor<ui8>) -> tensor<2xui8>
  func.return
}
// CHECK: 'qnn.requantize': input_scale must be positive, got [0.5, -1.0]

// -----

func.func @requantize_scale_zero(%x: tensor<4xi32>, %so: tensor<f32>, %z: tensor<ui8>) {
  %si = graph.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{'qnn.requantize': input_scale must be positive, got 0.0}}
  %0 = qnn.requantize %x, %si, %so, %z : (tensor<4xi32>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  func.return
}
// CHECK: 'qnn.requantize': input_scale must be positive, got 0.0

// -----

func.func @requantize_zero_point(%x: tensor<4xi32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'qnn.requantize': output_zero_point must be 8-bit integers, got tensor<i32>}}
  %0 = qnn.requantize %x, %s, %s, %z : (tensor<4xi32>, tensor<f32>, tensor<f32>, tensor<i32>) -> tensor<4xi32>
  func.return
}
// CHECK: 'qnn.requantize': output_zero_point must be 8-bit integers, got tensor<i32>

// -----

func.func @add_zero_point_type(%a: tensor<4xui8>, %s: tensor<f32>, %z: tensor<ui8>, %zi: tensor<i8>) {
  // expected-error @+1 {{'qnn.add': b_zero_point must be ui8 like its operand, got tensor<i8>}}
  %0 = qnn.add %a, %s, %z, %a, %s, %zi, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  func.return
}
// CHECK: 'qnn.add': b_zero_point must be ui8 like its operand, got tensor<i8>

// -----

func.func @add_scale_types(%a: tensor<4xui8>, %s: tensor<f32>, %h: tensor<f16>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.add': the scales must be floats of one type, got tensor<f32>, tensor<f32> and tensor<f16>}}
  %0 = qnn.add %a, %s, %z, %a, %s, %z, %h, %z : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f16>, tensor<ui8>) -> tensor<4xui8>
  func.return
}
// CHECK: 'qnn.add': the scales must be floats of one type, got tensor<f32>, tensor<f32> and tensor<f16>

// -----

func.func @mul_per_tensor(%a: tensor<4xui8>, %s: tensor<f32>, %s4: tensor<4xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.mul': b_scale must have one element (per tensor), got dims [4]}}
  %0 = qnn.mul %a, %s, %z, %a, %s4, %z, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<4xf32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  func.return
}
// CHECK: 'qnn.mul': b_scale must have one element (per tensor), got dims [4]

// -----

func.func @mul_scale_positive(%a: tensor<4xi8>, %s: tensor<f32>, %z: tensor<i8>) {
  %neg = graph.constant dense<-0.5> : tensor<f32>
  // expected-error @+1 {{'qnn.mul': y_scale must be positive, got -0.5}}
  %0 = qnn.mul %a, %s, %z, %a, %s, %z, %neg, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>, tensor<4xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<4xi8>
  func.return
}
// CHECK: 'qnn.mul': y_scale must be positive, got -0.5

// -----

func.func @mul_result_zero_point(%a: tensor<4xi8>, %s: tensor<f32>, %z: tensor<i8>, %zy: tensor<i32>) {
  // expected-error @+1 {{'qnn.mul': y_zero_point must be 8-bit integers, got tensor<i32>}}
  %0 = qnn.mul %a, %s, %z, %a, %s, %z, %s, %zy : (tensor<4xi8>, tensor<f32>, tensor<i8>, tensor<4xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i32>) -> tensor<4xi32>
  func.return
}
// CHECK: 'qnn.mul': y_zero_point must be 8-bit integers, got tensor<i32>

// -----

func.func @global_avg_pool_dynamic(%x: tensor<1x8x?x7xui8>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.global_avg_pool': the spatial dims must be static (their count scales the result), got [1, 8, ?, 7]}}
  %0 = qnn.global_avg_pool %x, %s, %z, %s, %z : (tensor<1x8x?x7xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x8x1x1xui8>
  func.return
}
// CHECK: 'qnn.global_avg_pool': the spatial dims must be static (their count scales the result), got [1, 8, ?, 7]

// -----

func.func @global_avg_pool_rank(%x: tensor<8x7xui8>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.global_avg_pool': x must have rank >= 3 (N, C, spatial dims), got tensor<8x7xui8>}}
  %0 = qnn.global_avg_pool %x, %s, %z, %s, %z : (tensor<8x7xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<8x1xui8>
  func.return
}
// CHECK: 'qnn.global_avg_pool': x must have rank >= 3 (N, C, spatial dims), got tensor<8x7xui8>

// -----

func.func @avg_pool_zero_point(%x: tensor<1x2x4x4xui8>, %s: tensor<f32>, %z: tensor<ui8>, %zi: tensor<i8>) {
  // expected-error @+1 {{'qnn.avg_pool': x_zero_point must be ui8 like its operand, got tensor<i8>}}
  %0 = qnn.avg_pool %x, %s, %zi, %s, %z {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xui8>
  func.return
}
// CHECK: 'qnn.avg_pool': x_zero_point must be ui8 like its operand, got tensor<i8>

// -----

func.func @avg_pool_scale_zero(%x: tensor<1x2x4x4xui8>, %s: tensor<f32>, %z: tensor<ui8>) {
  %zero = graph.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{'qnn.avg_pool': x_scale must be positive, got 0.0}}
  %0 = qnn.avg_pool %x, %zero, %z, %s, %z {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xui8>
  func.return
}
// CHECK: 'qnn.avg_pool': x_scale must be positive, got 0.0

// -----

func.func @add_result_type(%a: tensor<4xui8>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.add' result #0 has type tensor<4xi8>, but its operands give tensor<4xui8>}}
  %0 = qnn.add %a, %s, %z, %a, %s, %z, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<4xi8>
  func.return
}
// CHECK: 'qnn.add' result #0 has type tensor<4xi8>, but its operands give tensor<4xui8>

// -----

func.func @global_avg_pool_per_tensor(%x: tensor<1x2x3x3xui8>, %s: tensor<2xf32>, %z: tensor<ui8>, %sy: tensor<f32>) {
  // expected-error @+1 {{'qnn.global_avg_pool': x_scale must have one element (per tensor), got dims [2]}}
  %0 = qnn.global_avg_pool %x, %s, %z, %sy, %z : (tensor<1x2x3x3xui8>, tensor<2xf32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x1x1xui8>
  func.return
}
// CHECK: 'qnn.global_avg_pool': x_scale must have one element (per tensor), got dims [2]

// -----

func.func @unpacked_weights_type(%x: tensor<1x3x8x8xui8>, %w: tensor<4x3x3x3xi8>, %b: tensor<4xi32>, %m: tensor<1xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.conv_requant': w must be i16 (before qnn-legalize), got tensor<4x3x3x3xi8>}}
  %0 = qnn.conv_requant %x, %w, %b, %m, %z {x_zero_point = 0 : i64, lo = 0 : i64, hi = 255 : i64, kernel_shape = array<i64: 3, 3>} : (tensor<1x3x8x8xui8>, tensor<4x3x3x3xi8>, tensor<4xi32>, tensor<1xf32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  func.return
}
// CHECK: 'qnn.conv_requant': w must be i16 (before qnn-legalize), got tensor<4x3x3x3xi8>

// -----

func.func @clamp_outside_type(%x: tensor<1x3x8x8xui8>, %w: tensor<4x3x3x3xi16>, %b: tensor<4xi32>, %m: tensor<1xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.conv_requant': the clamp [0, 300] must lie in [0, 255]}}
  %0 = qnn.conv_requant %x, %w, %b, %m, %z {x_zero_point = 0 : i64, lo = 0 : i64, hi = 300 : i64, kernel_shape = array<i64: 3, 3>} : (tensor<1x3x8x8xui8>, tensor<4x3x3x3xi16>, tensor<4xi32>, tensor<1xf32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  func.return
}
// CHECK: 'qnn.conv_requant': the clamp [0, 300] must lie in [0, 255]

// -----

func.func @unknown_kernel(%x: tensor<1x3x8x8xui8>, %w: tensor<4x7xi32>, %b: tensor<4xi32>, %m: tensor<4xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.conv_requant': kernel must be one of ['pairs', 'vnni'] with lanes one of (4, 8, 16)}}
  %0 = qnn.conv_requant %x, %w, %b, %m, %z {x_zero_point = 0 : i64, lo = 0 : i64, hi = 255 : i64, kernel_shape = array<i64: 3, 3>, kernel = "vnni", lanes = 32 : i64} : (tensor<1x3x8x8xui8>, tensor<4x7xi32>, tensor<4xi32>, tensor<4xf32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  func.return
}
// CHECK: 'qnn.conv_requant': kernel must be one of ['pairs', 'vnni'] with lanes one of (4, 8, 16)

// -----

func.func @bad_tile(%x: tensor<1x3x8x8xui8>, %w: tensor<4x7xi32>, %b: tensor<4xi32>, %m: tensor<4xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.conv_requant': tile must be array<i64> of 2 positive sizes}}
  %0 = qnn.conv_requant %x, %w, %b, %m, %z {x_zero_point = 0 : i64, lo = 0 : i64, hi = 255 : i64, kernel_shape = array<i64: 3, 3>, kernel = "vnni", lanes = 8 : i64, tile = array<i64: 6, 0>} : (tensor<1x3x8x8xui8>, tensor<4x7xi32>, tensor<4xi32>, tensor<4xf32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  func.return
}
// CHECK: 'qnn.conv_requant': tile must be array<i64> of 2 positive sizes

// -----

func.func @bad_block(%x: tensor<1x3x8x8xui8>, %w: tensor<4x7xi32>, %b: tensor<4xi32>, %m: tensor<4xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.conv_requant': block must be array<i64> of 1 positive size}}
  %0 = qnn.conv_requant %x, %w, %b, %m, %z {x_zero_point = 0 : i64, lo = 0 : i64, hi = 255 : i64, kernel_shape = array<i64: 3, 3>, kernel = "vnni", lanes = 8 : i64, block = array<i64: 1024, 2>} : (tensor<1x3x8x8xui8>, tensor<4x7xi32>, tensor<4xi32>, tensor<4xf32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  func.return
}
// CHECK: 'qnn.conv_requant': block must be array<i64> of 1 positive size

// -----

func.func @packed_words(%x: tensor<1x3x8x8xui8>, %w: tensor<4x6xi32>, %b: tensor<4xi32>, %m: tensor<4xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{w [4, 6] must hold 7 words a row}}
  %0 = qnn.conv_requant %x, %w, %b, %m, %z {x_zero_point = 0 : i64, lo = 0 : i64, hi = 255 : i64, kernel_shape = array<i64: 3, 3>, kernel = "vnni", lanes = 16 : i64} : (tensor<1x3x8x8xui8>, tensor<4x6xi32>, tensor<4xi32>, tensor<4xf32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  func.return
}
// CHECK: w [4, 6] must hold 7 words a row

// -----

func.func @matmul_bias(%a: tensor<2x5xui8>, %w: tensor<5x3xi16>, %b: tensor<4xi32>, %m: tensor<1xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{bias [4] and multiplier [1] must be [3] (multiplier: or [1])}}
  %0 = qnn.matmul_requant %a, %w, %b, %m, %z {x_zero_point = 0 : i64, lo = 0 : i64, hi = 255 : i64, n = 3 : i64} : (tensor<2x5xui8>, tensor<5x3xi16>, tensor<4xi32>, tensor<1xf32>, tensor<ui8>) -> tensor<2x3xui8>
  func.return
}
// CHECK: bias [4] and multiplier [1] must be [3] (multiplier: or [1])

// -----

func.func @quantize_not_f32(%x: tensor<4xf16>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.quantize': x must be f32, got tensor<4xf16>}}
  %y = qnn.quantize %x, %s, %z : (tensor<4xf16>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  func.return
}
// CHECK: 'qnn.quantize': x must be f32, got tensor<4xf16>

// -----

func.func @quantize_scale_type(%x: tensor<4xf32>, %s: tensor<f16>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.quantize': scale must be f32, got tensor<f16>}}
  %y = qnn.quantize %x, %s, %z : (tensor<4xf32>, tensor<f16>, tensor<ui8>) -> tensor<4xui8>
  func.return
}
// CHECK: 'qnn.quantize': scale must be f32, got tensor<f16>

// -----

func.func @quantize_to_int32(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'qnn.quantize': zero_point must be 8-bit integers, got tensor<i32>}}
  %y = qnn.quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi32>
  func.return
}
// CHECK: 'qnn.quantize': zero_point must be 8-bit integers, got tensor<i32>

// -----

func.func @quantize_zero_point_rank(%x: tensor<2x4xf32>, %s: tensor<f32>, %z: tensor<1x1xi8>) {
  // expected-error @+1 {{'qnn.quantize': zero_point must be a scalar or 1-D, got tensor<1x1xi8>}}
  %y = qnn.quantize %x, %s, %z : (tensor<2x4xf32>, tensor<f32>, tensor<1x1xi8>) -> tensor<2x4xi8>
  func.return
}
// CHECK: 'qnn.quantize': zero_point must be a scalar or 1-D, got tensor<1x1xi8>

// -----

func.func @quantize_per_axis_length(%x: tensor<2x4xf32>, %s: tensor<2xf32>, %z: tensor<i8>) {
  // expected-error @+1 {{'qnn.quantize': scale (one per tensor or along axis 1) has 2 elements, not 1 or 4}}
  %y = qnn.quantize %x, %s, %z : (tensor<2x4xf32>, tensor<2xf32>, tensor<i8>) -> tensor<2x4xi8>
  func.return
}
// CHECK: 'qnn.quantize': scale (one per tensor or along axis 1) has 2 elements, not 1 or 4

// -----

func.func @quantize_axis_range(%x: tensor<2x4xf32>, %s: tensor<4xf32>, %z: tensor<i8>) {
  // expected-error @+1 {{'qnn.quantize': axis 2 is out of range for rank 2}}
  %y = qnn.quantize %x, %s, %z {axis = 2 : i64} : (tensor<2x4xf32>, tensor<4xf32>, tensor<i8>) -> tensor<2x4xi8>
  func.return
}
// CHECK: 'qnn.quantize': axis 2 is out of range for rank 2

// -----

func.func @quantize_scale_positive(%x: tensor<2x2xf32>, %z: tensor<2xui8>) {
  %s = graph.constant dense<[0.5, 0.0]> : tensor<2xf32>
  // expected-error @+1 {{'qnn.quantize': scale must be positive, got [0.5, 0.0]}}
  %y = qnn.quantize %x, %s, %z : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xui8>) -> tensor<2x2xui8>
  func.return
}
// CHECK: 'qnn.quantize': scale must be positive, got [0.5, 0.0]

// -----

func.func @quantize_result_type(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.quantize' result #0 has type tensor<4xi8>, but its operands give tensor<4xui8>}}
  %y = qnn.quantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xi8>
  func.return
}
// CHECK: 'qnn.quantize' result #0 has type tensor<4xi8>, but its operands give tensor<4xui8>

// -----

func.func @dequantize_float(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<f32>) {
  // expected-error @+1 {{'qnn.dequantize': x must be 8-bit integers or int32, got tensor<4xf32>}}
  %y = qnn.dequantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'qnn.dequantize': x must be 8-bit integers or int32, got tensor<4xf32>

// -----

func.func @dequantize_zero_point_type(%x: tensor<4xui8>, %s: tensor<f32>, %z: tensor<i8>) {
  // expected-error @+1 {{'qnn.dequantize': zero_point must be ui8 like its operand, got tensor<i8>}}
  %y = qnn.dequantize %x, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  func.return
}
// CHECK: 'qnn.dequantize': zero_point must be ui8 like its operand, got tensor<i8>

// -----

func.func @dequantize_scale_rank(%x: tensor<2x4xi8>, %s: tensor<2x4xf32>, %z: tensor<i8>) {
  // expected-error @+1 {{'qnn.dequantize': scale must be a scalar or 1-D, got tensor<2x4xf32>}}
  %y = qnn.dequantize %x, %s, %z : (tensor<2x4xi8>, tensor<2x4xf32>, tensor<i8>) -> tensor<2x4xf32>
  func.return
}
// CHECK: 'qnn.dequantize': scale must be a scalar or 1-D, got tensor<2x4xf32>

// -----

func.func @dequantize_zero_point_per_axis(%x: tensor<2x4xi8>, %s: tensor<f32>, %z: tensor<3xi8>) {
  // expected-error @+1 {{'qnn.dequantize': zero_point (one per tensor or along axis 0) has 3 elements, not 1 or 2}}
  %y = qnn.dequantize %x, %s, %z {axis = 0 : i64} : (tensor<2x4xi8>, tensor<f32>, tensor<3xi8>) -> tensor<2x4xf32>
  func.return
}
// CHECK: 'qnn.dequantize': zero_point (one per tensor or along axis 0) has 3 elements, not 1 or 2

// -----

func.func @dequantize_int32_zero_point(%x: tensor<4xi32>, %s: tensor<f32>) {
  %z = graph.constant dense<5> : tensor<i32>
  // expected-error @+1 {{'qnn.dequantize': an int32 x's zero_point must be 0, got 5}}
  %y = qnn.dequantize %x, %s, %z : (tensor<4xi32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'qnn.dequantize': an int32 x's zero_point must be 0, got 5

// -----

func.func @dequantize_scale_zero(%x: tensor<4xi8>, %z: tensor<i8>) {
  %s = graph.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{'qnn.dequantize': scale must be positive, got 0.0}}
  %y = qnn.dequantize %x, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  func.return
}
// CHECK: 'qnn.dequantize': scale must be positive, got 0.0

// -----

func.func @concat_not_triples(%a: tensor<4xui8>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.concat': the inputs must be (x, x_scale, x_zero_point) triples, got 2 operands before y_scale and y_zero_point}}
  %y = qnn.concat %a, %s, %s, %z {axis = 0 : i64} : (tensor<4xui8>, tensor<f32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  func.return
}
// CHECK: 'qnn.concat': the inputs must be (x, x_scale, x_zero_point) triples, got 2 operands before y_scale and y_zero_point

// -----

func.func @concat_float_input(%a: tensor<4xui8>, %b: tensor<4xf32>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.concat': input 1 must be 8-bit integers, got tensor<4xf32>}}
  %y = qnn.concat %a, %s, %z, %b, %s, %z, %s, %z {axis = 0 : i64} : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xf32>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<8xui8>
  func.return
}
// CHECK: 'qnn.concat': input 1 must be 8-bit integers, got tensor<4xf32>

// -----

func.func @concat_zero_point_type(%a: tensor<4xui8>, %b: tensor<4xi8>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.concat': the zero point of input 1 must be i8 like its operand, got tensor<ui8>}}
  %y = qnn.concat %a, %s, %z, %b, %s, %z, %s, %z {axis = 0 : i64} : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xi8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<8xui8>
  func.return
}
// CHECK: 'qnn.concat': the zero point of input 1 must be i8 like its operand, got tensor<ui8>

// -----

func.func @concat_scale_type(%a: tensor<4xui8>, %s: tensor<f32>, %h: tensor<f16>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.concat': y_scale must be f32, got tensor<f16>}}
  %y = qnn.concat %a, %s, %z, %a, %s, %z, %h, %z {axis = 0 : i64} : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f16>, tensor<ui8>) -> tensor<8xui8>
  func.return
}
// CHECK: 'qnn.concat': y_scale must be f32, got tensor<f16>

// -----

func.func @concat_per_tensor(%a: tensor<4xui8>, %s: tensor<f32>, %s4: tensor<4xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.concat': the scale of input 1 must have one element (per tensor), got dims [4]}}
  %y = qnn.concat %a, %s, %z, %a, %s4, %z, %s, %z {axis = 0 : i64} : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<4xf32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<8xui8>
  func.return
}
// CHECK: 'qnn.concat': the scale of input 1 must have one element (per tensor), got dims [4]

// -----

func.func @concat_scale_positive(%a: tensor<4xui8>, %s: tensor<f32>, %z: tensor<ui8>) {
  %neg = graph.constant dense<-0.5> : tensor<f32>
  // expected-error @+1 {{'qnn.concat': the scale of input 0 must be positive, got -0.5}}
  %y = qnn.concat %a, %neg, %z, %a, %s, %z, %s, %z {axis = 0 : i64} : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<8xui8>
  func.return
}
// CHECK: 'qnn.concat': the scale of input 0 must be positive, got -0.5

// -----

func.func @concat_ranks(%a: tensor<4xui8>, %b: tensor<1x4xui8>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.concat': inputs have different ranks}}
  %y = qnn.concat %a, %s, %z, %b, %s, %z, %s, %z {axis = 0 : i64} : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<1x4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<8xui8>
  func.return
}
// CHECK: 'qnn.concat': inputs have different ranks

// -----

func.func @concat_dims(%a: tensor<2x4xui8>, %b: tensor<3x4xui8>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.concat': inputs differ in dim 0: 2 and 3}}
  %y = qnn.concat %a, %s, %z, %b, %s, %z, %s, %z {axis = 1 : i64} : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<3x4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x8xui8>
  func.return
}
// CHECK: 'qnn.concat': inputs differ in dim 0: 2 and 3

// -----

func.func @concat_axis_range(%a: tensor<2x4xui8>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'qnn.concat': axis -3 is out of range for rank 2}}
  %y = qnn.concat %a, %s, %z, %a, %s, %z, %s, %z {axis = -3 : i64} : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<4x4xui8>
  func.return
}
// CHECK: 'qnn.concat': axis -3 is out of range for rank 2

// -----

func.func @concat_result_type(%a: tensor<4xui8>, %s: tensor<f32>, %z: tensor<ui8>, %zy: tensor<i8>) {
  // expected-error @+1 {{'qnn.concat' result #0 has type tensor<8xui8>, but its operands give tensor<8xi8>}}
  %y = qnn.concat %a, %s, %z, %a, %s, %z, %s, %zy {axis = 0 : i64} : (tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<i8>) -> tensor<8xui8>
  func.return
}
// CHECK: 'qnn.concat' result #0 has type tensor<8xui8>, but its operands give tensor<8xi8>

// Every qnn op parses, verifies, prints and round-trips (print(parse(print(x))) == print(x)).
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @quantize(%x: tensor<?x4xf32>, %s: tensor<4xf32>, %z: tensor<4xi8>) -> tensor<?x4xi8> {
    %y = qnn.quantize %x, %s, %z : (tensor<?x4xf32>, tensor<4xf32>, tensor<4xi8>) -> tensor<?x4xi8>
    func.return %y : tensor<?x4xi8>
  }
  func.func @dequantize(%x: tensor<3x?xui8>, %s: tensor<3xf32>, %z: tensor<ui8>, %b: tensor<8xi32>, %sb: tensor<f32>, %zb: tensor<i32>) -> (tensor<3x?xf32>, tensor<8xf32>) {
    %y = qnn.dequantize %x, %s, %z {axis = 0 : i64} : (tensor<3x?xui8>, tensor<3xf32>, tensor<ui8>) -> tensor<3x?xf32>
    %fb = qnn.dequantize %b, %sb, %zb : (tensor<8xi32>, tensor<f32>, tensor<i32>) -> tensor<8xf32>
    func.return %y, %fb : tensor<3x?xf32>, tensor<8xf32>
  }
  func.func @concat(%a: tensor<1x2x4xi8>, %sa: tensor<f32>, %za: tensor<i8>, %b: tensor<1x?x4xi8>, %sb: tensor<1xf32>, %zb: tensor<1xi8>, %sy: tensor<f32>, %zy: tensor<i8>) -> tensor<1x?x4xi8> {
    %y = qnn.concat %a, %sa, %za, %b, %sb, %zb, %sy, %zy {axis = -2 : i64} : (tensor<1x2x4xi8>, tensor<f32>, tensor<i8>, tensor<1x?x4xi8>, tensor<1xf32>, tensor<1xi8>, tensor<f32>, tensor<i8>) -> tensor<1x?x4xi8>
    func.return %y : tensor<1x?x4xi8>
  }
  func.func @matmul(%a: tensor<?x4xui8>, %b: tensor<4x3xi8>, %az: tensor<ui8>, %bz: tensor<3xi8>) -> tensor<?x3xi32> {
    %y = qnn.matmul %a, %b, %az, %bz : (tensor<?x4xui8>, tensor<4x3xi8>, tensor<ui8>, tensor<3xi8>) -> tensor<?x3xi32>
    func.return %y : tensor<?x3xi32>
  }
  func.func @conv(%x: tensor<1x4x8x8xui8>, %w: tensor<4x1x3x3xi8>, %xz: tensor<ui8>, %wz: tensor<4xi8>) -> tensor<1x4x4x4xi32> {
    %y = qnn.conv %x, %w, %xz, %wz {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xui8>, tensor<4x1x3x3xi8>, tensor<ui8>, tensor<4xi8>) -> tensor<1x4x4x4xi32>
    func.return %y : tensor<1x4x4x4xi32>
  }
  func.func @requantize(%acc: tensor<1x4x4x4xi32>, %si: tensor<4xf32>, %so: tensor<f32>, %z: tensor<ui8>) -> tensor<1x4x4x4xui8> {
    %y = qnn.requantize %acc, %si, %so, %z : (tensor<1x4x4x4xi32>, tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x4x4xui8>
    func.return %y : tensor<1x4x4x4xui8>
  }
  func.func @add(%a: tensor<2x?xui8>, %sa: tensor<f32>, %za: tensor<ui8>, %b: tensor<1xui8>, %sb: tensor<1xf32>, %zb: tensor<1xui8>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<2x?xui8> {
    %y = qnn.add %a, %sa, %za, %b, %sb, %zb, %sy, %zy : (tensor<2x?xui8>, tensor<f32>, tensor<ui8>, tensor<1xui8>, tensor<1xf32>, tensor<1xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x?xui8>
    func.return %y : tensor<2x?xui8>
  }
  func.func @mul(%a: tensor<2x3xi8>, %s: tensor<f32>, %z: tensor<i8>, %b: tensor<3xi8>) -> tensor<2x3xi8> {
    %y = qnn.mul %a, %s, %z, %b, %s, %z, %s, %z : (tensor<2x3xi8>, tensor<f32>, tensor<i8>, tensor<3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
    func.return %y : tensor<2x3xi8>
  }
  func.func @global_avg_pool(%x: tensor<?x8x7x7xui8>, %sx: tensor<f32>, %zx: tensor<ui8>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<?x8x1x1xui8> {
    %y = qnn.global_avg_pool %x, %sx, %zx, %sy, %zy : (tensor<?x8x7x7xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<?x8x1x1xui8>
    func.return %y : tensor<?x8x1x1xui8>
  }
  func.func @avg_pool(%x: tensor<1x8x7x7xi8>, %sx: tensor<f32>, %zx: tensor<i8>, %sy: tensor<f32>, %zy: tensor<i8>) -> tensor<1x8x4x4xi8> {
    %y = qnn.avg_pool %x, %sx, %zx, %sy, %zy {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = 1 : i64} : (tensor<1x8x7x7xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x8x4x4xi8>
    func.return %y : tensor<1x8x4x4xi8>
  }
  func.func @conv_requant(%x: tensor<?x3x8x8xui8>, %w: tensor<4x3x3x3xi16>, %b: tensor<4xi32>, %m: tensor<1xf32>, %z: tensor<ui8>) -> tensor<?x4x4x4xui8> {
    %y = qnn.conv_requant %x, %w, %b, %m, %z {x_zero_point = 128 : i64, lo = 10 : i64, hi = 255 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x3x8x8xui8>, tensor<4x3x3x3xi16>, tensor<4xi32>, tensor<1xf32>, tensor<ui8>) -> tensor<?x4x4x4xui8>
    func.return %y : tensor<?x4x4x4xui8>
  }
  func.func @conv_requant_packed(%x: tensor<1x3x8x8xi8>, %w: tensor<4x7xi32>, %b: tensor<4xi32>, %m: tensor<4xf32>, %z: tensor<i8>) -> tensor<1x4x8x8xi8> {
    %y = qnn.conv_requant %x, %w, %b, %m, %z {x_zero_point = -3 : i64, lo = -128 : i64, hi = 127 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, kernel = "vnni", lanes = 16 : i64} : (tensor<1x3x8x8xi8>, tensor<4x7xi32>, tensor<4xi32>, tensor<4xf32>, tensor<i8>) -> tensor<1x4x8x8xi8>
    func.return %y : tensor<1x4x8x8xi8>
  }
  func.func @matmul_requant(%a: tensor<2x?x5xui8>, %w: tensor<5x3xi16>, %b: tensor<3xi32>, %m: tensor<3xf32>, %z: tensor<ui8>) -> tensor<2x?x3xui8> {
    %y = qnn.matmul_requant %a, %w, %b, %m, %z {x_zero_point = 7 : i64, lo = 0 : i64, hi = 255 : i64, n = 3 : i64} : (tensor<2x?x5xui8>, tensor<5x3xi16>, tensor<3xi32>, tensor<3xf32>, tensor<ui8>) -> tensor<2x?x3xui8>
    func.return %y : tensor<2x?x3xui8>
  }
  func.func @matmul_requant_packed(%a: tensor<?x5xui8>, %w: tensor<1x3x8xi32>, %b: tensor<8xi32>, %m: tensor<8xf32>, %z: tensor<ui8>) -> tensor<?x3xui8> {
    %y = qnn.matmul_requant %a, %w, %b, %m, %z {x_zero_point = 7 : i64, lo = 0 : i64, hi = 255 : i64, n = 3 : i64, kernel = "pairs", lanes = 8 : i64} : (tensor<?x5xui8>, tensor<1x3x8xi32>, tensor<8xi32>, tensor<8xf32>, tensor<ui8>) -> tensor<?x3xui8>
    func.return %y : tensor<?x3xui8>
  }
}

// CHECK-LABEL: func.func @quantize
// CHECK:         %{{.*}} = qnn.quantize %x, %s, %z : (tensor<?x4xf32>, tensor<4xf32>, tensor<4xi8>) -> tensor<?x4xi8>
// CHECK-LABEL: func.func @dequantize
// CHECK:         %{{.*}} = qnn.dequantize %x, %s, %z {axis = 0 : i64} : (tensor<3x?xui8>, tensor<3xf32>, tensor<ui8>) -> tensor<3x?xf32>
// CHECK-NEXT:    %{{.*}} = qnn.dequantize %b, %sb, %zb : (tensor<8xi32>, tensor<f32>, tensor<i32>) -> tensor<8xf32>
// CHECK-LABEL: func.func @concat
// CHECK:         %{{.*}} = qnn.concat %a, %sa, %za, %b, %sb, %zb, %sy, %zy {axis = -2 : i64} : (tensor<1x2x4xi8>, tensor<f32>, tensor<i8>, tensor<1x?x4xi8>, tensor<1xf32>, tensor<1xi8>, tensor<f32>, tensor<i8>) -> tensor<1x?x4xi8>
// CHECK-LABEL: func.func @matmul
// CHECK:         %{{.*}} = qnn.matmul %a, %b, %az, %bz : (tensor<?x4xui8>, tensor<4x3xi8>, tensor<ui8>, tensor<3xi8>) -> tensor<?x3xi32>
// CHECK-LABEL: func.func @conv
// CHECK:         %{{.*}} = qnn.conv %x, %w, %xz, %wz {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xui8>, tensor<4x1x3x3xi8>, tensor<ui8>, tensor<4xi8>) -> tensor<1x4x4x4xi32>
// CHECK-LABEL: func.func @requantize
// CHECK:         %{{.*}} = qnn.requantize %acc, %si, %so, %z : (tensor<1x4x4x4xi32>, tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x4x4xui8>
// CHECK-LABEL: func.func @add
// CHECK:         %{{.*}} = qnn.add %a, %sa, %za, %b, %sb, %zb, %sy, %zy : (tensor<2x?xui8>, tensor<f32>, tensor<ui8>, tensor<1xui8>, tensor<1xf32>, tensor<1xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x?xui8>
// CHECK-LABEL: func.func @mul
// CHECK:         %{{.*}} = qnn.mul %a, %s, %z, %b, %s, %z, %s, %z : (tensor<2x3xi8>, tensor<f32>, tensor<i8>, tensor<3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
// CHECK-LABEL: func.func @global_avg_pool
// CHECK:         %{{.*}} = qnn.global_avg_pool %x, %sx, %zx, %sy, %zy : (tensor<?x8x7x7xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<?x8x1x1xui8>
// CHECK-LABEL: func.func @avg_pool
// CHECK:         %{{.*}} = qnn.avg_pool %x, %sx, %zx, %sy, %zy {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = 1 : i64} : (tensor<1x8x7x7xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x8x4x4xi8>
// CHECK-LABEL: func.func @conv_requant
// CHECK:         %{{.*}} = qnn.conv_requant %x, %w, %b, %m, %z {x_zero_point = 128 : i64, lo = 10 : i64, hi = 255 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x3x8x8xui8>, tensor<4x3x3x3xi16>, tensor<4xi32>, tensor<1xf32>, tensor<ui8>) -> tensor<?x4x4x4xui8>
// CHECK-LABEL: func.func @conv_requant_packed
// CHECK:         %{{.*}} = qnn.conv_requant %x, %w, %b, %m, %z {x_zero_point = -3 : i64, lo = -128 : i64, hi = 127 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, kernel = "vnni", lanes = 16 : i64} : (tensor<1x3x8x8xi8>, tensor<4x7xi32>, tensor<4xi32>, tensor<4xf32>, tensor<i8>) -> tensor<1x4x8x8xi8>
// CHECK-LABEL: func.func @matmul_requant
// CHECK:         %{{.*}} = qnn.matmul_requant %a, %w, %b, %m, %z {x_zero_point = 7 : i64, lo = 0 : i64, hi = 255 : i64, n = 3 : i64} : (tensor<2x?x5xui8>, tensor<5x3xi16>, tensor<3xi32>, tensor<3xf32>, tensor<ui8>) -> tensor<2x?x3xui8>
// CHECK-LABEL: func.func @matmul_requant_packed
// CHECK:         %{{.*}} = qnn.matmul_requant %a, %w, %b, %m, %z {x_zero_point = 7 : i64, lo = 0 : i64, hi = 255 : i64, n = 3 : i64, kernel = "pairs", lanes = 8 : i64} : (tensor<?x5xui8>, tensor<1x3x8xi32>, tensor<8xi32>, tensor<8xf32>, tensor<ui8>) -> tensor<?x3xui8>

// Every qnn op parses, verifies, prints and round-trips (print(parse(print(x))) == print(x)).
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
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
}

// CHECK-LABEL: func.func @matmul
// CHECK:         %{{.*}} = qnn.matmul %a, %b, %az, %bz : (tensor<?x4xui8>, tensor<4x3xi8>, tensor<ui8>, tensor<3xi8>) -> tensor<?x3xi32>
// CHECK-LABEL: func.func @conv
// CHECK:         %{{.*}} = qnn.conv %x, %w, %xz, %wz {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xui8>, tensor<4x1x3x3xi8>, tensor<ui8>, tensor<4xi8>) -> tensor<1x4x4x4xi32>
// CHECK-LABEL: func.func @requantize
// CHECK:         %{{.*}} = qnn.requantize %acc, %si, %so, %z : (tensor<1x4x4x4xi32>, tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x4x4xui8>

// qnn-canonicalize: each qnn op as the graph ops of its formula, on int32 and f32.
// RUN: infer-opt %s -p qnn-canonicalize | filecheck %s

builtin.module {
  func.func @matmul(%a: tensor<2x4xui8>, %b: tensor<4x3xui8>, %az: tensor<2xui8>, %bz: tensor<3xui8>) -> tensor<2x3xi32> {
    %y = qnn.matmul %a, %b, %az, %bz : (tensor<2x4xui8>, tensor<4x3xui8>, tensor<2xui8>, tensor<3xui8>) -> tensor<2x3xi32>
    func.return %y : tensor<2x3xi32>
  }
  func.func @conv(%x: tensor<1x4x8x8xui8>, %w: tensor<4x1x3x3xi8>, %xz: tensor<ui8>, %wz: tensor<4xi8>) -> tensor<1x4x4x4xi32> {
    %y = qnn.conv %x, %w, %xz, %wz {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xui8>, tensor<4x1x3x3xi8>, tensor<ui8>, tensor<4xi8>) -> tensor<1x4x4x4xi32>
    func.return %y : tensor<1x4x4x4xi32>
  }
  func.func @requantize(%acc: tensor<1x4x4x4xi32>, %si: tensor<4xf16>, %so: tensor<f16>, %z: tensor<i8>) -> tensor<1x4x4x4xi8> {
    %y = qnn.requantize %acc, %si, %so, %z : (tensor<1x4x4x4xi32>, tensor<4xf16>, tensor<f16>, tensor<i8>) -> tensor<1x4x4x4xi8>
    func.return %y : tensor<1x4x4x4xi8>
  }
  func.func @add(%a: tensor<2x4xui8>, %sa: tensor<f32>, %za: tensor<ui8>, %b: tensor<4xui8>, %sb: tensor<f32>, %zb: tensor<ui8>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<2x4xui8> {
    %y = qnn.add %a, %sa, %za, %b, %sb, %zb, %sy, %zy : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x4xui8>
    func.return %y : tensor<2x4xui8>
  }
  func.func @mul(%a: tensor<2x4xi8>, %sa: tensor<f32>, %za: tensor<i8>, %b: tensor<4xi8>, %sb: tensor<f32>, %zb: tensor<i8>, %sy: tensor<f32>, %zy: tensor<i8>) -> tensor<2x4xi8> {
    %y = qnn.mul %a, %sa, %za, %b, %sb, %zb, %sy, %zy : (tensor<2x4xi8>, tensor<f32>, tensor<i8>, tensor<4xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<2x4xi8>
    func.return %y : tensor<2x4xi8>
  }
  func.func @global_avg_pool(%x: tensor<1x8x7x7xui8>, %sx: tensor<f32>, %zx: tensor<ui8>, %sy: tensor<f32>, %zy: tensor<ui8>) -> tensor<1x8x1x1xui8> {
    %y = qnn.global_avg_pool %x, %sx, %zx, %sy, %zy : (tensor<1x8x7x7xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x8x1x1xui8>
    func.return %y : tensor<1x8x1x1xui8>
  }
  func.func @avg_pool(%x: tensor<1x8x7x7xi8>, %sx: tensor<f32>, %zx: tensor<i8>, %sy: tensor<f32>, %zy: tensor<i8>) -> tensor<1x8x4x4xi8> {
    %y = qnn.avg_pool %x, %sx, %zx, %sy, %zy {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x7x7xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x8x4x4xi8>
    func.return %y : tensor<1x8x4x4xi8>
  }
  func.func @conv_requant(%x: tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xui8> {
    %w = graph.constant dense<[[[[1, -2]], [[3, 4]]], [[[0, 5]], [[-6, 7]]]]> : tensor<2x2x1x2xi8>
    %xz = graph.constant dense<10> : tensor<ui8>
    %wz = graph.constant dense<[0, 1]> : tensor<2xi8>
    %acc = qnn.conv %x, %w, %xz, %wz {pads = array<i64: 0, 0, 0, 1>} : (tensor<1x2x4x4xui8>, tensor<2x2x1x2xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<1x2x4x4xi32>
    %b = graph.constant dense<[[[100]], [[-100]]]> : tensor<2x1x1xi32>
    %sum = graph.add %acc, %b : (tensor<1x2x4x4xi32>, tensor<2x1x1xi32>) -> tensor<1x2x4x4xi32>
    %sx = graph.constant dense<5.000000e-01> : tensor<f32>
    %sw = graph.constant dense<[2.500000e-01, 7.500000e-01]> : tensor<2xf32>
    %si = graph.mul %sx, %sw : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
    %so = graph.constant dense<2.000000e+00> : tensor<f32>
    %zy = graph.constant dense<3> : tensor<ui8>
    %q = qnn.requantize %sum, %si, %so, %zy : (tensor<1x2x4x4xi32>, tensor<2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
    %lo = graph.constant dense<3> : tensor<ui8>
    %hi = graph.constant dense<255> : tensor<ui8>
    %y = graph.clip %q, %lo, %hi : (tensor<1x2x4x4xui8>, tensor<ui8>, tensor<ui8>) -> tensor<1x2x4x4xui8>
    func.return %y : tensor<1x2x4x4xui8>
  }
  func.func @matmul_requant(%a: tensor<?x3xi8>) -> tensor<?x2xi8> {
    %w = graph.constant dense<[[1, 2], [3, -4], [5, 6]]> : tensor<3x2xi8>
    %az = graph.constant dense<-2> : tensor<i8>
    %wz = graph.constant dense<0> : tensor<i8>
    %acc = qnn.matmul %a, %w, %az, %wz : (tensor<?x3xi8>, tensor<3x2xi8>, tensor<i8>, tensor<i8>) -> tensor<?x2xi32>
    %si = graph.constant dense<1.000000e-01> : tensor<f32>
    %so = graph.constant dense<3.000000e-01> : tensor<f32>
    %zy = graph.constant dense<-5> : tensor<i8>
    %y = qnn.requantize %acc, %si, %so, %zy {axis = -1 : i64} : (tensor<?x2xi32>, tensor<f32>, tensor<f32>, tensor<i8>) -> tensor<?x2xi8>
    func.return %y : tensor<?x2xi8>
  }
  func.func @quantize(%x: tensor<2x3xf32>, %s: tensor<2xf32>, %z: tensor<2xi8>) -> tensor<2x3xi8> {
    %y = qnn.quantize %x, %s, %z {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3xi8>
    func.return %y : tensor<2x3xi8>
  }
  func.func @dequantize(%x: tensor<2x3xui8>, %s: tensor<3xf32>, %z: tensor<ui8>) -> tensor<2x3xf32> {
    %y = qnn.dequantize %x, %s, %z : (tensor<2x3xui8>, tensor<3xf32>, tensor<ui8>) -> tensor<2x3xf32>
    func.return %y : tensor<2x3xf32>
  }
  func.func @concat(%a: tensor<2x3xui8>, %b: tensor<2x1xui8>, %c: tensor<2x2xi8>, %d: tensor<2x2xui8>, %sd: tensor<f32>, %zd: tensor<ui8>) -> tensor<2x8xui8> {
    %sy = graph.constant dense<0.5> : tensor<f32>
    %zy = graph.constant dense<3> : tensor<ui8>
    %sb = graph.constant dense<0.25> : tensor<f32>
    %sc = graph.constant dense<0.5> : tensor<f32>
    %zc = graph.constant dense<3> : tensor<i8>
    %y = qnn.concat %a, %sy, %zy, %b, %sb, %zy, %c, %sc, %zc, %d, %sd, %zd, %sy, %zy {axis = 1 : i64} : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<2x1xui8>, tensor<f32>, tensor<ui8>, tensor<2x2xi8>, tensor<f32>, tensor<i8>, tensor<2x2xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x8xui8>
    func.return %y : tensor<2x8xui8>
  }
}

// (a - a_zp) @ (b - b_zp): a's zero point per row, b's per column, a matmul on int32.
// CHECK-LABEL: func.func @matmul
// CHECK:         %[[ROWS:.*]] = graph.reshape %az, %{{.*}} : (tensor<2xui8>, tensor<2xi64>) -> tensor<2x1xui8>
// CHECK-NEXT:    %[[A:.*]] = graph.cast %a {to = i32}
// CHECK-NEXT:    %[[AZ:.*]] = graph.cast %[[ROWS]] {to = i32}
// CHECK-NEXT:    %[[A0:.*]] = graph.sub %[[A]], %[[AZ]] : (tensor<2x4xi32>, tensor<2x1xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %[[B:.*]] = graph.cast %b {to = i32}
// CHECK-NEXT:    %[[BZ:.*]] = graph.cast %bz {to = i32}
// CHECK-NEXT:    %[[B0:.*]] = graph.sub %[[B]], %[[BZ]] : (tensor<4x3xi32>, tensor<3xi32>) -> tensor<4x3xi32>
// CHECK-NEXT:    %y = graph.einsum %[[A0]], %[[B0]] {equation = "...ij,...jk->...ik"} : (tensor<2x4xi32>, tensor<4x3xi32>) -> tensor<2x3xi32>
// CHECK-NOT:     qnn.

// conv(x - x_zp, w - w_zp): w's zero point per output channel, graph.conv on int32.
// CHECK-LABEL: func.func @conv
// CHECK:         %[[X0:.*]] = graph.sub %{{.*}}, %{{.*}} : (tensor<1x4x8x8xi32>, tensor<i32>) -> tensor<1x4x8x8xi32>
// CHECK:         graph.reshape %wz, %{{.*}} -> tensor<4x1x1x1xi8>
// CHECK:         %[[W0:.*]] = graph.sub %{{.*}}, %{{.*}} : (tensor<4x1x3x3xi32>, tensor<4x1x1x1xi32>) -> tensor<4x1x3x3xi32>
// CHECK-NEXT:    %y = graph.conv %[[X0]], %[[W0]] {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xi32>, tensor<4x1x3x3xi32>) -> tensor<1x4x4x4xi32>

// clip(round(x * (si / so)) + zp): the multiplier in the scales' type (f16), then f32 along axis 1.
// CHECK-LABEL: func.func @requantize
// CHECK:         %[[M:.*]] = graph.div %si, %so : (tensor<4xf16>, tensor<f16>) -> tensor<4xf16>
// CHECK-NEXT:    %[[M32:.*]] = graph.cast %[[M]] {to = f32}
// CHECK-NEXT:    %[[X:.*]] = graph.cast %acc {to = f32}
// CHECK:         %[[MC:.*]] = graph.reshape %[[M32]], %{{.*}} -> tensor<4x1x1xf32>
// CHECK-NEXT:    %[[V:.*]] = graph.mul %[[X]], %[[MC]]
// CHECK-NEXT:    %[[Z:.*]] = graph.cast %z {to = f32}
// CHECK-NEXT:    %[[R:.*]] = graph.round %[[V]]
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[R]], %[[Z]]
// CHECK-NEXT:    %[[LO:.*]] = graph.constant dense<-1.280000e+02> : tensor<f32>
// CHECK-NEXT:    %[[HI:.*]] = graph.constant dense<1.270000e+02> : tensor<f32>
// CHECK-NEXT:    %[[C:.*]] = graph.clip %[[S]], %[[LO]], %[[HI]]
// CHECK-NEXT:    %y = graph.cast %[[C]] {to = i8} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xi8>

// clip(round((sa * (a - za) + sb * (b - zb)) / sy) + zy): each operand's real value in f32.
// CHECK-LABEL: func.func @add
// CHECK:         %[[A:.*]] = graph.sub %{{.*}}, %{{.*}} : (tensor<2x4xi32>, tensor<i32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %[[AF:.*]] = graph.cast %[[A]] {to = f32}
// CHECK-NEXT:    %[[RA:.*]] = graph.mul %sa, %[[AF]]
// CHECK:         %[[RB:.*]] = graph.mul %sb, %{{.*}} : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[RA]], %[[RB]] : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[V:.*]] = graph.div %[[S]], %sy
// CHECK:         graph.round %[[V]]
// CHECK:         graph.clip
// CHECK-NEXT:    %y = graph.cast %{{.*}} {to = ui8}

// round(clip(v, lo - zy, hi - zy) + zy), v = (a - za) * (b - zb) * (sa * sb / sy): zy added before rounding.
// CHECK-LABEL: func.func @mul
// CHECK:         %[[P:.*]] = graph.mul %{{.*}}, %{{.*}} : (tensor<2x4xi32>, tensor<4xi32>) -> tensor<2x4xi32>
// CHECK-NEXT:    %[[SS:.*]] = graph.mul %sa, %sb : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[M:.*]] = graph.div %[[SS]], %sy
// CHECK-NEXT:    %[[PF:.*]] = graph.cast %[[P]] {to = f32}
// CHECK-NEXT:    %[[V:.*]] = graph.mul %[[PF]], %[[M]]
// CHECK-NEXT:    %[[Z:.*]] = graph.cast %zy {to = f32}
// CHECK:         %[[LO:.*]] = graph.sub %{{.*}}, %[[Z]]
// CHECK-NEXT:    %[[HI:.*]] = graph.sub %{{.*}}, %[[Z]]
// CHECK-NEXT:    %[[C:.*]] = graph.clip %[[V]], %[[LO]], %[[HI]]
// CHECK-NEXT:    %[[W:.*]] = graph.add %[[C]], %[[Z]]
// CHECK-NEXT:    %[[R:.*]] = graph.round %[[W]]
// CHECK-NEXT:    %y = graph.cast %[[R]] {to = i8}

// requantize(sum(x - zx), sx, sy * count, zy): an int32 sum over H and W, the count (49) in f32.
// CHECK-LABEL: func.func @global_avg_pool
// CHECK:         %[[D:.*]] = graph.sub %{{.*}}, %{{.*}} : (tensor<1x8x7x7xi32>, tensor<i32>) -> tensor<1x8x7x7xi32>
// CHECK-NEXT:    %[[AX:.*]] = graph.constant dense<[2, 3]> : tensor<2xi64>
// CHECK-NEXT:    %[[SUM:.*]] = graph.reduce_sum %[[D]], %[[AX]] : (tensor<1x8x7x7xi32>, tensor<2xi64>) -> tensor<1x8x1x1xi32>
// CHECK-NEXT:    %[[N:.*]] = graph.constant dense<4.900000e+01> : tensor<f32>
// CHECK-NEXT:    %[[SN:.*]] = graph.mul %sy, %[[N]]
// CHECK-NEXT:    %[[M:.*]] = graph.div %sx, %[[SN]]
// CHECK-NEXT:    %[[SF:.*]] = graph.cast %[[SUM]] {to = f32}
// CHECK-NEXT:    %[[V:.*]] = graph.mul %[[SF]], %[[M]]
// CHECK:         graph.round %[[V]]

// round(clip(average_pool(sx * (x - zx)) / sy, lo - zy, hi - zy) + zy): zy added before rounding.
// CHECK-LABEL: func.func @avg_pool
// CHECK:         %[[R:.*]] = graph.mul %sx, %{{.*}} : (tensor<f32>, tensor<1x8x7x7xf32>) -> tensor<1x8x7x7xf32>
// CHECK-NEXT:    %[[P:.*]] = graph.average_pool %[[R]] {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT:    %[[V:.*]] = graph.div %[[P]], %sy
// CHECK-NEXT:    %[[Z:.*]] = graph.cast %zy {to = f32}
// CHECK:         %[[C:.*]] = graph.clip %[[V]]
// CHECK-NEXT:    %[[W:.*]] = graph.add %[[C]], %[[Z]]
// CHECK-NEXT:    graph.round %[[W]]
// CHECK-NOT:     qnn.

// A conv by constant weights, its bias, requantize and clip: one qnn.conv_requant.
// w' = w - w_zero_point (per channel: 0, 1); bias' = b - x_zero_point * sum(w') per
// channel: 100 - 10 * 6 = 40, -100 - 10 * 2 = -120; the multiplier 0.5 * [0.25, 0.75] / 2
// in f32; the clip's 3 is the clamp's lo.
// CHECK-LABEL: func.func @conv_requant
// CHECK:         %[[ZY:.*]] = graph.constant dense<3> : tensor<ui8>
// CHECK-NEXT:    %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}1, -2]], {{\[\[}}3, 4]]], {{\[\[\[}}-1, 4]], {{\[\[}}-7, 6]]]]> : tensor<2x2x1x2xi16>
// CHECK-NEXT:    %[[B:.*]] = graph.constant dense<[40, -120]> : tensor<2xi32>
// CHECK-NEXT:    %[[M:.*]] = graph.constant dense<[6.250000e-02, 1.875000e-01]> : tensor<2xf32>
// CHECK-NEXT:    %y = qnn.conv_requant %x, %[[W]], %[[B]], %[[M]], %[[ZY]] {x_zero_point = 10 : i64, lo = 3 : i64, hi = 255 : i64, kernel_shape = array<i64: 1, 2>, pads = array<i64: 0, 0, 0, 1>}
// CHECK-NOT:     qnn.conv
// CHECK-NOT:     qnn.requantize
// CHECK-NOT:     graph.clip
// CHECK:         func.return %y

// A matmul: bias' = 0 - (-2) * sum_k(w') per column = [18, 8]; one multiplier 0.1 / 0.3.
// CHECK-LABEL: func.func @matmul_requant
// CHECK:         %[[W:.*]] = graph.constant dense<{{\[\[}}1, 2], [3, -4], [5, 6]]> : tensor<3x2xi16>
// CHECK-NEXT:    %[[B:.*]] = graph.constant dense<[18, 8]> : tensor<2xi32>
// CHECK-NEXT:    %[[M:.*]] = graph.constant dense<0.333333313> : tensor<1xf32>
// CHECK-NEXT:    %y = qnn.matmul_requant %a, %[[W]], %[[B]], %[[M]], %{{.*}} {x_zero_point = -2 : i64, lo = -128 : i64, hi = 127 : i64, n = 2 : i64}

// qnn.quantize and qnn.dequantize are graph's quantize_linear and dequantize_linear.
// CHECK-LABEL: func.func @quantize
// CHECK-NEXT:    %y = graph.quantize_linear %x, %s, %z {axis = 0 : i64, to = i8} : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    func.return %y
// CHECK-LABEL: func.func @dequantize
// CHECK-NEXT:    %y = graph.dequantize_linear %x, %s, %z : (tensor<2x3xui8>, tensor<3xf32>, tensor<ui8>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %y

// qnn.concat: a in the result's parameters is copied; b (another scale) and c (another
// type) are requantized, quantize_linear(dequantize_linear(x)); d's parameters are known
// at run time only: copied where they equal the result's, else requantized.
// CHECK-LABEL: func.func @concat
// CHECK:         %[[FB:.*]] = graph.dequantize_linear %b, %sb, %zy
// CHECK-NEXT:    %[[QB:.*]] = graph.quantize_linear %[[FB]], %sy, %zy {to = ui8} : (tensor<2x1xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x1xui8>
// CHECK-NEXT:    %[[FC:.*]] = graph.dequantize_linear %c, %sc, %zc : (tensor<2x2xi8>, tensor<f32>, tensor<i8>) -> tensor<2x2xf32>
// CHECK-NEXT:    %[[QC:.*]] = graph.quantize_linear %[[FC]], %sy, %zy {to = ui8}
// CHECK-NEXT:    %[[FD:.*]] = graph.dequantize_linear %d, %sd, %zd
// CHECK-NEXT:    %[[QD:.*]] = graph.quantize_linear %[[FD]], %sy, %zy {to = ui8}
// CHECK-NEXT:    %[[ES:.*]] = graph.equal %sd, %sy
// CHECK-NEXT:    %[[EZ:.*]] = graph.equal %zd, %zy
// CHECK-NEXT:    %[[E:.*]] = graph.and %[[ES]], %[[EZ]]
// CHECK-NEXT:    %[[D:.*]] = graph.where %[[E]], %d, %[[QD]] : (tensor<i1>, tensor<2x2xui8>, tensor<2x2xui8>) -> tensor<2x2xui8>
// CHECK-NEXT:    %y = graph.concat %a, %[[QB]], %[[QC]], %[[D]] {axis = 1 : i64} : (tensor<2x3xui8>, tensor<2x1xui8>, tensor<2x2xui8>, tensor<2x2xui8>) -> tensor<2x8xui8>
// CHECK-NEXT:    func.return %y
// CHECK-NOT:     qnn.

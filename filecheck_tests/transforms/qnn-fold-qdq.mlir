// qnn-fold-qdq: DequantizeLinear → float op → QuantizeLinear as the qnn op of the float op.
// RUN: infer-opt %s -p qnn-fold-qdq | filecheck %s
// graph-optimize runs it first from level 1 (before folding dequantizes the weights):
// RUN: infer-opt %s -p 'graph-optimize{level=1}' | filecheck %s --check-prefix=OPT

builtin.module {
  func.func @conv(%x: tensor<1x3x8x8xui8>) -> tensor<1x2x8x8xui8> {
    %sx = graph.constant dense<0.5> : tensor<f32>
    %zx = graph.constant dense<128> : tensor<ui8>
    %w = graph.constant dense<3> : tensor<2x3x3x3xi8>
    %sw = graph.constant dense<[0.25, 0.125]> : tensor<2xf32>
    %zw = graph.constant dense<0> : tensor<2xi8>
    %b = graph.constant dense<[100, -100]> : tensor<2xi32>
    %sb = graph.constant dense<[0.125, 0.0625]> : tensor<2xf32>
    %zb = graph.constant dense<0> : tensor<2xi32>
    %sy = graph.constant dense<0.75> : tensor<f32>
    %zy = graph.constant dense<10> : tensor<ui8>
    %fx = graph.dequantize_linear %x, %sx, %zx : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xf32>
    %fw = graph.dequantize_linear %w, %sw, %zw {axis = 0 : i64} : (tensor<2x3x3x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3x3x3xf32>
    %fb = graph.dequantize_linear %b, %sb, %zb {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
    %c = graph.conv %fx, %fw, %fb {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x8x8xf32>
    %r = graph.relu %c : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %y = graph.quantize_linear %r, %sy, %zy {to = ui8} : (tensor<1x2x8x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x8x8xui8>
    func.return %y : tensor<1x2x8x8xui8>
  }
  func.func @conv_bias_of_another_scale(%x: tensor<1x3x8x8xui8>) -> tensor<1x2x6x6xui8> {
    %sx = graph.constant dense<0.5> : tensor<f32>
    %zx = graph.constant dense<128> : tensor<ui8>
    %w = graph.constant dense<3> : tensor<2x3x3x3xi8>
    %sw = graph.constant dense<0.25> : tensor<f32>
    %b = graph.constant dense<[100, -100]> : tensor<2xi32>
    %sb = graph.constant dense<0.5> : tensor<f32>
    %sy = graph.constant dense<0.75> : tensor<f32>
    %zy = graph.constant dense<10> : tensor<ui8>
    %fx = graph.dequantize_linear %x, %sx, %zx : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xf32>
    %fw = graph.dequantize_linear %w, %sw : (tensor<2x3x3x3xi8>, tensor<f32>) -> tensor<2x3x3x3xf32>
    %fb = graph.dequantize_linear %b, %sb : (tensor<2xi32>, tensor<f32>) -> tensor<2xf32>
    %c = graph.conv %fx, %fw, %fb : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x6x6xf32>
    %y = graph.quantize_linear %c, %sy, %zy {to = ui8} : (tensor<1x2x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x6x6xui8>
    func.return %y : tensor<1x2x6x6xui8>
  }
  func.func @gemm(%a: tensor<4x16xi8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4x8xi8> {
    %w = graph.constant dense<1> : tensor<8x16xi8>
    %sw = graph.constant dense<0.5> : tensor<f32>
    %fa = graph.dequantize_linear %a, %s, %z : (tensor<4x16xi8>, tensor<f32>, tensor<i8>) -> tensor<4x16xf32>
    %fw = graph.dequantize_linear %w, %sw : (tensor<8x16xi8>, tensor<f32>) -> tensor<8x16xf32>
    %g = graph.gemm %fa, %fw {transB = 1 : i64} : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
    %y = graph.quantize_linear %g, %s, %z {to = i8} : (tensor<4x8xf32>, tensor<f32>, tensor<i8>) -> tensor<4x8xi8>
    func.return %y : tensor<4x8xi8>
  }
  func.func @add_then_max_pool(%a: tensor<1x2x4x4xui8>, %b: tensor<1x2x4x4xui8>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<1x2x2x2xui8> {
    %so = graph.constant dense<0.5> : tensor<f32>
    %zo = graph.constant dense<3> : tensor<ui8>
    %fa = graph.dequantize_linear %a, %s, %z : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
    %fb = graph.dequantize_linear %b, %s, %z : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
    %sum = graph.add %fa, %fb : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %q = graph.quantize_linear %sum, %so, %zo {to = ui8} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
    %fq = graph.dequantize_linear %q, %so, %zo : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
    %m = graph.max_pool %fq {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
    %y = graph.quantize_linear %m, %so, %zo {to = ui8} : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x2x2xui8>
    func.return %y : tensor<1x2x2x2xui8>
  }
  func.func @pools(%x: tensor<1x2x4x4xui8>, %s: tensor<f32>, %z: tensor<ui8>) -> (tensor<1x2x4x4xui8>, tensor<1x2x1x1xui8>) {
    %fx = graph.dequantize_linear %x, %s, %z : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
    %a = graph.average_pool %fx {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %qa = graph.quantize_linear %a, %s, %z {to = ui8} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
    %g = graph.global_average_pool %fx : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
    %qg = graph.quantize_linear %g, %s, %z {to = ui8} : (tensor<1x2x1x1xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x1x1xui8>
    func.return %qa, %qg : tensor<1x2x4x4xui8>, tensor<1x2x1x1xui8>
  }
  func.func @matmul_scale_along_k(%a: tensor<4x3xui8>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<4x2xui8> {
    %b = graph.constant dense<1> : tensor<3x2xi8>
    %sb = graph.constant dense<[0.5, 0.25, 0.125]> : tensor<3xf32>
    %zb = graph.constant dense<0> : tensor<3xi8>
    %fa = graph.dequantize_linear %a, %s, %z : (tensor<4x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<4x3xf32>
    %fb = graph.dequantize_linear %b, %sb, %zb {axis = 0 : i64} : (tensor<3x2xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<3x2xf32>
    %m = graph.matmul %fa, %fb : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
    %y = graph.quantize_linear %m, %s, %z {to = ui8} : (tensor<4x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x2xui8>
    func.return %y : tensor<4x2xui8>
  }
  func.func @concat_of_scales(%a: tensor<1x2x4xui8>, %b: tensor<1x3x4xui8>, %c: tensor<1x1x4xui8>) -> tensor<1x6x4xui8> {
    %sa = graph.constant dense<0.5> : tensor<f32>
    %za = graph.constant dense<128> : tensor<ui8>
    %sb = graph.constant dense<0.25> : tensor<f32>
    %fa = graph.dequantize_linear %a, %sa, %za : (tensor<1x2x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4xf32>
    %fb = graph.dequantize_linear %b, %sb : (tensor<1x3x4xui8>, tensor<f32>) -> tensor<1x3x4xf32>
    %fc = graph.dequantize_linear %c, %sa, %za : (tensor<1x1x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x1x4xf32>
    %cat = graph.concat %fa, %fb, %fc {axis = 1 : i64} : (tensor<1x2x4xf32>, tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x6x4xf32>
    %y = graph.quantize_linear %cat, %sa, %za {to = ui8} : (tensor<1x6x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x6x4xui8>
    func.return %y : tensor<1x6x4xui8>
  }
  func.func @concat_of_one_scale(%a: tensor<2x4xi8>, %b: tensor<3x4xi8>) -> tensor<5x4xi8> {
    %s = graph.constant dense<0.5> : tensor<f32>
    %z = graph.constant dense<-3> : tensor<i8>
    %fa = graph.dequantize_linear %a, %s, %z : (tensor<2x4xi8>, tensor<f32>, tensor<i8>) -> tensor<2x4xf32>
    %fb = graph.dequantize_linear %b, %s, %z : (tensor<3x4xi8>, tensor<f32>, tensor<i8>) -> tensor<3x4xf32>
    %cat = graph.concat %fa, %fb {axis = 0 : i64} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
    %y = graph.quantize_linear %cat, %s, %z {to = i8} : (tensor<5x4xf32>, tensor<f32>, tensor<i8>) -> tensor<5x4xi8>
    func.return %y : tensor<5x4xi8>
  }
  func.func @concat_of_a_negative_scale(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<8xui8> {
    %s = graph.constant dense<0.5> : tensor<f32>
    %neg = graph.constant dense<-0.25> : tensor<f32>
    %z = graph.constant dense<1> : tensor<ui8>
    %fa = graph.dequantize_linear %a, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
    %fb = graph.dequantize_linear %b, %neg, %z : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
    %cat = graph.concat %fa, %fb {axis = 0 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
    %y = graph.quantize_linear %cat, %s, %z {to = ui8} : (tensor<8xf32>, tensor<f32>, tensor<ui8>) -> tensor<8xui8>
    func.return %y : tensor<8xui8>
  }
  func.func @boundaries(%x: tensor<2x3xf32>, %q: tensor<2x3xi8>, %b: tensor<3xi32>, %s: tensor<f32>) -> (tensor<2x3xi8>, tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xui8>, tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xi8>) {
    %s3 = graph.constant dense<[0.5, 0.25, 0.125]> : tensor<3xf32>
    %z3 = graph.constant dense<[-1, 0, 1]> : tensor<3xi8>
    %s1 = graph.constant dense<0.5> : tensor<f32>
    %z1 = graph.constant dense<7> : tensor<i32>
    %s12 = graph.constant dense<0.5> : tensor<2x2xf32>
    %qx = graph.quantize_linear %x, %s3, %z3 {axis = -1 : i64, to = i8} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xi8>
    %fq = graph.dequantize_linear %q, %s3, %z3 : (tensor<2x3xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xf32>
    %fb = graph.dequantize_linear %b, %s1 {axis = 0 : i64} : (tensor<3xi32>, tensor<f32>) -> tensor<3xf32>
    %qu = graph.quantize_linear %x, %s {to = ui8} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xui8>
    %fblock = graph.dequantize_linear %q, %s12 {axis = 1 : i64, block_size = 2 : i64} : (tensor<2x3xi8>, tensor<2x2xf32>) -> tensor<2x3xf32>
    %fz = graph.dequantize_linear %b, %s1, %z1 : (tensor<3xi32>, tensor<f32>, tensor<i32>) -> tensor<3xf32>
    %qs = graph.quantize_linear %x, %s1 {to = i8} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi8>
    func.return %qx, %fq, %fb, %qu, %fblock, %fz, %qs : tensor<2x3xi8>, tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xui8>, tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xi8>
  }
  func.func @add_of_a_zero_scale(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
    %s = graph.constant dense<0.5> : tensor<f32>
    %zero = graph.constant dense<0.0> : tensor<f32>
    %z = graph.constant dense<1> : tensor<ui8>
    %fa = graph.dequantize_linear %a, %zero, %z : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
    %fb = graph.dequantize_linear %b, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
    %sum = graph.add %fa, %fb : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %y = graph.quantize_linear %sum, %s, %z {to = ui8} : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
    func.return %y : tensor<4xui8>
  }
  func.func @max_pool_of_a_negative_scale(%x: tensor<1x1x2x2xui8>) -> tensor<1x1x1x1xui8> {
    %neg = graph.constant dense<-0.5> : tensor<f32>
    %z = graph.constant dense<1> : tensor<ui8>
    %fx = graph.dequantize_linear %x, %neg, %z : (tensor<1x1x2x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x1x2x2xf32>
    %m = graph.max_pool %fx {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32>
    %y = graph.quantize_linear %m, %neg, %z {to = ui8} : (tensor<1x1x1x1xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x1x1x1xui8>
    func.return %y : tensor<1x1x1x1xui8>
  }
}

// conv(DQ(x), DQ(w), DQ(b)) then Relu: the int32 conv plus the bias, requantized per output
// channel by sx * sw, then clamped to [Q(0), 255] = [zy, 255].
// CHECK-LABEL: func.func @conv
// CHECK:         %[[ACC:.*]] = qnn.conv %x, %w, %zx, %zw {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xui8>, tensor<2x3x3x3xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<1x2x8x8xi32>
// CHECK:         %[[BIAS:.*]] = graph.reshape %b, %{{.*}} -> tensor<2x1x1xi32>
// CHECK-NEXT:    %[[SUM:.*]] = graph.add %[[ACC]], %[[BIAS]]
// CHECK-NEXT:    %[[S:.*]] = graph.mul %sx, %sw : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[Q:.*]] = qnn.requantize %[[SUM]], %[[S]], %sy, %zy : (tensor<1x2x8x8xi32>, tensor<2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x8x8xui8>
// CHECK-NEXT:    %[[LO:.*]] = graph.constant dense<10> : tensor<ui8>
// CHECK-NEXT:    %[[HI:.*]] = graph.constant dense<255> : tensor<ui8>
// CHECK-NEXT:    %y = graph.clip %[[Q]], %[[LO]], %[[HI]] : (tensor<1x2x8x8xui8>, tensor<ui8>, tensor<ui8>) -> tensor<1x2x8x8xui8>
// CHECK-NOT:     graph.conv

// A bias whose scale is not sx * sw does not fit the int32 sum: the conv stays float,
// between qnn.dequantize of its operands (0 of their types where DQ has no zero point)
// and qnn.quantize of its result.
// CHECK-LABEL: func.func @conv_bias_of_another_scale
// CHECK-NOT:     qnn.conv
// CHECK:         %fx = qnn.dequantize %x, %sx, %zx : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x8x8xf32>
// CHECK-NEXT:    %[[ZW:.*]] = graph.constant dense<0> : tensor<i8>
// CHECK-NEXT:    %fw = qnn.dequantize %w, %sw, %[[ZW]]
// CHECK-NEXT:    %[[ZB:.*]] = graph.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %fb = qnn.dequantize %b, %sb, %[[ZB]] : (tensor<2xi32>, tensor<f32>, tensor<i32>) -> tensor<2xf32>
// CHECK-NEXT:    %c = graph.conv %fx, %fw, %fb
// CHECK-NEXT:    %y = qnn.quantize %c, %sy, %zy : (tensor<1x2x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x6x6xui8>
// CHECK-NOT:     qnn.conv

// gemm with transB: b transposed (an 8-bit constant), then qnn.matmul, requantized along columns.
// CHECK-LABEL: func.func @gemm
// CHECK:         %[[WT:.*]] = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<8x16xi8>) -> tensor<16x8xi8>
// CHECK:         %[[P:.*]] = qnn.matmul %a, %[[WT]], %z, %{{.*}} : (tensor<4x16xi8>, tensor<16x8xi8>, tensor<i8>, tensor<i8>) -> tensor<4x8xi32>
// CHECK-NEXT:    %[[S:.*]] = graph.mul %s, %sw
// CHECK-NEXT:    %y = qnn.requantize %[[P]], %[[S]], %s, %z {axis = -1 : i64}

// DQ + DQ is qnn.add; a max pool in one scale and zero point is the max pool of the 8-bit values.
// CHECK-LABEL: func.func @add_then_max_pool
// CHECK:         %[[Q:.*]] = qnn.add %a, %s, %z, %b, %s, %z, %so, %zo
// CHECK-NEXT:    %y = graph.max_pool %[[Q]] {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xui8>) -> tensor<1x2x2x2xui8>

// CHECK-LABEL: func.func @pools
// CHECK:         %{{.*}} = qnn.avg_pool %x, %s, %z, %s, %z {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}
// CHECK:         %{{.*}} = qnn.global_avg_pool %x, %s, %z, %s, %z

// b's scales along K (rows) do not factor out of the sum: the matmul stays float. a's
// parameters are arguments, not constants: its dequantize and the quantize stay graph ops.
// CHECK-LABEL: func.func @matmul_scale_along_k
// CHECK-NOT:     qnn.matmul
// CHECK:         %fa = graph.dequantize_linear %a, %s, %z
// CHECK-NEXT:    %fb = qnn.dequantize %b, %sb, %zb {axis = 0 : i64} : (tensor<3x2xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<3x2xf32>
// CHECK-NEXT:    %m = graph.matmul %fa, %fb
// CHECK-NEXT:    %y = graph.quantize_linear %m, %s, %z {to = ui8}

// Inputs in scales and zero points of their own (b's zero point 0 where DQ has none):
// one qnn.concat, which requantizes each to the result's parameters.
// CHECK-LABEL: func.func @concat_of_scales
// CHECK:         %[[ZB:.*]] = graph.constant dense<0> : tensor<ui8>
// CHECK-NEXT:    %y = qnn.concat %a, %sa, %za, %b, %sb, %[[ZB]], %c, %sa, %za, %sa, %za {axis = 1 : i64} : (tensor<1x2x4xui8>, tensor<f32>, tensor<ui8>, tensor<1x3x4xui8>, tensor<f32>, tensor<ui8>, tensor<1x1x4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x6x4xui8>
// CHECK-NEXT:    func.return %y

// One scale and zero point throughout: the concat of the 8-bit values.
// CHECK-LABEL: func.func @concat_of_one_scale
// CHECK-NEXT:    %y = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x4xi8>, tensor<3x4xi8>) -> tensor<5x4xi8>
// CHECK-NEXT:    func.return %y

// A scale that is not positive fits no qnn op: that dequantize and the concat stay float.
// CHECK-LABEL: func.func @concat_of_a_negative_scale
// CHECK:         %fa = qnn.dequantize %a, %s, %z
// CHECK-NEXT:    %fb = graph.dequantize_linear %b, %neg, %z
// CHECK-NEXT:    %cat = graph.concat %fa, %fb
// CHECK-NEXT:    %y = qnn.quantize %cat, %s, %z

// Quantizes and dequantizes at the float boundaries: per axis (axis -1 is 1, the default),
// int32 with zero point 0, and a quantize without zero point (0 of its `to`) become qnn
// ops; a scale that is an argument, blocked parameters, and an int32 zero point other than
// 0 stay graph ops.
// CHECK-LABEL: func.func @boundaries
// CHECK:         %qx = qnn.quantize %x, %s3, %z3 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT:    %fq = qnn.dequantize %q, %s3, %z3 : (tensor<2x3xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[Z32:.*]] = graph.constant dense<0> : tensor<i32>
// CHECK-NEXT:    %fb = qnn.dequantize %b, %s1, %[[Z32]] : (tensor<3xi32>, tensor<f32>, tensor<i32>) -> tensor<3xf32>
// CHECK-NEXT:    %qu = graph.quantize_linear %x, %s {to = ui8}
// CHECK-NEXT:    %fblock = graph.dequantize_linear %q, %s12 {block_size = 2 : i64}
// CHECK-NEXT:    %fz = graph.dequantize_linear %b, %s1, %z1
// CHECK-NEXT:    %[[Z8:.*]] = graph.constant dense<0> : tensor<i8>
// CHECK-NEXT:    %qs = qnn.quantize %x, %s1, %[[Z8]] : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>

// A scale that is not positive fits no qnn op (a zero one would divide by zero; a max of
// negatively scaled reals is the min of their integers): the float ops stay.
// CHECK-LABEL: func.func @add_of_a_zero_scale
// CHECK:         %fa = graph.dequantize_linear %a, %zero, %z
// CHECK-NEXT:    %fb = qnn.dequantize %b, %s, %z
// CHECK-NEXT:    %sum = graph.add %fa, %fb
// CHECK-NEXT:    %y = qnn.quantize %sum, %s, %z
// CHECK-LABEL: func.func @max_pool_of_a_negative_scale
// CHECK:         %fx = graph.dequantize_linear %x, %neg, %z
// CHECK-NEXT:    %m = graph.max_pool %fx
// CHECK-NEXT:    %y = graph.quantize_linear %m, %neg, %z

// OPT-LABEL:   func.func @conv
// OPT:           qnn.conv
// OPT:           qnn.requantize
// OPT-LABEL:   func.func @conv_bias_of_another_scale
// OPT-NOT:       qnn.conv
// OPT:           qnn.dequantize %x
// OPT:           %fw = graph.constant {{.*}} : tensor<2x3x3x3xf32>
// OPT:           graph.conv
// OPT-NEXT:      qnn.quantize
// OPT-LABEL:   func.func @gemm

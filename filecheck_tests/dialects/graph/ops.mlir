// Every graph op parses, verifies, prints and round-trips (print(parse(print(x))) == print(x)).
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @elementwise(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %i: tensor<2x3xi32>, %c: tensor<2x3xi1>) -> tensor<2x3xf32> {
    %relu = graph.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %sigmoid = graph.sigmoid %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %tanh = graph.tanh %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %exp = graph.exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %log = graph.log %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %sqrt = graph.sqrt %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %erf = graph.erf %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %reciprocal = graph.reciprocal %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %floor = graph.floor %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %ceil = graph.ceil %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %neg = graph.neg %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
    %abs = graph.abs %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
    %identity = graph.identity %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %dropout = graph.dropout %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %leaky_relu = graph.leaky_relu %x {alpha = 1.000000e-01 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %hard_sigmoid = graph.hard_sigmoid %x {alpha = 1.000000e-01 : f32, beta = 2.500000e-01 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %hard_swish = graph.hard_swish %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %gelu = graph.gelu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %gelu_tanh = graph.gelu %x {approximate = "tanh"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %lo = graph.constant dense<0.000000e+00> : tensor<f32>
    %hi = graph.constant dense<6.000000e+00> : tensor<f32>
    %clip = graph.clip %x, %lo, %hi : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
    %cast = graph.cast %x {to = i64} : (tensor<2x3xf32>) -> tensor<2x3xi64>
    %cast_u8 = graph.cast %i {to = ui8} : (tensor<2x3xi32>) -> tensor<2x3xui8>
    %cast_f8 = graph.cast %x {to = f8E4M3FN, saturate = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf8E4M3FN>
    %cast_e8m0 = graph.cast %x {to = f8E8M0FNU, round_mode = "nearest"} : (tensor<2x3xf32>) -> tensor<2x3xf8E8M0FNU>
    %cast_i4 = graph.cast %cast_f8 {to = i4} : (tensor<2x3xf8E4M3FN>) -> tensor<2x3xi4>
    %bit_cast = graph.bit_cast %x {to = i32} : (tensor<2x3xf32>) -> tensor<2x3xi32>
    %add = graph.add %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %sub = graph.sub %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %mul = graph.mul %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %div = graph.div %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %pow = graph.pow %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %equal = graph.equal %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %less = graph.less %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
    %greater = graph.greater %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
    %where = graph.where %c, %x, %y : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %sum = graph.sum %x, %y, %x : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %max = graph.max %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %min = graph.min %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %mean = graph.mean %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    func.return %mean : tensor<2x3xf32>
  }
  func.func @linalg_conv(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %a: tensor<2x5xf32>, %m: tensor<5x6xf32>, %batch: tensor<7x1x5x6xf32>) -> tensor<?x4x4x4xf32> {
    %matmul = graph.matmul %a, %m : (tensor<2x5xf32>, tensor<5x6xf32>) -> tensor<2x6xf32>
    %matmul_batched = graph.matmul %a, %batch : (tensor<2x5xf32>, tensor<7x1x5x6xf32>) -> tensor<7x1x2x6xf32>
    %gemm = graph.gemm %a, %m : (tensor<2x5xf32>, tensor<5x6xf32>) -> tensor<2x6xf32>
    %gb = graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
    %gemm_bias = graph.gemm %m, %a, %gb {alpha = 2.000000e+00 : f32, beta = 5.000000e-01 : f32, transA = 1 : i64, transB = 1 : i64} : (tensor<5x6xf32>, tensor<2x5xf32>, tensor<2xf32>) -> tensor<6x2xf32>
    %conv = graph.conv %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x4x4xf32>
    %conv_nobias = graph.conv %x, %w {dilations = array<i64: 2, 2>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x4x4xf32>
    %max_pool = graph.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, ceil_mode = 1 : i64} : (tensor<?x3x8x8xf32>) -> tensor<?x3x4x4xf32>
    %average_pool = graph.average_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, count_include_pad = 1 : i64} : (tensor<?x3x8x8xf32>) -> tensor<?x3x4x4xf32>
    %gap = graph.global_average_pool %x : (tensor<?x3x8x8xf32>) -> tensor<?x3x1x1xf32>
    %gmp = graph.global_max_pool %x : (tensor<?x3x8x8xf32>) -> tensor<?x3x1x1xf32>
    %p = graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
    %bn = graph.batch_normalization %x, %p, %p, %p, %p {epsilon = 1.000000e-03 : f32} : (tensor<?x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3x8x8xf32>
    %lrn = graph.lrn %x {size = 3 : i64, alpha = 2.000000e-04 : f32} : (tensor<?x3x8x8xf32>) -> tensor<?x3x8x8xf32>
    %softmax = graph.softmax %x {axis = 1 : i64} : (tensor<?x3x8x8xf32>) -> tensor<?x3x8x8xf32>
    %log_softmax = graph.log_softmax %x : (tensor<?x3x8x8xf32>) -> tensor<?x3x8x8xf32>
    func.return %conv : tensor<?x4x4x4xf32>
  }
  func.func @reductions(%x: tensor<?x3x8xf32>) -> tensor<?x3xf32> {
    %axes = graph.constant dense<-1> : tensor<1xi64>
    %reduce_mean = graph.reduce_mean %x, %axes {keepdims = 0 : i64} : (tensor<?x3x8xf32>, tensor<1xi64>) -> tensor<?x3xf32>
    %reduce_sum = graph.reduce_sum %x : (tensor<?x3x8xf32>) -> tensor<1x1x1xf32>
    %reduce_max = graph.reduce_max %x, %axes : (tensor<?x3x8xf32>, tensor<1xi64>) -> tensor<?x3x1xf32>
    %empty = graph.constant dense<> : tensor<0xi64>
    %reduce_min = graph.reduce_min %x, %empty {noop_with_empty_axes = 1 : i64} : (tensor<?x3x8xf32>, tensor<0xi64>) -> tensor<?x3x8xf32>
    func.return %reduce_mean : tensor<?x3xf32>
  }
  func.func @shapes(%x: tensor<?x3x4xf32>, %s: tensor<2xi64>, %idx: tensor<5xi32>) -> tensor<?x12xf32> {
    %c0 = graph.constant dense<[0, 12]> : tensor<2xi64>
    %reshape = graph.reshape %x, %c0 : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x12xf32>
    %reshape_dyn = graph.reshape %x, %s : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %reshape_zero = graph.reshape %x, %s {allowzero = 1 : i64} : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %flatten = graph.flatten %x {axis = 2 : i64} : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
    %transpose = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<?x3x4xf32>) -> tensor<4x?x3xf32>
    %transpose_rev = graph.transpose %x : (tensor<?x3x4xf32>) -> tensor<4x3x?xf32>
    %channel_shuffle = graph.channel_shuffle %x {groups = 3 : i64} : (tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
    %shape = graph.shape %x : (tensor<?x3x4xf32>) -> tensor<3xi64>
    %shape_tail = graph.shape %x {start = 1 : i64, end = 3 : i64} : (tensor<?x3x4xf32>) -> tensor<2xi64>
    %size = graph.size %x : (tensor<?x3x4xf32>) -> tensor<i64>
    %gather = graph.gather %x, %idx {axis = 2 : i64} : (tensor<?x3x4xf32>, tensor<5xi32>) -> tensor<?x3x5xf32>
    %starts = graph.constant dense<[1, 0]> : tensor<2xi64>
    %ends = graph.constant dense<[3, -1]> : tensor<2xi64>
    %axes = graph.constant dense<[1, 2]> : tensor<2xi64>
    %steps = graph.constant dense<[1, 2]> : tensor<2xi64>
    %slice = graph.slice %x, %starts, %ends, %axes, %steps : (tensor<?x3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x2x2xf32>
    %concat = graph.concat %x, %x {axis = 1 : i64} : (tensor<?x3x4xf32>, tensor<?x3x4xf32>) -> tensor<?x6x4xf32>
    %ax = graph.constant dense<[0, 3]> : tensor<2xi64>
    %unsqueeze = graph.unsqueeze %x, %ax : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<1x?x3x1x4xf32>
    %ax0 = graph.constant dense<0> : tensor<1xi64>
    %squeeze = graph.squeeze %unsqueeze, %ax0 : (tensor<1x?x3x1x4xf32>, tensor<1xi64>) -> tensor<?x3x1x4xf32>
    %to = graph.constant dense<[2, 1, 3, 1]> : tensor<4xi64>
    %expand = graph.expand %x, %to : (tensor<?x3x4xf32>, tensor<4xi64>) -> tensor<2x?x3x4xf32>
    %split = graph.constant dense<[1, 3]> : tensor<2xi64>
    %s0, %s1 = graph.split %x, %split {axis = -1 : i64, num_outputs = 2 : i64} : (tensor<?x3x4xf32>, tensor<2xi64>) -> (tensor<?x3x1xf32>, tensor<?x3x3xf32>)
    %e0, %e1, %e2 = graph.split %x {axis = 1 : i64, num_outputs = 3 : i64} : (tensor<?x3x4xf32>) -> (tensor<?x1x4xf32>, tensor<?x1x4xf32>, tensor<?x1x4xf32>)
    %constant_of_shape = graph.constant_of_shape %s {value = dense<1> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<?x?xi32>
    %zeros = graph.constant_of_shape %c0 : (tensor<2xi64>) -> tensor<0x12xf32>
    %pads = graph.constant dense<[0, 1, 0, 0, 1, 2]> : tensor<6xi64>
    %fill = graph.constant dense<0.000000e+00> : tensor<f32>
    %pad = graph.pad %x, %pads, %fill {mode = "reflect"} : (tensor<?x3x4xf32>, tensor<6xi64>, tensor<f32>) -> tensor<?x5x6xf32>
    func.return %reshape : tensor<?x12xf32>
  }
  func.func @range(%start: tensor<f32>, %limit: tensor<f32>, %delta: tensor<f32>, %n: tensor<1xi32>) -> tensor<?xf32> {
    %zero = graph.constant dense<0> : tensor<i64>
    %ten = graph.constant dense<10> : tensor<i64>
    %three = graph.constant dense<3> : tensor<i64>
    %range = graph.range %zero, %ten, %three : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
    %down = graph.range %ten, %zero, %three : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<0xi64>
    %floats = graph.range %start, %limit, %delta : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
    %ints = graph.range %n, %n, %n : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xi32>
    func.return %floats : tensor<?xf32>
  }
  func.func @constants() -> (tensor<2x3xf32>, tensor<3xi1>, tensor<17xui8>) {
    %small = graph.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
    %bools = graph.constant dense<[true, false, true]> : tensor<3xi1>
    %hex = graph.constant dense<"0x000102030405060708090A0B0C0D0E0F10"> : tensor<17xui8>
    %elided = graph.constant elided<"0123456789ab"> : tensor<64x64xf32>
    func.return %small, %bools, %hex : tensor<2x3xf32>, tensor<3xi1>, tensor<17xui8>
  }
  func.func @transformer(%x: tensor<?x6x16xf32>, %g: tensor<16xf32>, %q: tensor<?x2x6x8xf32>, %kt: tensor<?x2x8x6xf32>, %mask: tensor<6x6xf32>) -> tensor<?x6x16xf32> {
    %ln = graph.layer_normalization %x, %g, %g {axis = -1 : i64, epsilon = 1.000000e-03 : f32} : (tensor<?x6x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x6x16xf32>
    %ln_nobias = graph.layer_normalization %x, %g : (tensor<?x6x16xf32>, tensor<16xf32>) -> tensor<?x6x16xf32>
    %att = graph.attention %q, %q, %q : (tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32>
    %att_kt = graph.attention %q, %kt, %q, %mask {scale = 1.250000e-01 : f32, k_transposed = 1 : i64} : (tensor<?x2x6x8xf32>, tensor<?x2x8x6xf32>, tensor<?x2x6x8xf32>, tensor<6x6xf32>) -> tensor<?x2x6x8xf32>
    func.return %ln : tensor<?x6x16xf32>
  }
  func.func @nchwc(%x: tensor<?x16x8x8xf32>, %w: tensor<4x2x3x3x8x8xf32>, %dw: tensor<2x1x3x3x1x8xf32>, %b: tensor<32xf32>, %b16: tensor<16xf32>) -> tensor<?x32x4x4xf32> {
    %xb = graph.to_nchwc %x {block = 8 : i64} : (tensor<?x16x8x8xf32>) -> tensor<?x2x8x8x8xf32>
    %dwconv = graph.conv_nchwc %xb, %dw, %b16 {pads = array<i64: 1, 1, 1, 1>, group = 16 : i64} : (tensor<?x2x8x8x8xf32>, tensor<2x1x3x3x1x8xf32>, tensor<16xf32>) -> tensor<?x2x8x8x8xf32>
    %conv = graph.conv_nchwc %dwconv, %w, %b {pads = array<i64: 1, 1, 1, 1>, activation = "relu"} : (tensor<?x2x8x8x8xf32>, tensor<4x2x3x3x8x8xf32>, tensor<32xf32>) -> tensor<?x4x8x8x8xf32>
    %sum = graph.conv_nchwc %dwconv, %w, %b, %conv {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x2x8x8x8xf32>, tensor<4x2x3x3x8x8xf32>, tensor<32xf32>, tensor<?x4x8x8x8xf32>) -> tensor<?x4x8x8x8xf32>
    %max_pool = graph.max_pool_nchwc %conv {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x4x8x8x8xf32>) -> tensor<?x4x4x4x8xf32>
    %avg_pool = graph.average_pool_nchwc %max_pool {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = 1 : i64} : (tensor<?x4x4x4x8xf32>) -> tensor<?x4x4x4x8xf32>
    %y = graph.from_nchwc %avg_pool : (tensor<?x4x4x4x8xf32>) -> tensor<?x32x4x4xf32>
    func.return %y : tensor<?x32x4x4xf32>
  }
}

// CHECK:       builtin.module {
// CHECK-LABEL: func.func @elementwise(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %i: tensor<2x3xi32>, %c: tensor<2x3xi1>) -> tensor<2x3xf32> {
// CHECK-NEXT:    %relu = graph.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %sigmoid = graph.sigmoid %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %tanh = graph.tanh %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %exp = graph.exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %log = graph.log %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %sqrt = graph.sqrt %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %erf = graph.erf %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %reciprocal = graph.reciprocal %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %floor = graph.floor %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %ceil = graph.ceil %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %neg = graph.neg %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %abs = graph.abs %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %identity = graph.identity %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %dropout = graph.dropout %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %leaky_relu = graph.leaky_relu %x {alpha = 1.000000e-01 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %hard_sigmoid = graph.hard_sigmoid %x {alpha = 1.000000e-01 : f32, beta = 2.500000e-01 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %hard_swish = graph.hard_swish %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %gelu = graph.gelu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %gelu_tanh = graph.gelu %x {approximate = "tanh"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %lo = graph.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %hi = graph.constant dense<6.000000e+00> : tensor<f32>
// CHECK-NEXT:    %clip = graph.clip %x, %lo, %hi : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %cast = graph.cast %x {to = i64} : (tensor<2x3xf32>) -> tensor<2x3xi64>
// CHECK-NEXT:    %cast_u8 = graph.cast %i {to = ui8} : (tensor<2x3xi32>) -> tensor<2x3xui8>
// CHECK-NEXT:    %cast_f8 = graph.cast %x {to = f8E4M3FN, saturate = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf8E4M3FN>
// CHECK-NEXT:    %cast_e8m0 = graph.cast %x {to = f8E8M0FNU, round_mode = "nearest"} : (tensor<2x3xf32>) -> tensor<2x3xf8E8M0FNU>
// CHECK-NEXT:    %cast_i4 = graph.cast %cast_f8 {to = i4} : (tensor<2x3xf8E4M3FN>) -> tensor<2x3xi4>
// CHECK-NEXT:    %bit_cast = graph.bit_cast %x {to = i32} : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %add = graph.add %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %sub = graph.sub %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %mul = graph.mul %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %div = graph.div %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %pow = graph.pow %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %equal = graph.equal %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %less = graph.less %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %greater = graph.greater %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %where = graph.where %c, %x, %y : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %sum = graph.sum %x, %y, %x : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %max = graph.max %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %min = graph.min %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %mean = graph.mean %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %mean : tensor<2x3xf32>

// CHECK-LABEL: func.func @linalg_conv(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %a: tensor<2x5xf32>, %m: tensor<5x6xf32>, %batch: tensor<7x1x5x6xf32>) -> tensor<?x4x4x4xf32> {
// CHECK-NEXT:    %matmul = graph.matmul %a, %m : (tensor<2x5xf32>, tensor<5x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    %matmul_batched = graph.matmul %a, %batch : (tensor<2x5xf32>, tensor<7x1x5x6xf32>) -> tensor<7x1x2x6xf32>
// CHECK-NEXT:    %gemm = graph.gemm %a, %m : (tensor<2x5xf32>, tensor<5x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    %gb = graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %gemm_bias = graph.gemm %m, %a, %gb {alpha = 2.000000e+00 : f32, beta = 5.000000e-01 : f32, transA = 1 : i64, transB = 1 : i64} : (tensor<5x6xf32>, tensor<2x5xf32>, tensor<2xf32>) -> tensor<6x2xf32>
// CHECK-NEXT:    %conv = graph.conv %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x4x4xf32>
// CHECK-NEXT:    %conv_nobias = graph.conv %x, %w {dilations = array<i64: 2, 2>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x4x4xf32>
// CHECK-NEXT:    %max_pool = graph.max_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, ceil_mode = 1 : i64} : (tensor<?x3x8x8xf32>) -> tensor<?x3x4x4xf32>
// CHECK-NEXT:    %average_pool = graph.average_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, count_include_pad = 1 : i64} : (tensor<?x3x8x8xf32>) -> tensor<?x3x4x4xf32>
// CHECK-NEXT:    %gap = graph.global_average_pool %x : (tensor<?x3x8x8xf32>) -> tensor<?x3x1x1xf32>
// CHECK-NEXT:    %gmp = graph.global_max_pool %x : (tensor<?x3x8x8xf32>) -> tensor<?x3x1x1xf32>
// CHECK-NEXT:    %p = graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %bn = graph.batch_normalization %x, %p, %p, %p, %p {epsilon = 1.000000e-03 : f32} : (tensor<?x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x3x8x8xf32>
// CHECK-NEXT:    %lrn = graph.lrn %x {size = 3 : i64, alpha = 2.000000e-04 : f32} : (tensor<?x3x8x8xf32>) -> tensor<?x3x8x8xf32>
// CHECK-NEXT:    %softmax = graph.softmax %x {axis = 1 : i64} : (tensor<?x3x8x8xf32>) -> tensor<?x3x8x8xf32>
// CHECK-NEXT:    %log_softmax = graph.log_softmax %x : (tensor<?x3x8x8xf32>) -> tensor<?x3x8x8xf32>
// CHECK-NEXT:    func.return %conv : tensor<?x4x4x4xf32>

// CHECK-LABEL: func.func @reductions(%x: tensor<?x3x8xf32>) -> tensor<?x3xf32> {
// CHECK-NEXT:    %axes = graph.constant dense<-1> : tensor<1xi64>
// CHECK-NEXT:    %reduce_mean = graph.reduce_mean %x, %axes {keepdims = 0 : i64} : (tensor<?x3x8xf32>, tensor<1xi64>) -> tensor<?x3xf32>
// CHECK-NEXT:    %reduce_sum = graph.reduce_sum %x : (tensor<?x3x8xf32>) -> tensor<1x1x1xf32>
// CHECK-NEXT:    %reduce_max = graph.reduce_max %x, %axes : (tensor<?x3x8xf32>, tensor<1xi64>) -> tensor<?x3x1xf32>
// CHECK-NEXT:    %empty = graph.constant dense<> : tensor<0xi64>
// CHECK-NEXT:    %reduce_min = graph.reduce_min %x, %empty {noop_with_empty_axes = 1 : i64} : (tensor<?x3x8xf32>, tensor<0xi64>) -> tensor<?x3x8xf32>
// CHECK-NEXT:    func.return %reduce_mean : tensor<?x3xf32>

// CHECK-LABEL: func.func @shapes(%x: tensor<?x3x4xf32>, %s: tensor<2xi64>, %idx: tensor<5xi32>) -> tensor<?x12xf32> {
// CHECK-NEXT:    %c0 = graph.constant dense<[0, 12]> : tensor<2xi64>
// CHECK-NEXT:    %reshape = graph.reshape %x, %c0 : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x12xf32>
// CHECK-NEXT:    %reshape_dyn = graph.reshape %x, %s : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK-NEXT:    %reshape_zero = graph.reshape %x, %s {allowzero = 1 : i64} : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK-NEXT:    %flatten = graph.flatten %x {axis = 2 : i64} : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %transpose = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<?x3x4xf32>) -> tensor<4x?x3xf32>
// CHECK-NEXT:    %transpose_rev = graph.transpose %x : (tensor<?x3x4xf32>) -> tensor<4x3x?xf32>
// CHECK-NEXT:    %channel_shuffle = graph.channel_shuffle %x {groups = 3 : i64} : (tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
// CHECK-NEXT:    %shape = graph.shape %x : (tensor<?x3x4xf32>) -> tensor<3xi64>
// CHECK-NEXT:    %shape_tail = graph.shape %x {start = 1 : i64, end = 3 : i64} : (tensor<?x3x4xf32>) -> tensor<2xi64>
// CHECK-NEXT:    %size = graph.size %x : (tensor<?x3x4xf32>) -> tensor<i64>
// CHECK-NEXT:    %gather = graph.gather %x, %idx {axis = 2 : i64} : (tensor<?x3x4xf32>, tensor<5xi32>) -> tensor<?x3x5xf32>
// CHECK-NEXT:    %starts = graph.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-NEXT:    %ends = graph.constant dense<[3, -1]> : tensor<2xi64>
// CHECK-NEXT:    %axes = graph.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT:    %steps = graph.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT:    %slice = graph.slice %x, %starts, %ends, %axes, %steps : (tensor<?x3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x2x2xf32>
// CHECK-NEXT:    %concat = graph.concat %x, %x {axis = 1 : i64} : (tensor<?x3x4xf32>, tensor<?x3x4xf32>) -> tensor<?x6x4xf32>
// CHECK-NEXT:    %ax = graph.constant dense<[0, 3]> : tensor<2xi64>
// CHECK-NEXT:    %unsqueeze = graph.unsqueeze %x, %ax : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<1x?x3x1x4xf32>
// CHECK-NEXT:    %ax0 = graph.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:    %squeeze = graph.squeeze %unsqueeze, %ax0 : (tensor<1x?x3x1x4xf32>, tensor<1xi64>) -> tensor<?x3x1x4xf32>
// CHECK-NEXT:    %to = graph.constant dense<[2, 1, 3, 1]> : tensor<4xi64>
// CHECK-NEXT:    %expand = graph.expand %x, %to : (tensor<?x3x4xf32>, tensor<4xi64>) -> tensor<2x?x3x4xf32>
// CHECK-NEXT:    %split = graph.constant dense<[1, 3]> : tensor<2xi64>
// CHECK-NEXT:    %s0, %s1 = graph.split %x, %split {axis = -1 : i64, num_outputs = 2 : i64} : (tensor<?x3x4xf32>, tensor<2xi64>) -> (tensor<?x3x1xf32>, tensor<?x3x3xf32>)
// CHECK-NEXT:    %e0, %e1, %e2 = graph.split %x {axis = 1 : i64, num_outputs = 3 : i64} : (tensor<?x3x4xf32>) -> (tensor<?x1x4xf32>, tensor<?x1x4xf32>, tensor<?x1x4xf32>)
// CHECK-NEXT:    %constant_of_shape = graph.constant_of_shape %s {value = dense<1> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<?x?xi32>
// CHECK-NEXT:    %zeros = graph.constant_of_shape %c0 : (tensor<2xi64>) -> tensor<0x12xf32>
// CHECK-NEXT:    %pads = graph.constant dense<[0, 1, 0, 0, 1, 2]> : tensor<6xi64>
// CHECK-NEXT:    %fill = graph.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %pad = graph.pad %x, %pads, %fill {mode = "reflect"} : (tensor<?x3x4xf32>, tensor<6xi64>, tensor<f32>) -> tensor<?x5x6xf32>
// CHECK-NEXT:    func.return %reshape : tensor<?x12xf32>

// CHECK-LABEL: func.func @range(%start: tensor<f32>, %limit: tensor<f32>, %delta: tensor<f32>, %n: tensor<1xi32>) -> tensor<?xf32> {
// CHECK-NEXT:    %zero = graph.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %ten = graph.constant dense<10> : tensor<i64>
// CHECK-NEXT:    %three = graph.constant dense<3> : tensor<i64>
// CHECK-NEXT:    %range = graph.range %zero, %ten, %three : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
// CHECK-NEXT:    %down = graph.range %ten, %zero, %three : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<0xi64>
// CHECK-NEXT:    %floats = graph.range %start, %limit, %delta : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
// CHECK-NEXT:    %ints = graph.range %n, %n, %n : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xi32>
// CHECK-NEXT:    func.return %floats : tensor<?xf32>

// CHECK-LABEL: func.func @constants() -> (tensor<2x3xf32>, tensor<3xi1>, tensor<17xui8>) {
// CHECK-NEXT:    %small = graph.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-NEXT:    %bools = graph.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK-NEXT:    %hex = graph.constant dense<"0x000102030405060708090A0B0C0D0E0F10"> : tensor<17xui8>
// CHECK-NEXT:    %elided = graph.constant elided<"0123456789ab"> : tensor<64x64xf32>
// CHECK-NEXT:    func.return %small, %bools, %hex : tensor<2x3xf32>, tensor<3xi1>, tensor<17xui8>

// CHECK-LABEL: func.func @transformer(%x: tensor<?x6x16xf32>, %g: tensor<16xf32>, %q: tensor<?x2x6x8xf32>, %kt: tensor<?x2x8x6xf32>, %mask: tensor<6x6xf32>) -> tensor<?x6x16xf32> {
// CHECK-NEXT:    %ln = graph.layer_normalization %x, %g, %g {epsilon = 1.000000e-03 : f32} : (tensor<?x6x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x6x16xf32>
// CHECK-NEXT:    %ln_nobias = graph.layer_normalization %x, %g : (tensor<?x6x16xf32>, tensor<16xf32>) -> tensor<?x6x16xf32>
// CHECK-NEXT:    %att = graph.attention %q, %q, %q : (tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>, tensor<?x2x6x8xf32>) -> tensor<?x2x6x8xf32>
// CHECK-NEXT:    %att_kt = graph.attention %q, %kt, %q, %mask {scale = 1.250000e-01 : f32, k_transposed = 1 : i64} : (tensor<?x2x6x8xf32>, tensor<?x2x8x6xf32>, tensor<?x2x6x8xf32>, tensor<6x6xf32>) -> tensor<?x2x6x8xf32>
// CHECK-NEXT:    func.return %ln : tensor<?x6x16xf32>

// CHECK-LABEL: func.func @nchwc(%x: tensor<?x16x8x8xf32>, %w: tensor<4x2x3x3x8x8xf32>, %dw: tensor<2x1x3x3x1x8xf32>, %b: tensor<32xf32>, %b16: tensor<16xf32>) -> tensor<?x32x4x4xf32> {
// CHECK-NEXT:    %xb = graph.to_nchwc %x {block = 8 : i64} : (tensor<?x16x8x8xf32>) -> tensor<?x2x8x8x8xf32>
// CHECK-NEXT:    %dwconv = graph.conv_nchwc %xb, %dw, %b16 {pads = array<i64: 1, 1, 1, 1>, group = 16 : i64} : (tensor<?x2x8x8x8xf32>, tensor<2x1x3x3x1x8xf32>, tensor<16xf32>) -> tensor<?x2x8x8x8xf32>
// CHECK-NEXT:    %conv = graph.conv_nchwc %dwconv, %w, %b {pads = array<i64: 1, 1, 1, 1>, activation = "relu"} : (tensor<?x2x8x8x8xf32>, tensor<4x2x3x3x8x8xf32>, tensor<32xf32>) -> tensor<?x4x8x8x8xf32>
// CHECK-NEXT:    %sum = graph.conv_nchwc %dwconv, %w, %b, %conv {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x2x8x8x8xf32>, tensor<4x2x3x3x8x8xf32>, tensor<32xf32>, tensor<?x4x8x8x8xf32>) -> tensor<?x4x8x8x8xf32>
// CHECK-NEXT:    %max_pool = graph.max_pool_nchwc %conv {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x4x8x8x8xf32>) -> tensor<?x4x4x4x8xf32>
// CHECK-NEXT:    %avg_pool = graph.average_pool_nchwc %max_pool {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = 1 : i64} : (tensor<?x4x4x4x8xf32>) -> tensor<?x4x4x4x8xf32>
// CHECK-NEXT:    %y = graph.from_nchwc %avg_pool : (tensor<?x4x4x4x8xf32>) -> tensor<?x32x4x4xf32>
// CHECK-NEXT:    func.return %y : tensor<?x32x4x4xf32>

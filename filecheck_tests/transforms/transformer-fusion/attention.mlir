// RUN: infer-opt %s -p transformer-fusion | filecheck %s

// MatMul(Q, Transpose(K)), Div by sqrt(d), Add(mask), Softmax, MatMul(., V): one op with
// K untransposed and the scale 1/8.
// CHECK-LABEL: func.func @sdpa_mask
// CHECK-NEXT:    %[[Y:.*]] = graph.attention %q, %k, %v, %m {scale = 1.250000e-01 : f32} : (tensor<2x4x10x64xf32>, tensor<2x4x12x64xf32>, tensor<2x4x12x64xf32>, tensor<2x1x10x12xf32>) -> tensor<2x4x10x64xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @sdpa_mask(%q: tensor<2x4x10x64xf32>, %k: tensor<2x4x12x64xf32>, %v: tensor<2x4x12x64xf32>, %m: tensor<2x1x10x12xf32>) -> tensor<2x4x10x64xf32> {
  %c = graph.constant dense<8.0> : tensor<f32>
  %kt = graph.transpose %k {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x12x64xf32>) -> tensor<2x4x64x12xf32>
  %s = graph.matmul %q, %kt : (tensor<2x4x10x64xf32>, tensor<2x4x64x12xf32>) -> tensor<2x4x10x12xf32>
  %sc = graph.div %s, %c : (tensor<2x4x10x12xf32>, tensor<f32>) -> tensor<2x4x10x12xf32>
  %sm = graph.add %sc, %m : (tensor<2x4x10x12xf32>, tensor<2x1x10x12xf32>) -> tensor<2x4x10x12xf32>
  %p = graph.softmax %sm : (tensor<2x4x10x12xf32>) -> tensor<2x4x10x12xf32>
  %y = graph.matmul %p, %v : (tensor<2x4x10x12xf32>, tensor<2x4x12x64xf32>) -> tensor<2x4x10x64xf32>
  func.return %y : tensor<2x4x10x64xf32>
}

// K already transposed (k_transposed = 1), the scale split over Q and K^T (as PyTorch's
// scaled_dot_product_attention exports it: sqrt(scale) on each), no mask.
// CHECK-LABEL: func.func @sdpa_kt_split_scale
// CHECK-NEXT:    %[[Y:.*]] = graph.attention %q, %kt, %v {scale = 2.500000e-01 : f32, k_transposed = 1 : i64} : (tensor<?x6x8xf32>, tensor<?x8x6xf32>, tensor<?x6x5xf32>) -> tensor<?x6x5xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @sdpa_kt_split_scale(%q: tensor<?x6x8xf32>, %kt: tensor<?x8x6xf32>, %v: tensor<?x6x5xf32>) -> tensor<?x6x5xf32> {
  %c = graph.constant dense<0.5> : tensor<f32>
  %qs = graph.mul %q, %c : (tensor<?x6x8xf32>, tensor<f32>) -> tensor<?x6x8xf32>
  %ks = graph.mul %c, %kt : (tensor<f32>, tensor<?x8x6xf32>) -> tensor<?x8x6xf32>
  %s = graph.matmul %qs, %ks : (tensor<?x6x8xf32>, tensor<?x8x6xf32>) -> tensor<?x6x6xf32>
  %p = graph.softmax %s {axis = 2 : i64} : (tensor<?x6x6xf32>) -> tensor<?x6x6xf32>
  %y = graph.matmul %p, %v : (tensor<?x6x6xf32>, tensor<?x6x5xf32>) -> tensor<?x6x5xf32>
  func.return %y : tensor<?x6x5xf32>
}

// A 2-D scores product already fused into Gemm(Q, K, mask) {transB, alpha}: the same op.
// CHECK-LABEL: func.func @sdpa_gemm
// CHECK-NEXT:    %[[Y:.*]] = graph.attention %q, %k, %v, %m {scale = 5.000000e-01 : f32} : (tensor<6x8xf32>, tensor<7x8xf32>, tensor<7x4xf32>, tensor<6x7xf32>) -> tensor<6x4xf32>
func.func @sdpa_gemm(%q: tensor<6x8xf32>, %k: tensor<7x8xf32>, %v: tensor<7x4xf32>, %m: tensor<6x7xf32>) -> tensor<6x4xf32> {
  %s = graph.gemm %q, %k, %m {alpha = 5.000000e-01 : f32, transB = 1 : i64} : (tensor<6x8xf32>, tensor<7x8xf32>, tensor<6x7xf32>) -> tensor<6x7xf32>
  %p = graph.softmax %s : (tensor<6x7xf32>) -> tensor<6x7xf32>
  %y = graph.matmul %p, %v : (tensor<6x7xf32>, tensor<7x4xf32>) -> tensor<6x4xf32>
  func.return %y : tensor<6x4xf32>
}

// Not fused: the softmax is over the query axis, and (second function) the probabilities
// are also returned.
// CHECK-LABEL: func.func @softmax_axis_0
// CHECK-NOT:     graph.attention
// CHECK:         func.return
func.func @softmax_axis_0(%q: tensor<6x8xf32>, %kt: tensor<8x6xf32>, %v: tensor<6x5xf32>) -> tensor<6x5xf32> {
  %s = graph.matmul %q, %kt : (tensor<6x8xf32>, tensor<8x6xf32>) -> tensor<6x6xf32>
  %p = graph.softmax %s {axis = 0 : i64} : (tensor<6x6xf32>) -> tensor<6x6xf32>
  %y = graph.matmul %p, %v : (tensor<6x6xf32>, tensor<6x5xf32>) -> tensor<6x5xf32>
  func.return %y : tensor<6x5xf32>
}

// CHECK-LABEL: func.func @probs_used_outside
// CHECK-NOT:     graph.attention
// CHECK:         func.return
func.func @probs_used_outside(%q: tensor<6x8xf32>, %kt: tensor<8x6xf32>, %v: tensor<6x5xf32>) -> (tensor<6x5xf32>, tensor<6x6xf32>) {
  %s = graph.matmul %q, %kt : (tensor<6x8xf32>, tensor<8x6xf32>) -> tensor<6x6xf32>
  %p = graph.softmax %s : (tensor<6x6xf32>) -> tensor<6x6xf32>
  %y = graph.matmul %p, %v : (tensor<6x6xf32>, tensor<6x5xf32>) -> tensor<6x5xf32>
  func.return %y, %p : tensor<6x5xf32>, tensor<6x6xf32>
}

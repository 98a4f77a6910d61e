// RUN: infer-opt %s -p graph-fuse | filecheck %s

// gemm(A, B) + c = gemm(A, B, c).
// CHECK-LABEL: func.func @gemm_add
// CHECK-NEXT:    %[[C:.*]] = graph.constant
// CHECK-NEXT:    graph.gemm %a, %b, %[[C]] {transB = 1 : i64}
// CHECK-NEXT:    func.return
func.func @gemm_add(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>) -> tensor<2x3xf32> {
  %c = graph.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %g = graph.gemm %a, %b {transB = 1 : i64} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %y = graph.add %g, %c : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// gemm(A, B, C; beta) + c = gemm(A, B, beta * C + c; beta = 1) for constants C and c.
// CHECK-LABEL: func.func @gemm_bias_add
// CHECK:         %[[C:.*]] = graph.constant dense<{{\[\[}}1.500000e+00, 3.000000e+00, 4.500000e+00]]> : tensor<1x3xf32>
// CHECK-NEXT:    graph.gemm %a, %b, %[[C]] {alpha = 2.000000e+00 : f32}
// CHECK-NOT:     beta
// CHECK-NEXT:    func.return
func.func @gemm_bias_add(%a: tensor<2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %c0 = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %c = graph.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %g = graph.gemm %a, %b, %c0 {alpha = 2.0 : f32, beta = 0.5 : f32} : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %y = graph.add %g, %c : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

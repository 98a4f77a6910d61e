// RUN: infer-opt %s -p graph-fuse | filecheck %s

// matmul(A, B) + C = gemm(A, B, C) for 2-D operands, C broadcast over the rows.
// CHECK-LABEL: func.func @matmul_add
// CHECK-NEXT:    %[[C:.*]] = graph.constant
// CHECK-NEXT:    %{{.*}} = graph.gemm %a, %b, %[[C]] : (tensor<?x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT:    func.return
func.func @matmul_add(%a: tensor<?x4xf32>, %b: tensor<4x3xf32>) -> tensor<?x3xf32> {
  %c = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %m = graph.matmul %a, %b : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %y = graph.add %c, %m : (tensor<3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  func.return %y : tensor<?x3xf32>
}

// Batched (3-D) matmul has no gemm form: the add stays.
// CHECK-LABEL: func.func @batched
// CHECK:         graph.matmul
// CHECK-NEXT:    graph.add
func.func @batched(%a: tensor<2x2x4xf32>, %b: tensor<4x3xf32>) -> tensor<2x2x3xf32> {
  %c = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %m = graph.matmul %a, %b : (tensor<2x2x4xf32>, tensor<4x3xf32>) -> tensor<2x2x3xf32>
  %y = graph.add %m, %c : (tensor<2x2x3xf32>, tensor<3xf32>) -> tensor<2x2x3xf32>
  func.return %y : tensor<2x2x3xf32>
}

// An addend that grows the result by broadcasting is not a gemm bias.
// CHECK-LABEL: func.func @growing
// CHECK:         graph.add
func.func @growing(%a: tensor<1x4xf32>, %b: tensor<4x3xf32>, %c: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %m = graph.matmul %a, %b : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
  %y = graph.add %m, %c : (tensor<1x3xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
  func.return %y : tensor<5x3xf32>
}

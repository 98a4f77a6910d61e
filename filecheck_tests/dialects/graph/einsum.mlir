// Einsum parses, verifies, prints and round-trips.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @einsum(%a: tensor<?x3x4xf32>, %b: tensor<4x5xf32>, %m: tensor<6x6xi32>) -> (tensor<?x3x5xf32>, tensor<6xi32>) {
    %ab = graph.einsum %a, %b {equation = "...ij,jk->...ik"} : (tensor<?x3x4xf32>, tensor<4x5xf32>) -> tensor<?x3x5xf32>
    %diag = graph.einsum %m {equation = "ii->i"} : (tensor<6x6xi32>) -> tensor<6xi32>
    func.return %ab, %diag : tensor<?x3x5xf32>, tensor<6xi32>
  }
}

// CHECK-LABEL: func.func @einsum
// CHECK-NEXT:    %ab = graph.einsum %a, %b {equation = "...ij,jk->...ik"} : (tensor<?x3x4xf32>, tensor<4x5xf32>) -> tensor<?x3x5xf32>
// CHECK-NEXT:    %diag = graph.einsum %m {equation = "ii->i"} : (tensor<6x6xi32>) -> tensor<6xi32>

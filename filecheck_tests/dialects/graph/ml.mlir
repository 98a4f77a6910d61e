// graph.tree_ensemble parses, verifies, prints and round-trips.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @forest(%x: tensor<?x4xf32>, %feature: tensor<5xi64>, %threshold: tensor<5xf32>, %next: tensor<5x4xi64>, %roots: tensor<2xi64>, %depth: tensor<2xi64>, %start: tensor<6xi64>, %target: tensor<4xi64>, %weight: tensor<4xf32>) -> (tensor<?x3xf32>, tensor<?x1xf32>) {
    %sum = graph.tree_ensemble %x, %feature, %threshold, %next, %roots, %depth, %start, %target, %weight {targets = 3 : i64, features = 4 : i64} : (tensor<?x4xf32>, tensor<5xi64>, tensor<5xf32>, tensor<5x4xi64>, tensor<2xi64>, tensor<2xi64>, tensor<6xi64>, tensor<4xi64>, tensor<4xf32>) -> tensor<?x3xf32>
    %max = graph.tree_ensemble %x, %feature, %threshold, %next, %roots, %depth, %start, %target, %weight {aggregate = "MAX"} : (tensor<?x4xf32>, tensor<5xi64>, tensor<5xf32>, tensor<5x4xi64>, tensor<2xi64>, tensor<2xi64>, tensor<6xi64>, tensor<4xi64>, tensor<4xf32>) -> tensor<?x1xf32>
    func.return %sum, %max : tensor<?x3xf32>, tensor<?x1xf32>
  }
}

// CHECK-LABEL: func.func @forest
// CHECK-NEXT:    %sum = graph.tree_ensemble %x, %feature, %threshold, %next, %roots, %depth, %start, %target, %weight {targets = 3 : i64, features = 4 : i64} : (tensor<?x4xf32>, tensor<5xi64>, tensor<5xf32>, tensor<5x4xi64>, tensor<2xi64>, tensor<2xi64>, tensor<6xi64>, tensor<4xi64>, tensor<4xf32>) -> tensor<?x3xf32>
// CHECK-NEXT:    %max = graph.tree_ensemble %x, %feature, %threshold, %next, %roots, %depth, %start, %target, %weight {aggregate = "MAX"} : (tensor<?x4xf32>, tensor<5xi64>, tensor<5xf32>, tensor<5x4xi64>, tensor<2xi64>, tensor<2xi64>, tensor<6xi64>, tensor<4xi64>, tensor<4xf32>) -> tensor<?x1xf32>

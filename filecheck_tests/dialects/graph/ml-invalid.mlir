// The verifier rules of graph.tree_ensemble (see invalid.mlir for how diagnostics are checked).
// RUN: infer-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @too_few_features(%x: tensor<?x2xf32>, %feature: tensor<1xi64>, %threshold: tensor<1xf32>, %next: tensor<1x4xi64>, %roots: tensor<1xi64>, %start: tensor<2xi64>, %target: tensor<1xi64>, %weight: tensor<1xf32>) {
  // expected-error @+1 {{'graph.tree_ensemble': x's column count (the trees read features up to one less) 2 is less than 3}}
  %0 = graph.tree_ensemble %x, %feature, %threshold, %next, %roots, %roots, %start, %target, %weight {features = 3 : i64} : (tensor<?x2xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1x4xi64>, tensor<1xi64>, tensor<1xi64>, tensor<2xi64>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x1xf32>
  func.return
}
// CHECK: 'graph.tree_ensemble': x's column count (the trees read features up to one less) 2 is less than 3

// -----

func.func @threshold_type(%x: tensor<?x2xf32>, %feature: tensor<1xi64>, %threshold: tensor<1xf64>, %next: tensor<1x4xi64>, %roots: tensor<1xi64>, %start: tensor<2xi64>, %target: tensor<1xi64>, %weight: tensor<1xf32>) {
  // expected-error @+1 {{'graph.tree_ensemble' x must be float and its thresholds of x's type}}
  %0 = graph.tree_ensemble %x, %feature, %threshold, %next, %roots, %roots, %start, %target, %weight : (tensor<?x2xf32>, tensor<1xi64>, tensor<1xf64>, tensor<1x4xi64>, tensor<1xi64>, tensor<1xi64>, tensor<2xi64>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x1xf32>
  func.return
}
// CHECK: 'graph.tree_ensemble' x must be float and its thresholds of x's type

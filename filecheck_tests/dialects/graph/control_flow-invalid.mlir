// The verifier rules of graph.if (see invalid.mlir for how diagnostics are checked).
// RUN: infer-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @not_a_bool(%c: tensor<f32>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.if' needs a condition of one i1, got tensor<f32>}}
  %y = graph.if %c : tensor<f32> -> (tensor<2xf32>) {
    graph.yield %x : tensor<2xf32>
  } else {
    graph.yield %x : tensor<2xf32>
  }
  func.return
}
// CHECK: 'graph.if' needs a condition of one i1, got tensor<f32>

// -----

func.func @too_few(%c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.if': the else branch yields 0 values for 1 results}}
  %y = graph.if %c : tensor<i1> -> (tensor<2xf32>) {
    graph.yield %x : tensor<2xf32>
  } else {
    graph.yield
  }
  func.return
}
// CHECK: 'graph.if': the else branch yields 0 values for 1 results

// -----

func.func @other_rank(%c: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.if': the then branch's value #0 (tensor<2xf32>) does not fit result #0 (tensor<2x1xf32>)}}
  %y = graph.if %c : tensor<i1> -> (tensor<2x1xf32>) {
    graph.yield %x : tensor<2xf32>
  } else {
    graph.yield %x : tensor<2xf32>
  }
  func.return
}
// CHECK: 'graph.if': the then branch's value #0 (tensor<2xf32>) does not fit result #0 (tensor<2x1xf32>)

// An If whose condition folds to a constant (here from a reduction of a constant) is its
// taken branch, inlined in place, from level 1; level 0 keeps it.
// RUN: infer-opt %s -p 'graph-optimize{level=1}' | filecheck %s
// RUN: infer-opt %s -p 'graph-optimize{level=0}' | filecheck %s --check-prefix=LEVEL0

// CHECK-LABEL: func.func @taken
// CHECK-NEXT:    %a = graph.relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %a : tensor<2x4xf32>
// LEVEL0-LABEL: func.func @taken
// LEVEL0:         graph.if

func.func @taken(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %s = graph.reduce_sum %w {keepdims = 0 : i64} : (tensor<3xf32>) -> tensor<f32>
  %zero = graph.constant dense<0.0> : tensor<f32>
  %c = graph.greater %s, %zero : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %y = graph.if %c : tensor<i1> -> (tensor<2x4xf32>) {
    %a = graph.relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
    graph.yield %a : tensor<2x4xf32>
  } else {
    %b = graph.neg %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
    graph.yield %b : tensor<2x4xf32>
  }
  func.return %y : tensor<2x4xf32>
}

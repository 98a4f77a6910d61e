// graph.if parses, verifies, prints and round-trips; its branches read the function's
// values directly, and a dim the branches disagree on is dynamic in the result.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @branches(%c: tensor<i1>, %x: tensor<2x4xf32>) -> tensor<?x4xf32> {
    %y = graph.if %c : tensor<i1> -> (tensor<?x4xf32>) {
      %a = graph.relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
      graph.yield %a : tensor<2x4xf32>
    } else {
      %b = graph.concat %x, %x {axis = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
      graph.yield %b : tensor<4x4xf32>
    }
    func.return %y : tensor<?x4xf32>
  }
}

// CHECK-LABEL: func.func @branches
// CHECK-NEXT:    %y = graph.if %c : tensor<i1> -> (tensor<?x4xf32>) {
// CHECK-NEXT:      %a = graph.relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:      graph.yield %a : tensor<2x4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %b = graph.concat %x, %x {axis = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:      graph.yield %b : tensor<4x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %y : tensor<?x4xf32>

// graph.if, graph.loop and graph.scan parse, verify, print and round-trip. graph.if's branches read the
// function's values directly, and a dim the branches disagree on is dynamic in the result;
// graph.loop's body takes the iteration number, the condition and the carried values, and
// yields the next condition, the next carried values and one row per scan output;
// graph.scan's takes the states and one slice of each scan input.
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
  func.func @running_sum(%n: tensor<i64>, %go: tensor<i1>, %x: tensor<3xf32>) -> (tensor<3xf32>, tensor<?x3xf32>) {
    %s, %rows = graph.loop %n, %go, %x : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> (tensor<3xf32>, tensor<?x3xf32>) {
    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<3xf32>):
      %next = graph.add %acc, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      graph.yield %c, %next, %next : tensor<i1>, tensor<3xf32>, tensor<3xf32>
    }
    func.return %s, %rows : tensor<3xf32>, tensor<?x3xf32>
  }
  func.func @reversed_scan(%s0: tensor<3xf32>, %xs: tensor<?x3xf32>, %ys: tensor<3x?xf32>) -> (tensor<3xf32>, tensor<3x?xf32>) {
    %s, %rows = graph.scan %s0, %xs, %ys {num_scan_inputs = 2 : i64, scan_input_axes = array<i64: 0, 1>, scan_input_directions = array<i64: 1, 0>, scan_output_axes = array<i64: 1>, scan_output_directions = array<i64: 1>} : (tensor<3xf32>, tensor<?x3xf32>, tensor<3x?xf32>) -> (tensor<3xf32>, tensor<3x?xf32>) {
    ^bb0(%state: tensor<3xf32>, %x: tensor<3xf32>, %y: tensor<3xf32>):
      %next = graph.add %state, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %row = graph.mul %next, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      graph.yield %next, %row : tensor<3xf32>, tensor<3xf32>
    }
    func.return %s, %rows : tensor<3xf32>, tensor<3x?xf32>
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

// CHECK-LABEL: func.func @running_sum
// CHECK-NEXT:    %s, %rows = graph.loop %n, %go, %x : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> (tensor<3xf32>, tensor<?x3xf32>) {
// CHECK-NEXT:    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<3xf32>):
// CHECK-NEXT:      %next = graph.add %acc, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:      graph.yield %c, %next, %next : tensor<i1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %s, %rows : tensor<3xf32>, tensor<?x3xf32>

// CHECK-LABEL: func.func @reversed_scan
// CHECK-NEXT:    %s, %rows = graph.scan %s0, %xs, %ys {num_scan_inputs = 2 : i64, scan_input_axes = array<i64: 0, 1>, scan_input_directions = array<i64: 1, 0>, scan_output_axes = array<i64: 1>, scan_output_directions = array<i64: 1>} : (tensor<3xf32>, tensor<?x3xf32>, tensor<3x?xf32>) -> (tensor<3xf32>, tensor<3x?xf32>) {
// CHECK-NEXT:    ^bb0(%state: tensor<3xf32>, %x: tensor<3xf32>, %y: tensor<3xf32>):
// CHECK-NEXT:      %next = graph.add %state, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:      %row = graph.mul %next, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:      graph.yield %next, %row : tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %s, %rows : tensor<3xf32>, tensor<3x?xf32>

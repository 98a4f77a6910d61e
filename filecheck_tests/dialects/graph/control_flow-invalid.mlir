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

// -----

func.func @loop_float_count(%n: tensor<f32>, %go: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.loop' needs a trip count of one i64, got tensor<f32>}}
  %y = graph.loop %n, %go, %x : (tensor<f32>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<2xf32>):
    graph.yield %c, %v : tensor<i1>, tensor<2xf32>
  }
  func.return
}
// CHECK: 'graph.loop' needs a trip count of one i64, got tensor<f32>

// -----

func.func @loop_no_cond(%n: tensor<i64>, %go: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.loop': the body must yield its condition (one i1) first, got tensor<2xf32>}}
  %y, %z = graph.loop %n, %go, %x : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>, tensor<?x2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<2xf32>):
    graph.yield %v, %v, %v : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }
  func.return
}
// CHECK: 'graph.loop': the body must yield its condition (one i1) first, got tensor<2xf32>

// -----

func.func @loop_carried_rank(%n: tensor<i64>, %go: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.loop': the body's next carried value #0 (tensor<2x2xf32>) does not fit tensor<2xf32>}}
  %y = graph.loop %n, %go, %x : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<2xf32>):
    %ww = graph.constant dense<1.000000e+00> : tensor<2x2xf32>
    graph.yield %c, %ww : tensor<i1>, tensor<2x2xf32>
  }
  func.return
}
// CHECK: 'graph.loop': the body's next carried value #0 (tensor<2x2xf32>) does not fit tensor<2xf32>

// -----

func.func @loop_rows(%n: tensor<i64>, %go: tensor<i1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'graph.loop': scan output #0's rows (tensor<2xf32>) do not stack into tensor<?x3xf32>}}
  %y, %z = graph.loop %n, %go, %x : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>, tensor<?x3xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<2xf32>):
    graph.yield %c, %v, %v : tensor<i1>, tensor<2xf32>, tensor<2xf32>
  }
  func.return
}
// CHECK: 'graph.loop': scan output #0's rows (tensor<2xf32>) do not stack into tensor<?x3xf32>

// -----

func.func @scan_slice(%s0: tensor<3xf32>, %xs: tensor<?x4xf32>) {
  // expected-error @+1 {{'graph.scan': scan input #0 (tensor<?x4xf32>) does not slice along axis 0 into tensor<3xf32>}}
  %s = graph.scan %s0, %xs {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 0>, scan_input_directions = array<i64: 0>, scan_output_axes = array<i64>, scan_output_directions = array<i64>} : (tensor<3xf32>, tensor<?x4xf32>) -> (tensor<3xf32>) {
  ^bb0(%state: tensor<3xf32>, %x: tensor<3xf32>):
    graph.yield %state : tensor<3xf32>
  }
  func.return
}
// CHECK: 'graph.scan': scan input #0 (tensor<?x4xf32>) does not slice along axis 0 into tensor<3xf32>

// -----

func.func @scan_rows(%s0: tensor<3xf32>, %xs: tensor<?x3xf32>) {
  // expected-error @+1 {{'graph.scan': scan output #0's rows (tensor<3xf32>) do not stack along axis 0 into tensor<?x4xf32>}}
  %s, %r = graph.scan %s0, %xs {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 0>, scan_input_directions = array<i64: 0>, scan_output_axes = array<i64: 0>, scan_output_directions = array<i64: 0>} : (tensor<3xf32>, tensor<?x3xf32>) -> (tensor<3xf32>, tensor<?x4xf32>) {
  ^bb0(%state: tensor<3xf32>, %x: tensor<3xf32>):
    graph.yield %state, %x : tensor<3xf32>, tensor<3xf32>
  }
  func.return
}
// CHECK: 'graph.scan': scan output #0's rows (tensor<3xf32>) do not stack along axis 0 into tensor<?x4xf32>

// -----

func.func @scan_axes(%s0: tensor<3xf32>, %xs: tensor<?x3xf32>) {
  // expected-error @+1 {{'graph.scan' needs an axis and a direction per scan input and per scan output}}
  %s = graph.scan %s0, %xs {num_scan_inputs = 1 : i64, scan_input_axes = array<i64>, scan_input_directions = array<i64: 0>, scan_output_axes = array<i64>, scan_output_directions = array<i64>} : (tensor<3xf32>, tensor<?x3xf32>) -> (tensor<3xf32>) {
  ^bb0(%state: tensor<3xf32>, %x: tensor<3xf32>):
    graph.yield %state : tensor<3xf32>
  }
  func.return
}
// CHECK: 'graph.scan' needs an axis and a direction per scan input and per scan output

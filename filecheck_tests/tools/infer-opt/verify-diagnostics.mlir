// --verify-diagnostics as in mlir-opt: each expected-error comment matches the error
// produced at its line (@+N, @-N, @above, @below, this line, @unknown for an error at no
// place, -re with {{regex}} parts), which is also printed; exit status 0.
// RUN: infer-opt %s --split-input-file --verify-diagnostics -p graph-to-loops | filecheck %s

func.func @next_line(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{operands have different element types}}
  %0 = graph.add %a, %b : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  func.return
}
// CHECK: verify-diagnostics.mlir:8:8: error: 'graph.add' operands have different element types: f32 and i32

// -----

func.func @above(%a: tensor<2x3xf32>) {
  %0 = graph.relu %a : (tensor<2x3xf32>) -> tensor<2x4xf32>
  // expected-error @above {{result #0 has type tensor<2x4xf32>}}
  func.return
}
// CHECK: verify-diagnostics.mlir:16:8: error: 'graph.relu' result #0

// -----

func.func @below(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @below {{'graph.mul': shapes [2, 3] and [4] do not broadcast}}
  %0 = graph.mul %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return
}
// CHECK: verify-diagnostics.mlir:26:8: error: 'graph.mul': shapes

// -----

func.func @regex(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  %0 = graph.sub %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  // expected-error-re @-1 {{'graph.{{[a-z]+}}': shapes {{\[[0-9, ]+\]}} and [4] do not}}
  func.return
}
// CHECK: verify-diagnostics.mlir:34:8: error: 'graph.sub': shapes

// -----

func.func @same_line(%a: tensor<2x3xf32>) {
  %0 = graph.exp %a : (tensor<2x3xf32>) -> tensor<3x2xf32> // expected-error {{'graph.exp' result #0}}
  func.return
}
// CHECK: verify-diagnostics.mlir:43:8: error: 'graph.exp' result #0

// -----

// A pass's refusal names its op but has no place in the input.
// expected-error @unknown {{'graph.relu' is marked lowering = "kernel", but it has no kernel lowering}}
func.func @refused(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x {lowering = "kernel"} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
// CHECK: 'graph.relu' is marked lowering = "kernel", but it has no kernel lowering

// -----

// expected-error @+1 {{operand expected}}
func.func @parse_error() { %x = graph.relu }
// CHECK: verify-diagnostics.mlir:61:44: error: operand expected

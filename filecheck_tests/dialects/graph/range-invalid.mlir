// The verifier rules of graph.range (see invalid.mlir for how diagnostics are checked).
// RUN: infer-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @mixed_types(%a: tensor<i64>, %b: tensor<i32>) {
  // expected-error @+1 {{'graph.range' start, limit and delta must have one type}}
  %0 = graph.range %a, %b, %a : (tensor<i64>, tensor<i32>, tensor<i64>) -> tensor<?xi64>
  func.return
}
// CHECK: 'graph.range' start, limit and delta must have one type

// -----

func.func @unsigned(%a: tensor<ui8>) {
  // expected-error @+1 {{'graph.range' needs f32, f64, i16, i32 or i64, got ui8}}
  %0 = graph.range %a, %a, %a : (tensor<ui8>, tensor<ui8>, tensor<ui8>) -> tensor<?xui8>
  func.return
}
// CHECK: 'graph.range' needs f32, f64, i16, i32 or i64, got ui8

// -----

func.func @not_scalar(%a: tensor<2xi64>) {
  // expected-error @+1 {{'graph.range' start, limit and delta must be scalars}}
  %0 = graph.range %a, %a, %a : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?xi64>
  func.return
}
// CHECK: 'graph.range' start, limit and delta must be scalars

// -----

func.func @zero_delta() {
  %a = graph.constant dense<1> : tensor<i64>
  %z = graph.constant dense<0> : tensor<i64>
  // expected-error @+1 {{'graph.range': delta must not be zero}}
  %0 = graph.range %a, %a, %z : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  func.return
}
// CHECK: 'graph.range': delta must not be zero

// -----

func.func @wrong_length() {
  %a = graph.constant dense<1.0> : tensor<f32>
  %b = graph.constant dense<2.5> : tensor<f32>
  %d = graph.constant dense<0.5> : tensor<f32>
  // expected-error @+1 {{'graph.range' result #0 has type tensor<4xf32>, but its operands give tensor<3xf32>}}
  %0 = graph.range %a, %b, %d : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  func.return
}
// CHECK: 'graph.range' result #0 has type tensor<4xf32>, but its operands give tensor<3xf32>

// --verify-diagnostics fails (exit status 1) when the expected-error comments and the
// errors produced disagree, one line on stderr for each that has no partner.
// RUN: not infer-opt %s --split-input-file --verify-diagnostics 2> %t.err
// RUN: filecheck %s < %t.err

func.func @wrong_line(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+2 {{operands have different element types}}
  %0 = graph.add %a, %b : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  func.return
}
// CHECK:      verify-diagnostics-mismatch.mlir:8:8: error: unexpected error: 'graph.add' operands have different element types: f32 and i32
// CHECK-NEXT: verify-diagnostics-mismatch.mlir:30:8: error: unexpected error: 'graph.relu' result #0 has type tensor<2x4xf32>, but its operands give tensor<2x3xf32>
// CHECK-NEXT: verify-diagnostics-mismatch.mlir:38:8: error: unexpected error: 'graph.mul': shapes [2, 3] and [4] do not broadcast
// CHECK-NEXT: verify-diagnostics-mismatch.mlir:7:6: error: expected error "operands have different element types" was not produced
// CHECK-NEXT: verify-diagnostics-mismatch.mlir:22:6: error: expected error "does not verify" was not produced
// CHECK-NEXT: verify-diagnostics-mismatch.mlir:37:6: error: expected error "shapes [2, 3] and [5]" was not produced
// CHECK-NOT:  {{.}}

// -----

func.func @valid(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{does not verify}}
  %0 = graph.relu %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @not_expected(%a: tensor<2x3xf32>) {
  %0 = graph.relu %a : (tensor<2x3xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @wrong_message(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{shapes [2, 3] and [5]}}
  %0 = graph.mul %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return
}

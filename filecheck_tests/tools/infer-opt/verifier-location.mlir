// A verifier error is reported where its op is, as mlir-opt does: file:line:col of the
// op's name, then the source line and a caret. With --split-input-file, lines still count
// from the top of the file.
// RUN: not infer-opt %s 2>&1 | filecheck %s
// RUN: infer-opt %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=SPLIT

func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %c = graph.add %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  func.return %c : tensor<2x3xf32>
}
// expected-error @-3 {{'graph.add': shapes [2, 3] and [4, 3] do not broadcast}}
// CHECK:      verifier-location.mlir:8:8: error: 'graph.add': shapes [2, 3] and [4, 3] do not broadcast
// CHECK-NEXT: {{^}}  %c = graph.add %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>{{$}}
// CHECK-NEXT: {{^}}       ^^^^^^^^^{{$}}
// CHECK-NOT:  {{.}}
// SPLIT:      verifier-location.mlir:8:8: error: 'graph.add': shapes [2, 3] and [4, 3] do not broadcast

// -----

func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x : (tensor<4xf32>) -> tensor<5xf32>
  func.return %x : tensor<4xf32>
}
// expected-error @-3 {{'graph.relu' result #0 has type tensor<5xf32>, but its operands give tensor<4xf32>}}
// SPLIT:      verifier-location.mlir:21:8: error: 'graph.relu' result #0 has type tensor<5xf32>, but its operands give tensor<4xf32>

// graph-to-loops obeys the `lowering` marks of plan-loops and refuses one that the op's
// lowering cannot honour, naming the op (one error per case, at no place in the input; no
// loops are written).
// RUN: infer-opt %s --split-input-file --verify-diagnostics -p graph-to-loops | filecheck %s

// CHECK: 'graph.conv' is marked lowering = "in_user", but its users cannot compute it
// expected-error @unknown {{'graph.conv' is marked lowering = "in_user", but its users cannot compute it}}
func.func @conv_in_user(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32> {
  %k = graph.conv %x, %w {lowering = "in_user"} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  %r = graph.relu %k : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  func.return %r : tensor<1x1x2x2xf32>
}

// -----

// A result read twice would be computed twice.
// CHECK: 'graph.exp' is marked lowering = "in_user", but its users cannot compute it
// expected-error @unknown {{'graph.exp' is marked lowering = "in_user", but its users cannot compute it}}
func.func @read_twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = graph.exp %x {lowering = "in_user"} : (tensor<4xf32>) -> tensor<4xf32>
  %t = graph.mul %e, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %t : tensor<4xf32>
}

// -----

// CHECK: 'graph.relu' is marked lowering = "kernel", but it has no kernel lowering
// expected-error @unknown {{'graph.relu' is marked lowering = "kernel", but it has no kernel lowering}}
func.func @relu_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x {lowering = "kernel"} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// CHECK: 'graph.relu': lowering must be "in_user" or "kernel", got "fused"
// expected-error @unknown {{'graph.relu': lowering must be "in_user" or "kernel", got "fused"}}
func.func @unknown(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x {lowering = "fused"} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

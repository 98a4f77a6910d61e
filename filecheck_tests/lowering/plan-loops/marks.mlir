// RUN: infer-opt %s -p plan-loops | filecheck %s
// RUN: infer-opt %s -p "plan-loops{outline=true}" | filecheck %s --check-prefix=OUTLINE

// plan-loops alone: which ops graph-to-loops computes in their users (`lowering =
// "in_user"`, no buffer) and, with outline, which it calls as shared kernels
// (`lowering = "kernel"`). The loops it then writes are tested in graph-to-loops/.

// An elementwise chain of one shape, each result read once: all but the last are
// computed in the last one's loop nest.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %0 = graph.add %a, %b {lowering = "in_user"}
// CHECK-NEXT:    %1 = graph.relu %0 {lowering = "in_user"}
// CHECK-NEXT:    %2 = graph.mul %1, %c : (
func.func @chain(%a: tensor<?x4xf32>, %b: tensor<4xf32>, %c: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = graph.add %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = graph.relu %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = graph.mul %1, %c : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %2 : tensor<?x4xf32>
}

// Not computed in users: a result read twice, one its user broadcasts, one returned, one
// read by a conv (not elementwise). A mark written before is recomputed, not kept.
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    %e = graph.exp %x : (
// CHECK-NEXT:    %s = graph.add %e, %y {lowering = "in_user"}
// CHECK-NEXT:    %t = graph.mul %s, %e : (
// CHECK-NEXT:    %v = graph.exp %r : (
// CHECK-NEXT:    %u = graph.add %v, %t : (
// CHECK-NEXT:    %n = graph.neg %t : (
// CHECK-NEXT:    %w = graph.constant
// CHECK-NEXT:    %k = graph.conv %n, %w : (
// OUTLINE-LABEL: func.func @kept
// OUTLINE:         %k = graph.conv %n, %w {lowering = "kernel"} : (
func.func @kept(%x: tensor<1x1x4x4xf32>, %y: tensor<1x1x4x4xf32>, %r: tensor<4xf32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) {
  %e = graph.exp %x {lowering = "in_user"} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %s = graph.add %e, %y : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %t = graph.mul %s, %e : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %v = graph.exp %r : (tensor<4xf32>) -> tensor<4xf32>
  %u = graph.add %v, %t : (tensor<4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %n = graph.neg %t : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %w = graph.constant dense<0.5> : tensor<1x1x3x3xf32>
  %k = graph.conv %n, %w : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  func.return %t, %u, %k : tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>
}

// A shape.of that every user evaluates (Reshape's shape) has no buffer; one returned as
// a tensor is stored.
// CHECK-LABEL: func.func @shapes
// CHECK-NEXT:    %s = shape.of %x {lowering = "in_user", map = affine_map<(d0, d1) -> ((d0 * 3))>}
// CHECK-NEXT:    %y = graph.reshape %x, %s : (
// CHECK-NEXT:    %t = shape.of %x {map = affine_map<(d0, d1) -> (d1, d0)>} : 
func.func @shapes(%x: tensor<?x3xf32>) -> (tensor<?xf32>, tensor<2xi64>) {
  %s = shape.of %x {map = affine_map<(d0, d1) -> (d0 * 3)>} : tensor<?x3xf32> -> tensor<1xi64>
  %y = graph.reshape %x, %s : (tensor<?x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  %t = shape.of %x {map = affine_map<(d0, d1) -> (d1, d0)>} : tensor<?x3xf32> -> tensor<2xi64>
  func.return %y, %t : tensor<?xf32>, tensor<2xi64>
}

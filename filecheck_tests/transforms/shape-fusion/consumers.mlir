// Reshape / ConstantOfShape / Expand fed by a fused shape get their result type from the
// map: static where the entry is a constant or depends only on static dims.
// RUN: infer-opt %s -p shape-fusion | filecheck %s

func.func @flatten_like(%x: tensor<?x4x6xf32>) -> tensor<?x?xf32> {
  %s = graph.shape %x : (tensor<?x4x6xf32>) -> tensor<3xi64>
  %c0 = graph.constant dense<[0]> : tensor<1xi64>
  %n = graph.gather %s, %c0 : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %m1 = graph.constant dense<[-1]> : tensor<1xi64>
  %t = graph.concat %n, %m1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = graph.reshape %x, %t : (tensor<?x4x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %y = graph.relu %r : (tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %y : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @flatten_like
// The entry that copies x's dim 0 becomes ONNX's 0, so the -1 is inferred exactly.
// CHECK-NEXT:    %[[S:.*]] = graph.constant dense<[0, -1]> : tensor<2xi64>
// CHECK-NEXT:    %r = graph.reshape %x, %[[S]] : (tensor<?x4x6xf32>, tensor<2xi64>) -> tensor<?x24xf32>
// Types follow downstream; a value func.return uses keeps the function's type.
// CHECK-NEXT:    %y = graph.relu %r : (tensor<?x24xf32>) -> tensor<?x?xf32>

func.func @constant_of_shape(%x: tensor<?x7xf32>) -> tensor<?x?xf32> {
  %s = graph.shape %x : (tensor<?x7xf32>) -> tensor<2xi64>
  %two = graph.constant dense<[2, 1]> : tensor<2xi64>
  %h = graph.div %s, %two : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %z = graph.constant_of_shape %h : (tensor<2xi64>) -> tensor<?x?xf32>
  %y = graph.relu %z : (tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %y : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @constant_of_shape
// CHECK-NEXT:    %h = shape.of %x {map = affine_map<(d0, d1) -> ((d0 floordiv 2), 7)>} : tensor<?x7xf32> -> tensor<2xi64>
// CHECK-NEXT:    %z = graph.constant_of_shape %h : (tensor<2xi64>) -> tensor<?x7xf32>

// (Expand's shape must be a constant or a shape.of: an unfused graph.shape does not verify.)
func.func @expand(%x: tensor<?x1xf32>, %b: tensor<3x?x4xf32>) -> tensor<?x?x?xf32> {
  %s = shape.of %b {map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : tensor<3x?x4xf32> -> tensor<3xi64>
  %e = graph.expand %x, %s : (tensor<?x1xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %y = graph.relu %e : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  func.return %y : tensor<?x?x?xf32>
}
// CHECK-LABEL: func.func @expand
// CHECK-NEXT:    %s = shape.of %b {map = affine_map<(d0, d1, d2) -> (3, d1, 4)>} : tensor<3x?x4xf32> -> tensor<3xi64>
// CHECK-NEXT:    %e = graph.expand %x, %s : (tensor<?x1xf32>, tensor<3xi64>) -> tensor<3x?x4xf32>

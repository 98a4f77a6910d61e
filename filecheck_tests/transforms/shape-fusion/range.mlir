// Range fed by shape chains (PyTorch's `torch.arange(x.size(1))`): the scalar Gather of
// Shape becomes a 0-d shape.of, so the range's length is an expression of x's dims,
// evaluated from its memref.dims when lowered (see graph-to-loops/shape-range.mlir).
// RUN: infer-opt %s -p shape-fusion | filecheck %s

func.func @arange_of_dim(%x: tensor<?x?x8xf32>) -> tensor<1x?xi64> {
  %s = graph.shape %x : (tensor<?x?x8xf32>) -> tensor<3xi64>
  %one = graph.constant dense<1> : tensor<i64>
  %zero = graph.constant dense<0> : tensor<i64>
  %t = graph.gather %s, %one : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %pos = graph.range %zero, %t, %one : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %ax = graph.constant dense<[0]> : tensor<1xi64>
  %y = graph.unsqueeze %pos, %ax : (tensor<?xi64>, tensor<1xi64>) -> tensor<1x?xi64>
  func.return %y : tensor<1x?xi64>
}
// CHECK-LABEL: func.func @arange_of_dim
// CHECK-NOT:     graph.shape
// CHECK-NOT:     graph.gather
// CHECK:         %t = shape.of %x {map = affine_map<(d0, d1, d2) -> (d1)>} : tensor<?x?x8xf32> -> tensor<i64>
// CHECK-NEXT:    %pos = graph.range %zero, %t, %one : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>

// Start, limit and delta all from the dims (Slice + Squeeze, Sub, Cast to i32).
func.func @bounds_from_dims(%x: tensor<?x?x8xf32>) -> tensor<?xi32> {
  %s = graph.shape %x {start = 1 : i64, end = 2 : i64} : (tensor<?x?x8xf32>) -> tensor<1xi64>
  %t = graph.squeeze %s : (tensor<1xi64>) -> tensor<i64>
  %two = graph.constant dense<2> : tensor<i64>
  %t2 = graph.sub %t, %two : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %c0 = graph.constant dense<0> : tensor<i64>
  %n = graph.gather %s, %c0 : (tensor<1xi64>, tensor<i64>) -> tensor<i64>
  %t2_32 = graph.cast %t2 {to = i32} : (tensor<i64>) -> tensor<i32>
  %n32 = graph.cast %n {to = i32} : (tensor<i64>) -> tensor<i32>
  %two32 = graph.constant dense<2> : tensor<i32>
  %r = graph.range %n32, %t2_32, %two32 : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  func.return %r : tensor<?xi32>
}
// CHECK-LABEL: func.func @bounds_from_dims
// CHECK-DAG:     %[[START:.*]] = shape.of %x {map = affine_map<(d0, d1, d2) -> (d1)>} : tensor<?x?x8xf32> -> tensor<i32>
// CHECK-DAG:     %[[LIMIT:.*]] = shape.of %x {map = affine_map<(d0, d1, d2) -> ((d1 + -2))>} : tensor<?x?x8xf32> -> tensor<i32>
// CHECK:         %r = graph.range %[[START]], %[[LIMIT]], %two32 : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>

// A static dim: the limit folds to a constant and the range gets a static type.
func.func @static_dim(%x: tensor<?x6x8xf32>) -> tensor<1x?xi64> {
  %s = graph.shape %x : (tensor<?x6x8xf32>) -> tensor<3xi64>
  %one = graph.constant dense<1> : tensor<i64>
  %zero = graph.constant dense<0> : tensor<i64>
  %t = graph.gather %s, %one : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %pos = graph.range %zero, %t, %one : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %ax = graph.constant dense<[0]> : tensor<1xi64>
  %y = graph.unsqueeze %pos, %ax : (tensor<?xi64>, tensor<1xi64>) -> tensor<1x?xi64>
  func.return %y : tensor<1x?xi64>
}
// CHECK-LABEL: func.func @static_dim
// CHECK:         %t = graph.constant dense<6> : tensor<i64>
// CHECK-NEXT:    %pos = graph.range %zero, %t, %one : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<6xi64>

// Shape → shape.of, and the ops that pick, stack and retype its rows.
// RUN: infer-opt %s -p shape-fusion | filecheck %s

// graph.shape x {start, end} -> shape.of x (identity map over [start, end))
func.func @shape(%x: tensor<?x3x?x5xf32>) -> (tensor<4xi64>, tensor<2xi64>) {
  %all = graph.shape %x : (tensor<?x3x?x5xf32>) -> tensor<4xi64>
  %mid = graph.shape %x {start = 1 : i64, end = -1 : i64} : (tensor<?x3x?x5xf32>) -> tensor<2xi64>
  func.return %all, %mid : tensor<4xi64>, tensor<2xi64>
}
// CHECK-LABEL: func.func @shape
// CHECK-NEXT:    %all = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0, 3, d2, 5)>} : tensor<?x3x?x5xf32> -> tensor<4xi64>
// CHECK-NEXT:    %mid = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (3, d2)>} : tensor<?x3x?x5xf32> -> tensor<2xi64>

// gather with constant indices (scalar, negative, 1-D) picks rows; slice too.
func.func @gather_slice(%x: tensor<?x3x?x5xf32>, %i: tensor<1xi64>) -> (tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<1xi64>) {
  %s = graph.shape %x : (tensor<?x3x?x5xf32>) -> tensor<4xi64>
  %c0 = graph.constant dense<-4> : tensor<i64>
  %n = graph.gather %s, %c0 : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %c1 = graph.constant dense<[2, 0]> : tensor<2xi64>
  %hn = graph.gather %s, %c1 : (tensor<4xi64>, tensor<2xi64>) -> tensor<2xi64>
  %st = graph.constant dense<[-1]> : tensor<1xi64>
  %en = graph.constant dense<[-10]> : tensor<1xi64>
  %ax = graph.constant dense<[0]> : tensor<1xi64>
  %sp = graph.constant dense<[-2]> : tensor<1xi64>
  %rev = graph.slice %s, %st, %en, %ax, %sp : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %dyn = graph.gather %s, %i : (tensor<4xi64>, tensor<1xi64>) -> tensor<1xi64>
  func.return %n, %hn, %rev, %dyn : tensor<i64>, tensor<2xi64>, tensor<2xi64>, tensor<1xi64>
}
// CHECK-LABEL: func.func @gather_slice
// CHECK-NEXT:    %s = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0, 3, d2, 5)>}
// CHECK-NEXT:    %n = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0)>} : tensor<?x3x?x5xf32> -> tensor<i64>
// CHECK-NEXT:    %hn = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d2, d0)>} : tensor<?x3x?x5xf32> -> tensor<2xi64>
// CHECK-NEXT:    %rev = graph.constant dense<[5, 3]> : tensor<2xi64>
// Dynamic indices: no fusion.
// CHECK-NEXT:    %dyn = graph.gather %s, %i

// concat of shapes of one tensor and constants stacks; unsqueeze/squeeze/cast retype.
func.func @concat_retype(%x: tensor<?x3x?x5xf32>, %y: tensor<?xf32>) -> (tensor<4xi32>, tensor<i64>, tensor<2xi64>) {
  %s = graph.shape %x : (tensor<?x3x?x5xf32>) -> tensor<4xi64>
  %c0 = graph.constant dense<0> : tensor<i64>
  %n = graph.gather %s, %c0 : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %ax = graph.constant dense<[0]> : tensor<1xi64>
  %n1 = graph.unsqueeze %n, %ax : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %m1 = graph.constant dense<[-1, 7]> : tensor<2xi64>
  %s2 = graph.shape %x {start = 2 : i64, end = 3 : i64} : (tensor<?x3x?x5xf32>) -> tensor<1xi64>
  %cat = graph.concat %n1, %m1, %s2 {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>, tensor<1xi64>) -> tensor<4xi64>
  %i32 = graph.cast %cat {to = i32} : (tensor<4xi64>) -> tensor<4xi32>
  %sq = graph.squeeze %n1, %ax : (tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
  %t = graph.shape %y : (tensor<?xf32>) -> tensor<1xi64>
  %mixed = graph.concat %n1, %t {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  func.return %i32, %sq, %mixed : tensor<4xi32>, tensor<i64>, tensor<2xi64>
}
// CHECK-LABEL: func.func @concat_retype
// CHECK:         %i32 = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0, -1, 7, d2)>} : tensor<?x3x?x5xf32> -> tensor<4xi32>
// CHECK-NEXT:    %sq = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0)>} : tensor<?x3x?x5xf32> -> tensor<i64>
// Shapes of two tensors: no fusion.
// CHECK:         %mixed = graph.concat

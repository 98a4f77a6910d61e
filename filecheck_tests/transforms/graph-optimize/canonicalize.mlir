// The graph ops' canonicalization patterns, one function each. They reach the ops through a
// trait, so xDSL's `canonicalize` applies them as graph-optimize's level 1 does.
// RUN: infer-opt %s -p canonicalize | filecheck %s
// RUN: infer-opt %s -p 'graph-optimize{level=1}' | filecheck %s

// identity(x) -> x, dropout(x) -> x
// CHECK-LABEL: func.func @identity_dropout
// CHECK-NEXT:    func.return %x
func.func @identity_dropout(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = graph.identity %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = graph.dropout %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %1 : tensor<?x4xf32>
}

// cast<T>(x: T) -> x; a real cast stays.
// CHECK-LABEL: func.func @cast
// CHECK-NEXT:    %[[C:.*]] = graph.cast %x {to = i64}
// CHECK-NEXT:    func.return %[[C]]
func.func @cast(%x: tensor<2x3xf32>) -> tensor<2x3xi64> {
  %0 = graph.cast %x {to = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.cast %0 {to = i64} : (tensor<2x3xf32>) -> tensor<2x3xi64>
  func.return %1 : tensor<2x3xi64>
}

// reshape(x: T) -> x for a static T (also flatten, squeeze, unsqueeze).
// CHECK-LABEL: func.func @noop_reshape
// CHECK-NEXT:    func.return %x
func.func @noop_reshape(%x: tensor<2x12xf32>) -> tensor<2x12xf32> {
  %s = graph.constant dense<[2, 12]> : tensor<2xi64>
  %0 = graph.reshape %x, %s : (tensor<2x12xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  %1 = graph.flatten %0 : (tensor<2x12xf32>) -> tensor<2x12xf32>
  func.return %1 : tensor<2x12xf32>
}

// A dynamic shape is not provably unchanged: the reshape stays.
// CHECK-LABEL: func.func @dynamic_reshape_stays
// CHECK-NEXT:    graph.constant
// CHECK-NEXT:    graph.reshape %x
func.func @dynamic_reshape_stays(%x: tensor<?x12xf32>) -> tensor<?x12xf32> {
  %s = graph.constant dense<[-1, 12]> : tensor<2xi64>
  %0 = graph.reshape %x, %s : (tensor<?x12xf32>, tensor<2xi64>) -> tensor<?x12xf32>
  func.return %0 : tensor<?x12xf32>
}

// reshape(reshape(x, s1), s2) -> reshape(x, s2)
// CHECK-LABEL: func.func @reshape_chain
// CHECK-NEXT:    %[[S:.*]] = graph.constant dense<[4, 6]> : tensor<2xi64>
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %x, %[[S]] : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @reshape_chain(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %s1 = graph.constant dense<[24]> : tensor<1xi64>
  %s2 = graph.constant dense<[4, 6]> : tensor<2xi64>
  %0 = graph.reshape %x, %s1 : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<24xf32>
  %1 = graph.reshape %0, %s2 : (tensor<24xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  func.return %1 : tensor<4x6xf32>
}

// flatten(unsqueeze(x)) with a dynamic batch: the batch is copied (0), nothing is inferred.
// CHECK-LABEL: func.func @unsqueeze_flatten_dynamic
// CHECK-NEXT:    %[[S:.*]] = graph.constant dense<[0, 12]> : tensor<2xi64>
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %x, %[[S]] : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x12xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @unsqueeze_flatten_dynamic(%x: tensor<?x3x4xf32>) -> tensor<?x12xf32> {
  %axes = graph.constant dense<[1]> : tensor<1xi64>
  %0 = graph.unsqueeze %x, %axes : (tensor<?x3x4xf32>, tensor<1xi64>) -> tensor<?x1x3x4xf32>
  %1 = graph.flatten %0 : (tensor<?x1x3x4xf32>) -> tensor<?x12xf32>
  func.return %1 : tensor<?x12xf32>
}

// reshape(unsqueeze(x)) with two dynamic dims: both copied (0).
// CHECK-LABEL: func.func @unsqueeze_reshape_two_dynamic
// CHECK-NEXT:    %[[S:.*]] = graph.constant dense<[0, 0, 4]> : tensor<3xi64>
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %x, %[[S]] : (tensor<?x?x4xf32>, tensor<3xi64>) -> tensor<?x?x4xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @unsqueeze_reshape_two_dynamic(%x: tensor<?x?x4xf32>) -> tensor<?x?x4xf32> {
  %axes = graph.constant dense<[2]> : tensor<1xi64>
  %s = graph.constant dense<[0, 0, -1]> : tensor<3xi64>
  %0 = graph.unsqueeze %x, %axes : (tensor<?x?x4xf32>, tensor<1xi64>) -> tensor<?x?x1x4xf32>
  %1 = graph.reshape %0, %s : (tensor<?x?x1x4xf32>, tensor<3xi64>) -> tensor<?x?x4xf32>
  func.return %1 : tensor<?x?x4xf32>
}

// squeeze(reshape(x)) where the dynamic dim moves: one -1 infers it.
// CHECK-LABEL: func.func @reshape_squeeze_dynamic
// CHECK-NEXT:    %[[S:.*]] = graph.constant dense<[3, -1]> : tensor<2xi64>
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %x, %[[S]] : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<3x?xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @reshape_squeeze_dynamic(%x: tensor<?x3xf32>) -> tensor<3x?xf32> {
  %s = graph.constant dense<[1, 3, -1]> : tensor<3xi64>
  %axes = graph.constant dense<[0]> : tensor<1xi64>
  %0 = graph.reshape %x, %s : (tensor<?x3xf32>, tensor<3xi64>) -> tensor<1x3x?xf32>
  %1 = graph.squeeze %0, %axes : (tensor<1x3x?xf32>, tensor<1xi64>) -> tensor<3x?xf32>
  func.return %1 : tensor<3x?xf32>
}

// transpose(transpose(x, p), q) -> transpose(x, [p[i] for i in q])
// CHECK-LABEL: func.func @transpose_chain
// CHECK-NEXT:    %[[T:.*]] = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    func.return %[[T]]
func.func @transpose_chain(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = graph.transpose %0 {perm = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  func.return %1 : tensor<4x2x3xf32>
}

// transpose(transpose(x, p), inverse(p)) -> x: composed, then the identity perm removed.
// CHECK-LABEL: func.func @transpose_inverse
// CHECK-NEXT:    func.return %x
func.func @transpose_inverse(%x: tensor<?x3x4xf32>) -> tensor<?x3x4xf32> {
  %0 = graph.transpose %x {perm = array<i64: 0, 2, 1>} : (tensor<?x3x4xf32>) -> tensor<?x4x3xf32>
  %1 = graph.transpose %0 {perm = array<i64: 0, 2, 1>} : (tensor<?x4x3xf32>) -> tensor<?x3x4xf32>
  func.return %1 : tensor<?x3x4xf32>
}

// concat(x) -> x
// CHECK-LABEL: func.func @concat_of_one
// CHECK-NEXT:    func.return %x
func.func @concat_of_one(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = graph.concat %x {axis = 1 : i64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// x + 0 -> x, 0 + x -> x, x - 0 -> x, x * 1 -> x, 1 * x -> x, x / 1 -> x
// CHECK-LABEL: func.func @arith_identities
// CHECK-NEXT:    func.return %x
func.func @arith_identities(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zero = graph.constant dense<0.0> : tensor<3xf32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %0 = graph.add %x, %zero : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.add %zero, %0 : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.sub %1, %zero : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = graph.mul %2, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %4 = graph.mul %one, %3 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = graph.div %4, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %5 : tensor<2x3xf32>
}

// A zero that broadcasts x to a larger shape is not the identity; 0 - x is not x.
// CHECK-LABEL: func.func @arith_not_identities
// CHECK-NEXT:    %[[Z:.*]] = graph.constant
// CHECK-NEXT:    %[[A:.*]] = graph.add %x, %[[Z]] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[S:.*]] = graph.sub %[[Z]], %[[A]]
// CHECK-NEXT:    func.return %[[S]]
func.func @arith_not_identities(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %zero = graph.constant dense<0.0> : tensor<2x3xf32>
  %0 = graph.add %x, %zero : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.sub %zero, %0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// to_nchwc(from_nchwc(x)) -> x, from_nchwc(to_nchwc(x)) -> x; a reorder to another block
// size stays.
// CHECK-LABEL: func.func @reorder_pairs
// CHECK-NEXT:    %[[P:.*]] = graph.from_nchwc %b
// CHECK-NEXT:    %[[B16:.*]] = graph.to_nchwc %[[P]] {block = 16 : i64}
// CHECK-NEXT:    func.return %x, %b, %[[B16]]
func.func @reorder_pairs(%x: tensor<1x16x4x4xf32>, %b: tensor<1x2x4x4x8xf32>) -> (tensor<1x16x4x4xf32>, tensor<1x2x4x4x8xf32>, tensor<1x1x4x4x16xf32>) {
  %0 = graph.to_nchwc %x {block = 8 : i64} : (tensor<1x16x4x4xf32>) -> tensor<1x2x4x4x8xf32>
  %1 = graph.from_nchwc %0 : (tensor<1x2x4x4x8xf32>) -> tensor<1x16x4x4xf32>
  %2 = graph.from_nchwc %b : (tensor<1x2x4x4x8xf32>) -> tensor<1x16x4x4xf32>
  %3 = graph.to_nchwc %2 {block = 8 : i64} : (tensor<1x16x4x4xf32>) -> tensor<1x2x4x4x8xf32>
  %4 = graph.to_nchwc %2 {block = 16 : i64} : (tensor<1x16x4x4xf32>) -> tensor<1x1x4x4x16xf32>
  func.return %1, %3, %4 : tensor<1x16x4x4xf32>, tensor<1x2x4x4x8xf32>, tensor<1x1x4x4x16xf32>
}

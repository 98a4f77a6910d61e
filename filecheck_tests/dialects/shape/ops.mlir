// shape.of parses, verifies, prints and round-trips; canonicalization substitutes the
// input's static dims into the map and folds an all-constant shape to graph.constant.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s
// RUN: infer-opt %s -p canonicalize | filecheck %s --check-prefix=CANON

func.func @of(%x: tensor<?x116x?x28xf32>) -> (tensor<5xi64>, tensor<i64>, tensor<2xi32>, tensor<2xi64>, tensor<0xi64>) {
  %split = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0, 2, d1 floordiv 2, d2, d3)>} : tensor<?x116x?x28xf32> -> tensor<5xi64>
  %scalar = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> ((d2 + 2) floordiv 2)>} : tensor<?x116x?x28xf32> -> tensor<i64>
  %i32 = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0 * 3 + d2 mod 4, d2 ceildiv 8)>} : tensor<?x116x?x28xf32> -> tensor<2xi32>
  %static = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d1 * 2, d3 - 1)>} : tensor<?x116x?x28xf32> -> tensor<2xi64>
  %empty = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> ()>} : tensor<?x116x?x28xf32> -> tensor<0xi64>
  func.return %split, %scalar, %i32, %static, %empty : tensor<5xi64>, tensor<i64>, tensor<2xi32>, tensor<2xi64>, tensor<0xi64>
}
// CHECK-LABEL: func.func @of
// CHECK-NEXT:    %split = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0, 2, (d1 floordiv 2), d2, d3)>} : tensor<?x116x?x28xf32> -> tensor<5xi64>
// CHECK-NEXT:    %scalar = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (((d2 + 2) floordiv 2))>} : tensor<?x116x?x28xf32> -> tensor<i64>
// CHECK-NEXT:    %i32 = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (((d0 * 3) + (d2 mod 4)), (d2 ceildiv 8))>} : tensor<?x116x?x28xf32> -> tensor<2xi32>
// CHECK-NEXT:    %static = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> ((d1 * 2), (d3 + -1))>} : tensor<?x116x?x28xf32> -> tensor<2xi64>
// CHECK-NEXT:    %empty = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> ()>} : tensor<?x116x?x28xf32> -> tensor<0xi64>

// CANON-LABEL: func.func @of
// CANON-NEXT:    %split = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0, 2, 58, d2, 28)>} : tensor<?x116x?x28xf32> -> tensor<5xi64>
// CANON-NEXT:    %scalar = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (((d2 + 2) floordiv 2))>} : tensor<?x116x?x28xf32> -> tensor<i64>
// CANON-NEXT:    %i32 = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (((d0 * 3) + (d2 mod 4)), (d2 ceildiv 8))>} : tensor<?x116x?x28xf32> -> tensor<2xi32>
// CANON-NEXT:    %static = graph.constant dense<[232, 27]> : tensor<2xi64>
// CANON-NEXT:    %empty = graph.constant dense<> : tensor<0xi64>

// A reshape fed by shape.of is typed from the map: static where the entry is.
func.func @reshape_typed(%x: tensor<?x116x28x28xf32>) -> tensor<?x2x58x28x28xf32> {
  %s = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0, 2, d1 floordiv 2, d2, d3)>} : tensor<?x116x28x28xf32> -> tensor<5xi64>
  %r = graph.reshape %x, %s : (tensor<?x116x28x28xf32>, tensor<5xi64>) -> tensor<?x2x58x28x28xf32>
  func.return %r : tensor<?x2x58x28x28xf32>
}
// CHECK-LABEL: func.func @reshape_typed
// CHECK-NEXT:    %s = shape.of %x
// CHECK-NEXT:    %r = graph.reshape %x, %s : (tensor<?x116x28x28xf32>, tensor<5xi64>) -> tensor<?x2x58x28x28xf32>

// Element types of ONNX inputs (signless iN is ONNX's signed intN, uN is unsigned, bool is
// i1); tensor names that are no identifiers keep their ONNX spelling in graph.name while
// the SSA names are sanitized; an unknown dim is `?` with "" in graph.dims.

// RUN: infer-opt %inputs/dtypes.onnx | filecheck %s

// CHECK:      func.func @main(%in_f16: tensor<2xf16> {graph.name = "in_f16"}, %in_f64: tensor<2xf64> {graph.name = "in_f64"},
// CHECK-SAME: %in_i8: tensor<2xi8> {graph.name = "in_i8"}, %in_u8: tensor<2xui8> {graph.name = "in_u8"},
// CHECK-SAME: %in_i16: tensor<2xi16> {graph.name = "in_i16"}, %in_u16: tensor<2xui16> {graph.name = "in_u16"},
// CHECK-SAME: %in_i32: tensor<2xi32> {graph.name = "in_i32"}, %in_u32: tensor<2xui32> {graph.name = "in_u32"},
// CHECK-SAME: %in_i64: tensor<2xi64> {graph.name = "in_i64"}, %in_u64: tensor<2xui64> {graph.name = "in_u64"}, %in_bool: tensor<2xi1> {graph.name = "in_bool"},
// CHECK-SAME: %input: tensor<?x?xf32> {graph.name = "input:0", graph.dims = ["", "seq"]})
// CHECK-SAME: tensor<?x?xf32> {graph.name = "3/relu", graph.dims = ["", "seq"]})
// CHECK:      %out_u8 = graph.identity %in_u8 : (tensor<2xui8>) -> tensor<2xui8>
// CHECK:      %v3_relu = graph.relu %input : (tensor<?x?xf32>) -> tensor<?x?xf32>

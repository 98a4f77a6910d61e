// RUN: infer-opt %inputs/conv_relu.onnx | filecheck %s
// RUN: infer-opt %inputs/conv_relu.onnx | infer-opt | filecheck %s

// A named dynamic batch dim stays `?` and its dim_param is kept as `graph.dims` (on the
// result too, as the graph output declares it);
// auto_pad SAME_UPPER becomes explicit pads; weights over 64 elements print elided.

// CHECK:      func.func @main(%x: tensor<?x3x7x7xf32> {graph.name = "x", graph.dims = ["N", "", "", ""]})
// CHECK-SAME:     -> (tensor<?x4x4x4xf32> {graph.name = "y", graph.dims = ["N", "", "", ""]})
// CHECK-NEXT:   %w = graph.constant elided<"{{[0-9a-f]+}}"> : tensor<4x3x3x3xf32>
// CHECK-NEXT:   %b = graph.constant dense<[{{.*}}]> : tensor<4xf32>
// CHECK-NEXT:   %conv = graph.conv %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
// CHECK-SAME:     : (tensor<?x3x7x7xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x4x4xf32>
// CHECK-NEXT:   %y = graph.relu %conv : (tensor<?x4x4x4xf32>) -> tensor<?x4x4x4xf32>
// CHECK-NEXT:   func.return %y : tensor<?x4x4x4xf32>

// RUN: infer-opt %inputs/mlp_opset9.onnx | filecheck %s

// Opset 9: initializers also listed as graph inputs are constants, not arguments;
// BatchNormalization (inference form), Gemm attributes, Softmax with its old axis = 1
// default on a 2-D input (the coerced and the new semantics agree).

// CHECK:      func.func @main(%x: tensor<2x3x2x2xf32> {graph.name = "x"}) -> (tensor<2x5xf32> {graph.name = "y"}) {
// CHECK:        %bn = graph.batch_normalization %x, %scale, %bias, %mean, %var {epsilon = 1.000000e-03 : f32}
// CHECK-NEXT:   %flat = graph.flatten %bn : (tensor<2x3x2x2xf32>) -> tensor<2x12xf32>
// CHECK-NEXT:   %w = graph.constant dense<"0x{{[0-9A-F]+}}"> : tensor<5x12xf32>
// CHECK-NEXT:   %b = graph.constant
// CHECK-NEXT:   %gemm = graph.gemm %flat, %w, %b {alpha = 5.000000e-01 : f32, transB = 1 : i64}
// CHECK-SAME:     -> tensor<2x5xf32>
// CHECK-NEXT:   %y = graph.softmax %gemm {axis = 1 : i64} : (tensor<2x5xf32>) -> tensor<2x5xf32>

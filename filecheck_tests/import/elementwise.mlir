// Elementwise ops, broadcasting, comparisons, variadic ops. Pow's integer exponent (legal
// since opset 12) is cast to the base's type.

// RUN: infer-opt %inputs/elementwise.onnx | filecheck %s

// CHECK:      %add = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %two = graph.constant dense<2> : tensor<i64>
// CHECK-NEXT: %[[EXP:.+]] = graph.cast %two {to = f32} : (tensor<i64>) -> tensor<f32>
// CHECK-NEXT: %pow = graph.pow %add, %[[EXP]] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: %less = graph.less %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %where = graph.where %less, %a, %pow : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %sum = graph.sum %a, %b, %where : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %mean = graph.mean %sum
// CHECK-NEXT: %lrelu = graph.leaky_relu %mean {alpha = 1.000000e-01 : f32}
// CHECK-NEXT: %hsig = graph.hard_sigmoid %lrelu :
// CHECK-NEXT: %gelu = graph.gelu %hsig {approximate = "tanh"}
// CHECK:      %y = graph.matmul %gelu, %m : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>

// Reductions (axes attribute before opset 13/18) and Split (split attribute before 13,
// num_outputs since 18) import to one form.

// RUN: infer-opt %inputs/reduce_split_v11.onnx | filecheck %s --check-prefixes=CHECK,V11
// RUN: infer-opt %inputs/reduce_split_v18.onnx | filecheck %s --check-prefixes=CHECK,V18

// CHECK:      %[[AXES:.+]] = graph.constant dense<1> : tensor<1xi64>
// CHECK-NEXT: %mean = graph.reduce_mean %x, %[[AXES]] {keepdims = 0 : i64} : (tensor<2x6xf32>, tensor<1xi64>) -> tensor<2xf32>
// CHECK-NEXT: %sum = graph.reduce_sum %x : (tensor<2x6xf32>) -> tensor<1x1xf32>
// CHECK-NEXT: %[[SPLIT:.+]] = graph.constant dense<[2, 4]> : tensor<2xi64>
// CHECK-NEXT: %s0, %s1 = graph.split %x, %[[SPLIT]] {axis = 1 : i64, num_outputs = 2 : i64} : (tensor<2x6xf32>, tensor<2xi64>) -> (tensor<2x2xf32>, tensor<2x4xf32>)
// V11-NEXT:   func.return
// V18-NEXT:   %t0, %t1, %t2 = graph.split %x {axis = 1 : i64, num_outputs = 3 : i64} : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)

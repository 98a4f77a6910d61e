// Softmax/LogSoftmax before opset 13 work on the input coerced to 2-D at `axis`:
// Flatten -> softmax over the last axis -> Reshape back, unless every dim after `axis`
// is 1 (or `axis` is the last one), where the old and new semantics agree.

// RUN: infer-opt %inputs/softmax_v11.onnx | filecheck %s

// CHECK:      %[[FLAT:.+]] = graph.flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK-NEXT: %[[SM:.+]] = graph.softmax %[[FLAT]] : (tensor<2x12xf32>) -> tensor<2x12xf32>
// CHECK-NEXT: %[[SHAPE:.+]] = graph.constant dense<[2, 3, 4]> : tensor<3xi64>
// CHECK-NEXT: %y = graph.reshape %[[SM]], %[[SHAPE]] : (tensor<2x12xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %z = graph.log_softmax %x {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>

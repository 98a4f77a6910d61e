// Unsqueeze's axes: an attribute before opset 13, an input since. Both import as the
// newest form, axes as a constant operand.

// RUN: infer-opt %inputs/unsqueeze_v11.onnx | filecheck %s
// RUN: infer-opt %inputs/unsqueeze_v13.onnx | filecheck %s

// CHECK:      %[[AXES:.+]] = graph.constant dense<[0, -1]> : tensor<2xi64>
// CHECK-NEXT: %y = graph.unsqueeze %x, %[[AXES]] : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<1x3x4x1xf32>

// Slice: attributes before opset 10, inputs since; omitted axes/steps become constants.

// RUN: infer-opt %inputs/slice_v9.onnx | filecheck %s
// RUN: infer-opt %inputs/slice_v13.onnx | filecheck %s

// CHECK:      %[[S:.+]] = graph.constant dense<1> : tensor<1xi64>
// CHECK-NEXT: %[[E:.+]] = graph.constant dense<1000> : tensor<1xi64>
// CHECK-NEXT: %[[A:.+]] = graph.constant dense<1> : tensor<1xi64>
// CHECK-NEXT: %[[ST:.+]] = graph.constant dense<1> : tensor<1xi64>
// CHECK-NEXT: %y = graph.slice %x, %[[S]], %[[E]], %[[A]], %[[ST]] : (tensor<2x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x4xf32>

// The model zoo's resnet50 (opset 9): BatchNormalization, Sum of residuals, Gemm after
// Reshape; names like "gpu_0/data_0" sanitized.

// RUN: infer-opt %onnx_light/light_resnet50.onnx | filecheck %s

// CHECK:      func.func @main(%gpu_0_data: tensor<1x3x224x224xf32> {graph.name = "gpu_0/data_0"}) -> (tensor<1x1000xf32> {graph.name = "gpu_0/softmax_1"})
// CHECK:      graph.conv %gpu_0_data, %{{.+}} {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x112x112xf32>
// CHECK:      graph.batch_normalization
// CHECK:      graph.sum %{{.+}}, %{{.+}} : (tensor<1x256x56x56xf32>, tensor<1x256x56x56xf32>) -> tensor<1x256x56x56xf32>
// CHECK:      graph.average_pool %{{.+}} {kernel_shape = array<i64: 7, 7>} : (tensor<1x2048x7x7xf32>) -> tensor<1x2048x1x1xf32>
// CHECK:      graph.reshape {{.*}} -> tensor<1x2048xf32>
// CHECK:      graph.gemm {{.*}} -> tensor<1x1000xf32>
// CHECK:      graph.softmax {{.*}} -> tensor<1x1000xf32>

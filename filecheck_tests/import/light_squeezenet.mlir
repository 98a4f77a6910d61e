// The model zoo's squeezenet (opset 9, weights made by ConstantOfShape).

// RUN: infer-opt %onnx_light/light_squeezenet.onnx | filecheck %s

// CHECK:      func.func @main(%data: tensor<1x3x224x224xf32> {graph.name = "data_0"}) -> (tensor<1x1000x1x1xf32> {graph.name = "softmaxout_1"})
// CHECK:      %conv1_w = graph.constant_of_shape %{{.+}} {value = dense<2.000000e-02> : tensor<1xf32>} : (tensor<4xi64>) -> tensor<64x3x3x3xf32>
// CHECK:      graph.conv %data, %conv1_w, %conv1_b {strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x3x3xf32>, tensor<64xf32>) -> tensor<1x64x111x111xf32>
// CHECK:      graph.max_pool %{{.+}} {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x64x111x111xf32>) -> tensor<1x64x55x55xf32>
// CHECK:      graph.concat %{{.+}}, %{{.+}} {axis = 1 : i64} : (tensor<1x64x55x55xf32>, tensor<1x64x55x55xf32>) -> tensor<1x128x55x55xf32>
// CHECK:      graph.dropout
// CHECK:      %[[GAP:.+]] = graph.global_average_pool %{{.+}} : (tensor<1x1000x13x13xf32>) -> tensor<1x1000x1x1xf32>
// CHECK-NEXT: %softmaxout = graph.softmax %[[GAP]] {axis = 1 : i64} : (tensor<1x1000x1x1xf32>) -> tensor<1x1000x1x1xf32>
// CHECK-NEXT: func.return %softmaxout : tensor<1x1000x1x1xf32>

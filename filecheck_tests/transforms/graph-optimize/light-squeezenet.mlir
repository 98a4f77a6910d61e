// graph-optimize{level=1} on the light SqueezeNet shipped with onnx: its ConstantOfShape
// weights and biases become constants (bound once instead of filled on every run) and the Dropout
// goes; the convs, relus and concats stay for level 2.
// RUN: infer-opt %onnx_light/light_squeezenet.onnx | filecheck %s --check-prefix=NONE-CHECK
// RUN: infer-opt %onnx_light/light_squeezenet.onnx -p 'graph-optimize{level=1}' | filecheck %s --check-prefix=BASIC-CHECK

// NONE-CHECK:      %conv1_w = graph.constant_of_shape
// NONE-CHECK:      graph.dropout

// BASIC-CHECK-NOT: graph.constant_of_shape
// BASIC-CHECK:     %conv1_w = graph.constant elided<"{{[0-9a-f]+}}"> : tensor<64x3x3x3xf32>
// BASIC-CHECK-NOT: graph.dropout
// BASIC-CHECK:     graph.conv
// BASIC-CHECK-NOT: graph.dropout
// BASIC-CHECK-NOT: graph.constant_of_shape

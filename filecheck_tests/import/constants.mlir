// Constant nodes (tensor and value_ints forms), Dropout with its unused mask, and a graph
// output that is a graph input.

// RUN: infer-opt %inputs/constants.onnx | filecheck %s

// CHECK:      func.func @main(%x: tensor<2xf32> {graph.name = "x"})
// CHECK-SAME:   -> (tensor<2xf32> {graph.name = "y"}, tensor<2xi64> {graph.name = "k"}, tensor<2xf32> {graph.name = "x"})
// CHECK-NEXT: %c = graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %k = graph.constant dense<[3, 4]> : tensor<2xi64>
// CHECK:      %d = graph.dropout %x : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %y = graph.mul %d, %c
// CHECK-NEXT: func.return %y, %k, %x : tensor<2xf32>, tensor<2xi64>, tensor<2xf32>

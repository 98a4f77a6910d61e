// Shape computations on dynamic dims: Shape/Gather/Unsqueeze/Concat feeding Reshape,
// with scalar (rank-0) constants kept rank 0.

// RUN: infer-opt %inputs/shape_ops.onnx | filecheck %s

// CHECK:      func.func @main(%x: tensor<?x3x?x5xf32> {graph.name = "x", graph.dims = ["batch", "", "h", ""]})
// CHECK:      %shape = graph.shape %x : (tensor<?x3x?x5xf32>) -> tensor<4xi64>
// CHECK-NEXT: %zero = graph.constant dense<0> : tensor<i64>
// CHECK-NEXT: %batch = graph.gather %shape, %zero : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
// CHECK:      %batch1 = graph.unsqueeze %batch, %zero_axes : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK:      %newshape = graph.concat %batch1, %minus1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT: %flat = graph.reshape %x, %newshape : (tensor<?x3x?x5xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK-NEXT: %t = graph.transpose %x {perm = array<i64: 0, 2, 3, 1>} : (tensor<?x3x?x5xf32>) -> tensor<?x?x5x3xf32>
// CHECK-NEXT: %y = graph.cast %flat {to = f16} : (tensor<?x?xf32>) -> tensor<?x?xf16>
// CHECK-NEXT: %ones = graph.constant_of_shape %shape {value = dense<1> : tensor<1xi64>} : (tensor<4xi64>) -> tensor<?x?x?x?xi64>
// CHECK:      %e = graph.expand %x, %eshape : (tensor<?x3x?x5xf32>, tensor<5xi64>) -> tensor<2x?x3x?x5xf32>
// CHECK-NEXT: %tail = graph.shape %x {start = -2 : i64} : (tensor<?x3x?x5xf32>) -> tensor<2xi64>

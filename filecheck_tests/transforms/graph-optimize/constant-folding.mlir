// Constant folding: an op whose operands are all constants becomes a constant (numpy
// semantics from dialects/graph/evaluate.py); its name and type are kept.
// RUN: infer-opt %s -p constant-folding | filecheck %s
// RUN: infer-opt %s -p 'graph-optimize{level=1}' | filecheck %s

// f(constant a, constant b) -> constant f(a, b), in float32.
// CHECK-LABEL: func.func @binary
// CHECK-NEXT:    %sum = graph.constant dense<[1.500000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.mul %x, %sum
func.func @binary(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = graph.constant dense<0.5> : tensor<f32>
  %sum = graph.add %a, %b : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %y = graph.mul %x, %sum : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}

// A ConstantOfShape weight (the light models' kind) becomes a constant: bound once,
// not filled on every run.
// CHECK-LABEL: func.func @constant_of_shape
// CHECK-NEXT:    %w = graph.constant dense<2.000000e-02> : tensor<2x3xf32>
// CHECK-NEXT:    graph.matmul %x, %w
func.func @constant_of_shape(%x: tensor<?x2xf32>) -> tensor<?x3xf32> {
  %s = graph.constant dense<[2, 3]> : tensor<2xi64>
  %w = graph.constant_of_shape %s {value = dense<2.000000e-02> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<2x3xf32>
  %y = graph.matmul %x, %w : (tensor<?x2xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  func.return %y : tensor<?x3xf32>
}

// shape(x) -> constant when the dims it reads are static, even if x is not a constant;
// then the shape chain (gather, unsqueeze, concat) folds, and the reshape's type is kept.
// CHECK-LABEL: func.func @static_shape_chain
// CHECK-NEXT:    %[[S:.*]] = graph.constant dense<[3, 4]> : tensor<2xi64>
// CHECK-NEXT:    graph.reshape %x, %[[S]] : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
func.func @static_shape_chain(%x: tensor<?x3x4xf32>) -> tensor<3x4xf32> {
  %shape = graph.shape %x {start = 1 : i64} : (tensor<?x3x4xf32>) -> tensor<2xi64>
  %i0 = graph.constant dense<0> : tensor<i64>
  %i1 = graph.constant dense<1> : tensor<i64>
  %axes = graph.constant dense<[0]> : tensor<1xi64>
  %c = graph.gather %shape, %i0 : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %h = graph.gather %shape, %i1 : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %c1 = graph.unsqueeze %c, %axes : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %h1 = graph.unsqueeze %h, %axes : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %new = graph.concat %c1, %h1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %y = graph.reshape %x, %new : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return %y : tensor<3x4xf32>
}

// A dynamic dim is not known: shape(x) of it stays.
// CHECK-LABEL: func.func @dynamic_shape
// CHECK-NEXT:    graph.shape %x
func.func @dynamic_shape(%x: tensor<?x3xf32>) -> tensor<2xi64> {
  %shape = graph.shape %x : (tensor<?x3xf32>) -> tensor<2xi64>
  func.return %shape : tensor<2xi64>
}

// Integer division truncates toward zero (as the kernels' divsi); a cast and a
// transpose of constants fold too.
// CHECK-LABEL: func.func @int_div_cast_transpose
// CHECK-NEXT:    %q = graph.constant dense<[-3, 3]> : tensor<2xi64>
// CHECK-NEXT:    %f = graph.constant dense<[-3.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %t = graph.constant dense<{{\[}}[1, 3], [2, 4]]> : tensor<2x2xi32>
func.func @int_div_cast_transpose() -> (tensor<2xi64>, tensor<2xf32>, tensor<2x2xi32>) {
  %a = graph.constant dense<[-7, 7]> : tensor<2xi64>
  %b = graph.constant dense<2> : tensor<i64>
  %q = graph.div %a, %b : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %f = graph.cast %q {to = f32} : (tensor<2xi64>) -> tensor<2xf32>
  %m = graph.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %t = graph.transpose %m : (tensor<2x2xi32>) -> tensor<2x2xi32>
  func.return %q, %f, %t : tensor<2xi64>, tensor<2xf32>, tensor<2x2xi32>
}

// Split of a constant: one constant per result.
// CHECK-LABEL: func.func @split
// CHECK-NEXT:    graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    graph.constant dense<3.000000e+00> : tensor<1xf32>
func.func @split() -> (tensor<2xf32>, tensor<1xf32>) {
  %a = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %s = graph.constant dense<[2, 1]> : tensor<2xi64>
  %p:2 = graph.split %a, %s {num_outputs = 2 : i64} : (tensor<3xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<1xf32>)
  func.return %p#0, %p#1 : tensor<2xf32>, tensor<1xf32>
}

// An op with a non-constant operand is not folded.
// CHECK-LABEL: func.func @not_constant
// CHECK:         graph.add %x
func.func @not_constant(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = graph.add %x, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}

// RUN: infer-opt %s -p transformer-fusion | filecheck %s

// PyTorch's export of GELU: Div(x, sqrt 2), Erf, Add 1, Mul x, Mul 0.5.
// CHECK-LABEL: func.func @gelu_torch
// CHECK-NEXT:    %[[Y:.*]] = graph.gelu %x : (tensor<?x32xf32>) -> tensor<?x32xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @gelu_torch(%x: tensor<?x32xf32>) -> tensor<?x32xf32> {
  %sqrt2 = graph.constant dense<1.41421354> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %0 = graph.div %x, %sqrt2 : (tensor<?x32xf32>, tensor<f32>) -> tensor<?x32xf32>
  %1 = graph.erf %0 : (tensor<?x32xf32>) -> tensor<?x32xf32>
  %2 = graph.add %1, %one : (tensor<?x32xf32>, tensor<f32>) -> tensor<?x32xf32>
  %3 = graph.mul %x, %2 : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
  %4 = graph.mul %3, %half : (tensor<?x32xf32>, tensor<f32>) -> tensor<?x32xf32>
  func.return %4 : tensor<?x32xf32>
}

// Mul by 1/sqrt(2), 1 + erf, and the 0.5 applied to x first: (0.5 * x) * (1 + erf).
// CHECK-LABEL: func.func @gelu_half_first
// CHECK-NEXT:    %[[Y:.*]] = graph.gelu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @gelu_half_first(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %inv = graph.constant dense<0.707106769> : tensor<1xf32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %h = graph.mul %half, %x : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = graph.mul %x, %inv : (tensor<4x8xf32>, tensor<1xf32>) -> tensor<4x8xf32>
  %1 = graph.erf %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = graph.add %one, %1 : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = graph.mul %h, %2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %3 : tensor<4x8xf32>
}

// The 0.5 on (1 + erf), then the product with x.
// CHECK-LABEL: func.func @gelu_half_on_erf
// CHECK-NEXT:    %[[Y:.*]] = graph.gelu %x
// CHECK-NEXT:    func.return %[[Y]]
func.func @gelu_half_on_erf(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %sqrt2 = graph.constant dense<1.41421354> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %0 = graph.div %x, %sqrt2 : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %1 = graph.erf %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = graph.add %1, %one : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %3 = graph.mul %2, %half : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %4 = graph.mul %3, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %4 : tensor<4x8xf32>
}

// Not GELU: the wrong constant (0.6 instead of 0.5), and erf's input is not x / sqrt(2).
// CHECK-LABEL: func.func @not_gelu
// CHECK-NOT:     graph.gelu
// CHECK:         graph.erf
// CHECK-NOT:     graph.gelu
// CHECK:         graph.erf
// CHECK-NOT:     graph.gelu
// CHECK:         func.return
func.func @not_gelu(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %sqrt2 = graph.constant dense<1.41421354> : tensor<f32>
  %two = graph.constant dense<2.0> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %bad = graph.constant dense<0.6> : tensor<f32>
  %0 = graph.div %x, %sqrt2 : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %1 = graph.erf %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = graph.add %1, %one : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %3 = graph.mul %x, %2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = graph.mul %3, %bad : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %5 = graph.div %x, %two : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %6 = graph.erf %5 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = graph.add %6, %one : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %8 = graph.mul %x, %7 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %9 = graph.mul %8, %half : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  func.return %4, %9 : tensor<4x8xf32>, tensor<4x8xf32>
}

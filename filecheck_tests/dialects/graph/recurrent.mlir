// graph.recurrence (the recurrence of RNN, GRU and LSTM) parses, verifies, prints and
// round-trips; its result types follow from xw [dirs, T, N, gates * H] and rt (R^T in
// panels of 16 columns: [dirs, panels, H, 16]).
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @lstm(%xw: tensor<1x?x?x8xf32>, %rt: tensor<1x1x2x16xf32>, %rb: tensor<1x8xf32>, %p: tensor<1x6xf32>) -> tensor<1x?x2xf32> {
    %y, %yh, %yc = graph.recurrence %xw, %rt, %rb, %p {kind = "lstm", activations = ["sigmoid", "tanh", "tanh"], activation_params = array<f64>, has_peepholes = 1 : i64} : (tensor<1x?x?x8xf32>, tensor<1x1x2x16xf32>, tensor<1x8xf32>, tensor<1x6xf32>) -> (tensor<?x1x?x2xf32>, tensor<1x?x2xf32>, tensor<1x?x2xf32>)
    func.return %yc : tensor<1x?x2xf32>
  }
  func.func @rnn(%xw: tensor<2x4x3x5xf64>, %rt: tensor<2x1x5x16xf64>, %rb: tensor<2x5xf64>) -> tensor<4x2x3x5xf64> {
    %y, %yh = graph.recurrence %xw, %rt, %rb {kind = "rnn", direction = "bidirectional", activations = ["leaky_relu", "hard_sigmoid"], activation_params = array<f64: 0.1, 0.2, 0.5>, clip = 3.000000e+00 : f32} : (tensor<2x4x3x5xf64>, tensor<2x1x5x16xf64>, tensor<2x5xf64>) -> (tensor<4x2x3x5xf64>, tensor<2x3x5xf64>)
    func.return %y : tensor<4x2x3x5xf64>
  }
}

// CHECK-LABEL: func.func @lstm
// CHECK-NEXT:    %y, %yh, %yc = graph.recurrence %xw, %rt, %rb, %p {kind = "lstm", activations = ["sigmoid", "tanh", "tanh"], activation_params = array<f64>, has_peepholes = 1 : i64} : (tensor<1x?x?x8xf32>, tensor<1x1x2x16xf32>, tensor<1x8xf32>, tensor<1x6xf32>) -> (tensor<?x1x?x2xf32>, tensor<1x?x2xf32>, tensor<1x?x2xf32>)
// CHECK-LABEL: func.func @rnn
// CHECK-NEXT:    %y, %yh = graph.recurrence %xw, %rt, %rb {kind = "rnn", direction = "bidirectional", activations = ["leaky_relu", "hard_sigmoid"], activation_params = array<f64: 1.000000e-01, 2.000000e-01, 5.000000e-01>, clip = 3.000000e+00 : f32} : (tensor<2x4x3x5xf64>, tensor<2x1x5x16xf64>, tensor<2x5xf64>) -> (tensor<4x2x3x5xf64>, tensor<2x3x5xf64>)

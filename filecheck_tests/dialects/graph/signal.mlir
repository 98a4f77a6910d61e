// The signal ops parse, verify, print and round-trip.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @dft(%x: tensor<?x8x1xf32>, %c: tensor<2x6x2xf64>, %axis: tensor<i64>, %n: tensor<i64>) -> (tensor<?x5x2xf32>, tensor<?x?x1xf64>) {
    %a = graph.constant dense<1> : tensor<1xi64>
    %rfft = graph.dft %x, %a {onesided = 1 : i64} : (tensor<?x8x1xf32>, tensor<1xi64>) -> tensor<?x5x2xf32>
    %irfft = graph.dft %c, %axis, %n {inverse = 1 : i64, onesided = 1 : i64} : (tensor<2x6x2xf64>, tensor<i64>, tensor<i64>) -> tensor<?x?x1xf64>
    func.return %rfft, %irfft : tensor<?x5x2xf32>, tensor<?x?x1xf64>
  }
  func.func @stft(%x: tensor<2x64x1xf32>, %step: tensor<i64>, %w: tensor<16xf32>) -> tensor<2x?x9x2xf32> {
    %n = graph.constant dense<16> : tensor<1xi64>
    %y = graph.stft %x, %step, %n, %w : (tensor<2x64x1xf32>, tensor<i64>, tensor<1xi64>, tensor<16xf32>) -> tensor<2x?x9x2xf32>
    func.return %y : tensor<2x?x9x2xf32>
  }
  func.func @mel(%mels: tensor<i64>, %length: tensor<i64>, %rate: tensor<i64>, %low: tensor<f32>, %high: tensor<f32>) -> tensor<?x?xf32> {
    %w = graph.mel_weight_matrix %mels, %length, %rate, %low, %high {to = f32} : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<?x?xf32>
    func.return %w : tensor<?x?xf32>
  }
}

// CHECK-LABEL: func.func @dft
// CHECK-NEXT:    %a = graph.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:    %rfft = graph.dft %x, %a {onesided = 1 : i64} : (tensor<?x8x1xf32>, tensor<1xi64>) -> tensor<?x5x2xf32>
// CHECK-NEXT:    %irfft = graph.dft %c, %axis, %n {inverse = 1 : i64, onesided = 1 : i64} : (tensor<2x6x2xf64>, tensor<i64>, tensor<i64>) -> tensor<?x?x1xf64>

// CHECK-LABEL: func.func @stft
// CHECK-NEXT:    %n = graph.constant dense<16> : tensor<1xi64>
// CHECK-NEXT:    %y = graph.stft %x, %step, %n, %w : (tensor<2x64x1xf32>, tensor<i64>, tensor<1xi64>, tensor<16xf32>) -> tensor<2x?x9x2xf32>

// CHECK-LABEL: func.func @mel
// CHECK-NEXT:    %w = graph.mel_weight_matrix %mels, %length, %rate, %low, %high {to = f32} : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<?x?xf32>

// qnn-legalize: the int8 kernel form for the target, the weights packed for it.
// RUN: infer-opt %s -p 'qnn-legalize{vnni=true lanes=16}' | filecheck %s --check-prefix=VNNI
// RUN: infer-opt %s -p 'qnn-legalize{vnni=true lanes=8}' | filecheck %s --check-prefix=AVXVNNI
// RUN: infer-opt %s -p qnn-legalize | filecheck %s --check-prefix=AVX2
// RUN: infer-opt %s -p 'qnn-legalize{lanes=4}' | filecheck %s --check-prefix=SSE

builtin.module {
  func.func @conv(%x: tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xui8> {
    %zy = graph.constant dense<3> : tensor<ui8>
    %w = graph.constant dense<[[[[1, -2]], [[3, 4]]], [[[-1, 4]], [[-7, 6]]]]> : tensor<2x2x1x2xi16>
    %b = graph.constant dense<[40, -120]> : tensor<2xi32>
    %m = graph.constant dense<[6.250000e-02, 1.875000e-01]> : tensor<2xf32>
    %y = qnn.conv_requant %x, %w, %b, %m, %zy {x_zero_point = 10 : i64, lo = 3 : i64, hi = 255 : i64, kernel_shape = array<i64: 1, 2>, pads = array<i64: 0, 0, 0, 1>} : (tensor<1x2x4x4xui8>, tensor<2x2x1x2xi16>, tensor<2xi32>, tensor<2xf32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
    func.return %y : tensor<1x2x4x4xui8>
  }
  func.func @matmul_signed(%a: tensor<?x3xi8>) -> tensor<?x2xi8> {
    %zy = graph.constant dense<-5> : tensor<i8>
    %w = graph.constant dense<[[1, 2], [3, -4], [5, 6]]> : tensor<3x2xi16>
    %b = graph.constant dense<[18, 8]> : tensor<2xi32>
    %m = graph.constant dense<0.333333313> : tensor<1xf32>
    %y = qnn.matmul_requant %a, %w, %b, %m, %zy {x_zero_point = -2 : i64, lo = -128 : i64, hi = 127 : i64, n = 2 : i64} : (tensor<?x3xi8>, tensor<3x2xi16>, tensor<2xi32>, tensor<1xf32>, tensor<i8>) -> tensor<?x2xi8>
    func.return %y : tensor<?x2xi8>
  }
  func.func @weights_past_s8(%a: tensor<1x2xui8>) -> tensor<1x1xui8> {
    %zy = graph.constant dense<0> : tensor<ui8>
    %w = graph.constant dense<[[200], [-1]]> : tensor<2x1xi16>
    %b = graph.constant dense<0> : tensor<1xi32>
    %m = graph.constant dense<1.000000e-02> : tensor<1xf32>
    %y = qnn.matmul_requant %a, %w, %b, %m, %zy {x_zero_point = 0 : i64, lo = 0 : i64, hi = 255 : i64, n = 1 : i64} : (tensor<1x2xui8>, tensor<2x1xi16>, tensor<1xi32>, tensor<1xf32>, tensor<ui8>) -> tensor<1x1xui8>
    func.return %y : tensor<1x1xui8>
  }
}

// vpdpbusd: four s8 weights a word (row 0: 1, -2, 3, 4 = 0x0403fe01), k padded to 4.
// VNNI-LABEL: func.func @conv
// VNNI:         %[[W:.*]] = graph.constant dense<{{\[}}[67370497], [116983039]]> : tensor<2x1xi32>
// VNNI-NEXT:    %[[B:.*]] = graph.constant dense<[40, -120]> : tensor<2xi32>
// VNNI-NEXT:    %[[M:.*]] = graph.constant dense<[6.250000e-02, 1.875000e-01]> : tensor<2xf32>
// VNNI-NEXT:    qnn.conv_requant %x, %[[W]], %[[B]], %[[M]], %{{.*}} {{{.*}}kernel = "vnni", lanes = 16 : i64}
// s8 x is read as x + 128: the bias drops 128 * sum_k(w') = 128 * [9, 4]; panels of 16
// columns (the second is column 1: 2, -4, 6), bias and multiplier padded to 16.
// VNNI-LABEL: func.func @matmul_signed
// VNNI:         graph.constant dense<{{\[\[\[}}328449, 457730, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]]> : tensor<1x1x16xi32>
// VNNI-NEXT:    graph.constant dense<[-1134, -504, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// VNNI-NEXT:    graph.constant dense<[0.333333313, 0.333333313, 0.000000e+00
// VNNI:         qnn.matmul_requant {{.*}}kernel = "vnni", lanes = 16 : i64}
// w' = 200 is no s8: vpmaddwd's pairs of i16 (200 | -1 << 16)
// VNNI-LABEL: func.func @weights_past_s8
// VNNI:         graph.constant dense<{{\[\[\[}}-65336, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]]> : tensor<1x1x16xi32>
// VNNI:         qnn.matmul_requant {{.*}}kernel = "pairs", lanes = 16 : i64}

// AVX-VNNI: the same words, panels of 8 columns.
// AVXVNNI-LABEL: func.func @matmul_signed
// AVXVNNI:         graph.constant dense<{{\[\[\[}}328449, 457730, 0, 0, 0, 0, 0, 0]]]> : tensor<1x1x8xi32>
// AVXVNNI:         qnn.matmul_requant {{.*}}kernel = "vnni", lanes = 8 : i64}

// With AVX2 no int8 dot product: pairs of i16; unit strides and whole pairs of channels,
// so k runs over (tap, channel): row 0 is 1 | 3 << 16 (tap 0), -2 | 4 << 16 (tap 1); the
// signed x widened as it is, so the bias stays.
// AVX2-LABEL: func.func @conv
// AVX2:         %[[W:.*]] = graph.constant dense<{{\[\[}}196609, 327678], [-393217, 393220]]> : tensor<2x2xi32>
// AVX2:         qnn.conv_requant {{.*}}kernel = "pairs", lanes = 8 : i64}
// AVX2-LABEL: func.func @matmul_signed
// AVX2:         graph.constant dense<[18, 8, 0, 0, 0, 0, 0, 0]> : tensor<8xi32>
// AVX2:         qnn.matmul_requant {{.*}}kernel = "pairs", lanes = 8 : i64}

// SSE2: 4 lanes.
// SSE-LABEL: func.func @matmul_signed
// SSE:         qnn.matmul_requant {{.*}} : (tensor<?x3xi8>, tensor<1x2x4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<i8>) -> tensor<?x2xi8>

// RUN: infer-opt %s -p graph-fuse | filecheck %s

// A ConvTranspose whose 2x2 kernel is its stride writes each output once: a 1x1 conv with
// W'[m*4 + i*2 + j, c] = W[c, m, i, j] and the bias repeated 4 times, then DepthToSpace.
// CHECK-LABEL: func.func @upsample
// CHECK-NOT:     graph.conv_transpose
// CHECK:         %[[W:.*]] = graph.constant dense<{{\[\[\[\[}}1.000000e+00]], {{\[\[}}3.000000e+00]]], {{\[\[\[}}2.000000e+00]], {{\[\[}}4.000000e+00]]], {{\[\[\[}}5.000000e+00]], {{\[\[}}7.000000e+00]]], {{\[\[\[}}6.000000e+00]], {{\[\[}}8.000000e+00]]]]> : tensor<4x2x1x1xf32>
// CHECK-NEXT:    %[[B:.*]] = graph.constant dense<5.000000e-01> : tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = graph.conv %x, %[[W]], %[[B]] : (tensor<?x2x?x?xf32>, tensor<4x2x1x1xf32>, tensor<4xf32>) -> tensor<?x4x?x?xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.depth_to_space %[[C]] {blocksize = 2 : i64, mode = "CRD"} : (tensor<?x4x?x?xf32>) -> tensor<?x1x?x?xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @upsample(%x: tensor<?x2x?x?xf32>) -> tensor<?x1x?x?xf32> {
  %w = graph.constant dense<[[[[1.0, 2.0], [5.0, 6.0]]], [[[3.0, 4.0], [7.0, 8.0]]]]> : tensor<2x1x2x2xf32>
  %b = graph.constant dense<0.5> : tensor<1xf32>
  %y = graph.conv_transpose %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<?x2x?x?xf32>, tensor<2x1x2x2xf32>, tensor<1xf32>) -> tensor<?x1x?x?xf32>
  func.return %y : tensor<?x1x?x?xf32>
}

// Kept: overlapping taps (a 3x3 kernel at stride 2), and pads.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: graph.conv_transpose
func.func @kept(%x: tensor<1x2x4x4xf32>, %w3: tensor<2x1x3x3xf32>, %w2: tensor<2x1x2x2xf32>) -> (tensor<1x1x9x9xf32>, tensor<1x1x6x6xf32>) {
  %a = graph.conv_transpose %x, %w3 {strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<1x1x9x9xf32>
  %c = graph.constant dense<1.0> : tensor<2x1x2x2xf32>
  %b = graph.conv_transpose %x, %c {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x1x2x2xf32>) -> tensor<1x1x6x6xf32>
  func.return %a, %b : tensor<1x1x9x9xf32>, tensor<1x1x6x6xf32>
}

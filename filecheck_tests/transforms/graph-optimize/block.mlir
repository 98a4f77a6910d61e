// The NCHWc block is a target choice written as a pass option: level 3 blocks the conv by
// `block` channels (the API passes one vector register of the host); without it, by 8.
// RUN: infer-opt %s -p 'graph-optimize{level=3 block=16}' | filecheck %s --check-prefix=B16-CHECK
// RUN: infer-opt %s -p 'graph-optimize{level=3}' | filecheck %s --check-prefix=B8-CHECK
// RUN: infer-opt %s -p 'graph-optimize{level=2 block=16}' | filecheck %s --check-prefix=NCHW-CHECK

// B16-CHECK:      graph.to_nchwc %x {block = 16 : i64} : (tensor<?x16x8x8xf32>) -> tensor<?x1x8x8x16xf32>
// B16-CHECK:      graph.conv_nchwc {{.*}} -> tensor<?x2x8x8x16xf32>
// B8-CHECK:       graph.to_nchwc %x {block = 8 : i64} : (tensor<?x16x8x8xf32>) -> tensor<?x2x8x8x8xf32>
// B8-CHECK:       graph.conv_nchwc {{.*}} -> tensor<?x4x8x8x8xf32>
// NCHW-CHECK-NOT: nchwc
// NCHW-CHECK:     graph.conv %x
// NCHW-CHECK-NOT: nchwc
func.func @main(%x: tensor<?x16x8x8xf32>) -> tensor<?x32x8x8xf32> {
  %w = graph.constant dense<0.5> : tensor<32x16x3x3xf32>
  %y = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x16x8x8xf32>, tensor<32x16x3x3xf32>) -> tensor<?x32x8x8xf32>
  func.return %y : tensor<?x32x8x8xf32>
}

// RUN: not infer-opt %s -p 'graph-optimize{level=3 block=0}' 2>&1 | filecheck %s --check-prefix=ERR-CHECK
// RUN: not infer-opt %s -p 'nchwc-layout{block=0}' 2>&1 | filecheck %s --check-prefix=ERR-CHECK
// ERR-CHECK: infer-opt: error: the NCHWc block must be a positive number of channels, got 0

// RUN: infer-opt %s -p 'select-conv-tile{registers=16}' | filecheck %s --check-prefix=AVX2
// RUN: infer-opt %s -p 'select-conv-tile{registers=32}' | filecheck %s --check-prefix=AVX512
// RUN: infer-opt %s -p 'select-conv-tile{registers=8}' | filecheck %s --check-prefix=SMALL
// RUN: infer-opt %s -p 'select-conv-tile{registers=4}' | filecheck %s --check-prefix=TINY
// RUN: not infer-opt %s -p 'select-conv-tile{registers=2}' 2>&1 | filecheck %s --check-prefix=NONE

// outputs x blocks accumulators + blocks weight vectors + 1 broadcast input fit the
// registers, outputs capped at 6 (the tile measured on AVX2). A pointwise NCHW conv gets
// its small-GEMM tile: all registers but 4 as accumulators, at most 12, of 8 lanes; any
// other NCHW conv none.
// AVX2-LABEL:   func.func @tiles
// AVX2:           graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, tile = array<i64: 6, 2>}
// AVX2-NEXT:      graph.conv %p, %q :
// AVX2-NEXT:      graph.conv %p, %r {group = 3 : i64, pointwise_tile = array<i64: 12, 8>}
// AVX2-NEXT:      graph.conv %p, %r {pads = array<i64: 1, 1, 1, 1>, group = 3 : i64} :
// AVX512:         graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, tile = array<i64: 6, 2>}
// AVX512:         pointwise_tile = array<i64: 12, 8>
// SMALL:          graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, tile = array<i64: 2, 2>}
// SMALL:          pointwise_tile = array<i64: 4, 8>
// TINY:           graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, tile = array<i64: 2, 1>}
// TINY:           pointwise_tile = array<i64: 1, 8>
// NONE:           2 vector registers hold no tile
func.func @tiles(%x: tensor<?x2x8x14x8xf32>, %w: tensor<2x2x3x3x8x8xf32>, %p: tensor<1x3x8x8xf32>, %q: tensor<4x3x3x3xf32>, %r: tensor<6x1x1x1xf32>) -> (tensor<?x2x8x14x8xf32>, tensor<1x4x6x6xf32>, tensor<1x6x8x8xf32>, tensor<1x6x10x10xf32>) {
  %y = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x2x8x14x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<?x2x8x14x8xf32>
  %z = graph.conv %p, %q : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %u = graph.conv %p, %r {group = 3 : i64} : (tensor<1x3x8x8xf32>, tensor<6x1x1x1xf32>) -> tensor<1x6x8x8xf32>
  %v = graph.conv %p, %r {pads = array<i64: 1, 1, 1, 1>, group = 3 : i64} : (tensor<1x3x8x8xf32>, tensor<6x1x1x1xf32>) -> tensor<1x6x10x10xf32>
  func.return %y, %z, %u, %v : tensor<?x2x8x14x8xf32>, tensor<1x4x6x6xf32>, tensor<1x6x8x8xf32>, tensor<1x6x10x10xf32>
}

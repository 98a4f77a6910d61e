// RUN: infer-opt %s -p 'select-conv-tile{registers=16}' | filecheck %s --check-prefix=AVX2
// RUN: infer-opt %s -p 'select-conv-tile{registers=32}' | filecheck %s --check-prefix=AVX512
// RUN: infer-opt %s -p 'select-conv-tile{registers=8}' | filecheck %s --check-prefix=SMALL
// RUN: infer-opt %s -p 'select-conv-tile{registers=4}' | filecheck %s --check-prefix=TINY
// RUN: not infer-opt %s -p 'select-conv-tile{registers=2}' 2>&1 | filecheck %s --check-prefix=NONE

// outputs x blocks accumulators + blocks weight vectors + 1 broadcast input fit the
// registers, outputs capped at 6 (the tile measured on AVX2). Only blocked convs get one.
// AVX2-LABEL:   func.func @tiles
// AVX2:           graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, tile = array<i64: 6, 2>}
// AVX2-NEXT:      graph.conv %
// AVX2-NOT:       tile
// AVX512:         graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, tile = array<i64: 6, 2>}
// SMALL:          graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, tile = array<i64: 2, 2>}
// TINY:           graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, tile = array<i64: 2, 1>}
// NONE:           2 vector registers hold no tile
func.func @tiles(%x: tensor<?x2x8x14x8xf32>, %w: tensor<2x2x3x3x8x8xf32>, %p: tensor<1x3x8x8xf32>, %q: tensor<4x3x3x3xf32>) -> (tensor<?x2x8x14x8xf32>, tensor<1x4x6x6xf32>) {
  %y = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x2x8x14x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<?x2x8x14x8xf32>
  %z = graph.conv %p, %q : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %y, %z : tensor<?x2x8x14x8xf32>, tensor<1x4x6x6xf32>
}

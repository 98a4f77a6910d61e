// RUN: infer-opt %s -p select-conv-rows | filecheck %s
// RUN: infer-opt %s -p 'select-conv-rows{edge-width=8}' | filecheck %s --check-prefix=NARROW

// Each static output row of a blocked conv is cut into register tiles of at most the
// tile's outputs (graph.DEFAULT_TILE: 6 outputs of 2 blocks; 12 of one block), as
// `row_tiles = array<i64: size, count, kind, ...>` runs from output 0, kind 0 an interior
// tile, 1 an edge tile (its taps inside the input chosen statically), 2 single outputs
// (taps computed per output).
// A row of 14 with one padded output each side (at most 16 wide): edge tiles of 4, an
// interior tile of 6 between; with edges only for rows of at most 8, the two padded
// outputs one at a time and the 12 interior ones in tiles of about equal size (6 + 6).
// CHECK-LABEL: func.func @rows
// CHECK:         graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, row_tiles = array<i64: 4, 1, 1, 6, 1, 0, 4, 1, 1>}
// NARROW:        graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, row_tiles = array<i64: 1, 1, 2, 6, 2, 0, 1, 1, 2>}
// A row of 56 without padding (a 1x1 conv): tiles of about equal size, 6 x 6 + 4 x 5
// (never a tile of 2 beside full ones).
// CHECK:         graph.conv_nchwc %u, %p {row_tiles = array<i64: 6, 6, 0, 5, 4, 0>}
// A 3x3 conv of one output block (a depthwise one: 6 outputs a tile) on a row of 28 with
// padding: single outputs at both ends, 26 interior outputs as 6 + 5 x 4.
// CHECK:         graph.conv_nchwc %v, %d {{.*}} row_tiles = array<i64: 1, 1, 2, 6, 1, 0, 5, 4, 0, 1, 1, 2>
// A dynamic row, and padding deeper than an edge tile (a 7-wide kernel padded 3 each
// side on a row of 14, in the op's own tile of 2 outputs: the full tiles from output 4
// to 13 would reach the padding), keep no attribute: single outputs at the ends, tiles
// between.
// CHECK:         graph.conv_nchwc %x2, %w {pads = array<i64: 1, 1, 1, 1>} :
// CHECK:         graph.conv_nchwc %s, %k {pads = array<i64: 0, 3, 0, 3>, tile = array<i64: 2, 2>} :
func.func @rows(%x: tensor<1x2x8x14x8xf32>, %w: tensor<2x2x3x3x8x8xf32>, %u: tensor<1x2x4x56x8xf32>, %p: tensor<2x2x1x1x8x8xf32>, %v: tensor<1x4x2x28x8xf32>, %d: tensor<4x1x3x3x1x8xf32>, %x2: tensor<1x2x8x?x8xf32>, %s: tensor<1x2x1x14x8xf32>, %k: tensor<2x2x1x7x8x8xf32>) -> (tensor<1x2x8x14x8xf32>, tensor<1x2x4x56x8xf32>, tensor<1x4x2x28x8xf32>, tensor<1x2x8x?x8xf32>, tensor<1x2x1x14x8xf32>) {
  %y = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x14x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<1x2x8x14x8xf32>
  %z = graph.conv_nchwc %u, %p : (tensor<1x2x4x56x8xf32>, tensor<2x2x1x1x8x8xf32>) -> tensor<1x2x4x56x8xf32>
  %e = graph.conv_nchwc %v, %d {pads = array<i64: 1, 1, 1, 1>, group = 32 : i64} : (tensor<1x4x2x28x8xf32>, tensor<4x1x3x3x1x8xf32>) -> tensor<1x4x2x28x8xf32>
  %f = graph.conv_nchwc %x2, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x?x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<1x2x8x?x8xf32>
  %g = graph.conv_nchwc %s, %k {pads = array<i64: 0, 3, 0, 3>, tile = array<i64: 2, 2>} : (tensor<1x2x1x14x8xf32>, tensor<2x2x1x7x8x8xf32>) -> tensor<1x2x1x14x8xf32>
  func.return %y, %z, %e, %f, %g : tensor<1x2x8x14x8xf32>, tensor<1x2x4x56x8xf32>, tensor<1x4x2x28x8xf32>, tensor<1x2x8x?x8xf32>, tensor<1x2x1x14x8xf32>
}

// A pointwise conv (kernel 1, strides 1, no padding) with rows narrower than 16 and at
// least 8 parallel tiles of output blocks (1 image x 16 blocks / 2) takes its 7 x 7
// outputs as one row (`flat_rows`): 49 outputs in tiles of 6 and 5 (4 x 6 + 5 x 5),
// where rows of 7 took tiles of 4 and 3. With 4 output blocks (2 parallel tiles) it keeps
// its rows, as does a 3x3 conv.
// CHECK-LABEL: func.func @flat
// CHECK:         graph.conv_nchwc %x, %w {flat_rows, row_tiles = array<i64: 6, 4, 0, 5, 5, 0>}
// CHECK:         graph.conv_nchwc %x, %n {row_tiles = array<i64: 4, 1, 0, 3, 1, 0>}
// CHECK:         graph.conv_nchwc %x, %k {pads = array<i64: 1, 1, 1, 1>, row_tiles = array<i64: 4, 1, 1, 3, 1, 1>}
func.func @flat(%x: tensor<1x4x7x7x8xf32>, %w: tensor<16x4x1x1x8x8xf32>, %n: tensor<4x4x1x1x8x8xf32>, %k: tensor<16x4x3x3x8x8xf32>) -> (tensor<1x16x7x7x8xf32>, tensor<1x4x7x7x8xf32>, tensor<1x16x7x7x8xf32>) {
  %a = graph.conv_nchwc %x, %w : (tensor<1x4x7x7x8xf32>, tensor<16x4x1x1x8x8xf32>) -> tensor<1x16x7x7x8xf32>
  %b = graph.conv_nchwc %x, %n : (tensor<1x4x7x7x8xf32>, tensor<4x4x1x1x8x8xf32>) -> tensor<1x4x7x7x8xf32>
  %c = graph.conv_nchwc %x, %k {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x7x7x8xf32>, tensor<16x4x3x3x8x8xf32>) -> tensor<1x16x7x7x8xf32>
  func.return %a, %b, %c : tensor<1x16x7x7x8xf32>, tensor<1x4x7x7x8xf32>, tensor<1x16x7x7x8xf32>
}

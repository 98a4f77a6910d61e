// RUN: infer-opt %s -p select-conv-rows,graph-to-loops | filecheck %s
// RUN: infer-opt %s -p "select-conv-rows,plan-loops{outline=true},graph-to-loops" | filecheck %s --check-prefix=OUTLINE

// The register tile of a blocked conv is 6 outputs x 2 output blocks (conv-nchwc.mlir)
// unless the op carries another for its target, `tile = array<i64: outputs, blocks>`:
// here 4 x 1, so output blocks go one at a time (the parallel loop over (n, block, row)
// has 2 blocks) and each row of 14 runs in tiles of at most 4 outputs (3 + 4 + 4 + 3),
// the full ones with 4 accumulators.
// CHECK-LABEL: func.func @conv_nchwc_tile
// CHECK:         %[[N:.*]] = memref.dim %y0, %{{.*}} : memref<?x2x8x14x8xf32>
// CHECK-NEXT:    %[[BLOCKS:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[NB:.*]] = arith.muli %[[N]], %[[BLOCKS]] : index
// CHECK-NEXT:    %[[ROWS:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.muli %[[NB]], %[[ROWS]] : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[COUNT]] step
// CHECK:                 scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK-COUNT-4:         vector.store
// CHECK:         func.return

// The attribute is part of the kernel signature: convs that differ only in their tile
// get a kernel each.
// (Both take their input blocks at run time: conv-nchwc-kernel-blocks.mlir.)
// OUTLINE-LABEL: func.func @conv_nchwc_tile
// OUTLINE:         %[[X:.*]] = "memref.cast"(%x)
// OUTLINE:         %[[W:.*]] = "memref.cast"(%w)
// OUTLINE:         %[[Y0:.*]] = func.call @[[K0:__kernel_conv_nchwc_[0-9]+]](%[[X]], %[[W]])
// OUTLINE:         %[[X1:.*]] = "memref.cast"(%[[Y0]])
// OUTLINE:         %[[W1:.*]] = "memref.cast"(%w)
// OUTLINE:         func.call @[[K1:__kernel_conv_nchwc_[0-9]+]](%[[X1]], %[[W1]])
// OUTLINE-DAG:   func.func private @[[K0]](
// OUTLINE-DAG:   func.func private @[[K1]](
func.func @conv_nchwc_tile(%x: tensor<?x2x8x14x8xf32>, %w: tensor<2x2x3x3x8x8xf32>) -> tensor<?x2x8x14x8xf32> {
  %y0 = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, tile = array<i64: 4, 1>} : (tensor<?x2x8x14x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<?x2x8x14x8xf32>
  %y1 = graph.conv_nchwc %y0, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x2x8x14x8xf32>, tensor<2x2x3x3x8x8xf32>) -> tensor<?x2x8x14x8xf32>
  func.return %y1 : tensor<?x2x8x14x8xf32>
}

// A dense conv whose output blocks the tile's do not divide (3 blocks, tiles of 2) runs
// the pairs, then the block left over as a tile of its own: rows of 6 outputs, 2 x 6
// accumulators over block pairs (one pair here), then 6 accumulators for block 2.
// CHECK-LABEL: func.func @odd_blocks
// CHECK:         scf.for
// CHECK:           scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK-COUNT-12:  vector.store
// CHECK:         scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[FIRST:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[OCB:.*]] = arith.addi %{{.*}}, %[[FIRST]] : index
// CHECK:           scf.for {{.*}} -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK-COUNT-6:   vector.store %{{.*}}, %y[%{{.*}}, %[[OCB]], %[[ROW]],
// CHECK-NOT:     vector.store
// CHECK:         func.return
func.func @odd_blocks(%x: tensor<1x2x4x6x8xf32>, %w: tensor<3x2x1x1x8x8xf32>) -> tensor<1x3x4x6x8xf32> {
  %y = graph.conv_nchwc %x, %w : (tensor<1x2x4x6x8xf32>, tensor<3x2x1x1x8x8xf32>) -> tensor<1x3x4x6x8xf32>
  func.return %y : tensor<1x3x4x6x8xf32>
}

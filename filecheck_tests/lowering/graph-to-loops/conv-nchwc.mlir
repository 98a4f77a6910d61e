// RUN: infer-opt %s -p select-conv-rows,graph-to-loops | filecheck %s

// Blocked conv (NCHWc, c = 8): one parallel loop over (n, output blocks two at a time,
// oh), here n x 1 x 8 rows, each on any thread; the bias of each block is one vector
// load. The row of 14 outputs runs in 3 register tiles, 4 + 6 + 4 (never a tile of one
// output: too few FMA chains in flight), each with 2 x T accumulators carried through
// the loops over input blocks, the valid kh taps, the kw taps and innermost the 8 input
// channels of the block, where each input scalar is broadcast once and feeds one fma per
// output block.
// The first tile reaches the left padding: kw tap 0 (unrolled: the ii loop takes the kh
// loop's accumulators directly) skips output 0, whose accumulators 0 and 4 pass through;
// taps 1 and 2 reach all 4 outputs, in a loop.
// CHECK-LABEL: func.func @conv_nchwc
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2x8x14x8xf32>
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[OH:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK-NEXT:        %[[N:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK:             %[[OCB:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:             %[[OCB1:.*]] = arith.addi %[[OCB]], %{{.*}} : index
// CHECK:               %[[B0:.*]] = vector.load %b[%{{.*}}] : memref<16xf32>, vector<8xf32>
// CHECK:               %[[B1:.*]] = vector.load %b[%{{.*}}] : memref<16xf32>, vector<8xf32>
// CHECK:               %[[KH_LO:.*]] = arith.maxsi
// CHECK:               %[[KH_HI:.*]] = arith.minsi
// CHECK:                 scf.for %{{[0-9]+}} = %{{[0-9]+}} to %{{[0-9]+}} step %{{[0-9]+}} iter_args(%{{[0-9]+}} = %[[B0]], %{{[0-9]+}} = %[[B0]], %{{[0-9]+}} = %[[B0]], %{{[0-9]+}} = %[[B0]], %{{[0-9]+}} = %[[B1]], %{{[0-9]+}} = %[[B1]], %{{[0-9]+}} = %[[B1]], %{{[0-9]+}} = %[[B1]]) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK:                   scf.for %{{[0-9]+}} = %[[KH_LO]] to %[[KH_HI]] step %{{[0-9]+}} iter_args(%[[E0:[0-9]+]] = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %[[E4:[0-9]+]] = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}})
// CHECK:                     scf.for %{{[0-9]+}} = %{{[0-9]+}} to %{{[0-9]+}} step %{{[0-9]+}} iter_args(%[[I0:[0-9]+]] = %[[E0]], %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %[[I4:[0-9]+]] = %[[E4]], %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}})
// CHECK-COUNT-6:               vector.fma
// CHECK-NEXT:                  scf.yield %[[I0]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[I4]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} :
// CHECK:                     scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// CHECK:                       scf.for
// CHECK-COUNT-8:                 vector.fma
// The interior tile (outputs 4 to 9, every kw tap inside the input) loops over all 3 kw
// taps with no range arithmetic.
// CHECK:                 scf.for %[[ICB:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[B0]], %{{.*}} = %[[B0]], %{{.*}} = %[[B0]], %{{.*}} = %[[B0]], %{{.*}} = %[[B0]], %{{.*}} = %[[B0]], %{{.*}} = %[[B1]], {{.*}}) -> (vector<8xf32>,
// CHECK:                   scf.for %[[KH:.*]] = %[[KH_LO]] to %[[KH_HI]] step
// CHECK-NOT:                 arith.maxsi
// CHECK:                     scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT:                   arith.maxsi
// CHECK:                       scf.for %[[II:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                         %[[W0:.*]] = vector.load %w[%[[OCB]], %[[ICB]], %[[KH]], %[[KW]], %[[II]], %{{.*}}] : memref<2x2x3x3x8x8xf32>, vector<8xf32>
// CHECK:                         %[[W1:.*]] = vector.load %w[%[[OCB1]], %[[ICB]], %[[KH]], %[[KW]], %[[II]], %{{.*}}] : memref<2x2x3x3x8x8xf32>, vector<8xf32>
// CHECK-NEXT:                    %[[X0:.*]] = memref.load %x[%[[N]], %[[ICB]], %{{.*}}, %{{.*}}, %[[II]]] : memref<?x2x8x14x8xf32>
// CHECK-NEXT:                    %[[XB0:.*]] = vector.broadcast %[[X0]] : f32 to vector<8xf32>
// CHECK-NEXT:                    vector.fma %[[XB0]], %[[W0]], %{{.*}} : vector<8xf32>
// CHECK-NEXT:                    vector.fma %[[XB0]], %[[W1]], %{{.*}} : vector<8xf32>
// CHECK-NEXT:                    %[[X1:.*]] = memref.load %x[%[[N]], %[[ICB]], %{{.*}}, %{{.*}}, %[[II]]] : memref<?x2x8x14x8xf32>
// CHECK-NEXT:                    %[[XB1:.*]] = vector.broadcast %[[X1]] : f32 to vector<8xf32>
// CHECK-NEXT:                    vector.fma %[[XB1]], %[[W0]], %{{.*}} : vector<8xf32>
// CHECK-NEXT:                    vector.fma %[[XB1]], %[[W1]], %{{.*}} : vector<8xf32>
// CHECK-COUNT-4:                 vector.fma %{{.*}}, %[[W1]], %{{.*}} : vector<8xf32>
// CHECK-NEXT:                    scf.yield {{.*}} : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
// The tile is unrolled here: its loops are marked for LLVM to keep as loops.
// CHECK-NEXT:                  } {infer.no_unroll}
// CHECK-NEXT:                  scf.yield
// CHECK-NEXT:                } {infer.no_unroll}
// The fused relu runs on the accumulators before the vector stores.
// CHECK:                 %[[R:.*]] = arith.maximumf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NEXT:            %[[OW:.*]] = arith.constant 4 : index
// CHECK-NEXT:            %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:            vector.store %[[R]], %[[Y]][%[[N]], %[[OCB]], %[[OH]], %[[OW]], %{{.*}}] : memref<?x2x8x14x8xf32>, vector<8xf32>
// The last tile (outputs 10 to 13) reaches the right padding: kw taps 0 and 1 in a loop,
// then tap 2 (unrolled) skips output 13, whose accumulators 3 and 7 pass through.
// CHECK:                 scf.for %{{[0-9]+}} = %{{[0-9]+}} to %{{[0-9]+}} step %{{[0-9]+}} iter_args(%{{[0-9]+}} = %[[B0]], %{{[0-9]+}} = %[[B0]], %{{[0-9]+}} = %[[B0]], %{{[0-9]+}} = %[[B0]], %{{[0-9]+}} = %[[B1]], %{{[0-9]+}} = %[[B1]], %{{[0-9]+}} = %[[B1]], %{{[0-9]+}} = %[[B1]]) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK:                   scf.for %{{.*}} iter_args(
// CHECK:                     scf.for %{{.*}} iter_args(
// CHECK:                       scf.for %{{.*}} iter_args(
// CHECK-COUNT-8:                 vector.fma
// CHECK:                     scf.for %{{.*}} iter_args(%{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %[[L3:[0-9]+]] = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %[[L7:[0-9]+]] = %{{[0-9]+}})
// CHECK-COUNT-6:               vector.fma
// CHECK-NEXT:                  scf.yield %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[L3]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[L7]] :
// CHECK:         func.return %[[Y]]
func.func @conv_nchwc(%x: tensor<?x2x8x14x8xf32>, %w: tensor<2x2x3x3x8x8xf32>, %b: tensor<16xf32>) -> tensor<?x2x8x14x8xf32> {
  %y = graph.conv_nchwc %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, activation = "relu"} : (tensor<?x2x8x14x8xf32>, tensor<2x2x3x3x8x8xf32>, tensor<16xf32>) -> tensor<?x2x8x14x8xf32>
  func.return %y : tensor<?x2x8x14x8xf32>
}

// Depthwise (one input channel per group): the input is a vector too, no broadcast.
// CHECK-LABEL: func.func @depthwise_nchwc
// CHECK-NOT:     vector.broadcast
// CHECK:         %[[WV:.*]] = vector.load %w[%[[CB:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x1x3x3x1x8xf32>, vector<8xf32>
// CHECK:         %[[XV:.*]] = vector.load %x[%{{.*}}, %[[CB]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x2x8x9x8xf32>, vector<8xf32>
// CHECK-NEXT:    vector.fma %[[XV]], %[[WV]], %{{.*}} : vector<8xf32>
// CHECK-NOT:     vector.broadcast
// Nothing is unrolled here: LLVM may unroll the depthwise loops.
// CHECK-NOT:     infer.no_unroll
// CHECK:         func.return
func.func @depthwise_nchwc(%x: tensor<1x2x8x9x8xf32>, %w: tensor<2x1x3x3x1x8xf32>) -> tensor<1x2x8x9x8xf32> {
  %y = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, group = 16 : i64} : (tensor<1x2x8x9x8xf32>, tensor<2x1x3x3x1x8xf32>) -> tensor<1x2x8x9x8xf32>
  func.return %y : tensor<1x2x8x9x8xf32>
}

// An NCHW input of 3 channels (the image stem, stride 2): the same tiles (5 + 5 outputs),
// the ii loop runs over the 3 input channels of a tap and the broadcast reads
// x[n, ii, ih, iw], the tile's inputs 2 apart. The interior tile (ow in [5, 10)) does not
// bounds-check the kw taps.
// CHECK-LABEL: func.func @conv_nchwc_nchw_input
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               %[[N:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK:               %[[KH_LO:.*]] = arith.maxsi
// CHECK:               %[[KH_HI:.*]] = arith.minsi
// The first tile (outputs 0 to 4, which reach the padding) ends with its stores.
// CHECK:                 vector.store
// CHECK:                 scf.for %[[KH:.*]] = %[[KH_LO]] to %[[KH_HI]] step
// CHECK-NOT:               arith.maxsi
// CHECK:                   scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT:                 arith.maxsi
// CHECK:                     %[[IW0:.*]] = arith.addi %[[KW]], %{{.*}} : index
// CHECK-NEXT:                %[[S2:.*]] = arith.constant 2 : index
// CHECK-NEXT:                %[[IW1:.*]] = arith.addi %[[IW0]], %[[S2]] : index
// CHECK:                     %[[C3:.*]] = arith.constant 3 : index
// CHECK:                     scf.for %[[II:.*]] = %{{.*}} to %[[C3]] step
// CHECK:                       %[[W0:.*]] = vector.load %w[%{{.*}}, %{{.*}}, %[[KH]], %[[KW]], %[[II]], %{{.*}}] : memref<2x1x3x3x3x8xf32>, vector<8xf32>
// CHECK:                       %[[W1:.*]] = vector.load %w[%{{.*}}, %{{.*}}, %[[KH]], %[[KW]], %[[II]], %{{.*}}] : memref<2x1x3x3x3x8xf32>, vector<8xf32>
// CHECK-NEXT:                  %[[X0:.*]] = memref.load %x[%[[N]], %[[II]], %{{.*}}, %[[IW0]]] : memref<?x3x16x20xf32>
// CHECK-NEXT:                  %[[XB0:.*]] = vector.broadcast %[[X0]] : f32 to vector<8xf32>
// CHECK-NEXT:                  vector.fma %[[XB0]], %[[W0]], %{{.*}} : vector<8xf32>
// CHECK-NEXT:                  vector.fma %[[XB0]], %[[W1]], %{{.*}} : vector<8xf32>
// CHECK-NEXT:                  %{{.*}} = memref.load %x[%[[N]], %[[II]], %{{.*}}, %[[IW1]]] : memref<?x3x16x20xf32>
// CHECK:         func.return
func.func @conv_nchwc_nchw_input(%x: tensor<?x3x16x20xf32>, %w: tensor<2x1x3x3x3x8xf32>, %b: tensor<16xf32>) -> tensor<?x2x8x10x8xf32> {
  %y = graph.conv_nchwc %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x16x20xf32>, tensor<2x1x3x3x3x8xf32>, tensor<16xf32>) -> tensor<?x2x8x10x8xf32>
  func.return %y : tensor<?x2x8x10x8xf32>
}

// Max pool: per output, the valid taps of the window (pads skipped), the 8 channels of
// the block as one vector.
// CHECK-LABEL: func.func @max_pool_nchwc
// CHECK:         %[[INIT:.*]] = arith.constant dense<0xff800000> : vector<8xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (vector<8xf32>)
// CHECK:           scf.for {{.*}} -> (vector<8xf32>)
// CHECK:             %[[V:.*]] = vector.load %x[{{.*}}] : memref<?x2x8x8x8xf32>, vector<8xf32>
// CHECK-NEXT:        arith.maximumf %{{.*}}, %[[V]] : vector<8xf32>
// CHECK:         vector.store %{{.*}}, %{{.*}} : memref<?x2x4x4x8xf32>, vector<8xf32>
func.func @max_pool_nchwc(%x: tensor<?x2x8x8x8xf32>) -> tensor<?x2x4x4x8xf32> {
  %y = graph.max_pool_nchwc %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x2x8x8x8xf32>) -> tensor<?x2x4x4x8xf32>
  func.return %y : tensor<?x2x4x4x8xf32>
}

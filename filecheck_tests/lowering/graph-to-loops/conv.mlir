// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Padded, strided 2-D conv with bias and a dynamic batch: one parallel loop over (n, oc)
// (each output channel's plane on any thread), then oh; the row starts as the bias; the
// valid kh range of the row is computed once (max/min of index values), then ic, kh, kw,
// and innermost ow over the range where the tap is inside the image.
// CHECK-LABEL: func.func @conv_pads_strides
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x4x3x3xf32>
// CHECK:         %[[NB:.*]] = memref.dim %[[Y]], %{{.*}} : memref<?x4x3x3xf32>
// CHECK:         %[[COUNT:.*]] = arith.muli %[[NB]], %{{.*}} : index
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %[[COUNT]] step
// CHECK:           %[[M:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK:           %[[BIAS:.*]] = memref.load %b[%[[M]]] : memref<4xf32>
// CHECK:             scf.for %[[OH:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[OW0:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            memref.store %[[BIAS]], %[[Y]][%[[N]], %[[M]], %[[OH]], %[[OW0]]]
// CHECK-NEXT:          }
// CHECK:               %[[KH_LO:.*]] = arith.maxsi
// CHECK:               %[[KH_HI:.*]] = arith.minsi
// CHECK:               scf.for %[[IC:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                 scf.for %[[KH:.*]] = %[[KH_LO]] to %[[KH_HI]] step
// CHECK:                   scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:                %[[WV:.*]] = memref.load %w[%[[M]], %[[IC]], %[[KH]], %[[KW]]]
// CHECK:                     arith.ceildivsi
// CHECK:                     %[[OW_LO:.*]] = arith.maxsi
// CHECK:                     arith.floordivsi
// CHECK:                     %[[OW_HI:.*]] = arith.minsi
// CHECK:                     scf.for %[[OW:.*]] = %[[OW_LO]] to %[[OW_HI]] step
// CHECK:                       %[[ACC:.*]] = memref.load %[[Y]][%[[N]], %[[M]], %[[OH]], %[[OW]]]
// CHECK-NEXT:                  %[[XV:.*]] = memref.load %x[%[[N]], %[[IC]], %{{.*}}, %{{.*}}]
// CHECK-NEXT:                  %[[P:.*]] = arith.mulf %[[WV]], %[[XV]] fastmath<contract> : f32
// CHECK-NEXT:                  %[[S:.*]] = arith.addf %[[ACC]], %[[P]] fastmath<contract> : f32
// CHECK-NEXT:                  memref.store %[[S]], %[[Y]][%[[N]], %[[M]], %[[OH]], %[[OW]]]
// CHECK-NEXT:                }
// CHECK:         } {parallel = {{[0-9]+}} : i64}
// CHECK:         func.return %[[Y]]
func.func @conv_pads_strides(%x: tensor<?x2x5x6xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<?x4x3x3xf32> {
  %y = graph.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x2x5x6xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<?x4x3x3xf32>
  func.return %y : tensor<?x4x3x3xf32>
}

// Without padding no range arithmetic at all; without bias the row starts at 0.
// CHECK-LABEL: func.func @conv_valid
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         memref.store %[[ZERO]]
// CHECK-NOT:     arith.maxsi
// CHECK-NOT:     arith.minsi
// CHECK:         arith.mulf {{.*}} fastmath<contract>
// CHECK:         func.return
func.func @conv_valid(%x: tensor<1x3x6x6xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %y = graph.conv %x, %w : (tensor<1x3x6x6xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32>
  func.return %y : tensor<1x8x4x4xf32>
}

// Pointwise conv: the spatial plane is flattened (7x7 = 49) and computed in register
// tiles of 4 output channels x 3 vectors of 8 (conv_pointwise.py): per input channel,
// 3 loads of X and 4 broadcasts of W feed 12 FMAs on loop-carried accumulators; the
// plane's remainder (49 = 2 x 24 + 1) one vector (none here), then one lane at a time.
// CHECK-LABEL: func.func @conv_pointwise
// CHECK:         %[[X:.*]] = memref.collapse_shape %x {{.*}} : memref<?x16x7x7xf32> into memref<?x16x49xf32>
// CHECK:         %[[W:.*]] = memref.collapse_shape %w {{.*}} : memref<32x16x1x1xf32> into memref<32x16x1xf32>
// CHECK:         %[[Y:.*]] = memref.collapse_shape %{{.*}} {{.*}} : memref<?x32x7x7xf32> into memref<?x32x49xf32>
// CHECK:         scf.for
// CHECK:         %[[END:.*]] = arith.constant 48 : index
// CHECK-NEXT:    %[[C24:.*]] = arith.constant 24 : index
// CHECK-NEXT:    scf.for %[[P:.*]] = %{{.*}} to %[[END]] step %[[C24]] {
// CHECK-COUNT-4:   vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK:           scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK-COUNT-3:     vector.load %[[X]]
// CHECK:             memref.load %[[W]]
// CHECK-NEXT:        vector.broadcast
// CHECK-COUNT-3:     vector.fma
// CHECK-COUNT-12:  vector.store %{{.*}}, %[[Y]]
// CHECK:         scf.for {{.*}} -> (f32, f32, f32, f32) {
// CHECK:           memref.load %[[X]]
// CHECK:           memref.load %[[W]]
// CHECK-NOT:     arith.maxsi
// CHECK:         } {parallel = {{[0-9]+}} : i64}
func.func @conv_pointwise(%x: tensor<?x16x7x7xf32>, %w: tensor<32x16x1x1xf32>) -> tensor<?x32x7x7xf32> {
  %y = graph.conv %x, %w : (tensor<?x16x7x7xf32>, tensor<32x16x1x1xf32>) -> tensor<?x32x7x7xf32>
  func.return %y : tensor<?x32x7x7xf32>
}

// Depthwise (group = C): a loop over groups (too little work for a parallel loop, and
// the batch of 1 is no loop); output channel g * (M/G) + oc, input channel g * (C/G) + ic
// (here C/G = 1).
// CHECK-LABEL: func.func @conv_depthwise
// CHECK:           scf.for %[[G:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[OC:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[N:.*]] = arith.constant 0 : index
// CHECK-NEXT:          %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:          %[[GM:.*]] = arith.muli %[[G]], %[[C2]] : index
// CHECK-NEXT:          %[[M:.*]] = arith.addi %[[GM]], %[[OC]] : index
// CHECK:               arith.minsi
// CHECK:               scf.for %[[IC:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[C:.*]] = arith.addi %[[G]], %[[IC]] : index
// CHECK:                 memref.load %w[%[[M]], %[[IC]], %{{.*}}, %{{.*}}]
// CHECK:                 memref.load %x[%[[N]], %[[C]], %{{.*}}, %{{.*}}]
func.func @conv_depthwise(%x: tensor<1x4x8x8xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32> {
  %y = graph.conv %x, %w {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32>
  func.return %y : tensor<1x8x8x8xf32>
}

// 1-D conv (f64, dilated): a GEMM over its input's columns (conv1d-columns.mlir), here
// one block as wide as the output's one vector of 4 lanes, each tap's valid range gathered.
// CHECK-LABEL: func.func @conv_1d
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<9x4xf64>
// CHECK:           arith.maxsi
// CHECK:           arith.minsi
// CHECK:           iter_args({{.*}}) -> (vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>)
// CHECK:             vector.fma {{.*}} : vector<4xf64>
func.func @conv_1d(%x: tensor<1x3x9xf64>, %w: tensor<5x3x3xf64>) -> tensor<1x5x4xf64> {
  %y = graph.conv %x, %w {pads = array<i64: 2, 1>, strides = array<i64: 2>, dilations = array<i64: 2>} : (tensor<1x3x9xf64>, tensor<5x3x3xf64>) -> tensor<1x5x4xf64>
  func.return %y : tensor<1x5x4xf64>
}

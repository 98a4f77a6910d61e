// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// RoiAlign (avg, a run-time number of rois): batch_indices checked in range first; per
// roi its image and window, then per (channel, bin) a sample grid of sampling_ratio^2
// points; each sample bilinear: along each axis the pixel below v, its fraction and
// 1 - fraction as weights, then 4 loads of X at the roi's image, weighted and summed;
// the bin's sum divided by the sample count.
// CHECK-LABEL: func.func @roi_align_avg
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2x2x2xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (i1, index)
// CHECK:           memref.load %b[%{{.*}}] : memref<?xi64>
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[B64:.*]] = memref.load %b[%[[R]]] : memref<?xi64>
// CHECK-NEXT:      %[[IMG:.*]] = arith.index_cast %[[B64]] : i64 to index
// CHECK:           %[[COUNT:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[BH:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[BW:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                 %[[SUM:.*]] = scf.for %[[IY:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK:                   scf.for %[[IX:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:                     %[[FLOOR_Y:.*]] = math.floor %{{.*}} : f32
// CHECK:                     %[[VY:.*]] = arith.select %[[EDGE_Y:.*]], %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:                arith.constant 1.000000e+00 : f32
// CHECK-NEXT:                arith.subf
// CHECK-NEXT:                %[[LOW_Y:.*]] = arith.select %[[EDGE_Y]], %{{.*}}, %[[FLOOR_Y]] : f32
// CHECK:                     %[[LY:.*]] = arith.subf %[[VY]], %[[LOW_Y]] : f32
// CHECK:                     %[[HY:.*]] = arith.subf %{{.*}}, %[[LY]] : f32
// CHECK:                     %[[FLOOR_X:.*]] = math.floor %{{.*}} : f32
// CHECK:                     %[[VX:.*]] = arith.select %[[EDGE_X:.*]], %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:                arith.constant 1.000000e+00 : f32
// CHECK-NEXT:                arith.subf
// CHECK-NEXT:                %[[LOW_X:.*]] = arith.select %[[EDGE_X]], %{{.*}}, %[[FLOOR_X]] : f32
// CHECK:                     %[[LX:.*]] = arith.subf %[[VX]], %[[LOW_X]] : f32
// CHECK:                     %[[HX:.*]] = arith.subf %{{.*}}, %[[LX]] : f32
// CHECK:                     arith.mulf %[[HY]], %[[HX]] : f32
// CHECK:                     %[[P00:.*]] = memref.load %x[%[[IMG]], %[[C]], %{{.*}}, %{{.*}}] : memref<1x2x6x6xf32>
// CHECK:                     arith.mulf %[[HY]], %[[LX]] : f32
// CHECK:                     %[[P01:.*]] = memref.load %x[%[[IMG]], %[[C]], %{{.*}}, %{{.*}}] : memref<1x2x6x6xf32>
// CHECK:                     arith.mulf %[[LY]], %[[HX]] : f32
// CHECK:                     %[[P10:.*]] = memref.load %x[%[[IMG]], %[[C]], %{{.*}}, %{{.*}}] : memref<1x2x6x6xf32>
// CHECK:                     arith.mulf %[[LY]], %[[LX]] : f32
// CHECK:                     %[[P11:.*]] = memref.load %x[%[[IMG]], %[[C]], %{{.*}}, %{{.*}}] : memref<1x2x6x6xf32>
// CHECK-NOT:                 memref.load
// CHECK:                     %[[S1:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:                %[[S2:.*]] = arith.addf %[[S1]], %{{.*}} : f32
// CHECK-NEXT:                %[[S3:.*]] = arith.addf %[[S2]], %{{.*}} : f32
// CHECK-NEXT:                %[[NEXT:.*]] = arith.addf %[[ACC]], %[[S3]] : f32
// CHECK-NEXT:                scf.yield %[[NEXT]] : f32
// CHECK:                 %[[AVG:.*]] = arith.divf %[[SUM]], %[[COUNT]] : f32
// CHECK-NEXT:            memref.store %[[AVG]], %y[%[[R]], %[[C]], %[[BH]], %[[BW]]] : memref<?x2x2x2xf32>
func.func @roi_align_avg(%x: tensor<1x2x6x6xf32>, %rois: tensor<?x4xf32>, %b: tensor<?xi64>) -> tensor<?x2x2x2xf32> {
  %y = graph.roi_align %x, %rois, %b {output_height = 2 : i64, output_width = 2 : i64, sampling_ratio = 2 : i64} : (tensor<1x2x6x6xf32>, tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x2x2x2xf32>
  func.return %y : tensor<?x2x2x2xf32>
}

// RoiAlign (max, output_half_pixel, sampling_ratio 0): the samples per bin are
// ceil(bin size) at run time, the roi's extent at least 1; a sample is the max of its 4
// weighted pixels, the bin the max of its samples from -inf (0 when it has none).
// CHECK-LABEL: func.func @roi_align_max
// CHECK:         cf.cond_br
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      arith.maximumf %{{.*}}, %[[ONE]] : f32
// CHECK:           math.ceil %{{.*}} : f32
// CHECK:           %[[GH:.*]] = arith.maxsi %{{.*}}, %{{.*}} : i64
// CHECK:           math.ceil %{{.*}} : f32
// CHECK:           %[[GW:.*]] = arith.maxsi %{{.*}}, %{{.*}} : i64
// CHECK:           %[[NH:.*]] = arith.index_cast %[[GH]] : i64 to index
// CHECK-NEXT:      %[[NW:.*]] = arith.index_cast %[[GW]] : i64 to index
// CHECK:                 %[[NEG_INF:.*]] = arith.constant 0xff800000 : f32
// CHECK:                 %[[BEST:.*]] = scf.for %{{.*}} = %{{.*}} to %[[NH]] step %{{.*}} iter_args(%{{.*}} = %[[NEG_INF]]) -> (f32) {
// CHECK:                   scf.for %{{.*}} = %{{.*}} to %[[NW]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-COUNT-4:             memref.load %x
// CHECK:                     %[[M1:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:                %[[M2:.*]] = arith.maximumf %[[M1]], %{{.*}} : f32
// CHECK-NEXT:                %[[M3:.*]] = arith.maximumf %[[M2]], %{{.*}} : f32
// CHECK-NEXT:                arith.maximumf %[[ACC]], %[[M3]] : f32
// CHECK:                 %[[N:.*]] = arith.muli %[[GH]], %[[GW]] : i64
// CHECK-NEXT:            %[[SOME:.*]] = arith.cmpi sgt, %[[N]], %{{.*}} : i64
// CHECK-NEXT:            %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:            %[[V:.*]] = arith.select %[[SOME]], %[[BEST]], %[[Z]] : f32
// CHECK-NEXT:            memref.store %[[V]], %y[%[[R]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<3x2x1x1xf32>
func.func @roi_align_max(%x: tensor<1x2x6x6xf32>, %rois: tensor<3x4xf32>, %b: tensor<3xi64>) -> tensor<3x2x1x1xf32> {
  %y = graph.roi_align %x, %rois, %b {mode = "max", coordinate_transformation_mode = "output_half_pixel", spatial_scale = 5.000000e-01 : f32} : (tensor<1x2x6x6xf32>, tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x2x1x1xf32>
  func.return %y : tensor<3x2x1x1xf32>
}

// MaxRoiPool: each roi's image index (rois[r, 0] truncated) into a scratch buffer,
// checked in range before any pixel is read; per roi the scaled corners rounded; per
// (channel, bin) the bin's [floor, ceil) rows and columns clamped to the image, the max
// over them from -inf, 0 for an empty bin; the scratch buffer freed.
// CHECK-LABEL: func.func @max_roi_pool
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3x3x2xf32>
// CHECK:         %[[IMAGES:.*]] = memref.alloc(%[[R_N:.*]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK:         scf.for %[[R0:.*]] = %{{.*}} to %[[R_N]] step
// CHECK:           arith.fptosi %{{.*}} : f32 to i64
// CHECK-NEXT:      memref.store %{{.*}}, %[[IMAGES]][%[[R0]]] : memref<?xi64>
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (i1, index)
// CHECK:           memref.load %[[IMAGES]]
// CHECK:         cf.cond_br
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %[[R_N]] step
// CHECK-NEXT:      %[[I64:.*]] = memref.load %[[IMAGES]][%[[R]]] : memref<?xi64>
// CHECK-NEXT:      %[[IMG:.*]] = arith.index_cast %[[I64]] : i64 to index
// CHECK-COUNT-4:   math.round %{{.*}} : f32
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             math.floor
// CHECK:             math.ceil
// CHECK:             math.floor
// CHECK:             math.ceil
// CHECK:             %[[EMPTY:.*]] = arith.ori %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:        %[[H0:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:        %[[H1:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:        %[[W0:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:        %[[W1:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:        %[[NEG_INF:.*]] = arith.constant 0xff800000 : f32
// CHECK:             %[[BEST:.*]] = scf.for %[[H:.*]] = %[[H0]] to %[[H1]] step %{{.*}} iter_args(%{{.*}} = %[[NEG_INF]]) -> (f32) {
// CHECK:               scf.for %[[W:.*]] = %[[W0]] to %[[W1]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:            %[[V:.*]] = memref.load %x[%[[IMG]], %[[C]], %[[H]], %[[W]]] : memref<2x3x10x12xf32>
// CHECK-NEXT:            arith.maximumf %[[ACC]], %[[V]] : f32
// CHECK:             %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        %[[OUT:.*]] = arith.select %[[EMPTY]], %[[Z]], %[[BEST]] : f32
// CHECK-NEXT:        memref.store %[[OUT]], %y[%[[R]], %[[C]], %{{.*}}, %{{.*}}] : memref<?x3x3x2xf32>
// CHECK:         memref.dealloc %[[IMAGES]] : memref<?xi64>
// CHECK-NEXT:    func.return %y
func.func @max_roi_pool(%x: tensor<2x3x10x12xf32>, %rois: tensor<?x5xf32>) -> tensor<?x3x3x2xf32> {
  %y = graph.max_roi_pool %x, %rois {pooled_shape = array<i64: 3, 2>, spatial_scale = 6.250000e-02 : f32} : (tensor<2x3x10x12xf32>, tensor<?x5xf32>) -> tensor<?x3x3x2xf32>
  func.return %y : tensor<?x3x3x2xf32>
}

// Resize (linear, constant scales, a dynamic batch): per resized axis an index and a
// weight table [out, 2] built once (the tent kernel max(1 - |d|, 0) in f64, rounded to
// f32), then per output element a 2 x 2 loop over the taps reading both tables; the
// tables freed after.
// CHECK-LABEL: func.func @resize_linear
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2x8x3xf32>
// CHECK-NEXT:    %[[IH:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x2xi64>
// CHECK-NEXT:    %[[WH:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x2xf32>
// CHECK:         scf.for %[[O:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           math.floor %{{.*}} : f64
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             math.absf %{{.*}} : f64
// CHECK-NEXT:        %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:        %[[T:.*]] = arith.subf %[[ONE]], %{{.*}} : f64
// CHECK-NEXT:        %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:        %[[W:.*]] = arith.maximumf %[[T]], %[[Z]] : f64
// CHECK:             memref.store %{{.*}}, %[[IH]][%[[O]], %[[K]]] : memref<8x2xi64>
// CHECK-NEXT:        %[[W32:.*]] = arith.truncf %[[W]] : f64 to f32
// CHECK-NEXT:        memref.store %[[W32]], %[[WH]][%[[O]], %[[K]]] : memref<8x2xf32>
// CHECK:         %[[IW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x2xi64>
// CHECK-NEXT:    %[[WW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x2xf32>
// CHECK:         memref.store %{{.*}}, %[[WW]]
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                 %[[SUM:.*]] = scf.for %[[KH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32) {
// CHECK-NEXT:              %[[I64:.*]] = memref.load %[[IH]][%[[H]], %[[KH]]] : memref<8x2xi64>
// CHECK-NEXT:              %[[IY:.*]] = arith.index_cast %[[I64]] : i64 to index
// CHECK-NEXT:              %[[WY:.*]] = memref.load %[[WH]][%[[H]], %[[KH]]] : memref<8x2xf32>
// CHECK:                   scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:                %[[J64:.*]] = memref.load %[[IW]][%[[W]], %[[KW]]] : memref<3x2xi64>
// CHECK-NEXT:                %[[IX:.*]] = arith.index_cast %[[J64]] : i64 to index
// CHECK-NEXT:                %[[WX:.*]] = memref.load %[[WW]][%[[W]], %[[KW]]] : memref<3x2xf32>
// CHECK-NEXT:                %[[WT:.*]] = arith.mulf %[[WY]], %[[WX]] fastmath<contract> : f32
// CHECK-NEXT:                %[[V:.*]] = memref.load %x[%[[N]], %[[C]], %[[IY]], %[[IX]]] : memref<?x2x4x6xf32>
// CHECK-NEXT:                %[[P:.*]] = arith.mulf %[[WT]], %[[V]] fastmath<contract> : f32
// CHECK-NEXT:                arith.addf %[[ACC]], %[[P]] fastmath<contract> : f32
// CHECK:                 memref.store %[[SUM]], %y[%[[N]], %[[C]], %[[H]], %[[W]]] : memref<?x2x8x3xf32>
// CHECK:         memref.dealloc %[[IH]] : memref<8x2xi64>
// CHECK-NEXT:    memref.dealloc %[[WH]] : memref<8x2xf32>
// CHECK-NEXT:    memref.dealloc %[[IW]] : memref<3x2xi64>
// CHECK-NEXT:    memref.dealloc %[[WW]] : memref<3x2xf32>
func.func @resize_linear(%x: tensor<?x2x4x6xf32>) -> tensor<?x2x8x3xf32> {
  %c = graph.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %y = graph.resize %x, %c {axes = array<i64: 2, 3>, mode = "linear"} : (tensor<?x2x4x6xf32>, tensor<2xf32>) -> tensor<?x2x8x3xf32>
  func.return %y : tensor<?x2x8x3xf32>
}

// Resize (nearest, round_prefer_floor, an integer tensor): a one-column index table
// (the point below when the fraction is at most 1/2 and x is not whole), then a copy.
// CHECK-LABEL: func.func @resize_nearest
// CHECK:         %[[IDX:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x1xi64>
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %[[O:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           arith.cmpf one, %{{.*}}, %{{.*}} : f64
// CHECK:           arith.cmpf ole, %{{.*}}, %{{.*}} : f64
// CHECK:           %[[PICK:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i64
// CHECK:           memref.store %[[PICK]], %[[IDX]][%[[O]], %{{.*}}] : memref<8x1xi64>
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:          %[[I64:.*]] = memref.load %[[IDX]][%[[W]], %[[Z]]] : memref<8x1xi64>
// CHECK-NEXT:          %[[I:.*]] = arith.index_cast %[[I64]] : i64 to index
// CHECK-NEXT:          %[[V:.*]] = memref.load %x[%[[N]], %[[C]], %[[I]]] : memref<1x2x4xi64>
// CHECK-NEXT:          memref.store %[[V]], %y[%[[N]], %[[C]], %[[W]]] : memref<1x2x8xi64>
// CHECK:         memref.dealloc %[[IDX]] : memref<8x1xi64>
func.func @resize_nearest(%x: tensor<1x2x4xi64>) -> tensor<1x2x8xi64> {
  %c = graph.constant dense<[2.0]> : tensor<1xf32>
  %y = graph.resize %x, %c {axes = array<i64: 2>} : (tensor<1x2x4xi64>, tensor<1xf32>) -> tensor<1x2x8xi64>
  func.return %y : tensor<1x2x8xi64>
}

// GridSample (bilinear, zeros padding, a dynamic batch checked against X's): per output
// element the grid's y (channel 1) and x (channel 0) denormalized, floor and fraction;
// 4 taps, each load of X clamped in range and selected to 0 when a tap is outside.
// CHECK-LABEL: func.func @grid_sample
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2x3x4xf32>
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:            memref.load %grid[%[[N]], %[[H]], %[[W]], %[[ONE]]] : memref<?x3x4x2xf32>
// CHECK:                 %[[FY:.*]] = math.floor %[[Y:.*]] : f32
// CHECK-NEXT:            %[[TY:.*]] = arith.subf %[[Y]], %[[FY]] : f32
// CHECK:                 %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:            memref.load %grid[%[[N]], %[[H]], %[[W]], %[[ZERO]]] : memref<?x3x4x2xf32>
// CHECK:                 %[[FX:.*]] = math.floor %[[X:.*]] : f32
// CHECK-NEXT:            %[[TX:.*]] = arith.subf %[[X]], %[[FX]] : f32
// CHECK:                 %[[W00:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:            %[[P00:.*]] = memref.load %x[%[[N]], %[[C]], %{{.*}}, %{{.*}}] : memref<?x2x5x6xf32>
// CHECK-NEXT:            arith.constant 0.000000e+00 : f32
// CHECK-NEXT:            %[[V00:.*]] = arith.select %{{.*}}, %[[P00]], %{{.*}} : f32
// CHECK-NEXT:            arith.mulf %[[W00]], %[[V00]] fastmath<contract> : f32
// CHECK:                 arith.mulf %{{.*}}, %[[TX]] fastmath<contract> : f32
// CHECK-NEXT:            memref.load %x
// CHECK:                 arith.mulf %[[TY]], %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:            memref.load %x
// CHECK:                 arith.mulf %[[TY]], %[[TX]] fastmath<contract> : f32
// CHECK-NEXT:            memref.load %x
// CHECK:                 %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:            memref.store %[[S]], %y[%[[N]], %[[C]], %[[H]], %[[W]]] : memref<?x2x3x4xf32>
func.func @grid_sample(%x: tensor<?x2x5x6xf32>, %grid: tensor<?x3x4x2xf32>) -> tensor<?x2x3x4xf32> {
  %y = graph.grid_sample %x, %grid : (tensor<?x2x5x6xf32>, tensor<?x3x4x2xf32>) -> tensor<?x2x3x4xf32>
  func.return %y : tensor<?x2x3x4xf32>
}

// LpPool (p = 2, stride 2, a leading pad of 1): per output element a 3 x 3 window loop;
// a tap's input index is o * 2 - 1 + k, its load clamped into X and its |x|^2 added only
// when the index is inside; the square root of the sum stored.
// CHECK-LABEL: func.func @lp_pool
// CHECK:         %y = memref.alloc() {alignment = 64 : i64} : memref<1x2x2x2xf32>
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[OH:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[OW:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                 %[[SUM:.*]] = scf.for %[[KH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32) {
// CHECK-NEXT:              %[[S:.*]] = arith.constant 2 : index
// CHECK-NEXT:              %[[M:.*]] = arith.muli %[[OH]], %[[S]] : index
// CHECK-NEXT:              %[[P:.*]] = arith.constant 1 : index
// CHECK-NEXT:              %[[MP:.*]] = arith.subi %[[M]], %[[P]] : index
// CHECK-NEXT:              %[[IH:.*]] = arith.addi %[[MP]], %[[KH]] : index
// CHECK:                   scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:                     %[[IN_W:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:                %[[IN:.*]] = arith.andi %{{.*}}, %[[IN_W]] : i1
// CHECK:                     %[[V:.*]] = memref.load %x[%[[N]], %[[C]], %{{.*}}, %{{.*}}] : memref<1x2x5x5xf32>
// CHECK-NEXT:                %[[A:.*]] = math.absf %[[V]] : f32
// CHECK-NEXT:                %[[SQ:.*]] = arith.mulf %[[A]], %[[A]] fastmath<contract> : f32
// CHECK-NEXT:                %[[ADD:.*]] = arith.addf %[[ACC]], %[[SQ]] fastmath<contract> : f32
// CHECK-NEXT:                arith.select %[[IN]], %[[ADD]], %[[ACC]] : f32
// CHECK:                 %[[R:.*]] = math.sqrt %[[SUM]] : f32
// CHECK-NEXT:            memref.store %[[R]], %y[%[[N]], %[[C]], %[[OH]], %[[OW]]] : memref<1x2x2x2xf32>
func.func @lp_pool(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32> {
  %y = graph.lp_pool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32>
  func.return %y : tensor<1x2x2x2xf32>
}

// LpPool with p = 3: |x| ** 3 per tap and the sum ** (1/3), both by math.powf.
// CHECK-LABEL: func.func @lp_pool_p3
// CHECK:         %[[P:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:    math.powf %{{.*}}, %[[P]] : f32
// CHECK:         %[[INV:.*]] = arith.constant 0.3333{{.*}} : f32
// CHECK-NEXT:    math.powf %{{.*}}, %[[INV]] : f32
func.func @lp_pool_p3(%x: tensor<1x1x4xf32>) -> tensor<1x1x2xf32> {
  %y = graph.lp_pool %x {kernel_shape = array<i64: 3>, p = 3 : i64} : (tensor<1x1x4xf32>) -> tensor<1x1x2xf32>
  func.return %y : tensor<1x1x2xf32>
}

// MaxUnpool: the output zeroed, the indices checked below the pooled-from size (48),
// then each X element stored at its index split into (n, c, h, w) by floor division.
// CHECK-LABEL: func.func @max_unpool
// CHECK:         %y = memref.alloc() {alignment = 64 : i64} : memref<1x2x4x6xf32>
// CHECK:                 %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:            memref.store %[[Z]], %y[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x2x4x6xf32>
// CHECK:         %[[SIZE:.*]] = arith.constant 48 : index
// CHECK:         arith.cmpi sge, %{{.*}}, %[[SIZE]] : index
// CHECK:         cf.cond_br
// CHECK:               %[[THREE:.*]] = arith.constant 3 : index
// CHECK-NEXT:          arith.constant 1 : index
// CHECK-NEXT:          scf.for %[[J:.*]] = %{{.*}} to %[[THREE]] step
// CHECK-NEXT:            %[[I64:.*]] = memref.load %i[%[[N:.*]], %[[C:.*]], %[[I:.*]], %[[J]]] : memref<1x2x2x3xi64>
// CHECK-NEXT:            %[[FLAT:.*]] = arith.index_cast %[[I64]] : i64 to index
// CHECK:                 %[[Q6:.*]] = arith.floordivsi %[[FLAT]], %{{.*}} : index
// CHECK:                 %[[OW:.*]] = arith.subi %[[FLAT]], %{{.*}} : index
// CHECK:                 %[[OH:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:                 %[[OC:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:                 %[[ON:.*]] = arith.floordivsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:            %[[V:.*]] = memref.load %x[%[[N]], %[[C]], %[[I]], %[[J]]] : memref<1x2x2x3xf32>
// CHECK-NEXT:            memref.store %[[V]], %y[%[[ON]], %[[OC]], %[[OH]], %[[OW]]] : memref<1x2x4x6xf32>
func.func @max_unpool(%x: tensor<1x2x2x3xf32>, %i: tensor<1x2x2x3xi64>) -> tensor<1x2x4x6xf32> {
  %y = graph.max_unpool %x, %i {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x2x3xf32>, tensor<1x2x2x3xi64>) -> tensor<1x2x4x6xf32>
  func.return %y : tensor<1x2x4x6xf32>
}

// AffineGrid (align_corners, a dynamic batch): per (n, h, w) the base point's x from w
// and y from h as -1 + i * 2 / (L - 1) in f64 (-1 when L is 1); each of the 2 outputs
// theta[n, j, 2] + theta[n, j, 0] * x + theta[n, j, 1] * y, rounded to f32.
// CHECK-LABEL: func.func @affine_grid
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x4x5x2xf32>
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          arith.index_cast %[[W]] : index to i64
// CHECK:               %[[X:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:          arith.index_cast %[[H]] : index to i64
// CHECK:               %[[Y:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f64
// CHECK:               %[[T0:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK-NEXT:          %[[T1:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK-NEXT:          %[[T2:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK-NEXT:          %[[A:.*]] = arith.mulf %[[T0]], %[[X]] : f64
// CHECK-NEXT:          %[[B:.*]] = arith.addf %[[T2]], %[[A]] : f64
// CHECK-NEXT:          %[[C:.*]] = arith.mulf %[[T1]], %[[Y]] : f64
// CHECK-NEXT:          %[[D:.*]] = arith.addf %[[B]], %[[C]] : f64
// CHECK-NEXT:          %[[R:.*]] = arith.truncf %[[D]] : f64 to f32
// CHECK-NEXT:          %[[J:.*]] = arith.constant 0 : index
// CHECK-NEXT:          memref.store %[[R]], %y[%[[N]], %[[H]], %[[W]], %[[J]]] : memref<?x4x5x2xf32>
// CHECK:               memref.store %{{.*}}, %y[%[[N]], %[[H]], %[[W]], %{{.*}}] : memref<?x4x5x2xf32>
func.func @affine_grid(%theta: tensor<?x2x3xf32>) -> tensor<?x4x5x2xf32> {
  %c = graph.constant dense<[1, 3, 4, 5]> : tensor<4xi64>
  %y = graph.affine_grid %theta, %c {align_corners = 1 : i64} : (tensor<?x2x3xf32>, tensor<4xi64>) -> tensor<?x4x5x2xf32>
  func.return %y : tensor<?x4x5x2xf32>
}

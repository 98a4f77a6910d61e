// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// MaxPool: one loop over the output rows (n, c, oh), each on any thread; the row starts at
// -inf; taps in the padding are outside the valid ranges, so the innermost loop over ow
// is a plain maximumf with no bounds check.
// CHECK-LABEL: func.func @max_pool
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2x3x4xf32>
// CHECK:         %[[NEG_INF:.*]] = arith.constant 0xff800000 : f32
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[OH:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[P2:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK:           %[[C:.*]] = arith.remui %[[P2]], %{{.*}} : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %[[P2]], %{{.*}} : index
// CHECK:               scf.for %[[OW0:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            memref.store %[[NEG_INF]], %[[Y]][%[[N]], %[[C]], %[[OH]], %[[OW0]]]
// CHECK:               %[[KH_LO:.*]] = arith.maxsi
// CHECK:               %[[KH_HI:.*]] = arith.minsi
// CHECK:               scf.for %{{.*}} = %[[KH_LO]] to %[[KH_HI]] step
// CHECK:                 %[[OW_LO:.*]] = arith.maxsi
// CHECK:                 %[[OW_HI:.*]] = arith.minsi
// CHECK:                 scf.for %[[OW:.*]] = %[[OW_LO]] to %[[OW_HI]] step
// CHECK:                   %[[ACC:.*]] = memref.load %[[Y]][%[[N]], %[[C]], %[[OH]], %[[OW]]]
// CHECK-NEXT:              %[[XV:.*]] = memref.load %x[%[[N]], %[[C]], %{{.*}}, %{{.*}}]
// CHECK-NEXT:              %[[M:.*]] = arith.maximumf %[[ACC]], %[[XV]] : f32
// CHECK-NEXT:              memref.store %[[M]], %[[Y]][%[[N]], %[[C]], %[[OH]], %[[OW]]]
// CHECK-NOT:     arith.divf
// CHECK:         func.return %[[Y]]
func.func @max_pool(%x: tensor<?x2x6x7xf32>) -> tensor<?x2x3x4xf32> {
  %y = graph.max_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x2x6x7xf32>) -> tensor<?x2x3x4xf32>
  func.return %y : tensor<?x2x3x4xf32>
}

// Unpadded floor-mode pooling needs no range arithmetic.
// CHECK-LABEL: func.func @max_pool_valid
// CHECK-NOT:     arith.maxsi
// CHECK-NOT:     arith.minsi
// CHECK:         arith.maximumf
// CHECK:         func.return
func.func @max_pool_valid(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32> {
  %y = graph.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32>
  func.return %y : tensor<1x2x3x3xf32>
}

// AveragePool sums into the row, then divides each output by its count of taps inside
// the input (count_include_pad = 0): (kh_hi - kh_lo) * (kw_hi - kw_lo), as a float.
// CHECK-LABEL: func.func @average_pool
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         memref.store %[[ZERO]]
// CHECK:         %[[KH_LO:.*]] = arith.maxsi
// CHECK:         %[[KH_HI:.*]] = arith.minsi
// CHECK:         %[[ACC:.*]] = memref.load
// CHECK-NEXT:    %[[XV:.*]] = memref.load %x
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[ACC]], %[[XV]] fastmath<contract> : f32
// CHECK-NEXT:    memref.store %[[S]]
// CHECK:         %[[HCOUNT:.*]] = arith.subi %[[KH_HI]], %[[KH_LO]] : index
// CHECK:         scf.for
// CHECK:           %[[KW_LO:.*]] = arith.maxsi
// CHECK:           %[[KW_HI:.*]] = arith.minsi
// CHECK-NEXT:      %[[WCOUNT:.*]] = arith.subi %[[KW_HI]], %[[KW_LO]] : index
// CHECK-NEXT:      %[[COUNT:.*]] = arith.muli %[[HCOUNT]], %[[WCOUNT]] : index
// CHECK-NEXT:      %[[V:.*]] = memref.load
// CHECK-NEXT:      %[[I:.*]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK-NEXT:      %[[F:.*]] = arith.sitofp %[[I]] : i64 to f32
// CHECK-NEXT:      %[[AVG:.*]] = arith.divf %[[V]], %[[F]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[AVG]]
func.func @average_pool(%x: tensor<1x2x6x7xf32>) -> tensor<1x2x6x7xf32> {
  %y = graph.average_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x7xf32>) -> tensor<1x2x6x7xf32>
  func.return %y : tensor<1x2x6x7xf32>
}

// count_include_pad in floor mode: every window has kernel_size taps, a constant divisor.
// CHECK-LABEL: func.func @average_pool_include_pad
// CHECK:         %[[NINE:.*]] = arith.constant 9.000000e+00 : f32
// CHECK-NEXT:    %{{.*}} = arith.divf %{{.*}}, %[[NINE]] fastmath<contract> : f32
func.func @average_pool_include_pad(%x: tensor<1x2x6x7xf32>) -> tensor<1x2x6x7xf32> {
  %y = graph.average_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = 1 : i64} : (tensor<1x2x6x7xf32>) -> tensor<1x2x6x7xf32>
  func.return %y : tensor<1x2x6x7xf32>
}

// Global pools reduce the flattened plane into a loop-carried value; the sum may be
// reassociated (vector partial sums), then divided by H * W.
// CHECK-LABEL: func.func @global_average_pool
// CHECK:         %[[X:.*]] = memref.collapse_shape %x {{.*}} : memref<?x8x7x7xf32> into memref<?x8x49xf32>
// CHECK:         %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[X]]
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[ACC]], %[[V]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:      scf.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[D:.*]] = arith.constant 4.900000e+01 : f32
// CHECK-NEXT:    %[[AVG:.*]] = arith.divf %[[SUM]], %[[D]] fastmath<contract> : f32
// CHECK:         memref.store %[[AVG]], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x8x1x1xf32>
func.func @global_average_pool(%x: tensor<?x8x7x7xf32>) -> tensor<?x8x1x1xf32> {
  %y = graph.global_average_pool %x : (tensor<?x8x7x7xf32>) -> tensor<?x8x1x1xf32>
  func.return %y : tensor<?x8x1x1xf32>
}

// CHECK-LABEL: func.func @global_max_pool
// CHECK:         %[[NEG_INF:.*]] = arith.constant 0xff800000 : f32
// CHECK:         scf.for %{{.*}} iter_args(%[[ACC:.*]] = %[[NEG_INF]]) -> (f32) {
// CHECK-NEXT:      %[[V:.*]] = memref.load
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[ACC]], %[[V]] : f32
// CHECK-NEXT:      scf.yield %[[M]] : f32
// CHECK-NOT:     arith.divf
func.func @global_max_pool(%x: tensor<2x3x5xf32>) -> tensor<2x3x1xf32> {
  %y = graph.global_max_pool %x : (tensor<2x3x5xf32>) -> tensor<2x3x1xf32>
  func.return %y : tensor<2x3x1xf32>
}

// MaxPool with its Indices: beside each running max, the flat input index it was read
// at (the (n, c) plane's offset, plus h + w * H for column-major storage_order 1); a tap
// replaces both if greater, or if NaN over a number.
// CHECK-LABEL: func.func @max_pool_with_indices
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2x3x3xf32>
// CHECK-NEXT:    %[[I:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2x3x3xi64>
// CHECK:                 %[[ACC:.*]] = memref.load %[[Y]][
// CHECK-NEXT:            %[[XV:.*]] = memref.load %x[
// CHECK-NEXT:            %[[GT:.*]] = arith.cmpf ogt, %[[XV]], %[[ACC]] : f32
// CHECK-NEXT:            %[[XNAN:.*]] = arith.cmpf uno, %[[XV]], %[[XV]] : f32
// CHECK-NEXT:            %[[ANUM:.*]] = arith.cmpf ord, %[[ACC]], %[[ACC]] : f32
// CHECK-NEXT:            %[[NAN_WINS:.*]] = arith.andi %[[XNAN]], %[[ANUM]] : i1
// CHECK-NEXT:            %[[WINS:.*]] = arith.ori %[[GT]], %[[NAN_WINS]] : i1
// CHECK-NEXT:            %[[V:.*]] = arith.select %[[WINS]], %[[XV]], %[[ACC]] : f32
// CHECK-NEXT:            memref.store %[[V]], %[[Y]][
// CHECK-NEXT:            %[[H:.*]] = arith.constant 6 : index
// CHECK-NEXT:            %[[WH:.*]] = arith.muli %{{.*}}, %[[H]] : index
// CHECK-NEXT:            %[[AT:.*]] = arith.addi %{{.*}}, %[[WH]] : index
// CHECK-NEXT:            %[[AT64:.*]] = arith.index_cast %[[AT]] : index to i64
// CHECK-NEXT:            %[[OLD:.*]] = memref.load %[[I]][
// CHECK-NEXT:            %[[NEW:.*]] = arith.select %[[WINS]], %[[AT64]], %[[OLD]] : i64
// CHECK-NEXT:            memref.store %[[NEW]], %[[I]][
func.func @max_pool_with_indices(%x: tensor<?x2x6x7xf32>) -> (tensor<?x2x3x3xf32>, tensor<?x2x3x3xi64>) {
  %y, %i = graph.max_pool_with_indices %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, storage_order = 1 : i64} : (tensor<?x2x6x7xf32>) -> (tensor<?x2x3x3xf32>, tensor<?x2x3x3xi64>)
  func.return %y, %i : tensor<?x2x3x3xf32>, tensor<?x2x3x3xi64>
}

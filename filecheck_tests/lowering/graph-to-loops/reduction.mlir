// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// The last axis is reduced: a scalar accumulator carried through the innermost loop,
// `reassoc` so that LLVM may vectorize the sum; the mean divides by the count once. The
// kept dims are one loop, each output element on any thread.
// CHECK-LABEL: func.func @reduce_mean_last
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3x1xf32>
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[J:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[I:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK-NEXT:        %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:             %[[SUM:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:          %[[E:.*]] = memref.load %x[%[[I]], %[[J]], %[[K]]] : memref<?x3x4xf32>
// CHECK-NEXT:          %[[NEXT:.*]] = arith.addf %[[ACC]], %[[E]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:          scf.yield %[[NEXT]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[FOUR:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT:        %[[MEAN:.*]] = arith.divf %[[SUM]], %[[FOUR]] fastmath<contract> : f32
// CHECK-NEXT:        %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:        memref.store %[[MEAN]], %[[Y]][%[[I]], %[[J]], %[[Z]]] : memref<?x3x1xf32>
func.func @reduce_mean_last(%x: tensor<?x3x4xf32>) -> tensor<?x3x1xf32> {
  %a = graph.constant dense<[-1]> : tensor<1xi64>
  %0 = graph.reduce_mean %x, %a : (tensor<?x3x4xf32>, tensor<1xi64>) -> tensor<?x3x1xf32>
  func.return %0 : tensor<?x3x1xf32>
}

// Two reduced axes including the last, keepdims = 0: nested accumulating loops.
// CHECK-LABEL: func.func @reduce_sum_two_axes
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[S:.*]] = scf.for %[[J:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK:             %[[T:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (f32) {
// CHECK-NEXT:          memref.load %x[%[[I]], %[[J]], %[[K]]]
// CHECK:           memref.store %[[S]], %{{.*}}[%[[I]]] : memref<2xf32>
func.func @reduce_sum_two_axes(%x: tensor<2x3x4xf32>) -> tensor<2xf32> {
  %a = graph.constant dense<[1, 2]> : tensor<2xi64>
  %0 = graph.reduce_sum %x, %a {keepdims = 0 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// A middle axis: the output is initialised (INT32_MIN for a signed max), then the
// input is walked in memory order, accumulating into the output element.
// CHECK-LABEL: func.func @reduce_max_middle
// CHECK:         %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4xi32>
// CHECK:         %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:    memref.store %[[MIN]], %[[Y]]
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[E:.*]] = memref.load %x[%[[I]], %[[J]], %[[K]]] : memref<2x3x4xi32>
// CHECK-NEXT:          %[[OLD:.*]] = memref.load %[[Y]][%[[I]], %[[K]]] : memref<2x4xi32>
// CHECK-NEXT:          %[[M:.*]] = arith.maxsi %[[OLD]], %[[E]] : i32
// CHECK-NEXT:          memref.store %[[M]], %[[Y]][%[[I]], %[[K]]] : memref<2x4xi32>
func.func @reduce_max_middle(%x: tensor<2x3x4xi32>) -> tensor<2x4xi32> {
  %a = graph.constant dense<[1]> : tensor<1xi64>
  %0 = graph.reduce_max %x, %a {keepdims = 0 : i64} : (tensor<2x3x4xi32>, tensor<1xi64>) -> tensor<2x4xi32>
  func.return %0 : tensor<2x4xi32>
}

// ReduceMin of unsigned bytes starts at 255 (-1 as signless i8) and compares unsigned.
// CHECK-LABEL: func.func @reduce_min_ui8
// CHECK:         %[[INIT:.*]] = arith.constant -1 : i8
// CHECK:         arith.minui %{{.*}}, %{{.*}} : i8
func.func @reduce_min_ui8(%x: tensor<3x4xui8>) -> tensor<3x1xui8> {
  %a = graph.constant dense<[1]> : tensor<1xi64>
  %0 = graph.reduce_min %x, %a : (tensor<3x4xui8>, tensor<1xi64>) -> tensor<3x1xui8>
  func.return %0 : tensor<3x1xui8>
}

// A mean over a dynamic dim divides by the run-time count; a middle axis finishes with
// one more pass over the output.
// CHECK-LABEL: func.func @reduce_mean_dynamic
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<2x?x3xf32>
// CHECK:         arith.addf {{.*}} fastmath<reassoc,contract> : f32
// CHECK:         %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT:    %[[NF:.*]] = arith.sitofp %[[N64]] : i64 to f32
// CHECK-NEXT:    arith.divf %{{.*}}, %[[NF]] fastmath<contract> : f32
func.func @reduce_mean_dynamic(%x: tensor<2x?x3xf32>) -> tensor<2x1x3xf32> {
  %a = graph.constant dense<[1]> : tensor<1xi64>
  %0 = graph.reduce_mean %x, %a : (tensor<2x?x3xf32>, tensor<1xi64>) -> tensor<2x1x3xf32>
  func.return %0 : tensor<2x1x3xf32>
}

// No axes: all of them are reduced (default), or none with noop_with_empty_axes.
// CHECK-LABEL: func.func @reduce_all
// CHECK:         %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x1xf32>
// CHECK:         arith.constant 0xff800000 : f32
// CHECK:         arith.maximumf
// CHECK-LABEL: func.func @reduce_noop
// CHECK-NOT:     scf.for
// CHECK:         %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x4xf32>
// CHECK:         memref.store %{{.*}}, %[[C]]
// CHECK:         func.return %[[C]]
func.func @reduce_all(%x: tensor<3x4xf32>) -> tensor<1x1xf32> {
  %0 = graph.reduce_max %x : (tensor<3x4xf32>) -> tensor<1x1xf32>
  func.return %0 : tensor<1x1xf32>
}
func.func @reduce_noop(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = graph.reduce_sum %x {noop_with_empty_axes = 1 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// Axes read at run time, keepdims = 0: the sums go to a buffer of the input's rank (the
// reduced dims 1), then seen without the reduced dims, whose count the axes' length gives.
// CHECK-LABEL: func.func @reduce_sum_runtime_axes
// CHECK:         %[[KEPT:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK:         memref.reinterpret_cast %[[KEPT]] to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<?x?xf32> to memref<?xf32>
func.func @reduce_sum_runtime_axes(%x: tensor<2x3xf32>, %a: tensor<1xi64>) -> tensor<?xf32> {
  %0 = graph.reduce_sum %x, %a {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// The reductions with a map (last axis, a dynamic batch): each a parallel loop over the
// rows carrying one accumulator; L1 sums |x|, L2 sums x * x then takes the square
// root, SumSquare sums x * x, LogSum takes the log of the sum, Prod multiplies from 1.
// CHECK-LABEL: func.func @reduce_maps
// CHECK:         %l1 = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x1xf32>
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[S:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %x[%[[R]], %[[K]]] : memref<?x4xf32>
// CHECK-NEXT:        %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:        arith.addf %[[A]], %[[ABS]] fastmath<reassoc,contract> : f32
// CHECK:           memref.store %[[S]], %l1[%[[R]], %{{.*}}] : memref<?x1xf32>
// CHECK-NEXT:    } {parallel = {{[0-9]+}} : i64}
// CHECK:         %l2 = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x1xf32>
// CHECK:           %[[S:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %x
// CHECK-NEXT:        %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] fastmath<contract> : f32
// CHECK-NEXT:        arith.addf %[[A]], %[[SQ]] fastmath<reassoc,contract> : f32
// CHECK:           %[[ROOT:.*]] = math.sqrt %[[S]] : f32
// CHECK:           memref.store %[[ROOT]], %l2
// CHECK:         %ss = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x1xf32>
// CHECK:           %[[S:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %x
// CHECK-NEXT:        %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] fastmath<contract> : f32
// CHECK-NEXT:        arith.addf %[[A]], %[[SQ]] fastmath<reassoc,contract> : f32
// CHECK:           arith.constant 0 : index
// CHECK-NEXT:      memref.store %[[S]], %ss
// CHECK:         %ls = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x1xf32>
// CHECK:           %[[S:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %x
// CHECK-NEXT:        arith.addf %[[A]], %[[X]] fastmath<reassoc,contract> : f32
// CHECK:           %[[LOG:.*]] = math.log %[[S]] : f32
// CHECK:           memref.store %[[LOG]], %ls
// CHECK:         %p = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x1xf32>
// CHECK:           %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:           %[[S:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[A:.*]] = %[[ONE]]) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %x
// CHECK-NEXT:        arith.mulf %[[A]], %[[X]] fastmath<reassoc,contract> : f32
// CHECK:           memref.store %[[S]], %p
func.func @reduce_maps(%x: tensor<?x4xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>) {
  %a = graph.constant dense<[1]> : tensor<1xi64>
  %l1 = graph.reduce_l1 %x, %a : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %l2 = graph.reduce_l2 %x, %a : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %ss = graph.reduce_sum_square %x, %a : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %ls = graph.reduce_log_sum %x, %a : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  %p = graph.reduce_prod %x, %a : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  func.return %l1, %l2, %ss, %ls, %p : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>
}

// ReduceLogSumExp over the last axis: per row a max pass from -inf, the shift (the max
// when finite, else 0), a pass summing exp(x - shift), then shift + log(sum).
// CHECK-LABEL: func.func @reduce_lse_last
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[NEG_INF:.*]] = arith.constant 0xff800000 : f32
// CHECK:           %[[M:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[NEG_INF]]) -> (f32) {
// CHECK:             arith.maximumf %[[A]], %{{.*}} : f32
// CHECK:           %[[ABS:.*]] = math.absf %[[M]] : f32
// CHECK-NEXT:      %[[INF:.*]] = arith.constant 0x7f800000 : f32
// CHECK-NEXT:      %[[FINITE:.*]] = arith.cmpf olt, %[[ABS]], %[[INF]] : f32
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[SHIFT:.*]] = arith.select %[[FINITE]], %[[M]], %[[Z]] : f32
// CHECK:           %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[B:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %x[%[[R]], %{{.*}}] : memref<?x4xf32>
// CHECK-NEXT:        %[[D:.*]] = arith.subf %[[X]], %[[SHIFT]] fastmath<contract> : f32
// CHECK-NEXT:        %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT:        arith.addf %[[B]], %[[E]] fastmath<reassoc,contract> : f32
// CHECK:           %[[LOG:.*]] = math.log %[[SUM]] : f32
// CHECK-NEXT:      %[[OUT:.*]] = arith.addf %[[SHIFT]], %[[LOG]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[OUT]], %{{.*}}[%[[R]]] : memref<?xf32>
func.func @reduce_lse_last(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %a = graph.constant dense<[1]> : tensor<1xi64>
  %0 = graph.reduce_log_sum_exp %x, %a {keepdims = 0 : i64} : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// ReduceLogSumExp over a middle axis: the maxes accumulated into the output, replaced
// by the shifts in place; the sums of exp(x - shift) in a scratch buffer beside it; the
// output then shift + log(sum); the scratch buffer freed.
// CHECK-LABEL: func.func @reduce_lse_middle
// CHECK:         %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK:           arith.constant 0xff800000 : f32
// CHECK:             %[[V:.*]] = memref.load %x[%[[I:.*]], %[[J:.*]], %[[K:.*]]] : memref<2x3x4xf32>
// CHECK-NEXT:        %[[OLD:.*]] = memref.load %[[Y]][%[[I]], %[[K]]] : memref<2x4xf32>
// CHECK-NEXT:        %[[M:.*]] = arith.maximumf %[[OLD]], %[[V]] : f32
// CHECK-NEXT:        memref.store %[[M]], %[[Y]][%[[I]], %[[K]]] : memref<2x4xf32>
// CHECK:           math.absf
// CHECK:           %[[SH:.*]] = arith.select
// CHECK-NEXT:      memref.store %[[SH]], %[[Y]]
// CHECK:         %[[SUMS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK:             %[[V:.*]] = memref.load %x[%[[I:.*]], %[[J:.*]], %[[K:.*]]] : memref<2x3x4xf32>
// CHECK-NEXT:        %[[SHIFT:.*]] = memref.load %[[Y]][%[[I]], %[[K]]] : memref<2x4xf32>
// CHECK-NEXT:        %[[D:.*]] = arith.subf %[[V]], %[[SHIFT]] fastmath<contract> : f32
// CHECK-NEXT:        %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT:        %[[OLD:.*]] = memref.load %[[SUMS]][%[[I]], %[[K]]] : memref<2x4xf32>
// CHECK-NEXT:        %[[NEW:.*]] = arith.addf %[[OLD]], %[[E]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:        memref.store %[[NEW]], %[[SUMS]][%[[I]], %[[K]]] : memref<2x4xf32>
// CHECK:           %[[S:.*]] = memref.load %[[SUMS]][%[[A:.*]], %[[B:.*]]] : memref<2x4xf32>
// CHECK-NEXT:      %[[LOG:.*]] = math.log %[[S]] : f32
// CHECK-NEXT:      %[[SH2:.*]] = memref.load %[[Y]][%[[A]], %[[B]]] : memref<2x4xf32>
// CHECK-NEXT:      %[[OUT:.*]] = arith.addf %[[SH2]], %[[LOG]] fastmath<contract> : f32
// CHECK-NEXT:      memref.store %[[OUT]], %[[Y]][%[[A]], %[[B]]] : memref<2x4xf32>
// CHECK:         memref.dealloc %[[SUMS]] : memref<2x4xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @reduce_lse_middle(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %a = graph.constant dense<[1]> : tensor<1xi64>
  %0 = graph.reduce_log_sum_exp %x, %a {keepdims = 0 : i64} : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// ArgMax (float, keepdims 0, a dynamic batch): per row a scan from element 1 carrying
// (best, its index) from element 0; a strictly greater element wins (the first of equal
// ones is kept). ArgMin of unsigned bytes with select_last_index compares ule (an equal
// later element wins), along axis 0.
// CHECK-LABEL: func.func @arg_reduce
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi64>
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[FIRST:.*]] = memref.load %x[%[[R]], %[[Z]]] : memref<?x5xf32>
// CHECK-NEXT:      %[[Z2:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK:           %{{.*}}, %[[K:.*]] = scf.for %[[J:.*]] = %[[ONE]] to %{{.*}} step %{{.*}} iter_args(%[[BEST:.*]] = %[[FIRST]], %[[AT:.*]] = %[[Z2]]) -> (f32, index) {
// CHECK-NEXT:        %[[V:.*]] = memref.load %x[%[[R]], %[[J]]] : memref<?x5xf32>
// CHECK-NEXT:        %[[WINS:.*]] = arith.cmpf ogt, %[[V]], %[[BEST]] : f32
// CHECK-NEXT:        %[[NB:.*]] = arith.select %[[WINS]], %[[V]], %[[BEST]] : f32
// CHECK-NEXT:        %[[NA:.*]] = arith.select %[[WINS]], %[[J]], %[[AT]] : index
// CHECK-NEXT:        scf.yield %[[NB]], %[[NA]] : f32, index
// CHECK:           %[[K64:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK-NEXT:      memref.store %[[K64]], %[[Y]][%[[R]]] : memref<?xi64>
// CHECK:         %[[Y2:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x5xi64>
// CHECK:         scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J2:.*]] = {{.*}} iter_args(%[[BEST2:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (i8, index) {
// CHECK-NEXT:        %[[V2:.*]] = memref.load %u[%[[J2]], %[[C]]] : memref<3x5xi8>
// CHECK-NEXT:        arith.cmpi ule, %[[V2]], %[[BEST2]] : i8
// CHECK:           memref.store %{{.*}}, %[[Y2]][%{{.*}}, %[[C]]] : memref<1x5xi64>
func.func @arg_reduce(%x: tensor<?x5xf32>, %u: tensor<3x5xui8>) -> (tensor<?xi64>, tensor<1x5xi64>) {
  %0 = graph.arg_max %x {axis = 1 : i64, keepdims = 0 : i64} : (tensor<?x5xf32>) -> tensor<?xi64>
  %1 = graph.arg_min %u {axis = 0 : i64, select_last_index = 1 : i64} : (tensor<3x5xui8>) -> tensor<1x5xi64>
  func.return %0, %1 : tensor<?xi64>, tensor<1x5xi64>
}

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

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Softmax on the last axis: per row, three contiguous innermost loops: the max, the
// sum of exp(x - max) (kept in the output), then the scaling by 1 / sum.
// CHECK-LABEL: func.func @softmax
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x10xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:      %[[NINF:.*]] = arith.constant 0xff800000 : f32
// CHECK:           %[[MAX:.*]] = scf.for %[[J:.*]] = {{.*}} iter_args(%[[M:.*]] = %[[NINF]]) -> (f32) {
// CHECK-NEXT:        %[[E:.*]] = memref.load %x[%[[I]], %[[J]]] : memref<?x10xf32>
// CHECK-NEXT:        %[[M2:.*]] = arith.maximumf %[[M]], %[[E]] : f32
// CHECK-NEXT:        scf.yield %[[M2]] : f32
// CHECK:           %[[SUM:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[F:.*]] = memref.load %x[%[[I]], %[[K]]] : memref<?x10xf32>
// CHECK-NEXT:        %[[D:.*]] = arith.subf %[[F]], %[[MAX]] fastmath<contract> : f32
// CHECK-NEXT:        %[[EXP:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT:        memref.store %[[EXP]], %[[Y]][%[[I]], %[[K]]] : memref<?x10xf32>
// CHECK-NEXT:        %[[S2:.*]] = arith.addf %[[S]], %[[EXP]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:        scf.yield %[[S2]] : f32
// CHECK:           %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      %[[INV:.*]] = arith.divf %[[ONE]], %[[SUM]] fastmath<contract> : f32
// CHECK:           scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[G:.*]] = memref.load %[[Y]][%[[I]], %[[L]]] : memref<?x10xf32>
// CHECK-NEXT:        %[[R:.*]] = arith.mulf %[[G]], %[[INV]] fastmath<contract> : f32
// CHECK-NEXT:        memref.store %[[R]], %[[Y]][%[[I]], %[[L]]] : memref<?x10xf32>
func.func @softmax(%x: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %0 = graph.softmax %x : (tensor<?x10xf32>) -> tensor<?x10xf32>
  func.return %0 : tensor<?x10xf32>
}

// LogSoftmax: x - (max + log(sum)); the exps are not stored.
// CHECK-LABEL: func.func @log_softmax
// CHECK:         math.exp
// CHECK-NOT:     memref.store
// CHECK:         scf.yield
// CHECK:         %[[LOG:.*]] = math.log %{{.*}} : f32
// CHECK-NEXT:    %[[LSE:.*]] = arith.addf %{{.*}}, %[[LOG]] fastmath<contract> : f32
// CHECK:         %[[E:.*]] = memref.load %x
// CHECK-NEXT:    %[[R:.*]] = arith.subf %[[E]], %[[LSE]] fastmath<contract> : f32
// CHECK-NEXT:    memref.store %[[R]]
func.func @log_softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %0 = graph.log_softmax %x : (tensor<4x10xf32>) -> tensor<4x10xf32>
  func.return %0 : tensor<4x10xf32>
}

// Softmax over a middle axis: the loops over the other dims are outside, the axis
// loops inside, indexed in the axis position.
// CHECK-LABEL: func.func @softmax_axis1
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[J:.*]] = {{.*}} iter_args
// CHECK-NEXT:          memref.load %x[%[[I]], %[[J]], %[[K]]] : memref<2x5x3xf32>
func.func @softmax_axis1(%x: tensor<2x5x3xf32>) -> tensor<2x5x3xf32> {
  %0 = graph.softmax %x {axis = 1 : i64} : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  func.return %0 : tensor<2x5x3xf32>
}

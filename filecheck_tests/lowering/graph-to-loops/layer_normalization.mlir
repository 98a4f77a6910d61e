// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Per row: the mean (a reassociable sum), the two-pass variance, 1 / sqrt(var + eps),
// then (x - mean) * rstd * g + b; every pass runs contiguously along the last axis.
// CHECK-LABEL: func.func @layer_norm
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x16xf32>
// CHECK:         %[[N:.*]] = arith.constant 1.600000e+01 : f32
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[SUM:.*]] = scf.for %[[J:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[E:.*]] = memref.load %x[%[[I]], %[[J]]] : memref<?x16xf32>
// CHECK-NEXT:        %[[A2:.*]] = arith.addf %[[A]], %[[E]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:        scf.yield %[[A2]] : f32
// CHECK:           %[[MEAN:.*]] = arith.divf %[[SUM]], %[[N]] fastmath<contract> : f32
// CHECK:           %[[SQ:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[B:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[F:.*]] = memref.load %x[%[[I]], %[[K]]] : memref<?x16xf32>
// CHECK-NEXT:        %[[D:.*]] = arith.subf %[[F]], %[[MEAN]] fastmath<contract> : f32
// CHECK-NEXT:        %[[D2:.*]] = arith.mulf %[[D]], %[[D]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:        %[[B2:.*]] = arith.addf %[[B]], %[[D2]] fastmath<reassoc,contract> : f32
// CHECK-NEXT:        scf.yield %[[B2]] : f32
// CHECK:           %[[VAR:.*]] = arith.divf %[[SQ]], %[[N]] fastmath<contract> : f32
// CHECK-NEXT:      %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK-NEXT:      %[[VE:.*]] = arith.addf %[[VAR]], %[[EPS]] fastmath<contract> : f32
// CHECK-NEXT:      %[[STD:.*]] = math.sqrt %[[VE]] : f32
// CHECK:           %[[RSTD:.*]] = arith.divf %{{.*}}, %[[STD]] fastmath<contract> : f32
// CHECK:           scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[G:.*]] = memref.load %x[%[[I]], %[[L]]] : memref<?x16xf32>
// CHECK-NEXT:        %[[C:.*]] = arith.subf %[[G]], %[[MEAN]] fastmath<contract> : f32
// CHECK-NEXT:        %[[NRM:.*]] = arith.mulf %[[C]], %[[RSTD]] fastmath<contract> : f32
// CHECK-NEXT:        %[[GAMMA:.*]] = memref.load %g[%[[L]]] : memref<16xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.mulf %[[NRM]], %[[GAMMA]] fastmath<contract> : f32
// CHECK-NEXT:        %[[BETA:.*]] = memref.load %b[%[[L]]] : memref<16xf32>
// CHECK-NEXT:        %[[R:.*]] = arith.addf %[[S]], %[[BETA]] fastmath<contract> : f32
// CHECK-NEXT:        memref.store %[[R]], %[[Y]][%[[I]], %[[L]]] : memref<?x16xf32>
func.func @layer_norm(%x: tensor<?x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<?x16xf32> {
  %0 = graph.layer_normalization %x, %g, %b {epsilon = 1.0e-03 : f32} : (tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  func.return %0 : tensor<?x16xf32>
}

// axis = 1 of a rank-3 tensor: one loop outside, two nested loops per pass (the count is
// 3 x 4); a one-element scale is read at index 0; no bias.
// CHECK-LABEL: func.func @layer_norm_two_axes
// CHECK:         %[[N:.*]] = arith.constant 1.200000e+01 : f32
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = {{.*}} iter_args
// CHECK-NEXT:        %{{.*}} = arith.constant
// CHECK:             scf.for %[[K:.*]] = {{.*}} iter_args
// CHECK-NEXT:          memref.load %x[%[[I]], %[[J]], %[[K]]] : memref<2x3x4xf32>
// CHECK:           memref.load %g[%{{.*}}] : memref<1xf32>
// CHECK-NOT:       arith.addf
// CHECK:           memref.store
func.func @layer_norm_two_axes(%x: tensor<2x3x4xf32>, %g: tensor<1xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.layer_normalization %x, %g {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<1xf32>) -> tensor<2x3x4xf32>
  func.return %0 : tensor<2x3x4xf32>
}

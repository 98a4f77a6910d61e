// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// DeformConv (2 x 2 kernel, a mask, a dynamic batch; offset and mask batches checked
// against X's): per output element a loop over the group's input channels from the
// bias; the 4 taps unrolled in it. A tap reads its (dy, dx) at offset channels 2t and
// 2t + 1, moves (oh + i, ow + j) by them, clamps the position into [-2, size + 1] and
// samples X bilinearly: 4 neighbours, each counted only inside X, weighted by the
// products of (1 - frac, frac); NaN for a NaN offset; times the mask and W.
// CHECK-LABEL: func.func @deform_conv
// CHECK:         arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    cf.cond_br
// CHECK:         arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    cf.cond_br
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2x3x3xf32>
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[OC:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[OH:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[OW:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                 %[[BIAS:.*]] = memref.load %b[%[[OC]]] : memref<2xf32>
// CHECK:                 %[[SUM:.*]] = scf.for %[[CI:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[BIAS]]) -> (f32) {
// CHECK-NEXT:              %[[IC:.*]] = arith.addi %{{.*}}, %[[CI]] : index
// CHECK-NEXT:              %[[OG:.*]] = arith.floordivsi %[[IC]], %{{.*}} : index
// CHECK-NEXT:              arith.constant 2 : index
// CHECK-NEXT:              %[[OGK:.*]] = arith.muli %[[OG]], %{{.*}} : index
// CHECK-NEXT:              arith.constant 2 : index
// CHECK-NEXT:              %[[T:.*]] = arith.muli %[[OGK]], %{{.*}} : index
// CHECK-NEXT:              arith.constant 2 : index
// CHECK-NEXT:              %[[CY:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK-NEXT:              %[[DY:.*]] = memref.load %off[%[[N]], %[[CY]], %[[OH]], %[[OW]]] : memref<?x8x3x3xf32>
// CHECK-NEXT:              arith.constant 2 : index
// CHECK-NEXT:              %[[T2:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK-NEXT:              arith.constant 1 : index
// CHECK-NEXT:              %[[CX:.*]] = arith.addi %[[T2]], %{{.*}} : index
// CHECK-NEXT:              %[[DX:.*]] = memref.load %off[%[[N]], %[[CX]], %[[OH]], %[[OW]]] : memref<?x8x3x3xf32>
// CHECK:                   %[[Y:.*]] = arith.addf %{{.*}}, %[[DY]] fastmath<contract> : f32
// CHECK:                   %[[X:.*]] = arith.addf %{{.*}}, %[[DX]] fastmath<contract> : f32
// CHECK:                   %[[LO:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-NEXT:              %[[HI:.*]] = arith.constant 5.000000e+00 : f32
// CHECK:                   %[[FY:.*]] = math.floor %{{.*}} : f32
// CHECK-NEXT:              %[[TY:.*]] = arith.subf %{{.*}}, %[[FY]] fastmath<contract> : f32
// CHECK:                   %[[FX:.*]] = math.floor %{{.*}} : f32
// CHECK-NEXT:              %[[TX:.*]] = arith.subf %{{.*}}, %[[FX]] fastmath<contract> : f32
// CHECK:                   %[[SY:.*]] = arith.select %[[IN:.*]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT:              arith.constant 0 : index
// CHECK-NEXT:              %[[SX:.*]] = arith.select %[[IN]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT:              %[[V:.*]] = memref.load %x[%[[N]], %[[IC]], %[[SY]], %[[SX]]] : memref<?x2x4x4xf32>
// CHECK-NEXT:              arith.select %[[IN]], %[[V]], %{{.*}} : f32
// CHECK-COUNT-3:           memref.load %x[%[[N]], %[[IC]], %{{.*}}, %{{.*}}] : memref<?x2x4x4xf32>
// CHECK:                   %[[NY:.*]] = arith.cmpf uno, %[[Y]], %[[Y]] : f32
// CHECK-NEXT:              %[[NX:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:              %[[ISNAN:.*]] = arith.ori %[[NY]], %[[NX]] : i1
// CHECK-NEXT:              %[[NAN:.*]] = arith.constant 0x7fc00000 : f32
// CHECK-NEXT:              %[[S:.*]] = arith.select %[[ISNAN]], %[[NAN]], %{{.*}} : f32
// CHECK-NEXT:              %[[MASK:.*]] = memref.load %m[%[[N]], %[[T]], %[[OH]], %[[OW]]] : memref<?x4x3x3xf32>
// CHECK-NEXT:              %[[SM:.*]] = arith.mulf %[[S]], %[[MASK]] fastmath<contract> : f32
// CHECK:                   %[[W:.*]] = memref.load %w[%[[OC]], %[[CI]], %{{.*}}, %{{.*}}] : memref<2x2x2x2xf32>
// CHECK-NEXT:              %[[P:.*]] = arith.mulf %[[W]], %[[SM]] fastmath<contract> : f32
// CHECK-NEXT:              arith.addf %[[ACC]], %[[P]] fastmath<contract> : f32
// CHECK-COUNT-3:           memref.load %w[%[[OC]], %[[CI]], %{{.*}}, %{{.*}}] : memref<2x2x2x2xf32>
// CHECK:                 memref.store %[[SUM]], %y[%[[N]], %[[OC]], %[[OH]], %[[OW]]] : memref<?x2x3x3xf32>
func.func @deform_conv(%x: tensor<?x2x4x4xf32>, %w: tensor<2x2x2x2xf32>, %off: tensor<?x8x3x3xf32>, %b: tensor<2xf32>, %m: tensor<?x4x3x3xf32>) -> tensor<?x2x3x3xf32> {
  %y = graph.deform_conv %x, %w, %off, %b, %m : (tensor<?x2x4x4xf32>, tensor<2x2x2x2xf32>, tensor<?x8x3x3xf32>, tensor<2xf32>, tensor<?x4x3x3xf32>) -> tensor<?x2x3x3xf32>
  func.return %y : tensor<?x2x3x3xf32>
}

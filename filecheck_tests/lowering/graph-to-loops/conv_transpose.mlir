// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// ConvTranspose (stride 2, 2 groups, a bias, a dynamic batch): a gather per output
// element, from the bias, over the group's 2 input channels and the 3 x 3 taps; a tap
// hits input row (o - k) / 2 only when o - k is >= 0, a multiple of 2 and not past the
// input (its loads clamped), and its product is selected away otherwise. The output
// channel is the group (m / 3) and the channel in it (m mod 3).
// CHECK-LABEL: func.func @conv_transpose
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x6x7x7xf32>
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[OH:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[OW:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[MG:.*]] = arith.constant 3 : index
// CHECK-NEXT:            %[[G:.*]] = arith.floordivsi %[[M]], %[[MG]] : index
// CHECK:                 %[[MM:.*]] = arith.subi %[[M]], %{{.*}} : index
// CHECK-NEXT:            %[[BIAS:.*]] = memref.load %b[%[[M]]] : memref<6xf32>
// CHECK:                 %[[SUM:.*]] = scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[BIAS]]) -> (f32) {
// CHECK:                   scf.for %[[KH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32) {
// CHECK-NEXT:                %[[NUMH:.*]] = arith.subi %[[OH]], %[[KH]] : index
// CHECK-NEXT:                %[[S:.*]] = arith.constant 2 : index
// CHECK-NEXT:                %[[IH:.*]] = arith.divsi %[[NUMH]], %[[S]] : index
// CHECK-NEXT:                arith.cmpi sge, %[[NUMH]], %{{.*}} : index
// CHECK-NEXT:                arith.cmpi sle, %[[IH]], %{{.*}} : index
// CHECK-NEXT:                %[[INSIDE:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:                %[[S2:.*]] = arith.constant 2 : index
// CHECK-NEXT:                %[[REM:.*]] = arith.remsi %[[NUMH]], %[[S2]] : index
// CHECK-NEXT:                %[[EXACT:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : index
// CHECK-NEXT:                %[[HIT_H:.*]] = arith.andi %[[INSIDE]], %[[EXACT]] : i1
// CHECK:                     scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:                  arith.subi %[[OW]], %[[KW]] : index
// CHECK:                       arith.remsi
// CHECK-NEXT:                  arith.cmpi eq
// CHECK-NEXT:                  %[[HIT_W:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:                  %[[IW:.*]] = arith.maxsi
// CHECK-NEXT:                  %[[IWC:.*]] = arith.minsi %[[IW]], %{{.*}} : index
// CHECK-NEXT:                  %[[HIT:.*]] = arith.andi %[[HIT_H]], %[[HIT_W]] : i1
// CHECK:                       %[[CH:.*]] = arith.addi %{{.*}}, %[[C]] : index
// CHECK-NEXT:                  %[[X:.*]] = memref.load %x[%[[N]], %[[CH]], %{{.*}}, %[[IWC]]] : memref<?x4x3x3xf32>
// CHECK-NEXT:                  %[[W:.*]] = memref.load %w[%[[CH]], %[[MM]], %[[KH]], %[[KW]]] : memref<4x3x3x3xf32>
// CHECK-NEXT:                  %[[P:.*]] = arith.mulf %[[X]], %[[W]] fastmath<contract> : f32
// CHECK-NEXT:                  %[[ADD:.*]] = arith.addf %[[ACC]], %[[P]] fastmath<contract> : f32
// CHECK-NEXT:                  arith.select %[[HIT]], %[[ADD]], %[[ACC]] : f32
// CHECK:                 memref.store %[[SUM]], %y[%[[N]], %[[M]], %[[OH]], %[[OW]]] : memref<?x6x7x7xf32>
func.func @conv_transpose(%x: tensor<?x4x3x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<6xf32>) -> tensor<?x6x7x7xf32> {
  %y = graph.conv_transpose %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, group = 2 : i64} : (tensor<?x4x3x3xf32>, tensor<4x3x3x3xf32>, tensor<6xf32>) -> tensor<?x6x7x7xf32>
  func.return %y : tensor<?x6x7x7xf32>
}

// Col2Im (image 3 x 4, blocks 2 x 3, so 2 x 2 block positions): per output element a
// 2 x 3 loop over the block offsets; offset k reads column c * 6 + kh * 3 + kw at block
// position jh * 2 + jw, counted only when o - k lands on a block position.
// CHECK-LABEL: func.func @col2im
// CHECK:         %y = memref.alloc() {alignment = 64 : i64} : memref<1x1x3x4xf32>
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[OH:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[OW:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:                 %[[SUM:.*]] = scf.for %[[KH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[Z]]) -> (f32) {
// CHECK-NEXT:              arith.subi %[[OH]], %[[KH]] : index
// CHECK:                   %[[HIT_H:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:              arith.maxsi
// CHECK-NEXT:              %[[JH:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:                   scf.for %[[KW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:                arith.subi %[[OW]], %[[KW]] : index
// CHECK:                     %[[HIT_W:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:                arith.maxsi
// CHECK-NEXT:                %[[JW:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:                %[[HIT:.*]] = arith.andi %[[HIT_H]], %[[HIT_W]] : i1
// CHECK-NEXT:                %[[BW:.*]] = arith.constant 3 : index
// CHECK-NEXT:                %[[K0:.*]] = arith.muli %[[KH]], %[[BW]] : index
// CHECK-NEXT:                %[[K:.*]] = arith.addi %[[K0]], %[[KW]] : index
// CHECK-NEXT:                %[[NW:.*]] = arith.constant 2 : index
// CHECK-NEXT:                %[[J0:.*]] = arith.muli %[[JH]], %[[NW]] : index
// CHECK-NEXT:                %[[J:.*]] = arith.addi %[[J0]], %[[JW]] : index
// CHECK-NEXT:                %[[PB:.*]] = arith.constant 6 : index
// CHECK-NEXT:                %[[C0:.*]] = arith.muli %[[C]], %[[PB]] : index
// CHECK-NEXT:                %[[CK:.*]] = arith.addi %[[C0]], %[[K]] : index
// CHECK-NEXT:                %[[V:.*]] = memref.load %x[%[[N]], %[[CK]], %[[J]]] : memref<1x6x4xf32>
// CHECK-NEXT:                %[[ADD:.*]] = arith.addf %[[ACC]], %[[V]] fastmath<contract> : f32
// CHECK-NEXT:                arith.select %[[HIT]], %[[ADD]], %[[ACC]] : f32
// CHECK:                 memref.store %[[SUM]], %y[%[[N]], %[[C]], %[[OH]], %[[OW]]] : memref<1x1x3x4xf32>
func.func @col2im(%x: tensor<1x6x4xf32>) -> tensor<1x1x3x4xf32> {
  %i = graph.constant dense<[3, 4]> : tensor<2xi64>
  %b = graph.constant dense<[2, 3]> : tensor<2xi64>
  %y = graph.col2im %x, %i, %b : (tensor<1x6x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x3x4xf32>
  func.return %y : tensor<1x1x3x4xf32>
}

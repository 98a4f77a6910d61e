// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// ScatterND checks each entry of every index tuple against its own dim of data before
// anything is written (the first bad entry and its dim go to the status), copies data,
// then applies the updates in row-major order: the last of duplicate indices wins, or
// the reduction combines them.
// CHECK-LABEL: func.func @scatter_nd(%x: memref<4x3xf32>, %i: memref<2x1xi64>, %u: memref<2x3xf32>, %status: memref<64xi64>)
// CHECK:         %[[N:.*]] = arith.constant 4 : index
// CHECK:         %[[BAD:.*]], %{{.*}}, %{{.*}} = scf.for %{{.*}} iter_args
// CHECK:           memref.load %i[%{{.*}}, %{{.*}}] : memref<2x1xi64>
// CHECK:           arith.cmpi sge, %{{.*}}, %[[N]] : index
// CHECK:         %[[OK:.*]] = arith.xori %[[BAD]], %{{.*}} : i1
// CHECK-NEXT:    cf.cond_br %[[OK]], ^{{.*}}, ^{{.*}}
// CHECK:         memref.load %x[%{{.*}}, %{{.*}}] : memref<4x3xf32>
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[NEG:.*]] = arith.cmpi slt
// CHECK:           %[[ROW:.*]] = arith.select %[[NEG]], %{{.*}}, %{{.*}} : index
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[NEW:.*]] = memref.load %u[%[[J]], %[[K]]] : memref<2x3xf32>
// CHECK-NEXT:        %[[OLD:.*]] = memref.load %[[Y:.*]][%[[ROW]], %[[K]]] : memref<4x3xf32>
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %[[OLD]], %[[NEW]]
// CHECK-NEXT:        memref.store %[[SUM]], %[[Y]][%[[ROW]], %[[K]]] : memref<4x3xf32>
func.func @scatter_nd(%x: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = graph.scatter_nd %x, %i, %u {reduction = "add"} : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// NonZero's result size is the data's: a first pass counts (NaN is non-zero: an
// unordered compare), the result is allocated with that count, a second pass stores each
// non-zero element's indices at the next column.
// CHECK-LABEL: func.func @non_zero(%x: memref<5xf32>) -> memref<1x?xi64>
// CHECK:         %[[COUNT:.*]] = scf.for
// CHECK:           arith.cmpf une
// CHECK:         %[[Y:.*]] = memref.alloc(%[[COUNT]]) {{.*}} : memref<1x?xi64>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[AT:.*]] = %{{.*}}) -> (index)
// CHECK:           %[[SET:.*]] = arith.cmpf une
// CHECK-NEXT:      scf.if %[[SET]] {
// CHECK-NEXT:        %[[V:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:             memref.store %[[V]], %[[Y]][%{{.*}}, %[[AT]]] : memref<1x?xi64>
// CHECK:         func.return %[[Y]] : memref<1x?xi64>
func.func @non_zero(%x: tensor<5xf32>) -> tensor<1x?xi64> {
  %0 = graph.non_zero %x : (tensor<5xf32>) -> tensor<1x?xi64>
  func.return %0 : tensor<1x?xi64>
}

// GatherElements (axis 1, a dynamic batch): data's batch checked not below the indices'
// and every index checked in [-3, 3) first; then per output element the index read at
// the same position, wrapped when negative, selects the column of data.
// CHECK-LABEL: func.func @gather_elements
// CHECK:         arith.cmpi sge, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    cf.cond_br
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (i1, index)
// CHECK:         cf.cond_br
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[I64:.*]] = memref.load %i[%[[R]], %[[C]]] : memref<?x2xi64>
// CHECK-NEXT:        %[[I:.*]] = arith.index_cast %[[I64]] : i64 to index
// CHECK-NEXT:        %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:        %[[NEG:.*]] = arith.cmpi slt, %[[I]], %[[Z]] : index
// CHECK-NEXT:        %[[D:.*]] = arith.constant 3 : index
// CHECK-NEXT:        %[[UP:.*]] = arith.addi %[[I]], %[[D]] : index
// CHECK-NEXT:        %[[COL:.*]] = arith.select %[[NEG]], %[[UP]], %[[I]] : index
// CHECK-NEXT:        %[[V:.*]] = memref.load %x[%[[R]], %[[COL]]] : memref<?x3xf32>
// CHECK-NEXT:        memref.store %[[V]], %y[%[[R]], %[[C]]] : memref<?x2xf32>
func.func @gather_elements(%x: tensor<?x3xf32>, %i: tensor<?x2xi64>) -> tensor<?x2xf32> {
  %y = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<?x3xf32>, tensor<?x2xi64>) -> tensor<?x2xf32>
  func.return %y : tensor<?x2xf32>
}

// ScatterElements (axis 0, reduction max) and Scatter (its older name, no reduction):
// the indices checked, data copied into the result, then a loop over the indices that
// combines the update with the element it lands on (max), or overwrites it.
// CHECK-LABEL: func.func @scatter_elements
// CHECK:         %y = memref.alloc() {alignment = 64 : i64} : memref<4x3xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (i1, index)
// CHECK:         cf.cond_br
// CHECK:             %[[D:.*]] = memref.load %x[%[[A:.*]], %[[B:.*]]] : memref<4x3xf32>
// CHECK-NEXT:        memref.store %[[D]], %y[%[[A]], %[[B]]] : memref<4x3xf32>
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        memref.load %i[%[[R]], %[[C]]] : memref<2x3xi64>
// CHECK:             %[[ROW:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        %[[NEW:.*]] = memref.load %u[%[[R]], %[[C]]] : memref<2x3xf32>
// CHECK-NEXT:        %[[OLD:.*]] = memref.load %y[%[[ROW]], %[[C]]] : memref<4x3xf32>
// CHECK-NEXT:        %[[MAX:.*]] = arith.maximumf %[[OLD]], %[[NEW]] : f32
// CHECK-NEXT:        memref.store %[[MAX]], %y[%[[ROW]], %[[C]]] : memref<4x3xf32>
// CHECK:         %z = memref.alloc() {alignment = 64 : i64} : memref<4x3xf32>
// CHECK:         cf.cond_br
// CHECK:             memref.store %{{.*}}, %z[%{{.*}}, %{{.*}}] : memref<4x3xf32>
// CHECK:             %[[ROW2:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        %[[NEW2:.*]] = memref.load %u[%{{.*}}, %[[C2:.*]]] : memref<2x3xf32>
// CHECK-NEXT:        memref.store %[[NEW2]], %z[%[[ROW2]], %[[C2]]] : memref<4x3xf32>
func.func @scatter_elements(%x: tensor<4x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %y = graph.scatter_elements %x, %i, %u {axis = 0 : i64, reduction = "max"} : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %z = graph.scatter %x, %i, %u : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  func.return %y, %z : tensor<4x3xf32>, tensor<4x3xf32>
}

// GatherND (index tuples of 2 over a 2 x 3 x 4 tensor, i32 indices): both entries of
// every tuple checked against their own dims (2 and 3) in one pass; then per output
// element the tuple read and wrapped, the remaining dim taken from the loop.
// CHECK-LABEL: func.func @gather_nd
// CHECK:         %y = memref.alloc() {alignment = 64 : i64} : memref<5x4xf32>
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (i1, index, index)
// CHECK:         cf.cond_br
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             memref.load %j[%[[R]], %{{.*}}] : memref<5x2xi32>
// CHECK:             %[[D2:.*]] = arith.constant 2 : index
// CHECK-NEXT:        arith.addi %{{.*}}, %[[D2]] : index
// CHECK-NEXT:        %[[I0:.*]] = arith.select
// CHECK:             memref.load %j[%[[R]], %{{.*}}] : memref<5x2xi32>
// CHECK:             %[[D3:.*]] = arith.constant 3 : index
// CHECK-NEXT:        arith.addi %{{.*}}, %[[D3]] : index
// CHECK-NEXT:        %[[I1:.*]] = arith.select
// CHECK-NEXT:        %[[V:.*]] = memref.load %x[%[[I0]], %[[I1]], %[[K]]] : memref<2x3x4xf32>
// CHECK-NEXT:        memref.store %[[V]], %y[%[[R]], %[[K]]] : memref<5x4xf32>
func.func @gather_nd(%x: tensor<2x3x4xf32>, %j: tensor<5x2xi32>) -> tensor<5x4xf32> {
  %y = graph.gather_nd %x, %j : (tensor<2x3x4xf32>, tensor<5x2xi32>) -> tensor<5x4xf32>
  func.return %y : tensor<5x4xf32>
}

// TensorScatter (circular): the cache copied, then each update row written at
// (its position + the batch's start) mod 8, numpy's floor modulo (a negative
// remainder moved up by 8).
// CHECK-LABEL: func.func @tensor_scatter
// CHECK:         %y = memref.alloc() {alignment = 64 : i64} : memref<2x8x4xf32>
// CHECK:               memref.load %past
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[E:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[S64:.*]] = memref.load %pos[%[[B]]] : memref<2xi64>
// CHECK-NEXT:          %[[S:.*]] = arith.index_cast %[[S64]] : i64 to index
// CHECK-NEXT:          %[[P:.*]] = arith.addi %[[T]], %[[S]] : index
// CHECK-NEXT:          %[[L:.*]] = arith.constant 8 : index
// CHECK-NEXT:          %[[REM:.*]] = arith.remsi %[[P]], %[[L]] : index
// CHECK-NEXT:          %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:          %[[NEG:.*]] = arith.cmpi slt, %[[REM]], %[[Z]] : index
// CHECK-NEXT:          %[[UP:.*]] = arith.addi %[[REM]], %[[L]] : index
// CHECK-NEXT:          %[[AT:.*]] = arith.select %[[NEG]], %[[UP]], %[[REM]] : index
// CHECK-NEXT:          %[[V:.*]] = memref.load %u[%[[B]], %[[T]], %[[E]]] : memref<2x3x4xf32>
// CHECK-NEXT:          memref.store %[[V]], %y[%[[B]], %[[AT]], %[[E]]] : memref<2x8x4xf32>
func.func @tensor_scatter(%past: tensor<2x8x4xf32>, %u: tensor<2x3x4xf32>, %pos: tensor<2xi64>) -> tensor<2x8x4xf32> {
  %y = graph.tensor_scatter %past, %u, %pos {axis = 1 : i64, mode = "circular"} : (tensor<2x8x4xf32>, tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x8x4xf32>
  func.return %y : tensor<2x8x4xf32>
}

// Trilu (lower, k read at run time, a dynamic batch): one nest over the result keeping
// x where the diagonal j - i is at most k, 0 elsewhere.
// CHECK-LABEL: func.func @trilu
// CHECK:         %[[K64:.*]] = memref.load %k[] : memref<i64>
// CHECK-NEXT:    %[[K:.*]] = arith.index_cast %[[K64]] : i64 to index
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3x4xf32>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[DIAG:.*]] = arith.subi %[[J]], %[[I]] : index
// CHECK-NEXT:          %[[KEEP:.*]] = arith.cmpi sle, %[[DIAG]], %[[K]] : index
// CHECK-NEXT:          %[[V:.*]] = memref.load %x[%[[N]], %[[I]], %[[J]]] : memref<?x3x4xf32>
// CHECK-NEXT:          %[[OUT:.*]] = arith.select %[[KEEP]], %[[V]], %[[Z]] : f32
// CHECK-NEXT:          memref.store %[[OUT]], %y[%[[N]], %[[I]], %[[J]]] : memref<?x3x4xf32>
func.func @trilu(%x: tensor<?x3x4xf32>, %k: tensor<i64>) -> tensor<?x3x4xf32> {
  %y = graph.trilu %x, %k {upper = 0 : i64} : (tensor<?x3x4xf32>, tensor<i64>) -> tensor<?x3x4xf32>
  func.return %y : tensor<?x3x4xf32>
}

// EyeLike (k = 1, to i32): 1 where j - i == 1, else 0; the input is not read.
// CHECK-LABEL: func.func @eye_like
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[D:.*]] = arith.subi %[[J]], %[[I]] : index
// CHECK-NEXT:        %[[K:.*]] = arith.constant 1 : index
// CHECK-NEXT:        %[[ON:.*]] = arith.cmpi eq, %[[D]], %[[K]] : index
// CHECK-NEXT:        %[[V:.*]] = arith.select %[[ON]], %[[ONE]], %[[ZERO]] : i32
// CHECK-NEXT:        memref.store %[[V]], %y[%[[I]], %[[J]]] : memref<3x4xi32>
// CHECK-NOT:     memref.load %x
func.func @eye_like(%x: tensor<3x4xf32>) -> tensor<3x4xi32> {
  %y = graph.eye_like %x {k = 1 : i64, dtype = i32} : (tensor<3x4xf32>) -> tensor<3x4xi32>
  func.return %y : tensor<3x4xi32>
}

// OneHot (a constant depth of 5, a dynamic batch): off and on values loaded once; per
// output element the index (wrapped when negative) compared with the position on the
// new axis.
// CHECK-LABEL: func.func @one_hot
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x5xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[OFF:.*]] = memref.load %v[%[[C0]]] : memref<2xf32>
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[ON:.*]] = memref.load %v[%[[C1]]] : memref<2xf32>
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[D:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        memref.load %i[%[[N]]] : memref<?xi64>
// CHECK:             %[[DEPTH:.*]] = arith.constant 5 : index
// CHECK-NEXT:        arith.addi %{{.*}}, %[[DEPTH]] : index
// CHECK-NEXT:        %[[I:.*]] = arith.select
// CHECK-NEXT:        %[[HOT:.*]] = arith.cmpi eq, %[[I]], %[[D]] : index
// CHECK-NEXT:        %[[V:.*]] = arith.select %[[HOT]], %[[ON]], %[[OFF]] : f32
// CHECK-NEXT:        memref.store %[[V]], %y[%[[N]], %[[D]]] : memref<?x5xf32>
func.func @one_hot(%i: tensor<?xi64>, %v: tensor<2xf32>) -> tensor<?x5xf32> {
  %d = graph.constant dense<5> : tensor<i64>
  %y = graph.one_hot %i, %d, %v : (tensor<?xi64>, tensor<i64>, tensor<2xf32>) -> tensor<?x5xf32>
  func.return %y : tensor<?x5xf32>
}

// DepthToSpace and SpaceToDepth (block 2, DCR): both loop over the space-side tensor
// (n, c, y, x); the depth-side element is (n, ((y mod 2) * 2 + x mod 2) * C + c, y / 2,
// x / 2) with C = 2: DepthToSpace loads it, SpaceToDepth stores to it.
// CHECK-LABEL: func.func @depth_to_space
// CHECK:         %y = memref.alloc() {alignment = 64 : i64} : memref<1x2x4x6xf32>
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[Y:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[X:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            arith.constant 2 : index
// CHECK-NEXT:            %[[H:.*]] = arith.floordivsi %[[Y]], %{{.*}} : index
// CHECK-NEXT:            arith.constant 2 : index
// CHECK-NEXT:            %[[W:.*]] = arith.floordivsi %[[X]], %{{.*}} : index
// CHECK:                 %[[I:.*]] = arith.subi %[[Y]], %{{.*}} : index
// CHECK:                 %[[J:.*]] = arith.subi %[[X]], %{{.*}} : index
// CHECK-NEXT:            arith.constant 2 : index
// CHECK-NEXT:            %[[I2:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK-NEXT:            %[[IJ:.*]] = arith.addi %[[I2]], %[[J]] : index
// CHECK-NEXT:            arith.constant 2 : index
// CHECK-NEXT:            %[[IJC:.*]] = arith.muli %[[IJ]], %{{.*}} : index
// CHECK-NEXT:            %[[CH:.*]] = arith.addi %[[IJC]], %[[C]] : index
// CHECK-NEXT:            %[[V:.*]] = memref.load %x[%[[N]], %[[CH]], %[[H]], %[[W]]] : memref<1x8x2x3xf32>
// CHECK-NEXT:            memref.store %[[V]], %y[%[[N]], %[[C]], %[[Y]], %[[X]]] : memref<1x2x4x6xf32>
// CHECK:         %z = memref.alloc() {alignment = 64 : i64} : memref<1x8x2x3xf32>
// CHECK:         scf.for %[[N2:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[C2:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[Y2:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[X2:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                 %[[CH2:.*]] = arith.addi %{{.*}}, %[[C2]] : index
// CHECK-NEXT:            %[[V2:.*]] = memref.load %y[%[[N2]], %[[C2]], %[[Y2]], %[[X2]]] : memref<1x2x4x6xf32>
// CHECK-NEXT:            memref.store %[[V2]], %z[%[[N2]], %[[CH2]], %{{.*}}, %{{.*}}] : memref<1x8x2x3xf32>
func.func @depth_to_space(%x: tensor<1x8x2x3xf32>) -> (tensor<1x2x4x6xf32>, tensor<1x8x2x3xf32>) {
  %y = graph.depth_to_space %x {blocksize = 2 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  %z = graph.space_to_depth %y {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  func.return %y, %z : tensor<1x2x4x6xf32>, tensor<1x8x2x3xf32>
}

// ReverseSequence (time axis 0, batch axis 1): the lengths checked in [0, 4]; per
// element t < len reads row len - 1 - t, the others row t.
// CHECK-LABEL: func.func @reverse_sequence
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (i1, index)
// CHECK:           memref.load %r
// CHECK:         cf.cond_br
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[L64:.*]] = memref.load %r[%[[B]]] : memref<3xi64>
// CHECK-NEXT:        %[[L:.*]] = arith.index_cast %[[L64]] : i64 to index
// CHECK-NEXT:        %[[IN:.*]] = arith.cmpi slt, %[[T]], %[[L]] : index
// CHECK-NEXT:        %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:        %[[L1:.*]] = arith.subi %[[L]], %[[ONE]] : index
// CHECK-NEXT:        %[[REV:.*]] = arith.subi %[[L1]], %[[T]] : index
// CHECK-NEXT:        %[[SRC:.*]] = arith.select %[[IN]], %[[REV]], %[[T]] : index
// CHECK-NEXT:        %[[V:.*]] = memref.load %x[%[[SRC]], %[[B]]] : memref<4x3xf32>
// CHECK-NEXT:        memref.store %[[V]], %y[%[[T]], %[[B]]] : memref<4x3xf32>
func.func @reverse_sequence(%x: tensor<4x3xf32>, %r: tensor<3xi64>) -> tensor<4x3xf32> {
  %y = graph.reverse_sequence %x, %r {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<4x3xf32>, tensor<3xi64>) -> tensor<4x3xf32>
  func.return %y : tensor<4x3xf32>
}

// Tile (repeats read at run time): each repeat checked not negative, the result sized
// dim * repeat; y[i, j] = x[i mod 2, j mod 3].
// CHECK-LABEL: func.func @tile
// CHECK:         %[[R0:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:         %[[R1:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:         arith.cmpi sge, %[[R0]], %{{.*}} : index
// CHECK:         arith.cmpi sge, %[[R1]], %{{.*}} : index
// CHECK:         %[[H:.*]] = arith.muli %[[R0]], %{{.*}} : index
// CHECK:         %[[W:.*]] = arith.muli %[[R1]], %{{.*}} : index
// CHECK-NEXT:    %y = memref.alloc(%[[H]], %[[W]]) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[IM:.*]] = arith.subi %[[I]], %{{.*}} : index
// CHECK:             %[[JM:.*]] = arith.subi %[[J]], %{{.*}} : index
// CHECK-NEXT:        %[[V:.*]] = memref.load %x[%[[IM]], %[[JM]]] : memref<2x3xf32>
// CHECK-NEXT:        memref.store %[[V]], %y[%[[I]], %[[J]]] : memref<?x?xf32>
func.func @tile(%x: tensor<2x3xf32>, %r: tensor<2xi64>) -> tensor<?x?xf32> {
  %y = graph.tile %x, %r : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %y : tensor<?x?xf32>
}

// Compress: a counting pass sizes the result, then a pass over the condition copies
// each selected slice (axis 1: a column) or element (no axis: the flattened input,
// unraveled) to the next free position.
// CHECK-LABEL: func.func @compress
// CHECK:         %[[COUNT:.*]] = scf.for {{.*}} -> (index)
// CHECK:           memref.load %b
// CHECK:         %y = memref.alloc(%[[COUNT]]) {alignment = 64 : i64} : memref<2x?xf32>
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[AT:.*]] = %{{.*}}) -> (index)
// CHECK-NEXT:      memref.load %b[%[[J]]] : memref<3xi1>
// CHECK-NEXT:      arith.constant false
// CHECK-NEXT:      %[[KEEP:.*]] = arith.cmpi ne
// CHECK-NEXT:      scf.if %[[KEEP]] {
// CHECK:             scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[V:.*]] = memref.load %x[%[[R]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT:          memref.store %[[V]], %y[%[[R]], %[[AT]]] : memref<2x?xf32>
// CHECK:           %[[NEXT:.*]] = arith.addi %[[AT]], %{{.*}} : index
// CHECK-NEXT:      arith.select %[[KEEP]], %[[NEXT]], %[[AT]] : index
// CHECK:         %[[COUNT2:.*]] = scf.for {{.*}} -> (index)
// CHECK:         %z = memref.alloc(%[[COUNT2]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK:         scf.for %[[F:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[AT2:.*]] = %{{.*}}) -> (index)
// CHECK:           scf.if
// CHECK:             %[[COL:.*]] = arith.subi %[[F]], %{{.*}} : index
// CHECK:             %[[ROW:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:             %[[V2:.*]] = memref.load %x[%[[ROW]], %[[COL]]] : memref<2x3xf32>
// CHECK-NEXT:        memref.store %[[V2]], %z[%[[AT2]]] : memref<?xf32>
func.func @compress(%x: tensor<2x3xf32>, %b: tensor<3xi1>) -> (tensor<2x?xf32>, tensor<?xf32>) {
  %y = graph.compress %x, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xi1>) -> tensor<2x?xf32>
  %z = graph.compress %x, %b : (tensor<2x3xf32>, tensor<3xi1>) -> tensor<?xf32>
  func.return %y, %z : tensor<2x?xf32>, tensor<?xf32>
}

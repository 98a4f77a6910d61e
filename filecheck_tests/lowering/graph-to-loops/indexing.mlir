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

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// ChannelShuffle (6 channels in 3 groups of 2, a dynamic batch): a copy over (n, i, j,
// h, w), (n, i) one parallel loop of N * 2 iterations; y[n, i * 3 + j] = x[n, j * 2 + i]
// by multiply-adds, no division in the inner loops.
// CHECK-LABEL: func.func @channel_shuffle
// CHECK:         %y = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x6x2x3xf32>
// CHECK:         %[[NI:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %[[NI]] step
// CHECK-NEXT:      %[[PG:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[I:.*]] = arith.remui %[[P]], %[[PG]] : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %[[P]], %[[PG]] : index
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[H:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:            %[[J2:.*]] = arith.muli %[[J]], %[[TWO]] : index
// CHECK-NEXT:            %[[SRC:.*]] = arith.addi %[[J2]], %[[I]] : index
// CHECK-NEXT:            %[[THREE:.*]] = arith.constant 3 : index
// CHECK-NEXT:            %[[I3:.*]] = arith.muli %[[I]], %[[THREE]] : index
// CHECK-NEXT:            %[[DST:.*]] = arith.addi %[[I3]], %[[J]] : index
// CHECK-NEXT:            %[[V:.*]] = memref.load %x[%[[N]], %[[SRC]], %[[H]], %[[W]]] : memref<?x6x2x3xf32>
// CHECK-NEXT:            memref.store %[[V]], %y[%[[N]], %[[DST]], %[[H]], %[[W]]] : memref<?x6x2x3xf32>
// CHECK:         } {parallel = {{[0-9]+}} : i64}
func.func @channel_shuffle(%x: tensor<?x6x2x3xf32>) -> tensor<?x6x2x3xf32> {
  %y = graph.channel_shuffle %x {groups = 3 : i64} : (tensor<?x6x2x3xf32>) -> tensor<?x6x2x3xf32>
  func.return %y : tensor<?x6x2x3xf32>
}

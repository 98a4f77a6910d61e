// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// The recurrence per batch row: sequence_lens checked within [0, T] first; the state
// row from zeros, y's row zeroed, then the row's valid steps (backwards: reverse), each
// gate xw + Rb + H R^T through its activation into a scratch row, copied to the state
// and to y; a row of length 0 ends with a zero state.
// CHECK-LABEL: func.func @rnn
// CHECK:         memref.load %lens[%{{.*}}] : memref<?xi32>
// CHECK:         cf.cond_br
// CHECK:         %[[H:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    %[[NEW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK:         scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             memref.store %{{.*}}, %[[H]][%{{.*}}] : memref<2xf32>
// CHECK:               memref.store %{{.*}}, %y[%{{.*}}, %{{.*}}, %[[N]], %{{.*}}] : memref<?x1x?x2xf32>
// CHECK:           %[[LEN32:.*]] = memref.load %lens[%[[N]]] : memref<?xi32>
// CHECK-NEXT:      %[[LEN:.*]] = arith.index_cast %[[LEN32]] : i32 to index
// CHECK:           scf.for %[[S:.*]] = %{{.*}} to %[[LEN]] step
// CHECK:             %[[LAST:.*]] = arith.subi %[[LEN]], %{{.*}} : index
// CHECK-NEXT:        %[[T:.*]] = arith.subi %[[LAST]], %[[S]] : index
// CHECK:               memref.load %xw[%{{.*}}, %[[T]], %[[N]], %{{.*}}] : memref<1x?x?x2xf32>
// CHECK:               memref.load %rb
// CHECK:               scf.for
// CHECK:                 memref.load %[[H]]
// CHECK:                 memref.load %r
// CHECK:               math.tanh
// CHECK:               memref.store %{{.*}}, %[[NEW]]
// CHECK:               memref.store %{{.*}}, %[[H]]
// CHECK:               memref.store %{{.*}}, %y[%[[T]], %{{.*}}, %[[N]], %{{.*}}] : memref<?x1x?x2xf32>
// CHECK:           %[[EMPTY:.*]] = arith.cmpi eq, %[[LEN]], %{{.*}} : index
// CHECK:             arith.select %[[EMPTY]]
// CHECK:         memref.dealloc %[[H]] : memref<2xf32>
// CHECK-NEXT:    memref.dealloc %[[NEW]] : memref<2xf32>
func.func @rnn(%xw: tensor<1x?x?x2xf32>, %r: tensor<1x2x2xf32>, %rb: tensor<1x2xf32>, %lens: tensor<?xi32>) -> (tensor<?x1x?x2xf32>, tensor<1x?x2xf32>) {
  %y, %yh = graph.recurrence %xw, %r, %rb, %lens {kind = "rnn", direction = "reverse", activations = ["tanh"], activation_params = array<f64>, has_sequence_lens = 1 : i64} : (tensor<1x?x?x2xf32>, tensor<1x2x2xf32>, tensor<1x2xf32>, tensor<?xi32>) -> (tensor<?x1x?x2xf32>, tensor<1x?x2xf32>)
  func.return %y, %yh : tensor<?x1x?x2xf32>, tensor<1x?x2xf32>
}

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// The recurrence, one step of every batch row at a time: sequence_lens checked within
// [0, T] first; the state rows [N, H] from zeros and y zeroed (a row's steps past its
// length stay zero); then per step P [N, panels * 16] = Rb, P += H R^T (rt's panels, a
// register tile of 4 rows x 2 vectors, then one of the last rows' height), and
// each row with a step left (backwards: reverse) takes xw + P through its activation into
// the state and y; a row of length 0 ends with a zero state.
// CHECK-LABEL: func.func @rnn
// CHECK:         memref.load %lens[%{{.*}}] : memref<?xi32>
// CHECK:         cf.cond_br
// CHECK:         %[[H:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2xf32>
// CHECK-NEXT:    %[[P:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x16xf32>
// CHECK:             memref.store %{{.*}}, %[[H]][%{{.*}}, %{{.*}}] : memref<?x2xf32>
// CHECK:               memref.store %{{.*}}, %y[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<?x1x?x2xf32>
// CHECK:         scf.for %[[S:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               %[[RB:.*]] = memref.load %rb[%{{.*}}, %{{.*}}] : memref<1x2xf32>
// CHECK-NEXT:          memref.store %[[RB]], %[[P]][%{{.*}}, %{{.*}}] : memref<?x16xf32>
// CHECK:             scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK:               vector.load %rt[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x1x2x16xf32>, vector<8xf32>
// CHECK:               memref.load %[[H]]
// CHECK:               vector.fma
// CHECK:             } {infer.no_unroll}
// CHECK:             vector.store %{{.*}}, %[[P]][%{{.*}}, %{{.*}}] : memref<?x16xf32>, vector<8xf32>
// CHECK:           scf.if
// CHECK:           scf.if
// CHECK:             %[[LEN32:.*]] = memref.load %lens[%[[N:.*]]] : memref<?xi32>
// CHECK-NEXT:        %[[LEN:.*]] = arith.index_cast %[[LEN32]] : i32 to index
// CHECK-NEXT:        %[[LEFT:.*]] = arith.cmpi ult, %[[S]], %[[LEN]] : index
// CHECK-NEXT:        scf.if %[[LEFT]] {
// CHECK:               %[[LAST:.*]] = arith.subi %[[LEN]], %{{.*}} : index
// CHECK-NEXT:          %[[T:.*]] = arith.subi %[[LAST]], %[[S]] : index
// CHECK:                 memref.load %xw[%{{.*}}, %[[T]], %[[N]], %{{.*}}] : memref<1x?x?x2xf32>
// CHECK-NEXT:            memref.load %[[P]][%[[N]], %{{.*}}] : memref<?x16xf32>
// CHECK:                 %[[NEW:.*]] = math.tanh %{{.*}} : f32
// CHECK-NEXT:            memref.store %[[NEW]], %[[H]][%[[N]], %{{.*}}] : memref<?x2xf32>
// CHECK:                 memref.store %[[NEW]], %y[%[[T]], %{{.*}}, %[[N]], %{{.*}}] : memref<?x1x?x2xf32>
// CHECK:           %[[EMPTY:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK:           arith.select %[[EMPTY]]
// CHECK:         memref.dealloc %[[H]] : memref<?x2xf32>
// CHECK-NEXT:    memref.dealloc %[[P]] : memref<?x16xf32>
func.func @rnn(%xw: tensor<1x?x?x2xf32>, %rt: tensor<1x1x2x16xf32>, %rb: tensor<1x2xf32>, %lens: tensor<?xi32>) -> (tensor<?x1x?x2xf32>, tensor<1x?x2xf32>) {
  %y, %yh = graph.recurrence %xw, %rt, %rb, %lens {kind = "rnn", direction = "reverse", activations = ["tanh"], activation_params = array<f64>, has_sequence_lens = 1 : i64} : (tensor<1x?x?x2xf32>, tensor<1x1x2x16xf32>, tensor<1x2xf32>, tensor<?xi32>) -> (tensor<?x1x?x2xf32>, tensor<1x?x2xf32>)
  func.return %y, %yh : tensor<?x1x?x2xf32>, tensor<1x?x2xf32>
}

// RUN: infer-opt %s -p graph-to-loops,canonicalize,cse | filecheck %s

// 7 x 5 times panels of 2 x 16 lanes, N = 37, one row block and one group of full panels
// (too little work for a second thread: no parallel loop). The full panel's columns of Y
// are filled with the bias, then per KC = 4 slice of K a 6-row tile (12 accumulators:
// two panel vectors, one broadcast of A per row) and the 1-row remainder (M static:
// chosen at compile time); the fused relu runs over those columns. The last panel has 5
// columns, one vector straddling N, kept in a scratch [M, 16] of the row block that is
// copied into Y's last 5 columns before the relu runs over them.
// CHECK-LABEL: func.func @static
// CHECK:         %y = memref.alloc() {{.*}} : memref<7x37xf32>
// CHECK:         memref.load %c
// CHECK-NEXT:    memref.store {{.*}}, %y
// CHECK:         scf.for %[[K0:.*]] = {{.*}} step %[[C4:.*]] {
// CHECK:           arith.minsi
// CHECK-COUNT-12:  vector.load %y
// CHECK-NEXT:      scf.for %[[K:.*]] = %[[K0]] to {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-NEXT:        vector.load %w[%{{.*}}, %[[K]], %{{.*}}] : memref<2x5x32xf32>, vector<16xf32>
// CHECK-NEXT:        vector.load %w[%{{.*}}, %[[K]], %{{.*}}] : memref<2x5x32xf32>, vector<16xf32>
// CHECK-NEXT:        memref.load %a[%{{.*}}, %[[K]]] : memref<7x5xf32>
// CHECK-NEXT:        vector.broadcast {{.*}} : f32 to vector<16xf32>
// CHECK-NEXT:        vector.fma
// CHECK-NEXT:        vector.fma
// CHECK-COUNT-10:    vector.fma
// CHECK:             scf.yield
// CHECK-COUNT-12:  vector.store {{.*}}, %y
// CHECK-NEXT:      vector.load %y
// CHECK-NEXT:      vector.load %y
// CHECK-NEXT:      scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>) {
// CHECK-COUNT-2:   vector.store {{.*}}, %y
// CHECK-NOT:       scf.if
// CHECK:         arith.maximumf
// CHECK:         memref.store {{.*}}, %y
// CHECK:         %[[S:.*]] = memref.alloc() {{.*}} : memref<7x16xf32>
// CHECK:         vector.load %c[{{.*}}] : memref<64xf32>, vector<16xf32>
// CHECK:         vector.store {{.*}}, %[[S]]
// CHECK:         scf.for
// CHECK-COUNT-6:   vector.load %[[S]]
// CHECK-NEXT:      scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-NEXT:        vector.load %w
// CHECK-NOT:         vector.load %w
// CHECK:           vector.store {{.*}}, %[[S]]
// CHECK:         memref.load %[[S]]
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    memref.store {{.*}}, %y
// CHECK:         memref.dealloc %[[S]]
// CHECK:         arith.maximumf
// CHECK:         func.return %y
// CHECK-NOT:     parallel
func.func @static(%a: tensor<7x5xf32>, %w: tensor<2x5x32xf32>, %c: tensor<64xf32>) -> tensor<7x37xf32> {
  %y = graph.matmul_packed %a, %w, %c {n = 37 : i64, activation = "relu", tile = array<i64: 6, 2>, block = array<i64: 12, 4, 32>} : (tensor<7x5xf32>, tensor<2x5x32xf32>, tensor<64xf32>) -> tensor<7x37xf32>
  func.return %y : tensor<7x37xf32>
}

// A dynamic M: its row blocks (of the op's default MC rows) times the 2 panels (a group
// each) are a parallel loop, each on any thread; tiles of 3 rows, then the kernel of the remainder's height, chosen at run
// time (1 or 2 rows). N = 64 fills both panels: no scratch. Without `block` the op's
// default blocks apply (K = 5 fits one slice: no K loop).
// CHECK-LABEL: func.func @dynamic
// CHECK:         %y = memref.alloc(%{{.*}}) {{.*}} : memref<?x64xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         %[[BLOCKS:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK:         %[[COUNT:.*]] = arith.muli %[[BLOCKS]], %{{.*}} : index
// CHECK:         scf.for %[[IB:.*]] = %{{.*}} to %[[COUNT]] step
// CHECK:           scf.for {{.*}} step %[[C3:.*]] {
// CHECK-COUNT-6:   vector.load %y
// CHECK-NEXT:      scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK:         arith.cmpi eq
// CHECK-NEXT:    scf.if
// CHECK:           scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>) {
// CHECK:         arith.cmpi eq
// CHECK-NEXT:    scf.if
// CHECK:           scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-NOT:     scf.if
// CHECK:         } {parallel = {{[0-9]+}} : i64}
// CHECK-NEXT:    func.return %y
func.func @dynamic(%a: tensor<?x5xf32>, %w: tensor<2x5x32xf32>) -> tensor<?x64xf32> {
  %y = graph.matmul_packed %a, %w {n = 64 : i64, tile = array<i64: 3, 2>} : (tensor<?x5xf32>, tensor<2x5x32xf32>) -> tensor<?x64xf32>
  func.return %y : tensor<?x64xf32>
}

// A's batch dims with weights that have none (a [L, N, K] activation, as an exporter's
// seq-first attention writes it): one GEMM over A's batch dims and rows together, the
// collapsed views of A and Y, so that the row blocks and tiles run over all L x N rows
// (not L products of N rows each, every one reading all the panels).
// CHECK-LABEL: func.func @batch_rows
// CHECK:         %y = memref.alloc(%{{.*}}) {{.*}} : memref<197x?x32xf32>
// CHECK-NEXT:    %[[A:.*]] = memref.collapse_shape %a {{\[}}[0 : i64, 1 : i64], [2 : i64]] : memref<197x?x16xf32> into memref<?x16xf32>
// CHECK-NEXT:    %[[Y:.*]] = memref.collapse_shape %y {{\[}}[0 : i64, 1 : i64], [2 : i64]] : memref<197x?x32xf32> into memref<?x32xf32>
// CHECK:         %[[M:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x16xf32>
// CHECK-NEXT:    %[[MC:.*]] = arith.constant 126 : index
// CHECK-NEXT:    arith.ceildivsi %[[M]], %[[MC]] : index
// CHECK:         vector.store {{.*}}, %[[Y]]
// CHECK:         func.return %y
func.func @batch_rows(%a: tensor<197x?x16xf32>, %w: tensor<2x16x16xf32>) -> tensor<197x?x32xf32> {
  %y = graph.matmul_packed %a, %w {n = 32 : i64} : (tensor<197x?x16xf32>, tensor<2x16x16xf32>) -> tensor<197x?x32xf32>
  func.return %y : tensor<197x?x32xf32>
}

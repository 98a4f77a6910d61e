// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// A 1-D conv is a GEMM over its input's columns: per (batch, block of 256 outputs), on any
// thread, cols [C * K, 256] gathered (zeros in the padding, the input between), Y's rows
// started as the bias, then register tiles of 4 output channels x 3 vectors (12
// accumulators) over the block's whole vectors, then single vectors, and the last outputs
// (fewer than a vector) through a scratch vector per row.
// CHECK-LABEL: func.func @conv1d
// CHECK:         %[[W:.*]] = memref.collapse_shape %w {{\[}}[0 : i64], [1 : i64, 2 : i64]] : memref<6x4x5xf32> into memref<6x20xf32>
// CHECK:         scf.for %[[BLOCK:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[COLS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<20x256xf32>
// CHECK:                 memref.store %{{.*}}, %[[COLS]][%{{.*}}, %{{.*}}] : memref<20x256xf32>
// CHECK:                 %[[X:.*]] = memref.load %x[%{{.*}}, %{{.*}}, %{{.*}}] : memref<?x4x?xf32>
// CHECK-NEXT:            memref.store %[[X]], %[[COLS]][%{{.*}}, %{{.*}}] : memref<20x256xf32>
// CHECK:                 memref.store %{{.*}}, %[[COLS]][%{{.*}}, %{{.*}}] : memref<20x256xf32>
// CHECK:               %[[B:.*]] = memref.load %b[%{{.*}}] : memref<6xf32>
// CHECK:                 memref.store %[[B]], %y[%{{.*}}, %{{.*}}, %{{.*}}] : memref<?x6x?xf32>
// CHECK:           %[[TAIL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6x8xf32>
// CHECK:             scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK:               vector.load %[[COLS]][%{{.*}}, %{{.*}}] : memref<20x256xf32>, vector<8xf32>
// CHECK:               memref.load %[[W]][%{{.*}}, %{{.*}}] : memref<6x20xf32>
// CHECK:               vector.fma
// CHECK:           scf.if
// CHECK:               vector.store %{{.*}}, %[[TAIL]][%{{.*}}, %{{.*}}] : memref<6x8xf32>, vector<8xf32>
// CHECK:               memref.load %[[TAIL]]
// CHECK:               memref.store %{{.*}}, %y
// CHECK:           memref.dealloc %[[TAIL]] : memref<6x8xf32>
// CHECK-NEXT:      memref.dealloc %[[COLS]] : memref<20x256xf32>
// CHECK-NEXT:    } {parallel = 30720 : i64}
func.func @conv1d(%x: tensor<?x4x?xf32>, %w: tensor<6x4x5xf32>, %b: tensor<6xf32>) -> tensor<?x6x?xf32> {
  %y = graph.conv %x, %w, %b {pads = array<i64: 2, 2>, strides = array<i64: 2>} : (tensor<?x4x?xf32>, tensor<6x4x5xf32>, tensor<6xf32>) -> tensor<?x6x?xf32>
  func.return %y : tensor<?x6x?xf32>
}

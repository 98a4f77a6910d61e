// RUN: infer-opt %s -p "graph-to-loops,cse" | filecheck %s

// A pointwise conv's small-GEMM kernel keeps `pointwise_tile = array<i64: accumulators,
// lanes>` in registers: 4 output channels a tile (R, dividing 8), 4 / R = 1 vector of 4
// lanes each, one FMA per channel and accumulator.
// CHECK-LABEL: func.func @tile
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK:           vector.load {{.*}} vector<4xf32>
// CHECK-COUNT-4:   vector.fma {{.*}} : vector<4xf32>
// CHECK-NOT:       vector.fma
// CHECK:         scf.yield
func.func @tile(%x: tensor<1x8x6x6xf32>, %w: tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32> {
  %y = graph.conv %x, %w {pointwise_tile = array<i64: 4, 4>} : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  func.return %y : tensor<1x8x6x6xf32>
}

// Without the attribute, AVX2's tile: 12 accumulators of 8 lanes (4 channels x 3 vectors).
// CHECK-LABEL: func.func @default
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK-COUNT-12:  vector.fma {{.*}} : vector<8xf32>
func.func @default(%x: tensor<1x8x6x6xf32>, %w: tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32> {
  %y = graph.conv %x, %w : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  func.return %y : tensor<1x8x6x6xf32>
}

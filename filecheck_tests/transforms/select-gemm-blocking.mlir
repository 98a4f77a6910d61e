// RUN: infer-opt %s -p 'select-gemm-blocking' | filecheck %s
// RUN: infer-opt %s -p 'select-gemm-blocking{l1=49152 l2=1048576 l3=33554432}' | filecheck %s --check-prefix=ZEN5
// RUN: not infer-opt %s -p 'select-gemm-blocking{l1=100}' 2>&1 | filecheck %s --check-prefix=BAD

// KC: the panel slice KC x 32 f32 in half of L1 (128 of 32 KiB; 192 of 48 KiB), K = 1000
// cut in equal slices (8 of 125; 6 of 167). MC: A's MC x KC block in half of L2, whole
// 6-row tiles (522; 780), at most M's (100 -> 102). NC: whole panels, at most N's (64).
// CHECK-LABEL: func.func @blocks
// CHECK:         graph.matmul_packed %a, %w {n = 37 : i64, tile = array<i64: 6, 2>, block = array<i64: 102, 125, 64>}
// CHECK-NEXT:    graph.matmul_packed %d, %w {n = 37 : i64, tile = array<i64: 6, 2>, block = array<i64: 522, 125, 64>}
// ZEN5-LABEL:  func.func @blocks
// ZEN5:          graph.matmul_packed %a, %w {n = 37 : i64, tile = array<i64: 6, 2>, block = array<i64: 102, 167, 64>}
// ZEN5-NEXT:     graph.matmul_packed %d, %w {n = 37 : i64, tile = array<i64: 6, 2>, block = array<i64: 780, 167, 64>}
// BAD:           cache sizes must be >= 1024 bytes
func.func @blocks(%a: tensor<100x1000xf32>, %d: tensor<?x1000xf32>, %w: tensor<2x1000x32xf32>) -> (tensor<100x37xf32>, tensor<?x37xf32>) {
  %y = graph.matmul_packed %a, %w {n = 37 : i64, tile = array<i64: 6, 2>} : (tensor<100x1000xf32>, tensor<2x1000x32xf32>) -> tensor<100x37xf32>
  %z = graph.matmul_packed %d, %w {n = 37 : i64, tile = array<i64: 6, 2>} : (tensor<?x1000xf32>, tensor<2x1000x32xf32>) -> tensor<?x37xf32>
  func.return %y, %z : tensor<100x37xf32>, tensor<?x37xf32>
}

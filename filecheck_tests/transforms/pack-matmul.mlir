// RUN: infer-opt %s -p 'pack-matmul{block=16 registers=32}' | filecheck %s
// RUN: infer-opt %s -p 'pack-matmul{block=8 registers=16}' | filecheck %s --check-prefix=AVX2
// RUN: not infer-opt %s -p 'pack-matmul{registers=2}' 2>&1 | filecheck %s --check-prefix=NONE

// Constant weights B [K, N] are packed once into panels [ceil(N / NR), K, NR], NR = the
// tile's vectors x lanes: 2 x 16 f32 with AVX-512 (N = 37: two panels, the last padded),
// 2 x 8 with AVX2; the register tile (rows, vectors) goes on the op.
// CHECK-LABEL: func.func @matmul
// CHECK:         %w_packed = graph.constant elided<{{.*}}> : tensor<2x5x32xf32>
// CHECK-NEXT:    %y = graph.matmul_packed %a, %w_packed {n = 37 : i64, activation = "relu", tile = array<i64: 6, 2>} : (tensor<?x5xf32>, tensor<2x5x32xf32>) -> tensor<?x37xf32>
// AVX2-LABEL:  func.func @matmul
// AVX2:          %w_packed = graph.constant elided<{{.*}}> : tensor<3x5x16xf32>
// AVX2-NEXT:     %y = graph.matmul_packed %a, %w_packed {n = 37 : i64, activation = "relu", tile = array<i64: 6, 2>} : (tensor<?x5xf32>, tensor<3x5x16xf32>) -> tensor<?x37xf32>
// NONE:          2 vector registers hold no tile
func.func @matmul(%a: tensor<?x5xf32>) -> tensor<?x37xf32> {
  %w = graph.constant dense<0.5> : tensor<5x37xf32>
  %y = graph.matmul %a, %w {activation = "relu"} : (tensor<?x5xf32>, tensor<5x37xf32>) -> tensor<?x37xf32>
  func.return %y : tensor<?x37xf32>
}

// Batch dims of A loop over the one B; f64 has half the lanes (panels of 2 x 8).
// CHECK-LABEL: func.func @batched_f64
// CHECK:         graph.matmul_packed %a, %{{.*}} {n = 16 : i64, tile = array<i64: 6, 2>} : (tensor<2x?x4xf64>, tensor<1x4x16xf64>) -> tensor<2x?x16xf64>
func.func @batched_f64(%a: tensor<2x?x4xf64>) -> tensor<2x?x16xf64> {
  %w = graph.constant dense<0.5> : tensor<4x16xf64>
  %y = graph.matmul %a, %w : (tensor<2x?x4xf64>, tensor<4x16xf64>) -> tensor<2x?x16xf64>
  func.return %y : tensor<2x?x16xf64>
}

// Gemm: B' = alpha * B^T packed, beta * C padded to the panels as the bias (1.5 =
// 0x3FC00000, ten of them, then zeros).
// CHECK-LABEL: func.func @gemm
// CHECK:         %w_packed = graph.constant elided<{{.*}}> : tensor<1x8x32xf32>
// CHECK-NEXT:    %c_padded = graph.constant dense<"0x0000C03F0000C03F0000C03F0000C03F0000C03F0000C03F0000C03F0000C03F0000C03F0000C03F00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"> : tensor<32xf32>
// CHECK-NEXT:    %y = graph.matmul_packed %a, %w_packed, %c_padded {n = 10 : i64, tile = array<i64: 6, 2>} : (tensor<?x8xf32>, tensor<1x8x32xf32>, tensor<32xf32>) -> tensor<?x10xf32>
func.func @gemm(%a: tensor<?x8xf32>) -> tensor<?x10xf32> {
  %w = graph.constant dense<0.5> : tensor<10x8xf32>
  %c = graph.constant dense<1.0> : tensor<10xf32>
  %y = graph.gemm %a, %w, %c {transB = 1 : i64, alpha = 2.0 : f32, beta = 1.5 : f32} : (tensor<?x8xf32>, tensor<10x8xf32>, tensor<10xf32>) -> tensor<?x10xf32>
  func.return %y : tensor<?x10xf32>
}

// Left as they are: weights computed at run time for fewer rows than a tile, a 1-D
// operand, Gemm with transA, a bias varying along M.
// CHECK-LABEL: func.func @not_packed
// CHECK-NOT:     graph.matmul_packed
// CHECK:         func.return
func.func @not_packed(%a: tensor<3x8xf32>, %b: tensor<8x10xf32>, %v: tensor<8xf32>) -> (tensor<3x10xf32>, tensor<10xf32>, tensor<3x10xf32>, tensor<3x10xf32>) {
  %w = graph.constant dense<0.5> : tensor<8x10xf32>
  %c = graph.constant dense<1.0> : tensor<3x10xf32>
  %y0 = graph.matmul %a, %b : (tensor<3x8xf32>, tensor<8x10xf32>) -> tensor<3x10xf32>
  %y1 = graph.matmul %v, %w : (tensor<8xf32>, tensor<8x10xf32>) -> tensor<10xf32>
  %at = graph.constant dense<0.5> : tensor<8x3xf32>
  %y2 = graph.gemm %at, %w {transA = 1 : i64} : (tensor<8x3xf32>, tensor<8x10xf32>) -> tensor<3x10xf32>
  %y3 = graph.gemm %a, %w, %c : (tensor<3x8xf32>, tensor<8x10xf32>, tensor<3x10xf32>) -> tensor<3x10xf32>
  func.return %y0, %y1, %y2, %y3 : tensor<3x10xf32>, tensor<10xf32>, tensor<3x10xf32>, tensor<3x10xf32>
}

// Weights computed at run time are packed at run time, before the matmul (batch dims
// and all), when that pays: here M is dynamic. Gemm's transB packs B's rows.
// CHECK-LABEL: func.func @runtime
// CHECK:         %b_panels = graph.pack_panels %b {width = 32 : i64} : (tensor<2x1x?x40xf32>) -> tensor<2x1x2x?x32xf32>
// CHECK-NEXT:    %y = graph.matmul_packed %a, %b_panels {n = 40 : i64, tile = array<i64: 6, 2>} : (tensor<3x?x?xf32>, tensor<2x1x2x?x32xf32>) -> tensor<2x3x?x40xf32>
// CHECK-NEXT:    %t_panels = graph.pack_panels %t {width = 32 : i64, transposed = 1 : i64} : (tensor<20x8xf32>) -> tensor<1x8x32xf32>
// CHECK-NEXT:    %z = graph.matmul_packed %d, %t_panels {n = 20 : i64, tile = array<i64: 6, 2>} : (tensor<?x8xf32>, tensor<1x8x32xf32>) -> tensor<?x20xf32>
func.func @runtime(%a: tensor<3x?x?xf32>, %b: tensor<2x1x?x40xf32>, %d: tensor<?x8xf32>, %t: tensor<20x8xf32>) -> (tensor<2x3x?x40xf32>, tensor<?x20xf32>) {
  %y = graph.matmul %a, %b : (tensor<3x?x?xf32>, tensor<2x1x?x40xf32>) -> tensor<2x3x?x40xf32>
  %z = graph.gemm %d, %t {transB = 1 : i64} : (tensor<?x8xf32>, tensor<20x8xf32>) -> tensor<?x20xf32>
  func.return %y, %z : tensor<2x3x?x40xf32>, tensor<?x20xf32>
}

// Not at run time: fewer rows than a tile, fewer columns than a vector, a dynamic N, or
// alpha (which would need a pass over B).
// CHECK-LABEL: func.func @runtime_not_packed
// CHECK-NOT:     graph.pack_panels
// CHECK:         func.return
func.func @runtime_not_packed(%a: tensor<3x8xf32>, %b: tensor<8x40xf32>, %d: tensor<?x8xf32>, %c: tensor<8x10xf32>, %e: tensor<8x?xf32>) -> (tensor<3x40xf32>, tensor<?x10xf32>, tensor<?x?xf32>, tensor<?x40xf32>) {
  %y0 = graph.matmul %a, %b : (tensor<3x8xf32>, tensor<8x40xf32>) -> tensor<3x40xf32>
  %y1 = graph.matmul %d, %c : (tensor<?x8xf32>, tensor<8x10xf32>) -> tensor<?x10xf32>
  %y2 = graph.matmul %d, %e : (tensor<?x8xf32>, tensor<8x?xf32>) -> tensor<?x?xf32>
  %y3 = graph.gemm %d, %b {alpha = 2.0 : f32} : (tensor<?x8xf32>, tensor<8x40xf32>) -> tensor<?x40xf32>
  func.return %y0, %y1, %y2, %y3 : tensor<3x40xf32>, tensor<?x10xf32>, tensor<?x?xf32>, tensor<?x40xf32>
}

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Which loops may run on several threads: the lowering marks an scf.for `parallel =
// work` when its iterations are independent, over the outer dims of the op (the work:
// about the scalar operations of one iteration, from which the launcher sizes the team).
// Outline-parallel-loops and convert-parallel-calls-to-pool run them on infer's pool.

// A blocked conv: one loop over (n, pairs of output blocks, output rows), here 1 x 2 x 56
// = 112 rows, each 56 x 16 x 64 x 9 multiply-adds (516,096 operations).
// CHECK-LABEL: func.func @conv
// CHECK:         %[[PAIRS:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[OUT_H:.*]] = arith.constant 56 : index
// CHECK-NEXT:    %[[ROWS:.*]] = arith.muli %[[PAIRS]], %[[OUT_H]] : index
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %[[ROWS]] step
// CHECK:           %[[OH:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[B:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK:           vector.fma
// CHECK:         } {parallel = 516096 : i64}
// CHECK-NEXT:    func.return
func.func @conv(%x: tensor<1x8x56x56x8xf32>, %w: tensor<4x8x3x3x8x8xf32>) -> tensor<1x4x56x56x8xf32> {
  %y = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x56x56x8xf32>, tensor<4x8x3x3x8x8xf32>) -> tensor<1x4x56x56x8xf32>
  func.return %y : tensor<1x4x56x56x8xf32>
}

// Attention: one loop over (batch, query rows); every row allocates and frees its own
// scratch row of scores, so rows on different threads never share one.
// CHECK-LABEL: func.func @attention
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[ROW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xf32>
// CHECK:           math.exp
// CHECK:           memref.dealloc %[[ROW]] : memref<128xf32>
// CHECK-NEXT:    } {parallel = {{[0-9]+}} : i64}
// CHECK-NEXT:    func.return
func.func @attention(%q: tensor<4x128x64xf32>, %k: tensor<4x128x64xf32>, %v: tensor<4x128x64xf32>) -> tensor<4x128x64xf32> {
  %0 = graph.attention %q, %k, %v {scale = 0.125 : f32} : (tensor<4x128x64xf32>, tensor<4x128x64xf32>, tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  func.return %0 : tensor<4x128x64xf32>
}

// Elementwise: enough outer dims to share (1 x 64 rows here, of 256 x 128 elements each),
// the last dim inside, contiguous. An op of less work than two threads' stays serial.
// CHECK-LABEL: func.func @relu
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             arith.maximumf
// CHECK:         } {parallel = 32768 : i64}
// CHECK-LABEL: func.func @small_relu
// CHECK-NOT:     parallel
// CHECK:         func.return
func.func @relu(%x: tensor<1x64x256x128xf32>) -> tensor<1x64x256x128xf32> {
  %0 = graph.relu %x : (tensor<1x64x256x128xf32>) -> tensor<1x64x256x128xf32>
  func.return %0 : tensor<1x64x256x128xf32>
}
func.func @small_relu(%x: tensor<1x64x64x64xf32>) -> tensor<1x64x64x64xf32> {
  %0 = graph.relu %x : (tensor<1x64x64x64xf32>) -> tensor<1x64x64x64xf32>
  func.return %0 : tensor<1x64x64x64xf32>
}

// A 1-D op is cut in chunks of 1024 elements; its dynamic size decides at run time
// whether there are enough of them.
// CHECK-LABEL: func.func @vector_add
// CHECK:         memref.dim %a, %{{.*}} : memref<?xf32>
// CHECK:         %[[CHUNKS:.*]] = arith.floordivsi %{{.*}}, %{{.*}} : index
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %[[CHUNKS]] step
// CHECK:           %[[LO:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK:           %[[HI:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:           scf.for %{{.*}} = %[[LO]] to %[[HI]] step
// CHECK:         } {parallel = 1024 : i64}
func.func @vector_add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.add %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// RUN: infer-opt %s -p convert-scf-to-cf | filecheck %s

// A loop marked infer.no_unroll (the lowering unrolled it already) keeps the mark on its
// back edge, the branch LLVM reads loop metadata from; the entry branch is not marked.
// CHECK-LABEL: func.func @kept
// CHECK:         cf.br ^[[HEAD:[a-z0-9]+]](%{{.*}}, %{{.*}} : index, f32)
// CHECK-NOT:     infer.no_unroll
// CHECK:       ^[[HEAD]](%{{.*}}: index, %{{.*}}: f32):
// CHECK:         cf.cond_br
// CHECK:         cf.br ^[[HEAD]](%{{.*}}, %{{.*}} : index, f32) {infer.no_unroll}
// CHECK:         func.return
func.func @kept(%x: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %x[%i] : memref<16xf32>
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  } {infer.no_unroll}
  func.return %s : f32
}

// The mark stays with its own loop: the inner loop's back edge has it, the outer's not.
// CHECK-LABEL: func.func @nested
// CHECK-COUNT-1: {infer.no_unroll}
// CHECK-NOT:     {infer.no_unroll}
// CHECK:         func.return
func.func @nested(%x: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %zero, %x[%i, %j] : memref<4x16xf32>
    } {infer.no_unroll}
  }
  func.return
}

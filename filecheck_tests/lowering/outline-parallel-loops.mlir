// RUN: infer-opt %s -p outline-parallel-loops | filecheck %s

// A marked loop becomes a call of a function running [lo, hi) of its iterations, the
// mark kept on the call. What the body reads from outside is passed (the buffers, the
// run-time dim), except constants and globals, which the function makes itself. The mark
// of a loop inside is dropped: it runs on its thread.
// CHECK-LABEL: func.func @scale(%x: memref<?x64xf32>, %y: memref<?x64xf32>) {
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x64xf32>
// CHECK-NEXT:    func.call @scale_parallel_0(%{{.*}}, %[[N]], %x, %y, %[[N]]) {parallel = 4 : i64} : (index, index, memref<?x64xf32>, memref<?x64xf32>, index) -> ()
// CHECK-NEXT:    func.return
"memref.global"() <{sym_name = "bias", sym_visibility = "private", type = memref<64xf32>, initial_value = dense<1.0> : tensor<64xf32>, constant}> : () -> ()
func.func @scale(%x: memref<?x64xf32>, %y: memref<?x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  %bias = memref.get_global @bias : memref<64xf32>
  %n = memref.dim %x, %c0 : memref<?x64xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x64xf32>
      %b = memref.load %bias[%j] : memref<64xf32>
      %s = arith.mulf %v, %two : f32
      %t = arith.addf %s, %b : f32
      memref.store %t, %y[%i, %j] : memref<?x64xf32>
      %unused = arith.addi %i, %n : index
    } {parallel = 1 : i64}
  } {parallel = 4 : i64}
  func.return
}

// Loops in several places of a function get a function each, numbered in order; an
// unmarked loop stays. (The outlined functions follow the module's functions.)
// CHECK-LABEL: func.func @two(%x: memref<8xf32>) {
// CHECK:         func.call @two_parallel_0(%{{.*}}, %{{.*}}, %x) {parallel = 1 : i64}
// CHECK-NEXT:    scf.for
// CHECK:         func.call @two_parallel_1(%{{.*}}, %{{.*}}, %x) {parallel = 2 : i64}
// CHECK-LABEL: func.func private @scale_parallel_0(
// CHECK-SAME:    %[[LO:[0-9]+]]: index, %[[HI:[0-9]+]]: index, %[[X:[0-9]+]]: memref<?x64xf32>, %[[Y:[0-9]+]]: memref<?x64xf32>, %[[D:[0-9]+]]: index) attributes {infer.noinline} {
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:     %[[G:.*]] = memref.get_global @bias : memref<64xf32>
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[LO]] to %[[HI]] step %[[ONE]] {
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %[[C64]] step %{{.*}} {
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[X]][%[[I]], %[[J]]] : memref<?x64xf32>
// CHECK-NEXT:        %[[B:.*]] = memref.load %[[G]][%[[J]]] : memref<64xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.mulf %[[V]], %[[TWO]] : f32
// CHECK-NEXT:        %[[T:.*]] = arith.addf %[[S]], %[[B]] : f32
// CHECK-NEXT:        memref.store %[[T]], %[[Y]][%[[I]], %[[J]]] : memref<?x64xf32>
// CHECK-NEXT:        %{{.*}} = arith.addi %[[I]], %[[D]] : index
// CHECK-NEXT:      }
// CHECK-NOT:       parallel
// CHECK:         }
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func private @two_parallel_0(
// CHECK-LABEL: func.func private @two_parallel_1(
func.func @two(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %z, %x[%i] : memref<8xf32>
  } {parallel = 1 : i64}
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %z, %x[%i] : memref<8xf32>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %z, %x[%i] : memref<8xf32>
  } {parallel = 2 : i64}
  func.return
}

// A buffer argument is `llvm.noalias` when the body reaches its memory through no other
// argument, or only reads it: here the input, and the output the function allocated.
// CHECK-LABEL: func.func private @fresh_parallel_0(
// CHECK-SAME:      %{{.*}}: index, %{{.*}}: index, %{{.*}}: memref<?x64xf32> {llvm.noalias}, %{{.*}}: memref<?x64xf32> {llvm.noalias})
func.func @fresh(%x: memref<?x64xf32>) -> memref<?x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %x, %c0 : memref<?x64xf32>
  %y = memref.alloc(%n) {alignment = 64 : i64} : memref<?x64xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x64xf32>
      memref.store %v, %y[%i, %j] : memref<?x64xf32>
    }
  } {parallel = 1 : i64}
  func.return %y : memref<?x64xf32>
}

// The allocation written through a view of it and read through itself: neither is
// marked (they overlap); the input, only read, is. A written buffer that is not an
// allocation of the function (@scale's %y, an argument: its caller may pass anything)
// marks no argument.
// CHECK-LABEL: func.func private @views_parallel_0(
// CHECK-SAME:      %{{.*}}: index, %{{.*}}: index, %{{.*}}: memref<?x64xf32> {llvm.noalias}, %{{[0-9]+}}: memref<?xf32>, %{{[0-9]+}}: memref<?x64xf32>)
func.func @views(%x: memref<?x64xf32>) -> memref<?x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %x, %c0 : memref<?x64xf32>
  %y = memref.alloc(%n) {alignment = 64 : i64} : memref<?x64xf32>
  %flat = memref.collapse_shape %y [[0, 1]] : memref<?x64xf32> into memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i, %c0] : memref<?x64xf32>
    memref.store %v, %flat[%i] : memref<?xf32>
    %w = memref.load %y[%i, %c1] : memref<?x64xf32>
  } {parallel = 1 : i64}
  func.return %y : memref<?x64xf32>
}

// RUN: infer-opt %s -p outline-loops | filecheck %s
// RUN: infer-opt %s -p outline-loops,convert-scf-to-cf,convert-memref-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts | filecheck %s --check-prefix=LLVM

// Each top-level loop nest of @main becomes a private noinline function called in its
// place: constants are copied in (the trip counts stay known), an index crosses as i64,
// carried values come back as results. %x and %y are distinct allocations (an argument
// of the entry, a fresh buffer), so both are noalias.
// CHECK-LABEL: func.func @main
// CHECK:         %y = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT:    func.call @main__loop_0(%x, %y) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
// CHECK:         %[[N:.*]] = arith.index_cast %n : index to i64
// CHECK-NEXT:    %s = func.call @main__loop_1(%[[N]], %y) : (i64, memref<4x8xf32>) -> f32
// CHECK-NOT:     scf.for
// CHECK-LABEL: func.func @one_loop
// CHECK:         scf.for
// CHECK-LABEL: func.func private @main__loop_0(%x: memref<4x8xf32>, %y: memref<4x8xf32>) attributes {infer.noinline, infer.noalias = array<i64: 0, 1>}
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK:         scf.for
// CHECK-LABEL: func.func private @main__loop_1(%n: i64, %y: memref<4x8xf32>) -> f32 attributes {infer.noinline, infer.noalias = array<i64: 1>}
// CHECK-NEXT:    %{{.*}} = arith.index_cast %n : i64 to index
// CHECK:         func.return %s : f32

// A view and the buffer it views overlap: neither is noalias when both are passed.
// CHECK-LABEL: func.func private @views__loop_0(%flat: memref<32xf32>, %y: memref<4x8xf32>) attributes {infer.noinline} {
// CHECK-LABEL: func.func private @views__loop_1(%y: memref<4x8xf32>) attributes {infer.noinline, infer.noalias = array<i64: 0>}

// Noalias memrefs cross as bare pointers, LLVM's descriptor rebuilt from the type.
// LLVM:        llvm.call @main__loop_0(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> ()
// LLVM:        llvm.func internal @main__loop_0(%x{{.*}}: !llvm.ptr, %y{{.*}}: !llvm.ptr) attributes {infer.noinline, infer.noalias = array<i64: 0, 1>, no_unwind}
// LLVM:          llvm.insertvalue %x{{.*}}[0]
// LLVM-NEXT:     llvm.insertvalue %x{{.*}}[1]
func.func @main(%x: memref<4x8xf32>, %n: index) -> memref<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %y = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      memref.store %v, %y[%i, %j] : memref<4x8xf32>
    }
  }
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %y[%i, %c0] : memref<4x8xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  memref.store %s, %y[%c0, %c0] : memref<4x8xf32>
  func.return %y : memref<4x8xf32>
}

func.func @one_loop(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %x[%i] : memref<4xf32>
  }
  func.return
}

func.func @views() -> memref<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %y = memref.alloc() : memref<4x8xf32>
  %flat = memref.collapse_shape %y [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %flat[%i] : memref<32xf32>
    memref.store %v, %y[%c0, %i] : memref<4x8xf32>
  }
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %y[%i, %c0] : memref<4x8xf32>
    memref.store %v, %y[%i, %c1] : memref<4x8xf32>
  }
  func.return %y : memref<4x8xf32>
}

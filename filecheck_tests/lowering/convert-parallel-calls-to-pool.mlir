// RUN: infer-opt %s -p convert-parallel-calls-to-pool | filecheck %s
// RUN: infer-opt %s -p 'convert-parallel-calls-to-pool{thread_work=1000 chunk_work=300}' | filecheck %s --check-prefix=OPTS

// A call marked `parallel = 4` (outline-parallel-loops: @body runs iterations [lo, hi),
// each about 4 operations of work) calls a launcher instead. The launcher sizes the team
// from the loop's work: one thread per 1,048,576 operations (thread_work), at most the count
// the runtime set. A team of one calls @body directly, with no call into the pool; a
// larger one hands @body_chunk to infer_parallel_for with the arguments by pointer and a
// grain of 32,768 / 4 = 8,192 iterations (chunk_work / work).
// The buffer argument marked llvm.noalias: @body takes its aligned pointer as a noalias
// pointer argument too, and reads the field no more.
// CHECK-LABEL: llvm.func internal @body(
// CHECK-SAME:      %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.struct<{{.*}}>, %[[P:[a-z0-9_]+]]: !llvm.ptr {llvm.noalias}) {
// CHECK-NOT:     llvm.extractvalue
// CHECK:         %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK-NEXT:    llvm.store %[[V]], %[[P]] : f32, !llvm.ptr

// CHECK-LABEL: llvm.func @main(
// CHECK:         llvm.call @body_launch(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, !llvm.struct<{{.*}}>) -> ()
// CHECK-NOT:     parallel

// CHECK-LABEL: llvm.func internal @body_launch(
// CHECK-SAME:      %[[LB:[0-9]+]]: i64, %[[UB:[0-9]+]]: i64, %[[X:[0-9]+]]: !llvm.struct<{{.*}}>) attributes {no_unwind} {
// CHECK-NEXT:    %[[AT:.*]] = llvm.mlir.addressof @_infer_num_threads : !llvm.ptr
// CHECK-NEXT:    %[[WANTED:.*]] = llvm.load %[[AT]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT:    %[[N:.*]] = llvm.sub %[[UB]], %[[LB]] : i64
// CHECK-NEXT:    %[[WORK:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[TOTAL:.*]] = llvm.mul %[[N]], %[[WORK]] overflow<nsw> : i64
// CHECK-NEXT:    %[[PER_THREAD:.*]] = llvm.mlir.constant(1048576) : i64
// CHECK-NEXT:    %[[PAID:.*]] = llvm.sdiv %[[TOTAL]], %[[PER_THREAD]] : i64
// CHECK-NEXT:    %[[W64:.*]] = llvm.sext %[[WANTED]] : i32 to i64
// CHECK-NEXT:    %[[LT:.*]] = llvm.icmp "slt" %[[W64]], %[[PAID]] : i64
// CHECK-NEXT:    %[[TEAM:.*]] = llvm.select %[[LT]], %[[W64]], %[[PAID]] : i1, i64
// CHECK:         %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.ptr {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK:         %[[S0:.*]] = llvm.alloca %{{.*}} x !llvm.struct<{{.*}}>
// CHECK:         %[[MANY:.*]] = llvm.icmp "sgt" %[[TEAM]], %{{.*}} : i64
// CHECK-NEXT:    llvm.cond_br %[[MANY]], ^[[PAR:.*]], ^[[SERIAL:.*]]
// CHECK-NEXT:  ^[[SERIAL]]:
// CHECK-NEXT:    %[[XP:.*]] = llvm.extractvalue %[[X]][1]
// CHECK-NEXT:    llvm.call @body(%[[LB]], %[[UB]], %[[X]], %[[XP]])
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  ^[[PAR]]:
// CHECK-NEXT:    llvm.store %[[X]], %[[S0]]
// CHECK-NEXT:    %[[P0:.*]] = llvm.getelementptr inbounds %[[CTX]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.store %[[S0]], %[[P0]] {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %[[FN:.*]] = llvm.mlir.addressof @body_chunk : !llvm.ptr
// CHECK-NEXT:    %[[GRAIN:.*]] = llvm.mlir.constant(8192) : i64
// CHECK-NEXT:    llvm.call @infer_parallel_for(%[[FN]], %[[CTX]], %[[LB]], %[[UB]], %[[TEAM]], %[[GRAIN]]) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, i64) -> ()
// CHECK-NEXT:    llvm.return

// A chunk [lo, hi), on whichever thread took it: the arguments read back, then @body.
// CHECK-LABEL: llvm.func internal @body_chunk(
// CHECK-SAME:      %[[CTX2:[0-9]+]]: !llvm.ptr, %[[LO:[0-9]+]]: i64, %[[HI:[0-9]+]]: i64)
// CHECK:         %[[X2:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<{{.*}}>
// CHECK-NEXT:    %[[XP2:.*]] = llvm.extractvalue %[[X2]][1]
// CHECK-NEXT:    llvm.call @body(%[[LO]], %[[HI]], %[[X2]], %[[XP2]])
// CHECK-NEXT:    llvm.return

// The pool's entry point is declared once; the thread count is a global the runtime
// sets (1 until then).
// CHECK-DAG:   llvm.func @infer_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64, i64, i64)
// CHECK-DAG:   llvm.mlir.global external @_infer_num_threads(1 : i32)

// The cost model's constants are the pass's options: a thread per 1,000 operations, chunks
// of at least ceil(300 / 4) = 75 iterations.
// OPTS-LABEL: llvm.func internal @body_launch(
// OPTS:         llvm.mlir.constant(1000) : i64
// OPTS:         %[[GRAIN:.*]] = llvm.mlir.constant(75) : i64
// OPTS-NEXT:    llvm.call @infer_parallel_for(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[GRAIN]])
llvm.func internal @body(%lo: i64, %hi: i64, %x: !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)> {llvm.noalias}) {
  %p = llvm.extractvalue %x[1] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
  %v = llvm.load %p : !llvm.ptr -> f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}
llvm.func @main(%x: !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>, %n: i64) {
  %0 = llvm.mlir.constant(0) : i64
  llvm.call @body(%0, %n, %x) {parallel = 4 : i64} : (i64, i64, !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>) -> ()
  llvm.return
}


// RUN: infer-opt %s -p convert-parallel-calls-to-gomp | filecheck %s

// A call marked `parallel = 4` (outline-parallel-loops: @body runs iterations [lo, hi))
// calls a launcher instead: one thread (the count the runtime set, or fewer than two
// grains of 4 iterations) calls @body directly, with no call into the OpenMP runtime;
// more start a team with GOMP_parallel, the arguments passed by pointer.
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
// CHECK-NEXT:    %[[GRAIN:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[CHUNKS:.*]] = llvm.sdiv %[[N]], %[[GRAIN]] : i64
// CHECK-NEXT:    %[[W64:.*]] = llvm.sext %[[WANTED]] : i32 to i64
// CHECK-NEXT:    %[[LT:.*]] = llvm.icmp "slt" %[[W64]], %[[CHUNKS]] : i64
// CHECK-NEXT:    %[[TEAM:.*]] = llvm.select %[[LT]], %[[W64]], %[[CHUNKS]] : i1, i64
// CHECK:         %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.ptr {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK:         %[[S0:.*]] = llvm.alloca %{{.*}} x i64
// CHECK:         %[[S1:.*]] = llvm.alloca %{{.*}} x i64
// CHECK:         %[[S2:.*]] = llvm.alloca %{{.*}} x !llvm.struct<{{.*}}>
// CHECK:         %[[MANY:.*]] = llvm.icmp "sgt" %[[TEAM]], %{{.*}} : i64
// CHECK-NEXT:    llvm.cond_br %[[MANY]], ^[[PAR:.*]], ^[[SERIAL:.*]]
// CHECK-NEXT:  ^[[SERIAL]]:
// CHECK-NEXT:    %[[XP:.*]] = llvm.extractvalue %[[X]][1]
// CHECK-NEXT:    llvm.call @body(%[[LB]], %[[UB]], %[[X]], %[[XP]])
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  ^[[PAR]]:
// CHECK-NEXT:    llvm.store %[[LB]], %[[S0]] : i64, !llvm.ptr
// CHECK-NEXT:    %[[P0:.*]] = llvm.getelementptr inbounds %[[CTX]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.store %[[S0]], %[[P0]] {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK:         llvm.store %[[X]], %[[S2]]
// CHECK:         %[[FN:.*]] = llvm.mlir.addressof @body_thread : !llvm.ptr
// CHECK-NEXT:    %[[T32:.*]] = llvm.trunc %[[TEAM]] : i64 to i32
// CHECK-NEXT:    %[[FLAGS:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.call @GOMP_parallel(%[[FN]], %[[CTX]], %[[T32]], %[[FLAGS]]) : (!llvm.ptr, !llvm.ptr, i32, i32) -> ()
// CHECK-NEXT:    llvm.return

// Each thread of the team reads the arguments back and takes chunks of about 1/8 of its
// share (at least the grain) from libgomp's dynamic schedule until none is left.
// CHECK-LABEL: llvm.func internal @body_thread(
// CHECK-SAME:      %[[CTX2:[0-9]+]]: !llvm.ptr)
// CHECK:         %[[LB2:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK:         %[[UB2:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK:         %[[X2:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<{{.*}}>
// CHECK-NEXT:    %[[TEAM2:.*]] = llvm.call @omp_get_num_threads() : () -> i32
// CHECK:         %[[CHUNK:.*]] = llvm.select
// CHECK:         %[[LO_AT:.*]] = llvm.alloca
// CHECK:         %[[HI_AT:.*]] = llvm.alloca
// CHECK:         %[[FIRST:.*]] = llvm.call @GOMP_loop_dynamic_start(%[[LB2]], %[[UB2]], %{{.*}}, %[[CHUNK]], %[[LO_AT]], %[[HI_AT]]) : (i64, i64, i64, i64, !llvm.ptr, !llvm.ptr) -> i8
// CHECK:         llvm.cond_br %{{.*}}, ^[[BODY:.*]], ^[[DONE:.*]]
// CHECK-NEXT:  ^[[BODY]]:
// CHECK-NEXT:    %[[LO:.*]] = llvm.load %[[LO_AT]]
// CHECK-NEXT:    %[[HI:.*]] = llvm.load %[[HI_AT]]
// CHECK-NEXT:    %[[XP2:.*]] = llvm.extractvalue %[[X2]][1]
// CHECK-NEXT:    llvm.call @body(%[[LO]], %[[HI]], %[[X2]], %[[XP2]])
// CHECK-NEXT:    %{{.*}} = llvm.call @GOMP_loop_dynamic_next(%[[LO_AT]], %[[HI_AT]])
// CHECK:         llvm.cond_br %{{.*}}, ^[[BODY]], ^[[DONE]]
// CHECK-NEXT:  ^[[DONE]]:
// CHECK-NEXT:    llvm.call @GOMP_loop_end_nowait() : () -> ()
// CHECK-NEXT:    llvm.return

// The runtime's functions are declared once; the thread count is a global the runtime
// sets (1 until then).
// CHECK-DAG:   llvm.func @GOMP_parallel(!llvm.ptr, !llvm.ptr, i32, i32)
// CHECK-DAG:   llvm.func @GOMP_loop_dynamic_start(i64, i64, i64, i64, !llvm.ptr, !llvm.ptr) -> i8
// CHECK-DAG:   llvm.func @GOMP_loop_dynamic_next(!llvm.ptr, !llvm.ptr) -> i8
// CHECK-DAG:   llvm.func @GOMP_loop_end_nowait()
// CHECK-DAG:   llvm.func @omp_get_num_threads() -> i32
// CHECK-DAG:   llvm.mlir.global external @_infer_num_threads(1 : i32)
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


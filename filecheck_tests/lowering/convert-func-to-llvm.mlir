// RUN: infer-opt %s -p convert-func-to-llvm | filecheck %s

// Private functions are internal; memrefs travel as descriptor structs.
// CHECK:      llvm.func internal @helper(%[[X:.*]]: !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>) -> !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)> attributes {no_unwind}
// CHECK-NEXT: %{{.*}} = builtin.unrealized_conversion_cast %[[X]] : !llvm.struct<{{.*}}> to memref<?xf32>
func.func private @helper(%x: memref<?xf32>) -> memref<?xf32> {
  func.return %x : memref<?xf32>
}

// Several results come back as one struct.
// CHECK:      llvm.func @main(%{{.*}}: !llvm.struct<{{.*}}>, %{{.*}}: i64) -> !llvm.struct<(!llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>, i64)>
// CHECK:      llvm.call @helper(%{{.*}}) : (!llvm.struct<{{.*}}>) -> !llvm.struct<{{.*}}>
// CHECK:      llvm.insertvalue %{{.*}}, %{{.*}}[0]
// CHECK:      llvm.insertvalue %{{.*}}, %{{.*}}[1]
// CHECK:      llvm.return %{{.*}} : !llvm.struct<{{.*}}>
func.func @main(%x: memref<?xf32>, %n: index) -> (memref<?xf32>, index) {
  %y = func.call @helper(%x) : (memref<?xf32>) -> memref<?xf32>
  func.return %y, %n : memref<?xf32>, index
}

// The packed entry point: args[0..1] point at the inputs, args[2..3] at the result slots.
// CHECK:      llvm.func @_infer_packed_main(%[[ARGS:.*]]: !llvm.ptr) attributes {infer.signature = (memref<?xf32>, index) -> (memref<?xf32>, index), no_unwind}
// CHECK-NEXT: %[[S0:.*]] = llvm.getelementptr inbounds %[[ARGS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT: %[[P0:.*]] = llvm.load %[[S0]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[D0:.*]] = llvm.load %[[P0]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.struct<{{.*}}>
// CHECK:      %[[N:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK-NEXT: %[[R:.*]] = llvm.call @main(%[[D0]], %[[N]])
// CHECK:      llvm.getelementptr inbounds %[[ARGS]][2]
// CHECK:      llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : !llvm.struct<{{.*}}>, !llvm.ptr
// CHECK:      llvm.getelementptr inbounds %[[ARGS]][3]
// CHECK:      llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : i64, !llvm.ptr
// CHECK-NEXT: llvm.return
// CHECK-NOT:  _infer_packed_helper

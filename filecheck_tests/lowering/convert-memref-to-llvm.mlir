// RUN: infer-opt %s -p convert-memref-to-llvm | filecheck %s

// CHECK-LABEL: func.func @load_store
func.func @load_store(%m: memref<?x16xf32>, %i: index, %j: index, %v: f32) -> f32 {
  // the static stride 16 is a constant; one GEP off the aligned pointer
  // CHECK:      %[[D:.*]] = builtin.unrealized_conversion_cast %m : memref<?x16xf32> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
  // CHECK:      %[[C16:.*]] = llvm.mlir.constant(16) : i64
  // CHECK-NEXT: %[[R:.*]] = llvm.mul %{{.*}}, %[[C16]] overflow<nsw> : i64
  // CHECK-NEXT: %[[L:.*]] = llvm.add %[[R]], %{{.*}} overflow<nsw> : i64
  // CHECK-NEXT: %[[P:.*]] = llvm.extractvalue %[[D]][1]
  // CHECK-NEXT: %[[G:.*]] = llvm.getelementptr inbounds %[[P]][%[[L]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: llvm.load %[[G]] {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK:      llvm.store %v, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr
  // CHECK-NOT:  llvm.inttoptr
  %0 = memref.load %m[%i, %j] : memref<?x16xf32>
  memref.store %v, %m[%i, %j] : memref<?x16xf32>
  func.return %0 : f32
}

// CHECK-LABEL: func.func @constant_indices
func.func @constant_indices(%m: memref<2x3x16xf32>, %i: index) -> f32 {
  // constant indices times static strides fold into one constant: 1 * 48 + 2 * 16 = 80
  // CHECK:      %[[C80:.*]] = llvm.mlir.constant(80) : i64
  // CHECK-NEXT: %[[P:.*]] = llvm.extractvalue %{{.*}}[1]
  // CHECK-NEXT: llvm.getelementptr inbounds %[[P]][%[[C80]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // with a run-time index: that index (stride 1) plus the constant, no multiply
  // CHECK:      %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
  // CHECK-NEXT: %[[C64:.*]] = llvm.mlir.constant(64) : i64
  // CHECK-NEXT: %[[L:.*]] = llvm.add %[[I]], %[[C64]] overflow<nsw> : i64
  // CHECK-NEXT: %[[P2:.*]] = llvm.extractvalue %{{.*}}[1]
  // CHECK-NEXT: llvm.getelementptr inbounds %[[P2]][%[[L]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.load %m[%c1, %c2, %c0] : memref<2x3x16xf32>
  %b = memref.load %m[%c1, %c1, %i] : memref<2x3x16xf32>
  %s = arith.addf %a, %b : f32
  func.return %s : f32
}

// CHECK-LABEL: func.func @alloc
func.func @alloc(%n: index) -> memref<?x8xf32> {
  // infer_alloc(bytes + 63) (malloc keeping large blocks), then the aligned pointer is a GEP of the allocated one
  // CHECK:      %[[PAD:.*]] = llvm.mlir.constant(63) : i64
  // CHECK-NEXT: %[[SZ:.*]] = llvm.add %{{.*}}, %[[PAD]] overflow<nsw> : i64
  // CHECK-NEXT: %[[A:.*]] = llvm.call @infer_alloc(%[[SZ]]) : (i64) -> !llvm.ptr
  // CHECK:      %[[AL:.*]] = llvm.getelementptr inbounds %[[A]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK:      llvm.insertvalue %[[A]], %{{.*}}[0]
  // CHECK-NEXT: llvm.insertvalue %[[AL]], %{{.*}}[1]
  %0 = memref.alloc(%n) : memref<?x8xf32>
  func.return %0 : memref<?x8xf32>
}

// CHECK-LABEL: func.func @dealloc
func.func @dealloc(%m: memref<4xf32>) {
  // CHECK:      %[[A:.*]] = llvm.extractvalue %{{.*}}[0]
  // CHECK-NEXT: llvm.call @infer_free(%[[A]]) : (!llvm.ptr) -> ()
  memref.dealloc %m : memref<4xf32>
  func.return
}

// CHECK: llvm.mlir.global internal constant @w(dense<{{.*}}> : tensor<2x2xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<4 x f32>
"memref.global"() <{sym_name = "w", sym_visibility = "private", type = memref<2x2xf32>, initial_value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, constant}> : () -> ()

// CHECK-LABEL: func.func @global
func.func @global() -> memref<2x2xf32> {
  // a global is not the callee's to free: its allocated pointer is null
  // CHECK:      %[[P:.*]] = llvm.mlir.addressof @w : !llvm.ptr
  // CHECK-NEXT: %[[Z:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK:      llvm.insertvalue %[[Z]], %{{.*}}[0]
  // CHECK-NEXT: llvm.insertvalue %[[P]], %{{.*}}[1]
  %0 = memref.get_global @w : memref<2x2xf32>
  func.return %0 : memref<2x2xf32>
}

// CHECK-LABEL: func.func @subview
func.func @subview(%m: memref<8x8xf32>, %i: index) -> memref<4x4xf32, strided<[8, 1], offset: ?>> {
  // offset = i * 8 + 2
  // CHECK:      %[[C8:.*]] = llvm.mlir.constant(8) : i64
  // CHECK-NEXT: llvm.mul %{{.*}}, %[[C8]] overflow<nsw> : i64
  // CHECK:      %[[OFF:.*]] = llvm.add %{{.*}}, %{{.*}} overflow<nsw> : i64
  // CHECK:      %[[OFF2:.*]] = llvm.add %[[OFF]], %{{.*}} overflow<nsw> : i64
  // CHECK:      llvm.insertvalue %[[OFF2]], %{{.*}}[2]
  %0 = memref.subview %m[%i, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  func.return %0 : memref<4x4xf32, strided<[8, 1], offset: ?>>
}

// CHECK: llvm.func @infer_alloc(i64) -> !llvm.ptr
// CHECK: llvm.func @infer_free(!llvm.ptr)

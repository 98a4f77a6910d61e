// RUN: infer-opt %s -p convert-vector-to-llvm | filecheck %s

// CHECK-LABEL: func.func @load_fma_store
func.func @load_fma_store(%m: memref<?xf32>, %i: index, %s: f32) {
  // vector accesses get the element's alignment: numpy buffers may be 16-byte aligned only
  // CHECK:      %[[G:.*]] = llvm.getelementptr inbounds %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: %[[V:.*]] = llvm.load %[[G]] {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
  %v = vector.load %m[%i] : memref<?xf32>, vector<8xf32>
  // broadcast: insertelement + zero shuffle
  // CHECK:      %[[U:.*]] = llvm.mlir.undef : vector<8xf32>
  // CHECK:      %[[E:.*]] = llvm.insertelement %s, %[[U]][%{{.*}} : i32] : vector<8xf32>
  // CHECK-NEXT: %[[B:.*]] = llvm.shufflevector %[[E]], %[[U]] [0, 0, 0, 0, 0, 0, 0, 0] : vector<8xf32>
  %b = vector.broadcast %s : f32 to vector<8xf32>
  // CHECK-NEXT: %[[F:.*]] = llvm.call_intrinsic "llvm.fma.v8f32"(%[[V]], %[[B]], %[[V]]) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  %f = vector.fma %v, %b, %v : vector<8xf32>
  // CHECK:      llvm.store %[[F]], %{{.*}} {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr
  vector.store %f, %m[%i] : memref<?xf32>, vector<8xf32>
  func.return
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%v: vector<8xf32>, %w: vector<8xi32>, %acc: f32) -> (f32, i32, f32, f32) {
  // CHECK:      llvm.call_intrinsic "llvm.vector.reduce.fadd.v8f32"(%acc, %v) {fastmathFlags = #llvm.fastmath<reassoc>} : (f32, vector<8xf32>) -> f32
  %0 = vector.reduction <add>, %v, %acc fastmath<reassoc> : vector<8xf32> into f32
  // CHECK:      llvm.call_intrinsic "llvm.vector.reduce.smax.v8i32"(%w) : (vector<8xi32>) -> i32
  %1 = vector.reduction <maxsi>, %w : vector<8xi32> into i32
  // CHECK:      %[[M:.*]] = llvm.call_intrinsic "llvm.vector.reduce.fmaximum.v8f32"(%v) : (vector<8xf32>) -> f32
  // CHECK-NEXT: llvm.call_intrinsic "llvm.maximum.f32"(%acc, %[[M]]) : (f32, f32) -> f32
  %2 = vector.reduction <maximumf>, %v, %acc : vector<8xf32> into f32
  // CHECK:      llvmx.extractelement %v[%{{.*}} : i64] : vector<8xf32> -> f32
  %3 = vector.extract %v[3] : f32 from vector<8xf32>
  func.return %0, %1, %2, %3 : f32, i32, f32, f32
}

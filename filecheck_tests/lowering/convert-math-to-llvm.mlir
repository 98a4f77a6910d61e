// RUN: infer-opt %s -p convert-math-to-llvm | filecheck %s

// CHECK-LABEL: func.func @math
func.func @math(%x: f32, %v: vector<4xf32>, %h: f16) -> (f32, vector<4xf32>, vector<4xf32>, f16, f32) {
  // intrinsics are mangled by type, so one intrinsic can be used at several types
  // CHECK:      %[[E:.*]] = llvm.call_intrinsic "llvm.exp.f32"(%x) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
  %0 = math.exp %x fastmath<fast> : f32
  // CHECK-NEXT: llvm.call_intrinsic "llvm.tanh.v4f32"(%v) : (vector<4xf32>) -> vector<4xf32>
  %1 = math.tanh %v : vector<4xf32>
  // erf has no intrinsic: libm, lane by lane on vectors, through f32 for f16
  // CHECK-COUNT-4: llvm.call @erff({{.*}}) : (f32) -> f32
  %2 = math.erf %v : vector<4xf32>
  // CHECK:      %[[W:.*]] = llvm.fpext %h : f16 to f32
  // CHECK-NEXT: %[[R:.*]] = llvm.call @erff(%[[W]]) : (f32) -> f32
  // CHECK-NEXT: llvm.fptrunc %[[R]] : f32 to f16
  %3 = math.erf %h : f16
  // CHECK:      %[[S:.*]] = llvm.call_intrinsic "llvm.sqrt.f32"(%[[E]]) : (f32) -> f32
  // CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK-NEXT: llvm.fdiv %[[ONE]], %[[S]] : f32
  %4 = math.rsqrt %0 : f32
  func.return %0, %1, %2, %3, %4 : f32, vector<4xf32>, vector<4xf32>, f16, f32
}
// CHECK: llvm.func @erff(f32) -> f32

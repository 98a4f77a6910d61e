// RUN: infer-opt %s -p convert-arith-to-llvm | filecheck %s

// CHECK-LABEL: func.func @float_ops
func.func @float_ops(%x: f32, %y: f32, %v: vector<8xf32>) -> (f32, i1, vector<8xf32>, i32) {
  // CHECK:      %[[M:.*]] = llvm.fmul %x, %y {fastmathFlags = #llvm.fastmath<contract>} : f32
  // CHECK-NEXT: %[[A:.*]] = llvm.fadd %[[M]], %y {fastmathFlags = #llvm.fastmath<contract>} : f32
  // CHECK-NEXT: %[[MX:.*]] = llvm.call_intrinsic "llvm.maximum.f32"(%[[A]], %x) : (f32, f32) -> f32
  %0 = arith.mulf %x, %y fastmath<contract> : f32
  %1 = arith.addf %0, %y fastmath<contract> : f32
  %2 = arith.maximumf %1, %x : f32
  // CHECK-NEXT: llvmx.fcmp "olt" %x, %y : f32 -> i1
  %3 = arith.cmpf olt, %x, %y : f32
  // CHECK-NEXT: %[[Z:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<8xf32>) : vector<8xf32>
  // CHECK-NEXT: llvm.fadd %v, %[[Z]] {fastmathFlags = #llvm.fastmath<fast>} : vector<8xf32>
  %z = arith.constant dense<0.0> : vector<8xf32>
  %4 = arith.addf %v, %z fastmath<fast> : vector<8xf32>
  // CHECK-NEXT: llvmx.fptosi %x : f32 to i32
  %5 = arith.fptosi %x : f32 to i32
  func.return %2, %3, %4, %5 : f32, i1, vector<8xf32>, i32
}

// CHECK-LABEL: func.func @index_ops
func.func @index_ops(%i: index) -> i32 {
  // index is i64; the original type is handed back through unrealized casts
  // CHECK:      %[[C:.*]] = llvm.mlir.constant(4) : i64
  // CHECK:      %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
  // CHECK:      llvm.add %[[I]], {{.*}} : i64
  // CHECK:      llvm.trunc {{.*}} : i64 to i32
  %c4 = arith.constant 4 : index
  %0 = arith.addi %i, %c4 : index
  %1 = arith.index_cast %0 : index to i32
  func.return %1 : i32
}

// CHECK-LABEL: func.func @floordiv
func.func @floordiv(%a: i32, %b: i32) -> i32 {
  // floor(a/b) = q - 1 if a % b != 0 and sign(a) != sign(b)
  // CHECK:      %[[Q:.*]] = llvm.sdiv %a, %b : i32
  // CHECK-NEXT: %[[R:.*]] = llvm.srem %a, %b : i32
  // CHECK:      %[[NZ:.*]] = llvm.icmp "ne" %[[R]], %{{.*}} : i32
  // CHECK:      %[[NEG:.*]] = llvm.icmp "slt" %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: %[[ADJ:.*]] = llvm.and %[[NZ]], %[[NEG]] : i1
  // CHECK:      %[[QM1:.*]] = llvm.sub %[[Q]], %{{.*}} : i32
  // CHECK-NEXT: llvm.select %[[ADJ]], %[[QM1]], %[[Q]] : i1, i32
  %0 = arith.floordivsi %a, %b : i32
  func.return %0 : i32
}

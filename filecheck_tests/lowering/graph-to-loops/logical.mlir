// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Integer Mod: a divisor of 0 or -1 (srem's undefined cases) becomes 1, whose remainder
// (0) is theirs too; the floor remainder moves a nonzero r of the other sign by d.
// CHECK-LABEL: func.func @mod_int
// CHECK:         %[[A:.*]] = memref.load %a[%{{.*}}] : memref<4xi32>
// CHECK-NEXT:    %[[D:.*]] = memref.load %b[%{{.*}}] : memref<4xi32>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[IS0:.*]] = arith.cmpi eq, %[[D]], %[[Z]] : i32
// CHECK-NEXT:    %[[M1:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    %[[ISM1:.*]] = arith.cmpi eq, %[[D]], %[[M1]] : i32
// CHECK-NEXT:    %[[BAD:.*]] = arith.ori %[[IS0]], %[[ISM1]] : i1
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[SAFE:.*]] = arith.select %[[BAD]], %[[ONE]], %[[D]] : i32
// CHECK-NEXT:    %[[R:.*]] = arith.remsi %[[A]], %[[SAFE]] : i32
// CHECK-NEXT:    %[[X:.*]] = arith.xori %[[R]], %[[SAFE]] : i32
// CHECK-NEXT:    %[[DIFFER:.*]] = arith.cmpi slt, %[[X]], %[[Z]] : i32
// CHECK-NEXT:    %[[NZ:.*]] = arith.cmpi ne, %[[R]], %[[Z]] : i32
// CHECK-NEXT:    %[[ADJ:.*]] = arith.andi %[[NZ]], %[[DIFFER]] : i1
// CHECK-NEXT:    %[[MOVED:.*]] = arith.addi %[[R]], %[[SAFE]] : i32
// CHECK-NEXT:    %[[Y:.*]] = arith.select %[[ADJ]], %[[MOVED]], %[[R]] : i32
// CHECK-NEXT:    memref.store %[[Y]]
func.func @mod_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = graph.mod %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// Float fmod is LLVM's frem (C's fmod, exact); fmod = 0 then moves it to d's sign.
// CHECK-LABEL: func.func @mod_float
// CHECK:         %[[R:.*]] = llvm.frem %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    memref.store %[[R]]
// CHECK-LABEL: func.func @mod_float_floor
// CHECK:         %[[R:.*]] = llvm.frem %{{.*}}, %[[D:.*]] : f16
// CHECK:         math.copysign %{{.*}}, %[[D]] : f16
func.func @mod_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.mod %a, %b {fmod = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @mod_float_floor(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = graph.mod %a, %b : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  func.return %0 : tensor<4xf16>
}

// Shifts by the width or more (negative amounts compare unsigned as such) shift in only
// the fill: a signed right shift by width - 1, a left shift 0.
// CHECK-LABEL: func.func @shift
// CHECK:         %[[Y:.*]] = memref.load %y[%{{.*}}] : memref<4xi8>
// CHECK-NEXT:    %[[W:.*]] = arith.constant 8 : i8
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %[[Y]], %[[W]] : i8
// CHECK-NEXT:    %[[W1:.*]] = arith.constant 7 : i8
// CHECK-NEXT:    %[[S:.*]] = arith.select %[[IN]], %[[Y]], %[[W1]] : i8
// CHECK-NEXT:    arith.shrsi %{{.*}}, %[[S]] : i8
// CHECK:         %[[IN2:.*]] = arith.cmpi ult
// CHECK:         %[[SHL:.*]] = arith.shli
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    arith.select %[[IN2]], %[[SHL]], %[[Z]] : i8
func.func @shift(%x: tensor<4xi8>, %y: tensor<4xi8>, %u: tensor<4xui8>) -> (tensor<4xi8>, tensor<4xui8>) {
  %0 = graph.bit_shift %x, %y {direction = "RIGHT"} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  %1 = graph.bit_shift %u, %u {direction = "LEFT"} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  func.return %0, %1 : tensor<4xi8>, tensor<4xui8>
}

// PRelu reads its slope broadcast to X's index (unit dims at 0).
// CHECK-LABEL: func.func @prelu
// CHECK:         %[[X:.*]] = memref.load %x[%{{.*}}, %[[C:.*]], %{{.*}}] : memref<?x3x4xf32>
// CHECK-NEXT:    %[[Z0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[S:.*]] = memref.load %s[%[[C]], %[[Z0]]] : memref<3x1xf32>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[NEG:.*]] = arith.cmpf olt, %[[X]], %[[Z]] : f32
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[X]], %[[S]] fastmath<contract> : f32
// CHECK-NEXT:    arith.select %[[NEG]], %[[M]], %[[X]] : f32
func.func @prelu(%x: tensor<?x3x4xf32>, %s: tensor<3x1xf32>) -> tensor<?x3x4xf32> {
  %0 = graph.prelu %x, %s : (tensor<?x3x4xf32>, tensor<3x1xf32>) -> tensor<?x3x4xf32>
  func.return %0 : tensor<?x3x4xf32>
}

// Not is a xor with all ones; And, Or, Xor are andi, ori, xori on i1.
// CHECK-LABEL: func.func @not_and
// CHECK:         %[[T:.*]] = arith.constant true
// CHECK-NEXT:    arith.xori %{{.*}}, %[[T]] : i1
// CHECK:         arith.andi %{{.*}}, %{{.*}} : i1
func.func @not_and(%p: tensor<4xi1>, %q: tensor<4xi1>) -> tensor<4xi1> {
  %0 = graph.not %p : (tensor<4xi1>) -> tensor<4xi1>
  %1 = graph.and %0, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return %1 : tensor<4xi1>
}

// LessOrEqual / GreaterOrEqual: ordered float predicates (NaN gives false), unsigned ones
// for unsigned integers.
// CHECK-LABEL: func.func @compare
// CHECK:         arith.cmpf ole, %{{.*}}, %{{.*}} : f32
// CHECK:         arith.cmpi uge, %{{.*}}, %{{.*}} : i16
func.func @compare(%a: tensor<4xf32>, %b: tensor<4xf32>, %u: tensor<4xui16>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = graph.less_or_equal %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = graph.greater_or_equal %u, %u : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xi1>
  func.return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// Bitwise and logical binary ops are one arith op on the signless integers (i32 here,
// i1 for the logical ones); BitwiseNot is x ^ -1.
// CHECK-LABEL: func.func @bitwise
// CHECK:         %band = memref.alloc() {alignment = 64 : i64} : memref<4xi32>
// CHECK:           %[[A:.*]] = memref.load %a[%[[I:.*]]] : memref<4xi32>
// CHECK-NEXT:      %[[B:.*]] = memref.load %b[%[[I]]] : memref<4xi32>
// CHECK-NEXT:      %[[R:.*]] = arith.andi %[[A]], %[[B]] : i32
// CHECK-NEXT:      memref.store %[[R]], %band[%[[I]]] : memref<4xi32>
// CHECK:         %bor = memref.alloc
// CHECK:           %[[A:.*]] = memref.load %a
// CHECK-NEXT:      %[[B:.*]] = memref.load %b
// CHECK-NEXT:      %[[R:.*]] = arith.ori %[[A]], %[[B]] : i32
// CHECK-NEXT:      memref.store %[[R]], %bor
// CHECK:         %bxor = memref.alloc
// CHECK:           %[[A:.*]] = memref.load %a
// CHECK-NEXT:      %[[B:.*]] = memref.load %b
// CHECK-NEXT:      %[[R:.*]] = arith.xori %[[A]], %[[B]] : i32
// CHECK-NEXT:      memref.store %[[R]], %bxor
// CHECK:         %bnot = memref.alloc
// CHECK:           %[[A:.*]] = memref.load %a
// CHECK-NEXT:      %[[ONES:.*]] = arith.constant -1 : i32
// CHECK-NEXT:      %[[R:.*]] = arith.xori %[[A]], %[[ONES]] : i32
// CHECK-NEXT:      memref.store %[[R]], %bnot
// CHECK:         %or = memref.alloc() {alignment = 64 : i64} : memref<4xi1>
// CHECK:           %[[P:.*]] = memref.load %p
// CHECK-NEXT:      %[[Q:.*]] = memref.load %q
// CHECK-NEXT:      %[[R:.*]] = arith.ori %[[P]], %[[Q]] : i1
// CHECK-NEXT:      memref.store %[[R]], %or
// CHECK:         %xor = memref.alloc() {alignment = 64 : i64} : memref<4xi1>
// CHECK:           %[[P:.*]] = memref.load %p
// CHECK-NEXT:      %[[Q:.*]] = memref.load %q
// CHECK-NEXT:      %[[R:.*]] = arith.xori %[[P]], %[[Q]] : i1
// CHECK-NEXT:      memref.store %[[R]], %xor
func.func @bitwise(%a: tensor<4xi32>, %b: tensor<4xi32>, %p: tensor<4xi1>, %q: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>) {
  %band = graph.bitwise_and %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %bor = graph.bitwise_or %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %bxor = graph.bitwise_xor %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %bnot = graph.bitwise_not %a : (tensor<4xi32>) -> tensor<4xi32>
  %or = graph.or %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %xor = graph.xor %p, %q : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return %band, %bor, %bxor, %bnot, %or, %xor : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>
}

// BitCast keeps the bits: f32 to i32 is arith.bitcast; a byte to bool tests it against
// 0, a bool to a byte zero-extends; ui8 to i8 is the same signless byte, a plain copy.
// CHECK-LABEL: func.func @bit_cast
// CHECK:         %fi = memref.alloc() {alignment = 64 : i64} : memref<4xi32>
// CHECK:           %[[F:.*]] = memref.load %f[%[[I:.*]]] : memref<4xf32>
// CHECK-NEXT:      %[[R:.*]] = arith.bitcast %[[F]] : f32 to i32
// CHECK-NEXT:      memref.store %[[R]], %fi[%[[I]]] : memref<4xi32>
// CHECK:         %ub = memref.alloc() {alignment = 64 : i64} : memref<4xi1>
// CHECK:           %[[U:.*]] = memref.load %u
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT:      %[[NZ:.*]] = arith.cmpi ne, %[[U]], %[[Z]] : i8
// CHECK-NEXT:      memref.store %[[NZ]], %ub
// CHECK:         %bu = memref.alloc() {alignment = 64 : i64} : memref<4xi8>
// CHECK:           %[[P:.*]] = memref.load %p
// CHECK-NEXT:      %[[E:.*]] = arith.extui %[[P]] : i1 to i8
// CHECK-NEXT:      memref.store %[[E]], %bu
// CHECK:         %us = memref.alloc() {alignment = 64 : i64} : memref<4xi8>
// CHECK:           %[[U:.*]] = memref.load %u
// CHECK-NEXT:      memref.store %[[U]], %us
func.func @bit_cast(%f: tensor<4xf32>, %u: tensor<4xui8>, %p: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xi8>, tensor<4xi8>) {
  %fi = graph.bit_cast %f {to = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %ub = graph.bit_cast %u {to = i1} : (tensor<4xui8>) -> tensor<4xi1>
  %bu = graph.bit_cast %p {to = i8} : (tensor<4xi1>) -> tensor<4xi8>
  %us = graph.bit_cast %u {to = i8} : (tensor<4xui8>) -> tensor<4xi8>
  func.return %fi, %ub, %bu, %us : tensor<4xi32>, tensor<4xi1>, tensor<4xi8>, tensor<4xi8>
}

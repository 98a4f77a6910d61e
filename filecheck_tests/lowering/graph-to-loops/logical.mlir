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

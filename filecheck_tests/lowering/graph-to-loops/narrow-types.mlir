// RUN: infer-opt %s -p widen-half,graph-to-loops | filecheck %s

// Buffers of narrow types hold codes: f8E4M3FN as i8, bf16 as i16, i4 as i8 (low bits).
// Decoding a float8 code builds the f32 from its fields: the normal value's bits, the
// subnormal one as mantissa * 2^-9, NaN where exponent and mantissa are all ones, the sign.
// CHECK-LABEL: func.func @decode(%x: memref<4xi8>) -> memref<4xf32>
// CHECK:         %[[C:.*]] = memref.load %x[%{{.*}}] : memref<4xi8>
// CHECK-NEXT:    arith.extui %[[C]] : i8 to i32
// CHECK:         %[[N:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:         %[[S:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK:         arith.select %{{.*}}, %[[S]], %[[N]] : f32
// CHECK:         arith.constant 0x7fc00000 : f32
// CHECK:         %[[NEG:.*]] = arith.negf %[[M:.*]] : f32
// CHECK-NEXT:    %[[V:.*]] = arith.select %{{.*}}, %[[NEG]], %[[M]] : f32
// CHECK-NEXT:    memref.store %[[V]], %{{.*}} : memref<4xf32>
func.func @decode(%x: tensor<4xf8E4M3FN>) -> tensor<4xf32> {
  %0 = graph.cast %x {to = f32} : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// Encoding rounds |x| to the quantum of its binade (half to even, in f64), then selects
// the code of an overflow (Inf for bf16) and of NaN; a sub-byte integer truncates toward
// zero and keeps its low bits.
// CHECK-LABEL: func.func @encode(%x: memref<4xf32>) -> (memref<4xi16>, memref<4xi8>)
// CHECK:         arith.extf %{{.*}} : f32 to f64
// CHECK:         math.roundeven %{{.*}} : f64
// CHECK:         arith.constant 32640 : i64
// CHECK:         arith.cmpf uno
// CHECK:         %[[B:.*]] = arith.trunci %{{.*}} : i64 to i16
// CHECK-NEXT:    memref.store %[[B]], %{{.*}} : memref<4xi16>
// CHECK:         arith.fptosi %{{.*}} : f64 to i64
// CHECK-NEXT:    %[[T:.*]] = arith.trunci %{{.*}} : i64 to i8
// CHECK-NEXT:    %[[M:.*]] = arith.constant 15 : i8
// CHECK-NEXT:    %[[I:.*]] = arith.andi %[[T]], %[[M]] : i8
// CHECK-NEXT:    memref.store %[[I]], %{{.*}} : memref<4xi8>
func.func @encode(%x: tensor<4xf32>) -> (tensor<4xbf16>, tensor<4xi4>) {
  %0 = graph.cast %x {to = bf16} : (tensor<4xf32>) -> tensor<4xbf16>
  %1 = graph.cast %x {to = i4} : (tensor<4xf32>) -> tensor<4xi4>
  func.return %0, %1 : tensor<4xbf16>, tensor<4xi4>
}

// Other ops on a narrow type compute on f32 between casts (exact for data movement).
// CHECK-LABEL: func.func @widen(%x: memref<2x3xi8>) -> memref<3x2xi8>
// CHECK:         arith.bitcast %{{.*}} : i32 to f32
// CHECK:         math.roundeven
// CHECK:         memref.store %{{.*}} : memref<3x2xi8>
func.func @widen(%x: tensor<2x3xf8E5M2>) -> tensor<3x2xf8E5M2> {
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf8E5M2>) -> tensor<3x2xf8E5M2>
  func.return %0 : tensor<3x2xf8E5M2>
}

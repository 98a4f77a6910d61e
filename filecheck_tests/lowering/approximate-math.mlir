// RUN: infer-opt %s -p approximate-math | filecheck %s

// f32 exp (on vectors, LLVM's fptosi, fcmp and select: xDSL's arith takes no vectors
// there): clamp (NaN-ignoring), n = roundeven(x log2 e), r = x - n ln2 in two FMAs,
// 1 + r + r^2 P(r), times 2^(n/2) 2^(n - n/2) built in the exponent field; NaN put back.
// CHECK-LABEL: func.func @exp
// CHECK-SAME:    (%[[X:.*]]: vector<8xf32>)
// CHECK:         %[[LO:.*]] = arith.maxnumf %[[X]], %{{.*}} : vector<8xf32>
// CHECK-NEXT:    %{{.*}} = arith.constant dense<1.500000e+02> : vector<8xf32>
// CHECK-NEXT:    %[[XC:.*]] = arith.minnumf %[[LO]], %{{.*}} : vector<8xf32>
// CHECK:         %[[N:.*]] = math.roundeven %{{.*}} : vector<8xf32>
// CHECK:         math.fma
// CHECK-COUNT-7: math.fma
// CHECK:         %[[NI:.*]] = llvmx.fptosi %[[N]] : vector<8xf32> to vector<8xi32>
// CHECK-NEXT:    %{{.*}} = arith.constant dense<1> : vector<8xi32>
// CHECK-NEXT:    %[[HALF:.*]] = arith.shrsi %[[NI]], %{{.*}} : vector<8xi32>
// CHECK-NEXT:    %{{.*}} = arith.subi %[[NI]], %[[HALF]] : vector<8xi32>
// CHECK:         arith.shli
// CHECK-NEXT:    vector.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK:         %[[NAN:.*]] = llvmx.fcmp "uno" %[[X]], %[[X]] : vector<8xf32> -> vector<8xi1>
// CHECK-NEXT:    %[[Y:.*]] = llvmx.select %[[NAN]], %[[X]], %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NEXT:    func.return %[[Y]]
// CHECK-NOT:     math.exp
func.func @exp(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.exp %x : vector<8xf32>
  func.return %y : vector<8xf32>
}

// f32 erf: x + x Q(x^2) up to 0.921875, else 1 - exp(-(t + t R(t))) with t = min(|x|, 3.92),
// the sign copied from x; scalars take the same path as vectors.
// CHECK-LABEL: func.func @erf
// CHECK-SAME:    (%[[X:.*]]: f32)
// CHECK:         %[[T:.*]] = math.absf %[[X]] : f32
// CHECK:         %{{.*}} = arith.constant 3.920000e+00 : f32
// CHECK-NEXT:    %{{.*}} = arith.minnumf %[[T]], %{{.*}} : f32
// CHECK:         math.roundeven
// CHECK:         %{{.*}} = arith.constant 9.218750e-01 : f32
// CHECK-NEXT:    %[[SMALL:.*]] = arith.cmpf ole, %[[T]], %{{.*}} : f32
// CHECK-NEXT:    %[[M:.*]] = arith.select %[[SMALL]], %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %{{.*}} = math.copysign %[[M]], %[[X]] : f32
// CHECK-NEXT:    %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT:    arith.select %[[NAN]], %[[X]]
// CHECK-NOT:     math.erf
func.func @erf(%x: f32) -> f32 {
  %y = math.erf %x : f32
  func.return %y : f32
}

// f32 tanh: x + x^3 S(x^2) up to 0.9, else 1 - 2 / (exp(2 |x|) + 1), the sign copied
// from x.
// CHECK-LABEL: func.func @tanh
// CHECK-SAME:    (%[[X:.*]]: vector<8xf32>)
// CHECK:         %[[T:.*]] = math.absf %[[X]] : vector<8xf32>
// CHECK-COUNT-8: math.fma
// CHECK:         %[[T2:.*]] = arith.addf %[[T]], %[[T]] : vector<8xf32>
// CHECK:         math.roundeven
// CHECK:         arith.divf
// CHECK:         %{{.*}} = arith.constant dense<9.000000e-01> : vector<8xf32>
// CHECK-NEXT:    %[[SMALL:.*]] = llvmx.fcmp "ole" %[[T]], %{{.*}} : vector<8xf32> -> vector<8xi1>
// CHECK-NEXT:    %[[M:.*]] = llvmx.select %[[SMALL]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NEXT:    %{{.*}} = math.copysign %[[M]], %[[X]] : vector<8xf32>
// CHECK-NOT:     math.tanh
func.func @tanh(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.tanh %x : vector<8xf32>
  func.return %y : vector<8xf32>
}

// f64 keeps libm's (convert-math-to-llvm); other functions are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:    math.exp %{{.*}} : f64
// CHECK-NEXT:    math.erf %{{.*}} : vector<2xf64>
// CHECK-NEXT:    math.tanh %{{.*}} : f64
// CHECK-NEXT:    math.sin %{{.*}} : f32
func.func @untouched(%x: f64, %v: vector<2xf64>, %s: f32) -> (f64, vector<2xf64>, f64, f32) {
  %a = math.exp %x : f64
  %b = math.erf %v : vector<2xf64>
  %c = math.tanh %x : f64
  %d = math.sin %s : f32
  func.return %a, %b, %c, %d : f64, vector<2xf64>, f64, f32
}

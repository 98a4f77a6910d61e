// RUN: infer-opt %s -p 'qnn-legalize{vnni=true lanes=16},graph-to-loops' | filecheck %s

// The int8 kernels' epilogue requantizes in f32 and clamps with compare + select (one
// vmaxps / vminps a vector; the values are never NaN), not maximumf / minimumf.
// CHECK-LABEL: func.func @matmul
// CHECK:         llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK:         %[[V:.*]] = arith.mulf
// CHECK-NEXT:    %[[GT:.*]] = llvmx.fcmp "ogt" %[[V]], %[[LO:.*]] : vector<16xf32> -> vector<16xi1>
// CHECK-NEXT:    %[[MAX:.*]] = llvmx.select %[[GT]], %[[V]], %[[LO]] : vector<16xi1>, vector<16xf32>
// CHECK-NEXT:    %[[LT:.*]] = llvmx.fcmp "olt" %[[MAX]], %[[HI:.*]] : vector<16xf32> -> vector<16xi1>
// CHECK-NEXT:    %[[MIN:.*]] = llvmx.select %[[LT]], %[[MAX]], %[[HI]] : vector<16xi1>, vector<16xf32>
// CHECK-NEXT:    math.roundeven %[[MIN]]
// CHECK-NOT:     arith.maximumf
// CHECK-NOT:     arith.minimumf
builtin.module {
  func.func @matmul(%a: tensor<2x3xui8>) -> tensor<2x2xui8> {
    %zy = graph.constant dense<3> : tensor<ui8>
    %w = graph.constant dense<[[1, 2], [3, -4], [5, 6]]> : tensor<3x2xi16>
    %b = graph.constant dense<[18, 8]> : tensor<2xi32>
    %m = graph.constant dense<0.333333313> : tensor<1xf32>
    %y = qnn.matmul_requant %a, %w, %b, %m, %zy {x_zero_point = 7 : i64, lo = 3 : i64, hi = 255 : i64, n = 2 : i64} : (tensor<2x3xui8>, tensor<3x2xi16>, tensor<2xi32>, tensor<1xf32>, tensor<ui8>) -> tensor<2x2xui8>
    func.return %y : tensor<2x2xui8>
  }
}

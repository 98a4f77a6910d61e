// graph.constant's custom syntax: small finite data as a readable dense literal, inf/nan
// and anything over 16 elements as hex data (xDSL prints inf as a hex integer literal that it
// reads back as an integer value: no generic-form round trip here), scalars keep rank 0,
// and weights above the elision limit print as elided<hash> and parse back without data.

// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --elide-weights 2 | filecheck %s --check-prefix=ELIDE
// RUN: infer-opt %s --elide-weights 2 | infer-opt --elide-weights 2 | filecheck %s --check-prefix=ELIDE

func.func @constants() -> (tensor<f32>, tensor<2xf32>, tensor<i64>, tensor<3xi1>, tensor<0x2xf32>) {
  %inf = graph.constant dense<"0x0000807F"> : tensor<f32>
  %nan = graph.constant dense<"0x0000C07F0000803F"> : tensor<2xf32>
  %scalar = graph.constant dense<7> : tensor<i64>
  %bools = graph.constant dense<[true, false, true]> : tensor<3xi1>
  %empty = graph.constant dense<> : tensor<0x2xf32>
  func.return %inf, %nan, %scalar, %bools, %empty : tensor<f32>, tensor<2xf32>, tensor<i64>, tensor<3xi1>, tensor<0x2xf32>
}

// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %inf = graph.constant dense<"0x0000807F"> : tensor<f32>
// CHECK-NEXT:    %nan = graph.constant dense<"0x0000C07F0000803F"> : tensor<2xf32>
// CHECK-NEXT:    %scalar = graph.constant dense<7> : tensor<i64>
// CHECK-NEXT:    %bools = graph.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK-NEXT:    %empty = graph.constant dense<> : tensor<0x2xf32>

// ELIDE:         %inf = graph.constant dense<"0x0000807F"> : tensor<f32>
// ELIDE-NEXT:    %nan = graph.constant dense<"0x0000C07F0000803F"> : tensor<2xf32>
// ELIDE-NEXT:    %scalar = graph.constant dense<7> : tensor<i64>
// ELIDE-NEXT:    %bools = graph.constant elided<"{{[0-9a-f]+}}"> : tensor<3xi1>

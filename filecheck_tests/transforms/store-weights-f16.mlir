// RUN: infer-opt %s -p store-weights-f16 --keep-weights | filecheck %s

// A conv's and a packed matmul's f32 weights become f16 constants (1.5 = 0x3E00 in f16,
// little-endian); the ops keep computing in f32, their other operands untouched (the
// bias stays f32).
// CHECK-LABEL: func.func @weights
// CHECK:         %w = graph.constant dense<"0x{{(003E)+}}"> : tensor<4x2x3x3xf16>
// CHECK-NEXT:    %b = graph.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %y = graph.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf16>, tensor<4xf32>) -> tensor<1x4x5x5xf32>
// CHECK-NEXT:    %p = graph.constant dense<"0x{{(003E)+}}"> : tensor<1x5x16xf16>
// CHECK-NEXT:    %z = graph.matmul_packed %a, %p {n = 10 : i64} : (tensor<?x5xf32>, tensor<1x5x16xf16>) -> tensor<?x10xf32>
func.func @weights(%x: tensor<1x2x5x5xf32>, %a: tensor<?x5xf32>) -> (tensor<1x4x5x5xf32>, tensor<?x10xf32>) {
  %w = graph.constant dense<1.5> : tensor<4x2x3x3xf32>
  %b = graph.constant dense<1.0> : tensor<4xf32>
  %y = graph.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x5x5xf32>
  %p = graph.constant dense<1.5> : tensor<1x5x16xf32>
  %z = graph.matmul_packed %a, %p {n = 10 : i64} : (tensor<?x5xf32>, tensor<1x5x16xf32>) -> tensor<?x10xf32>
  func.return %y, %z : tensor<1x4x5x5xf32>, tensor<?x10xf32>
}

// A weight another op reads as f32 stays f32, as does one with a finite value beyond
// f16's 65504.
// CHECK-LABEL: func.func @kept
// CHECK:         %shared = graph.constant dense<1.500000e+00> : tensor<4x2x1x1xf32>
// CHECK:         %big = graph.constant dense<7.000000e+04> : tensor<4x2x1x1xf32>
func.func @kept(%x: tensor<1x2x5x5xf32>) -> (tensor<1x4x5x5xf32>, tensor<4x2x1x1xf32>, tensor<1x4x5x5xf32>) {
  %shared = graph.constant dense<1.5> : tensor<4x2x1x1xf32>
  %y = graph.conv %x, %shared : (tensor<1x2x5x5xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x5x5xf32>
  %neg = graph.neg %shared : (tensor<4x2x1x1xf32>) -> tensor<4x2x1x1xf32>
  %big = graph.constant dense<70000.0> : tensor<4x2x1x1xf32>
  %v = graph.conv %x, %big : (tensor<1x2x5x5xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x5x5xf32>
  func.return %y, %neg, %v : tensor<1x4x5x5xf32>, tensor<4x2x1x1xf32>, tensor<1x4x5x5xf32>
}

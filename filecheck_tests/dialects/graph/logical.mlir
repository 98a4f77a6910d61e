// The logical, bitwise and integer ops and PRelu parse, verify, print and round-trip.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @logical(%p: tensor<2x3xi1>, %q: tensor<3xi1>, %i: tensor<2x3xi32>, %j: tensor<3xi32>, %u: tensor<2x3xui8>, %x: tensor<2x3xf32>, %s: tensor<3xf32>) {
    %and = graph.and %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
    %or = graph.or %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
    %xor = graph.xor %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
    %not = graph.not %p : (tensor<2x3xi1>) -> tensor<2x3xi1>
    %bitwise_and = graph.bitwise_and %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %bitwise_or = graph.bitwise_or %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %bitwise_xor = graph.bitwise_xor %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %bitwise_not = graph.bitwise_not %u : (tensor<2x3xui8>) -> tensor<2x3xui8>
    %shl = graph.bit_shift %u, %u {direction = "LEFT"} : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
    %shr = graph.bit_shift %i, %j {direction = "RIGHT"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %mod = graph.mod %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %fmod = graph.mod %x, %s {fmod = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %le = graph.less_or_equal %x, %s : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
    %ge = graph.greater_or_equal %u, %u : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xi1>
    %prelu = graph.prelu %x, %s : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    func.return
  }
}

// CHECK:       builtin.module {
// CHECK-LABEL: func.func @logical(%p: tensor<2x3xi1>, %q: tensor<3xi1>, %i: tensor<2x3xi32>, %j: tensor<3xi32>, %u: tensor<2x3xui8>, %x: tensor<2x3xf32>, %s: tensor<3xf32>) {
// CHECK-NEXT:    %and = graph.and %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    %or = graph.or %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    %xor = graph.xor %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    %not = graph.not %p : (tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT:    %bitwise_and = graph.bitwise_and %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %bitwise_or = graph.bitwise_or %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %bitwise_xor = graph.bitwise_xor %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %bitwise_not = graph.bitwise_not %u : (tensor<2x3xui8>) -> tensor<2x3xui8>
// CHECK-NEXT:    %shl = graph.bit_shift %u, %u {direction = "LEFT"} : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
// CHECK-NEXT:    %shr = graph.bit_shift %i, %j {direction = "RIGHT"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %mod = graph.mod %i, %j : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %fmod = graph.mod %x, %s {fmod = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %le = graph.less_or_equal %x, %s : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %ge = graph.greater_or_equal %u, %u : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xi1>
// CHECK-NEXT:    %prelu = graph.prelu %x, %s : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
// CHECK-NEXT:  }

// The quantization ops parse, verify, print and round-trip.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @quantize(%x: tensor<?x4x6xf32>, %s: tensor<4xf32>, %z: tensor<4xi8>, %q: tensor<?x4x6xui8>, %bs: tensor<?x2x6xf16>) -> (tensor<?x4x6xi8>, tensor<?x4x6xf16>) {
    %y = graph.quantize_linear %x, %s, %z {to = i8} : (tensor<?x4x6xf32>, tensor<4xf32>, tensor<4xi8>) -> tensor<?x4x6xi8>
    %d = graph.dequantize_linear %q, %bs {block_size = 2 : i64} : (tensor<?x4x6xui8>, tensor<?x2x6xf16>) -> tensor<?x4x6xf16>
    func.return %y, %d : tensor<?x4x6xi8>, tensor<?x4x6xf16>
  }
}

// CHECK-LABEL: func.func @quantize
// CHECK-NEXT:    %y = graph.quantize_linear %x, %s, %z {to = i8} : (tensor<?x4x6xf32>, tensor<4xf32>, tensor<4xi8>) -> tensor<?x4x6xi8>
// CHECK-NEXT:    %d = graph.dequantize_linear %q, %bs {block_size = 2 : i64} : (tensor<?x4x6xui8>, tensor<?x2x6xf16>) -> tensor<?x4x6xf16>

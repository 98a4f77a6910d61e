// select-int8-tile: each integer kernel's register tile for its form's lanes, and a conv's
// block of packed pixels (half of L2), written where the lowering reads them.
// RUN: infer-opt %s -p 'select-int8-tile' | filecheck %s
// RUN: infer-opt %s -p 'select-int8-tile{l2=2097152}' | filecheck %s --check-prefix=L2
// RUN: not infer-opt %s -p 'select-int8-tile{l2=100}' 2>&1 | filecheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @conv
// CHECK:         qnn.conv_requant {{.*}} kernel = "pairs", lanes = 8 : i64, tile = array<i64: 6, 2>, block = array<i64: 262144>}
// L2-LABEL:    func.func @conv
// L2:            qnn.conv_requant {{.*}} tile = array<i64: 6, 2>, block = array<i64: 1048576>}
// CHECK-LABEL: func.func @matmul
// CHECK:         qnn.matmul_requant {{.*}} kernel = "vnni", lanes = 16 : i64, tile = array<i64: 4, 4>}
// CHECK-NOT:     block
// BAD:           select-int8-tile: l2 must be >= 1024 bytes, got 100

builtin.module {
  func.func @conv(%x: tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xui8> {
    %zy = graph.constant dense<3> : tensor<ui8>
    %w = graph.constant dense<[[65535], [1]]> : tensor<2x1xi32>
    %b = graph.constant dense<[40, -120]> : tensor<2xi32>
    %m = graph.constant dense<[6.250000e-02, 1.875000e-01]> : tensor<2xf32>
    %y = qnn.conv_requant %x, %w, %b, %m, %zy {x_zero_point = 10 : i64, lo = 3 : i64, hi = 255 : i64, kernel_shape = array<i64: 1, 1>, kernel = "pairs", lanes = 8 : i64} : (tensor<1x2x4x4xui8>, tensor<2x1xi32>, tensor<2xi32>, tensor<2xf32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
    func.return %y : tensor<1x2x4x4xui8>
  }
  func.func @matmul(%a: tensor<?x3xui8>) -> tensor<?x2xui8> {
    %zy = graph.constant dense<5> : tensor<ui8>
    %w = graph.constant dense<1> : tensor<1x1x16xi32>
    %b = graph.constant dense<0> : tensor<16xi32>
    %m = graph.constant dense<0.333333313> : tensor<16xf32>
    %y = qnn.matmul_requant %a, %w, %b, %m, %zy {x_zero_point = 2 : i64, lo = 0 : i64, hi = 255 : i64, n = 2 : i64, kernel = "vnni", lanes = 16 : i64} : (tensor<?x3xui8>, tensor<1x1x16xi32>, tensor<16xi32>, tensor<16xf32>, tensor<ui8>) -> tensor<?x2xui8>
    func.return %y : tensor<?x2xui8>
  }
}

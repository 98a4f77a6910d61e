// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Weights held as f16 (store-weights-f16) are widened to f32 as each kernel loads them;
// the rest of the kernel is the f32 one (conv.mlir, conv-nchwc.mlir, matmul-packed.mlir).
// CHECK-LABEL: func.func @conv
// CHECK:         %[[W:.*]] = memref.load %w[{{.*}}] : memref<4x2x3x3xf16>
// CHECK-NEXT:    %{{.*}} = arith.extf %[[W]] : f16 to f32
// CHECK-NOT:     f16
// CHECK-LABEL: func.func @conv_nchwc
// CHECK:         %[[W0:.*]] = vector.load %w[{{.*}}] : memref<2x2x3x3x8x8xf16>, vector<8xf16>
// CHECK-NEXT:    %[[V0:.*]] = arith.extf %[[W0]] : vector<8xf16> to vector<8xf32>
// CHECK:         %[[W1:.*]] = vector.load %w[{{.*}}] : memref<2x2x3x3x8x8xf16>, vector<8xf16>
// CHECK-NEXT:    %[[V1:.*]] = arith.extf %[[W1]] : vector<8xf16> to vector<8xf32>
// CHECK:         vector.fma %{{.*}}, %[[V0]], %{{.*}} : vector<8xf32>
// CHECK-LABEL: func.func @depthwise_nchwc
// CHECK:         %[[W:.*]] = vector.load %w[{{.*}}] : memref<2x1x3x3x1x8xf16>, vector<8xf16>
// CHECK-NEXT:    %[[V:.*]] = arith.extf %[[W]] : vector<8xf16> to vector<8xf32>
// CHECK:         vector.fma %{{.*}}, %[[V]], %{{.*}} : vector<8xf32>
// CHECK-LABEL: func.func @matmul_packed
// CHECK:         %[[W0:.*]] = vector.load %w[{{.*}}] : memref<2x5x16xf16>, vector<8xf16>
// CHECK-NEXT:    %[[V0:.*]] = arith.extf %[[W0]] : vector<8xf16> to vector<8xf32>
// CHECK:         vector.fma %{{.*}}, %[[V0]], %{{.*}} : vector<8xf32>
func.func @conv(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf16>) -> tensor<1x4x5x5xf32> {
  %y = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf16>) -> tensor<1x4x5x5xf32>
  func.return %y : tensor<1x4x5x5xf32>
}
func.func @conv_nchwc(%x: tensor<?x2x8x14x8xf32>, %w: tensor<2x2x3x3x8x8xf16>) -> tensor<?x2x8x14x8xf32> {
  %y = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x2x8x14x8xf32>, tensor<2x2x3x3x8x8xf16>) -> tensor<?x2x8x14x8xf32>
  func.return %y : tensor<?x2x8x14x8xf32>
}
func.func @depthwise_nchwc(%x: tensor<1x2x8x9x8xf32>, %w: tensor<2x1x3x3x1x8xf16>) -> tensor<1x2x8x9x8xf32> {
  %y = graph.conv_nchwc %x, %w {pads = array<i64: 1, 1, 1, 1>, group = 16 : i64} : (tensor<1x2x8x9x8xf32>, tensor<2x1x3x3x1x8xf16>) -> tensor<1x2x8x9x8xf32>
  func.return %y : tensor<1x2x8x9x8xf32>
}
func.func @matmul_packed(%a: tensor<?x5xf32>, %w: tensor<2x5x16xf16>) -> tensor<?x32xf32> {
  %y = graph.matmul_packed %a, %w {n = 32 : i64, tile = array<i64: 3, 2>} : (tensor<?x5xf32>, tensor<2x5x16xf16>) -> tensor<?x32xf32>
  func.return %y : tensor<?x32xf32>
}

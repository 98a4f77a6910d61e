// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Per-axis quantization to i8: x / scale[c] rounded half to even, plus the zero point,
// clamped to [-128, 127] in f32 (NaN made -128), then converted.
// CHECK-LABEL: func.func @quantize
// CHECK:             %[[X:.*]] = memref.load %x[%{{.*}}, %[[C:.*]], %{{.*}}] : memref<?x4x6xf32>
// CHECK-NEXT:        %[[S:.*]] = memref.load %s[%[[C]]] : memref<4xf32>
// CHECK-NEXT:        %[[Q:.*]] = arith.divf %[[X]], %[[S]] fastmath<contract> : f32
// CHECK-NEXT:        %[[R:.*]] = math.roundeven %[[Q]] : f32
// CHECK-NEXT:        %[[Z:.*]] = memref.load %z[%[[C]]] : memref<4xi8>
// CHECK-NEXT:        %[[ZF:.*]] = arith.sitofp %[[Z]] : i8 to f32
// CHECK-NEXT:        %[[T:.*]] = arith.addf %[[R]], %[[ZF]] fastmath<contract> : f32
// CHECK-NEXT:        %[[LO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK-NEXT:        %[[HI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK-NEXT:        %[[A:.*]] = arith.maximumf %[[T]], %[[LO]] : f32
// CHECK-NEXT:        %[[B:.*]] = arith.minimumf %[[A]], %[[HI]] : f32
// CHECK-NEXT:        %[[NAN:.*]] = arith.cmpf uno, %[[T]], %[[T]] : f32
// CHECK-NEXT:        %[[V:.*]] = arith.select %[[NAN]], %[[LO]], %[[B]] : f32
// CHECK-NEXT:        %[[I:.*]] = arith.fptosi %[[V]] : f32 to i32
// CHECK-NEXT:        %[[I8:.*]] = arith.trunci %[[I]] : i32 to i8
// CHECK-NEXT:        memref.store %[[I8]], %{{.*}} : memref<?x4x6xi8>
func.func @quantize(%x: tensor<?x4x6xf32>, %s: tensor<4xf32>, %z: tensor<4xi8>) -> tensor<?x4x6xi8> {
  %y = graph.quantize_linear %x, %s, %z {to = i8} : (tensor<?x4x6xf32>, tensor<4xf32>, tensor<4xi8>) -> tensor<?x4x6xi8>
  func.return %y : tensor<?x4x6xi8>
}

// Blocked dequantization of u8: the scale's row is the channel's block, c floordiv 2.
// CHECK-LABEL: func.func @dequantize_blocked
// CHECK:             %[[Q:.*]] = memref.load %q[%[[N:.*]], %[[C:.*]], %[[W:.*]]] : memref<?x4x6xi8>
// CHECK-NEXT:        %[[F:.*]] = arith.uitofp %[[Q]] : i8 to f32
// CHECK-NEXT:        %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:        %[[BLOCK:.*]] = arith.floordivsi %[[C]], %[[TWO]] : index
// CHECK-NEXT:        %[[S:.*]] = memref.load %bs[%[[N]], %[[BLOCK]], %[[W]]] : memref<?x2x6xf32>
// CHECK-NEXT:        %[[Y:.*]] = arith.mulf %[[F]], %[[S]] fastmath<contract> : f32
func.func @dequantize_blocked(%q: tensor<?x4x6xui8>, %bs: tensor<?x2x6xf32>) -> tensor<?x4x6xf32> {
  %d = graph.dequantize_linear %q, %bs {block_size = 2 : i64} : (tensor<?x4x6xui8>, tensor<?x2x6xf32>) -> tensor<?x4x6xf32>
  func.return %d : tensor<?x4x6xf32>
}

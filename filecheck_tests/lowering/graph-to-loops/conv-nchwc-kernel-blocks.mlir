// RUN: infer-opt %s -p "plan-loops{outline=true},graph-to-loops,cse" | filecheck %s

// A dense blocked conv's kernel takes the input blocks at run time (x's and w's dim 1):
// DenseNet's 1x1 convs, one per input width, share one kernel. The kernel's reduction over
// input blocks runs to memref.dim of x, in batches of 8 blocks (64 channels; one batch at
// least, so that no input channels still gives the bias): each batch's accumulators start
// from the bias (the first) or the partial sums in y (the others); its result is still
// static (the output blocks are part of the kernel's signature). A depthwise conv keeps
// its static types.
// CHECK-LABEL: func.func @widths
// CHECK:         %[[X2:.*]] = "memref.cast"(%x2) : (memref<1x2x7x7x8xf32>) -> memref<1x?x7x7x8xf32>
// CHECK:         %[[W2:.*]] = "memref.cast"(%w2) : (memref<4x2x1x1x8x8xf32>) -> memref<4x?x1x1x8x8xf32>
// CHECK:         func.call @[[K:__kernel_conv_nchwc_[0-9]+]](%[[X2]], %[[W2]], %{{.*}})
// CHECK:         %[[X3:.*]] = "memref.cast"(%x3) : (memref<1x3x7x7x8xf32>) -> memref<1x?x7x7x8xf32>
// CHECK:         %[[W3:.*]] = "memref.cast"(%w3) : (memref<4x3x1x1x8x8xf32>) -> memref<4x?x1x1x8x8xf32>
// CHECK:         func.call @[[K]](%[[X3]], %[[W3]], %{{.*}})
// CHECK:         func.call @[[D:__kernel_conv_nchwc_[0-9]+]](%{{.*}}, %wd, %{{.*}}) : (memref<1x4x7x7x8xf32>, memref<4x1x3x3x1x8xf32>
// CHECK:       func.func private @[[K]](%[[KX:.*]]: memref<1x?x7x7x8xf32>, %{{.*}}: memref<4x?x1x1x8x8xf32>, %{{.*}}: memref<1x4x7x7x8xf32>)
// CHECK:         %[[BLOCKS:.*]] = memref.dim %[[KX]], %{{.*}} : memref<1x?x7x7x8xf32>
// CHECK:         %[[CEIL:.*]] = arith.ceildivsi %[[BLOCKS]], %[[EIGHT:.*]] : index
// CHECK-NEXT:    %[[BATCHES:.*]] = arith.maxsi %{{.*}}, %[[CEIL]] : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[BATCHES]] step
// CHECK:           %[[HI:.*]] = arith.minsi %{{.*}}, %[[BLOCKS]] : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK:           scf.if %[[FIRST]] -> (vector<8xf32>
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[HI]] step %{{.*}} iter_args(
// CHECK:       func.func private @[[D]](%{{.*}}: memref<1x4x7x7x8xf32>, %{{.*}}: memref<4x1x3x3x1x8xf32>, %{{.*}}: memref<1x4x7x7x8xf32>)
func.func @widths(%x2: tensor<1x2x7x7x8xf32>, %w2: tensor<4x2x1x1x8x8xf32>, %x3: tensor<1x3x7x7x8xf32>,
                  %w3: tensor<4x3x1x1x8x8xf32>, %wd: tensor<4x1x3x3x1x8xf32>) -> tensor<1x4x7x7x8xf32> {
  %a = graph.conv_nchwc %x2, %w2 : (tensor<1x2x7x7x8xf32>, tensor<4x2x1x1x8x8xf32>) -> tensor<1x4x7x7x8xf32>
  %b = graph.conv_nchwc %x3, %w3 : (tensor<1x3x7x7x8xf32>, tensor<4x3x1x1x8x8xf32>) -> tensor<1x4x7x7x8xf32>
  %s = graph.add %a, %b : (tensor<1x4x7x7x8xf32>, tensor<1x4x7x7x8xf32>) -> tensor<1x4x7x7x8xf32>
  %d = graph.conv_nchwc %s, %wd {group = 32 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x7x7x8xf32>, tensor<4x1x3x3x1x8xf32>) -> tensor<1x4x7x7x8xf32>
  func.return %d : tensor<1x4x7x7x8xf32>
}

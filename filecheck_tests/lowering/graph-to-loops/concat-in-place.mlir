// RUN: infer-opt %s -p "plan-loops{outline=true},graph-to-loops" | filecheck %s

// A concat whose inputs are contiguous slabs of its result (every dim before the axis
// is 1: channel blocks of one image) is written in place by the kernels that make them:
// the concat's buffer comes first, bytes viewed as the result and as each slab, and a
// kernel writes its slab. %b (used only by the concat, at byte 0) is written in place;
// %a (also read by %b's conv) and %d (also returned) are copied into theirs.
// CHECK-LABEL: func.func @concat_in_place
// CHECK:         %a = memref.alloc() {{.*}} : memref<1x2x4x6x8xf32>
// CHECK:         func.call @[[K:__kernel_conv_nchwc_[0-9]+]]({{.*}}, %a)
// CHECK:         %[[BYTES:.*]] = memref.alloc() {{.*}} : memref<4608xi8>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %c = memref.view %[[BYTES]][%[[ZERO]]][] : memref<4608xi8> to memref<1x6x4x6x8xf32>
// CHECK-NEXT:    %[[AT:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %b = memref.view %[[BYTES]][%[[AT]]][] : memref<4608xi8> to memref<1x2x4x6x8xf32>
// CHECK:         func.call @[[K]]({{.*}}, %b)
// CHECK:         %d = memref.alloc() {{.*}} : memref<1x2x4x6x8xf32>
// CHECK:         func.call @[[K]]({{.*}}, %d)
// CHECK-NOT:     vector.load %b
// CHECK:         vector.load %a{{.*}}
// CHECK:         vector.store %{{.*}}, %c[
// CHECK-NOT:     vector.load %b
// CHECK:         vector.load %d{{.*}}
// CHECK:         vector.store %{{.*}}, %c[
// CHECK-NOT:     vector.load %b
// CHECK:         func.call @{{.*}}(%{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         memref.dealloc %[[BYTES]] : memref<4608xi8>
func.func @concat_in_place(%x: tensor<1x2x4x6x8xf32>, %w: tensor<2x2x1x1x8x8xf32>, %w2: tensor<2x6x1x1x8x8xf32>) -> (tensor<1x2x4x6x8xf32>, tensor<1x2x4x6x8xf32>) {
  %a = graph.conv_nchwc %x, %w : (tensor<1x2x4x6x8xf32>, tensor<2x2x1x1x8x8xf32>) -> tensor<1x2x4x6x8xf32>
  %b = graph.conv_nchwc %a, %w : (tensor<1x2x4x6x8xf32>, tensor<2x2x1x1x8x8xf32>) -> tensor<1x2x4x6x8xf32>
  %d = graph.conv_nchwc %x, %w : (tensor<1x2x4x6x8xf32>, tensor<2x2x1x1x8x8xf32>) -> tensor<1x2x4x6x8xf32>
  %c = graph.concat %b, %a, %d {axis = 1 : i64} : (tensor<1x2x4x6x8xf32>, tensor<1x2x4x6x8xf32>, tensor<1x2x4x6x8xf32>) -> tensor<1x6x4x6x8xf32>
  %y = graph.conv_nchwc %c, %w2 : (tensor<1x6x4x6x8xf32>, tensor<2x6x1x1x8x8xf32>) -> tensor<1x2x4x6x8xf32>
  func.return %y, %d : tensor<1x2x4x6x8xf32>, tensor<1x2x4x6x8xf32>
}

// RUN: infer-opt %s -p "plan-loops{outline=true},graph-to-loops" | filecheck %s
// RUN: infer-opt %s -p graph-to-loops | filecheck %s --check-prefix=INLINE

// With outlining, each distinct conv signature becomes one private kernel function,
// called where the conv stands: the two identical convs share a kernel, the strided one
// has its own. Kernels allocate their result; the caller frees it after its last use.
// CHECK-LABEL: func.func @main
// CHECK:         %[[A:.*]] = func.call @__kernel_conv_0(%x, %{{.*}}) : (memref<?x4x8x8xf32>, memref<4x4x3x3xf32>) -> memref<?x4x8x8xf32>
// CHECK:         %[[B:.*]] = func.call @__kernel_conv_0(%[[A]], %{{.*}}) : (memref<?x4x8x8xf32>, memref<4x4x3x3xf32>) -> memref<?x4x8x8xf32>
// CHECK:         memref.dealloc %[[A]]
// CHECK:         %[[C:.*]] = func.call @__kernel_conv_1(%[[B]], %{{.*}}) : (memref<?x4x8x8xf32>, memref<4x4x3x3xf32>) -> memref<?x4x4x4xf32>
// CHECK:         memref.dealloc %[[B]]
// CHECK:         func.return %[[C]]
// CHECK:       func.func private @__kernel_conv_0(%{{.*}}: memref<?x4x8x8xf32>, %{{.*}}: memref<4x4x3x3xf32>) -> memref<?x4x8x8xf32> {
// CHECK:         memref.alloc
// CHECK:         scf.for
// CHECK:       func.func private @__kernel_conv_1(
// CHECK-NOT:   func.func private

// Without it, the loop nests stay in @main.
// INLINE-NOT:    func.call
// INLINE-NOT:    func.func private
func.func @main(%x: tensor<?x4x8x8xf32>) -> tensor<?x4x4x4xf32> {
  %w = graph.constant dense<0.5> : tensor<4x4x3x3xf32>
  %a = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<?x4x8x8xf32>
  %b = graph.conv %a, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<?x4x8x8xf32>
  %c = graph.conv %b, %w {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<?x4x4x4xf32>
  func.return %c : tensor<?x4x4x4xf32>
}

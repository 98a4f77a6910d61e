// PyTorch-style shape chains (x.size(i) as Shape → Gather → Unsqueeze, Concat into a view
// shape; zeros_like as ConstantOfShape(Shape(x))) with a dynamic batch: shape-fusion
// makes them shape.of, and graph-to-loops (as plan-loops marks them) evaluates those where the view / fill needs its
// sizes (memref.dim of x + index arithmetic), with no i64 shape buffer.
// RUN: infer-opt %s -p shape-fusion | filecheck %s
// RUN: infer-opt %s -p shape-fusion,plan-loops,graph-to-loops | filecheck %s --check-prefix=LOOPS

// q.view(x.size(0), x.size(1), 2, 4).transpose(1, 2).reshape(x.size(0), -1)
func.func @heads(%x: tensor<?x?x8xf32>) -> tensor<?x?xf32> {
  %q = graph.relu %x : (tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %s = graph.shape %x : (tensor<?x?x8xf32>) -> tensor<3xi64>
  %i0 = graph.constant dense<0> : tensor<i64>
  %i1 = graph.constant dense<1> : tensor<i64>
  %ax = graph.constant dense<[0]> : tensor<1xi64>
  %b = graph.gather %s, %i0 : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %t = graph.gather %s, %i1 : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %bu = graph.unsqueeze %b, %ax : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %tu = graph.unsqueeze %t, %ax : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %heads = graph.constant dense<[2, 4]> : tensor<2xi64>
  %split = graph.concat %bu, %tu, %heads {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<4xi64>
  %qh = graph.reshape %q, %split : (tensor<?x?x8xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  %qt = graph.transpose %qh {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %m1 = graph.constant dense<[-1]> : tensor<1xi64>
  %flat = graph.concat %bu, %m1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %y = graph.reshape %qt, %flat : (tensor<?x?x?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %y : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @heads
// CHECK-NEXT:    %q = graph.relu %x
// CHECK-NEXT:    %split = shape.of %x {map = affine_map<(d0, d1, d2) -> (d0, d1, 2, 4)>} : tensor<?x?x8xf32> -> tensor<4xi64>
// CHECK-NEXT:    %qh = graph.reshape %q, %split : (tensor<?x?x8xf32>, tensor<4xi64>) -> tensor<?x?x2x4xf32>
// CHECK-NEXT:    %qt = graph.transpose %qh {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x?x2x4xf32>) -> tensor<?x2x?x4xf32>
// CHECK-NEXT:    %flat = shape.of %x {map = affine_map<(d0, d1, d2) -> (d0, -1)>} : tensor<?x?x8xf32> -> tensor<2xi64>
// CHECK-NEXT:    %y = graph.reshape %qt, %flat
// CHECK-NEXT:    func.return %y

// Views: sizes [N, T, 2, 4] are x's memref.dims (after the ones of the reshaped %q), and
// the inferred -1 is (size of %qt) floordiv N.
// LOOPS-LABEL: func.func @heads
// LOOPS-NOT:     memref.alloc{{.*}}xi64>
// LOOPS:         memref.dim %q, %{{.*}} : memref<?x?x8xf32>
// LOOPS:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x?x8xf32>
// LOOPS-NEXT:    %{{.*}} = arith.constant 1 : index
// LOOPS-NEXT:    %[[T:.*]] = memref.dim %x, %{{.*}} : memref<?x?x8xf32>
// LOOPS-NOT:     memref.alloc{{.*}}xi64>
// LOOPS:         %qh = memref.reinterpret_cast %q to offset: [0], sizes: [%[[N]], %[[T]], 2, 4], strides: [%{{.*}}, 8, 4, 1] : memref<?x?x8xf32> to memref<?x?x2x4xf32>
// LOOPS-NOT:     memref.alloc{{.*}}xi64>
// LOOPS:         %[[N2:.*]] = memref.dim %x, %{{.*}} : memref<?x?x8xf32>
// LOOPS-NOT:     memref.alloc{{.*}}xi64>
// LOOPS:         %[[F:.*]] = arith.floordivsi %{{.*}}, %[[N2]] : index
// LOOPS-NOT:     memref.alloc{{.*}}xi64>
// LOOPS:         %y = memref.reinterpret_cast %qt to offset: [0], sizes: [%[[N2]], %[[F]]], strides: [%[[F]], 1] : memref<?x2x?x4xf32> to memref<?x?xf32>
// LOOPS-NOT:     memref.alloc{{.*}}xi64>
// LOOPS:         func.return

// torch.zeros_like-style fill: ConstantOfShape(Shape(x)), typed ?x3 and sized by x's batch.
func.func @fill_like(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %s = graph.shape %x : (tensor<?x3xf32>) -> tensor<2xi64>
  %c = graph.constant_of_shape %s {value = dense<0.5> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  %y = graph.mul %x, %c : (tensor<?x3xf32>, tensor<?x?xf32>) -> tensor<?x3xf32>
  func.return %y : tensor<?x3xf32>
}
// CHECK-LABEL: func.func @fill_like
// CHECK-NEXT:    %s = shape.of %x {map = affine_map<(d0, d1) -> (d0, 3)>} : tensor<?x3xf32> -> tensor<2xi64>
// CHECK-NEXT:    %c = graph.constant_of_shape %s {value = dense<5.000000e-01> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<?x3xf32>

// LOOPS-LABEL: func.func @fill_like
// LOOPS-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// LOOPS-NEXT:    %[[N:.*]] = memref.dim %x, %[[Z]] : memref<?x3xf32>
// LOOPS-NEXT:    %c = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x3xf32>
// LOOPS-NOT:     memref.alloc{{.*}}xi64>
// LOOPS:         func.return

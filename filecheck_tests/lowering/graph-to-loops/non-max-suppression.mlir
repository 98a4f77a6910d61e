// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Per batch and class: the box order by a merge sort (passes of width 2^p while below n,
// each merging run pairs with two cursors into a scratch buffer), then a greedy pass that
// checks each candidate's IoU against the kept ones; the per-class counts size the result.
// CHECK-LABEL: func.func @nms
// CHECK:         %[[KEPT:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<1x3x?xi64>
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[ORDER:.*]] = memref.alloc(%[[N:.*]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK-NEXT:        %[[MERGED:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK:             arith.shli %{{.*}}, %{{.*}} : index
// CHECK:             scf.if
// CHECK:                 scf.for {{.*}} iter_args({{.*}}) -> (index, index)
// CHECK:             memref.dealloc %[[MERGED]] : memref<?xi64>
// CHECK:             scf.for {{.*}} iter_args({{.*}}) -> (i1)
// CHECK:               arith.divf %{{.*}}, %{{.*}} : f32
// CHECK:               arith.cmpf ogt
// CHECK:             memref.dealloc %[[ORDER]] : memref<?xi64>
// CHECK:         %kept = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3xi64>
// CHECK:         memref.dealloc %[[KEPT]] : memref<1x3x?xi64>
func.func @nms(%boxes: tensor<1x?x4xf32>, %scores: tensor<1x3x?xf32>, %limit: tensor<1xi64>, %iou: tensor<1xf32>) -> tensor<?x3xi64> {
  %kept = graph.non_max_suppression %boxes, %scores, %limit, %iou : (tensor<1x?x4xf32>, tensor<1x3x?xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x3xi64>
  func.return %kept : tensor<?x3xi64>
}

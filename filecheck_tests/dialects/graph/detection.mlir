// The detection ops parse, verify, print and round-trip.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @nms(%boxes: tensor<1x?x4xf32>, %scores: tensor<1x3x?xf32>, %limit: tensor<1xi64>, %iou: tensor<1xf32>, %min: tensor<f32>) -> (tensor<?x3xi64>, tensor<?x3xi64>) {
    %all = graph.non_max_suppression %boxes, %scores, %limit, %iou : (tensor<1x?x4xf32>, tensor<1x3x?xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x3xi64>
    %some = graph.non_max_suppression %boxes, %scores, %limit, %iou, %min {center_point_box = 1 : i64} : (tensor<1x?x4xf32>, tensor<1x3x?xf32>, tensor<1xi64>, tensor<1xf32>, tensor<f32>) -> tensor<?x3xi64>
    func.return %all, %some : tensor<?x3xi64>, tensor<?x3xi64>
  }
}

// CHECK-LABEL: func.func @nms
// CHECK-NEXT:    %all = graph.non_max_suppression %boxes, %scores, %limit, %iou : (tensor<1x?x4xf32>, tensor<1x3x?xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x3xi64>
// CHECK-NEXT:    %some = graph.non_max_suppression %boxes, %scores, %limit, %iou, %min {center_point_box = 1 : i64} : (tensor<1x?x4xf32>, tensor<1x3x?xf32>, tensor<1xi64>, tensor<1xf32>, tensor<f32>) -> tensor<?x3xi64>

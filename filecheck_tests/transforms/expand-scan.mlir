// RUN: infer-opt %s -p expand-scan | filecheck %s

// graph.scan as the graph.loop ONNX defines it by: the trip count is the longest scan
// input's length along its axis (inputs of different lengths fail a gather); each
// iteration gathers its slice of every scan input (a reversed one from the end); the
// body's ops move into the loop; the stacked rows of a reversed output are read back to
// front, and moved to the output's axis.
// CHECK-LABEL: func.func @reversed_scan
// CHECK:         %[[SHAPE:.*]] = graph.shape %xs
// CHECK-NEXT:    %[[AXIS:.*]] = graph.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %[[XN:.*]] = graph.gather %[[SHAPE]], %[[AXIS]] : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:    %[[YSHAPE:.*]] = graph.shape %ys
// CHECK-NEXT:    %[[YAXIS:.*]] = graph.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %[[YN:.*]] = graph.gather %[[YSHAPE]], %[[YAXIS]]
// CHECK-NEXT:    %[[COUNT:.*]] = graph.max %[[XN]], %[[YN]] : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK-NEXT:    %[[TRUE:.*]] = graph.constant dense<true> : tensor<i1>
// CHECK-NEXT:    %[[ONE:.*]] = graph.constant dense<1> : tensor<i64>
// CHECK-NEXT:    %[[LAST:.*]] = graph.sub %[[COUNT]], %[[ONE]]
// CHECK-NEXT:    %s, %[[ROWS:.*]] = graph.loop %[[COUNT]], %[[TRUE]], %s0 : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> (tensor<3xf32>, tensor<?x3xf32>) {
// CHECK-NEXT:    ^bb0(%i: tensor<i64>, %go: tensor<i1>, %state: tensor<3xf32>):
// CHECK-NEXT:      %[[BACK:.*]] = graph.sub %[[LAST]], %i
// CHECK-NEXT:      %x = graph.gather %xs, %[[BACK]] : (tensor<?x3xf32>, tensor<i64>) -> tensor<3xf32>
// CHECK-NEXT:      %y = graph.gather %ys, %i {axis = 1 : i64} : (tensor<3x?xf32>, tensor<i64>) -> tensor<3xf32>
// CHECK-NEXT:      %next = graph.add %state, %x
// CHECK-NEXT:      %row = graph.mul %next, %y
// CHECK-NEXT:      graph.yield %go, %next, %row : tensor<i1>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT:    }
// CHECK:         %[[REV:.*]] = graph.slice %[[ROWS]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x3xf32>
// CHECK-NEXT:    %rows = graph.transpose %[[REV]] {perm = array<i64: 1, 0>} : (tensor<?x3xf32>) -> tensor<3x?xf32>
// CHECK-NEXT:    func.return %s, %rows
// CHECK-NOT:     graph.scan
func.func @reversed_scan(%s0: tensor<3xf32>, %xs: tensor<?x3xf32>, %ys: tensor<3x?xf32>) -> (tensor<3xf32>, tensor<3x?xf32>) {
  %s, %rows = graph.scan %s0, %xs, %ys {num_scan_inputs = 2 : i64, scan_input_axes = array<i64: 0, 1>, scan_input_directions = array<i64: 1, 0>, scan_output_axes = array<i64: 1>, scan_output_directions = array<i64: 1>} : (tensor<3xf32>, tensor<?x3xf32>, tensor<3x?xf32>) -> (tensor<3xf32>, tensor<3x?xf32>) {
  ^bb0(%state: tensor<3xf32>, %x: tensor<3xf32>, %y: tensor<3xf32>):
    %next = graph.add %state, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %row = graph.mul %next, %y : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    graph.yield %next, %row : tensor<3xf32>, tensor<3xf32>
  }
  func.return %s, %rows : tensor<3xf32>, tensor<3x?xf32>
}

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Constant mode: fill the output, then copy x into the box [pb, pb + n) of each dim (a
// negative pad crops: the box starts at 0 and reads from -pb).
// CHECK-LABEL: func.func @pad_constant
// CHECK:         %[[V:.*]] = memref.load %{{.*}}[] : memref<f32>
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK-NEXT:        memref.store %[[V]], %[[Y:.*]][%{{.*}}, %{{.*}}] : memref<5x5xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             memref.load %x
// CHECK-NEXT:        memref.store %{{.*}}, %[[Y]][%[[I]], %[[J]]] : memref<5x5xf32>
func.func @pad_constant(%x: tensor<3x4xf32>) -> tensor<5x5xf32> {
  %p = graph.constant dense<[1, -1, 1, 2]> : tensor<4xi64>
  %v = graph.constant dense<0.5> : tensor<f32>
  %y = graph.pad %x, %p, %v : (tensor<3x4xf32>, tensor<4xi64>, tensor<f32>) -> tensor<5x5xf32>
  func.return %y : tensor<5x5xf32>
}

// Edge mode: one nest; the source index is clamped to [0, n - 1].
// CHECK-LABEL: func.func @pad_edge
// CHECK:         scf.for
// CHECK:           arith.maxsi
// CHECK:           arith.minsi
// CHECK:           memref.load %x
func.func @pad_edge(%x: tensor<?x4xf32>) -> tensor<?x6xf32> {
  %p = graph.constant dense<[0, 1, 0, 1]> : tensor<4xi64>
  %v = graph.constant dense<0.0> : tensor<f32>
  %y = graph.pad %x, %p, %v {mode = "edge"} : (tensor<?x4xf32>, tensor<4xi64>, tensor<f32>) -> tensor<?x6xf32>
  func.return %y : tensor<?x6xf32>
}

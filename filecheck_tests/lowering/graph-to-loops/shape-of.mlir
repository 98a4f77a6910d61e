// shape.of feeding Reshape / Expand / ConstantOfShape is evaluated by each of them: the
// map becomes memref.dim of its source + index arithmetic where the sizes are needed, and
// no i64 shape buffer exists. Only a shape.of some user needs as a tensor is stored.
// RUN: infer-opt %s -p plan-loops,graph-to-loops | filecheck %s
// RUN: infer-opt %s -p plan-loops,graph-to-loops | filecheck %s --check-prefix=NOBUF

// Reshape of one tensor to sizes computed from another's dims: a view, no copy.
// CHECK-LABEL: func.func @reshape
// CHECK:         %y = memref.alloc
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x3x?xf32>
// CHECK-NEXT:    %{{.*}} = arith.constant 2 : index
// CHECK-NEXT:    %[[W:.*]] = memref.dim %x, %{{.*}} : memref<?x3x?xf32>
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[N3:.*]] = arith.muli %[[N]], %[[C3]] : index
// CHECK:         %r = memref.reinterpret_cast %y to offset: [0], sizes: [%[[N3]], %[[W]]], strides: [%[[W]], 1] : memref<?x3x?xf32> to memref<?x?xf32>
// NOBUF-LABEL: func.func @reshape
// NOBUF-NOT:   memref.alloc{{.*}}xi64>
// NOBUF-NOT:   shape.of
func.func @reshape(%x: tensor<?x3x?xf32>) -> tensor<?x?xf32> {
  %y = graph.relu %x : (tensor<?x3x?xf32>) -> tensor<?x3x?xf32>
  %s = shape.of %x {map = affine_map<(d0, d1, d2) -> (d0 * 3, d2)>} : tensor<?x3x?xf32> -> tensor<2xi64>
  %r = graph.reshape %y, %s : (tensor<?x3x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %z = graph.neg %r : (tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %z : tensor<?x?xf32>
}

// Expand(x, shape.of y): both batch dims are known only at run time, so the output's is
// `y's == 1 ? x's : y's`, and x's dim (which may be the broadcast 1) is read at
// `i * (x's != 1)`. That the two broadcast is checked first.
// CHECK-LABEL: func.func @expand
// CHECK:         %[[A:.*]] = memref.dim %x, %{{.*}} : memref<?x1x4xf32>
// CHECK:         %[[B:.*]] = memref.dim %y, %{{.*}} : memref<?x3x4xf32>
// CHECK-NEXT:    arith.cmpi eq, %[[A]], %[[B]] : index
// CHECK:         cf.cond_br
// CHECK-NEXT:  ^{{.*}}:
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[BU:.*]] = arith.cmpi eq, %[[B]], %[[ONE]] : index
// CHECK-NEXT:    %[[N:.*]] = arith.select %[[BU]], %[[A]], %[[B]] : index
// CHECK-NEXT:    %e = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x3x4xf32>
// CHECK:         %[[AU:.*]] = arith.cmpi ne, %[[A]], %{{.*}} : index
// CHECK-NEXT:    %[[F:.*]] = arith.select %[[AU]], %{{.*}}, %{{.*}} : index
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for
// CHECK:             scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[IX:.*]] = arith.muli %[[I]], %[[F]] : index
// CHECK-NEXT:          %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:          memref.load %x[%[[IX]], %[[Z]], %[[K]]] : memref<?x1x4xf32>
// NOBUF-LABEL: func.func @expand
// NOBUF-NOT:   memref.alloc{{.*}}xi64>
func.func @expand(%x: tensor<?x1x4xf32>, %y: tensor<?x3x4xf32>) -> tensor<?x3x4xf32> {
  %s = shape.of %y {map = affine_map<(d0, d1, d2) -> (d0, 3, 4)>} : tensor<?x3x4xf32> -> tensor<3xi64>
  %e = graph.expand %x, %s : (tensor<?x1x4xf32>, tensor<3xi64>) -> tensor<?x3x4xf32>
  %z = graph.neg %e : (tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
  func.return %z : tensor<?x3x4xf32>
}

// ConstantOfShape sized by (N + 2) floordiv 2 of x's batch.
// CHECK-LABEL: func.func @constant_of_shape
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x7xf32>
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[N2:.*]] = arith.addi %[[N]], %[[C2]] : index
// CHECK-NEXT:    %[[C2B:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[H:.*]] = arith.floordivsi %[[N2]], %[[C2B]] : index
// CHECK-NEXT:    %c = memref.alloc(%[[H]]) {alignment = 64 : i64} : memref<?x7xf32>
// NOBUF-LABEL: func.func @constant_of_shape
// NOBUF-NOT:   memref.alloc{{.*}}xi64>
func.func @constant_of_shape(%x: tensor<?x7xf32>) -> tensor<?x7xf32> {
  %s = shape.of %x {map = affine_map<(d0, d1) -> ((d0 + 2) floordiv 2, 7)>} : tensor<?x7xf32> -> tensor<2xi64>
  %c = graph.constant_of_shape %s {value = dense<1.5> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<?x7xf32>
  %z = graph.neg %c : (tensor<?x7xf32>) -> tensor<?x7xf32>
  func.return %z : tensor<?x7xf32>
}

// One shape.of, two users: each evaluates the map on %y's dims, so %y (whose only other
// reader is %n) is freed after the last of them, not after %n.
// CHECK-LABEL: func.func @two_users
// CHECK:         %n = memref.alloc
// CHECK-NOT:     memref.dealloc %y
// CHECK:         %[[A:.*]] = memref.dim %y, %{{.*}} : memref<?x3xf32>
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[A3:.*]] = arith.muli %[[A]], %[[C3]] : index
// CHECK-NEXT:    %c = memref.alloc(%[[A3]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK-NOT:     memref.dealloc %y
// CHECK:         %[[B:.*]] = memref.dim %y, %{{.*}} : memref<?x3xf32>
// CHECK-NEXT:    %[[C3B:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[B3:.*]] = arith.muli %[[B]], %[[C3B]] : index
// CHECK:         %f = memref.reinterpret_cast %n to offset: [0], sizes: [%[[B3]]], strides: [1]
// CHECK-NEXT:    memref.dealloc %y : memref<?x3xf32>
// NOBUF-LABEL: func.func @two_users
// NOBUF-NOT:   memref.alloc{{.*}}xi64>
func.func @two_users(%x: tensor<?x3xf32>) -> tensor<?xf32> {
  %y = graph.relu %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %s = shape.of %y {map = affine_map<(d0, d1) -> (d0 * 3)>} : tensor<?x3xf32> -> tensor<1xi64>
  %n = graph.neg %y : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %c = graph.constant_of_shape %s {value = dense<1.0> : tensor<1xf32>} : (tensor<1xi64>) -> tensor<?xf32>
  %f = graph.reshape %n, %s : (tensor<?x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  %z = graph.add %f, %c : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %z : tensor<?xf32>
}

// A shape.of that is also returned is stored into an i64 buffer; the Reshape reads it
// (ONNX's 0 / -1 rules applied at run time).
// CHECK-LABEL: func.func @materialized
// CHECK-NEXT:    %s = memref.alloc() {alignment = 64 : i64} : memref<3xi64>
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x4xf32>
// CHECK-NEXT:    %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK:         memref.store %[[N64]], %s[%{{.*}}] : memref<3xi64>
// CHECK:         %[[E:.*]] = memref.load %s[%{{.*}}] : memref<3xi64>
// CHECK-NEXT:    arith.index_cast %[[E]] : i64 to index
// CHECK:         %r = memref.reinterpret_cast %x
// CHECK:         func.return %{{.*}}, %s : memref<?x2x2xf32>, memref<3xi64>
// NOBUF-LABEL: func.func @materialized
func.func @materialized(%x: tensor<?x4xf32>) -> (tensor<?x2x2xf32>, tensor<3xi64>) {
  %s = shape.of %x {map = affine_map<(d0, d1) -> (d0, 2, 2)>} : tensor<?x4xf32> -> tensor<3xi64>
  %r = graph.reshape %x, %s : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<?x2x2xf32>
  func.return %r, %s : tensor<?x2x2xf32>, tensor<3xi64>
}

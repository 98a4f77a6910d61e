// RUN: infer-opt %s -p plan-loops,graph-to-loops | filecheck %s

// A chain of elementwise ops of one shape, each the only reader of the previous result,
// marked by plan-loops (plan-loops/marks.mlir), becomes one loop nest: add, relu and mul per element, one alloc (the result), no
// intermediate buffer and no dealloc. (The dynamic dims of %a and %c may each be 1 at run
// time: they are read at i * (dim != 1), see broadcast-dynamic.mlir.)
// CHECK-LABEL: func.func @chain
// CHECK:         %[[Y:.*]] = memref.alloc
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[AI:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK-NEXT:        %[[A:.*]] = memref.load %a[%[[AI]], %[[J]]] : memref<?x4xf32>
// CHECK-NEXT:        %[[B:.*]] = memref.load %b[%[[J]]] : memref<4xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[A]], %[[B]]
// CHECK-NEXT:        %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        %[[R:.*]] = arith.maximumf %[[S]], %[[Z]] : f32
// CHECK-NEXT:        %[[CI:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK-NEXT:        %[[C:.*]] = memref.load %c[%[[CI]], %[[J]]] : memref<?x4xf32>
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[R]], %[[C]]
// CHECK-NEXT:        memref.store %[[M]], %[[Y]][%[[I]], %[[J]]] : memref<?x4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     scf.for
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return %[[Y]]
func.func @chain(%a: tensor<?x4xf32>, %b: tensor<4xf32>, %c: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = graph.add %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = graph.relu %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = graph.mul %1, %c : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %2 : tensor<?x4xf32>
}

// Not fused: a result read twice (it would be computed twice). Its add, read once by the
// mul of the same shape, is fused into the mul's nest, which reads %e last and at the
// index it writes: the result goes into %e's buffer, returned.
// CHECK-LABEL: func.func @read_twice
// CHECK:         %[[E:.*]] = memref.alloc() {{.*}} : memref<3x4xf32>
// CHECK:         math.exp
// CHECK-NOT:     memref.alloc
// CHECK:         memref.load %[[E]][%[[I:.*]], %[[J:.*]]]
// CHECK:         arith.addf
// CHECK:         memref.load %[[E]][%[[I]], %[[J]]]
// CHECK-NEXT:    arith.mulf
// CHECK-NEXT:    memref.store %{{.*}}, %[[E]][%[[I]], %[[J]]]
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return %[[E]]
func.func @read_twice(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e = graph.exp %x : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %s = graph.add %e, %y : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %t = graph.mul %s, %e : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %t : tensor<3x4xf32>
}

// Not fused: a result that its user broadcasts (a smaller shape: each element would be
// recomputed at every position it is read).
// CHECK-LABEL: func.func @broadcast_operand
// CHECK:         %[[E:.*]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK:         math.exp
// CHECK:         memref.alloc() {{.*}} : memref<3x4xf32>
// CHECK:         memref.load %[[E]]
// CHECK:         arith.addf
func.func @broadcast_operand(%x: tensor<4xf32>, %y: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  %s = graph.add %e, %y : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %s : tensor<3x4xf32>
}

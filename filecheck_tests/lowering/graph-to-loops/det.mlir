// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Det: each matrix copied to an f64 scratch, then per column k the pivot row found
// (largest magnitude from row k down), swapped up, and the rows below eliminated; the
// determinant is carried as the product of the pivots, negated per swap.
// CHECK-LABEL: func.func @det
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x3xf64>
// CHECK:           arith.extf %{{.*}} : f32 to f64
// CHECK:         %[[DET:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64) {
// CHECK:           %{{.*}}, %[[P:.*]] = scf.for %{{.*}} iter_args(%{{.*}}, %{{.*}} = %[[K]]) -> (f64, index) {
// CHECK:             arith.cmpf ogt
// CHECK:           memref.store %{{.*}}, %[[A]][%[[P]], %{{.*}}] : memref<3x3xf64>
// CHECK:           %[[PIVOT:.*]] = memref.load %[[A]][%[[K]], %[[K]]] : memref<3x3xf64>
// CHECK:           arith.divf %{{.*}}, %[[PIVOT]]
// CHECK:           %[[SWAPPED:.*]] = arith.cmpi ne, %[[P]], %[[K]] : index
// CHECK:           %[[SIGN:.*]] = arith.select %[[SWAPPED]], %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:      %[[TERM:.*]] = arith.mulf %[[SIGN]], %[[PIVOT]]
// CHECK-NEXT:      %[[NEXT:.*]] = arith.mulf %[[ACC]], %[[TERM]]
// CHECK-NEXT:      scf.yield %[[NEXT]] : f64
// CHECK:         arith.truncf %[[DET]] : f64 to f32
// The scratch is freed once every matrix is done, before the result is returned.
// CHECK:         memref.dealloc %[[A]] : memref<3x3xf64>
// CHECK-NEXT:    func.return
func.func @det(%x: tensor<?x3x3xf32>) -> tensor<?xf32> {
  %d = graph.det %x : (tensor<?x3x3xf32>) -> tensor<?xf32>
  func.return %d : tensor<?xf32>
}

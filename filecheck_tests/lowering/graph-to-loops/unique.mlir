// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Unique sees x as [outer, n, inner] items; a stable merge sort orders them, one walk of
// the order finds each item's first equal and the distinct ones' places (their rank by
// value: `sorted`), and their count sizes the results, which one last pass fills. Every
// scratch buffer is freed.
// CHECK-LABEL: func.func @unique
// CHECK:         memref.reinterpret_cast %x to offset: [0], sizes: [%{{[0-9]+}}, %[[N:[0-9]+]], %{{[0-9]+}}]
// CHECK:         %[[ORDER:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK-NEXT:    %[[MERGED:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK:         arith.shli
// CHECK:         memref.dealloc %[[MERGED]] : memref<?xi64>
// CHECK-NEXT:    %[[FIRST:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK-NEXT:    %[[PLACE:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK:         %[[U:.*]] = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (index)
// CHECK:           scf.if
// CHECK:         memref.dealloc %[[ORDER]] : memref<?xi64>
// CHECK-NEXT:    %y = memref.alloc(%[[U]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK-NEXT:    %first = memref.alloc(%[[U]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK-NEXT:    %inverse = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK-NEXT:    %counts = memref.alloc(%[[U]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK:         memref.dealloc %[[FIRST]] : memref<?xi64>
// CHECK-NEXT:    memref.dealloc %[[PLACE]] : memref<?xi64>
// CHECK-NEXT:    func.return %y, %first, %inverse, %counts
func.func @unique(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %y, %first, %inverse, %counts = graph.unique %x : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  func.return %y, %first, %inverse, %counts : tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
}

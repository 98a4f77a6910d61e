// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Unique sees x as [outer, n, inner] items; a scan finds each item's first equal, a
// second pass places the distinct ones (their rank by value: `sorted`), and their count
// sizes the results, which one last pass fills. The two scratch buffers are freed.
// CHECK-LABEL: func.func @unique
// CHECK:         memref.reinterpret_cast %x to offset: [0], sizes: [%{{[0-9]+}}, %[[N:[0-9]+]], %{{[0-9]+}}]
// CHECK:         %[[FIRST:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK:         %[[PLACE:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK:         scf.if
// CHECK:         %y = memref.alloc(%[[U:[0-9]+]]) {alignment = 64 : i64} : memref<?xf32>
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

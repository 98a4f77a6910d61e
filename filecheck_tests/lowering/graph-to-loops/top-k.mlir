// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// k read at run time sizes both results (checked within [0, dim]); per row, pass t scans
// the row for the first element (by value, NaN above numbers, then index) after pass t-1's.
// CHECK-LABEL: func.func @top_k
// CHECK:         %[[K:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:         arith.cmpi sge, %[[N:.*]], %[[K]] : index
// CHECK:         %v = memref.alloc(%[[K]]) {alignment = 64 : i64} : memref<3x?xf32>
// CHECK-NEXT:    %i = memref.alloc(%[[K]]) {alignment = 64 : i64} : memref<3x?xi64>
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %{{.*}}, %{{.*}} = scf.for %[[T:.*]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[PV:.*]] = %{{.*}}, %[[PI:.*]] = %{{.*}}) -> (f32, index)
// CHECK:             %{{.*}}, %[[BV:.*]], %[[BI:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args({{.*}}) -> (i1, f32, index)
// CHECK:               memref.load %x[%[[R]], %[[J]]] : memref<3x?xf32>
// CHECK:               arith.cmpf ogt
// CHECK:               arith.cmpf uno
// CHECK:               scf.yield
// CHECK:             memref.store %[[BV]], %v[%[[R]], %[[T]]] : memref<3x?xf32>
// CHECK-NEXT:        %[[I64:.*]] = arith.index_cast %[[BI]] : index to i64
// CHECK-NEXT:        memref.store %[[I64]], %i[%[[R]], %[[T]]] : memref<3x?xi64>
// CHECK-NEXT:        scf.yield %[[BV]], %[[BI]] : f32, index
func.func @top_k(%x: tensor<3x?xf32>, %k: tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>) {
  %v, %i = graph.top_k %x, %k {axis = 1 : i64} : (tensor<3x?xf32>, tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>)
  func.return %v, %i : tensor<3x?xf32>, tensor<3x?xi64>
}

// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// A constant k up to 8: per row, pass t scans the row for the first element (by value,
// NaN above numbers, then index) after pass t-1's.
// CHECK-LABEL: func.func @top_k_small
// CHECK:         %v = memref.alloc() {alignment = 64 : i64} : memref<3x2xf32>
// CHECK-NEXT:    %i = memref.alloc() {alignment = 64 : i64} : memref<3x2xi64>
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %{{.*}}, %{{.*}} = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PV:.*]] = %{{.*}}, %[[PI:.*]] = %{{.*}}) -> (f32, index)
// CHECK:             %{{.*}}, %[[BV:.*]], %[[BI:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[N:.*]] step %{{.*}} iter_args({{.*}}) -> (i1, f32, index)
// CHECK:               memref.load %x[%[[R]], %[[J]]] : memref<3x?xf32>
// CHECK:               arith.cmpf ogt
// CHECK:               arith.cmpf uno
// CHECK:               scf.yield
// CHECK:             memref.store %[[BV]], %v[%[[R]], %[[T]]] : memref<3x2xf32>
// CHECK-NEXT:        %[[I64:.*]] = arith.index_cast %[[BI]] : index to i64
// CHECK-NEXT:        memref.store %[[I64]], %i[%[[R]], %[[T]]] : memref<3x2xi64>
// CHECK-NEXT:        scf.yield %[[BV]], %[[BI]] : f32, index
func.func @top_k_small(%x: tensor<3x?xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
  %k = graph.constant dense<2> : tensor<1xi64>
  %v, %i = graph.top_k %x, %k {axis = 1 : i64} : (tensor<3x?xf32>, tensor<1xi64>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  func.return %v, %i : tensor<3x2xf32>, tensor<3x2xi64>
}

// k read at run time sizes both results (checked within [0, dim]); per row, the row's
// order by a stable merge sort of indices, then its first k copied out.
// CHECK-LABEL: func.func @top_k
// CHECK:         %[[K:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:         arith.cmpi sge, %[[N:.*]], %[[K]] : index
// CHECK:         %v = memref.alloc(%[[K]]) {alignment = 64 : i64} : memref<3x?xf32>
// CHECK-NEXT:    %i = memref.alloc(%[[K]]) {alignment = 64 : i64} : memref<3x?xi64>
// CHECK:         scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           %[[ORDER:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK:           arith.shli
// CHECK:           arith.cmpf ogt
// CHECK:           scf.for %[[T:.*]] = %{{.*}} to %[[K]] step
// CHECK-NEXT:        %[[J64:.*]] = memref.load %[[ORDER]][%[[T]]] : memref<?xi64>
// CHECK-NEXT:        %[[J:.*]] = arith.index_cast %[[J64]] : i64 to index
// CHECK-NEXT:        %[[X:.*]] = memref.load %x[%[[R]], %[[J]]] : memref<3x?xf32>
// CHECK-NEXT:        memref.store %[[X]], %v[%[[R]], %[[T]]] : memref<3x?xf32>
// CHECK-NEXT:        %[[I:.*]] = memref.load %[[ORDER]][%[[T]]] : memref<?xi64>
// CHECK-NEXT:        memref.store %[[I]], %i[%[[R]], %[[T]]] : memref<3x?xi64>
// CHECK:           memref.dealloc %[[ORDER]] : memref<?xi64>
func.func @top_k(%x: tensor<3x?xf32>, %k: tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>) {
  %v, %i = graph.top_k %x, %k {axis = 1 : i64} : (tensor<3x?xf32>, tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>)
  func.return %v, %i : tensor<3x?xf32>, tensor<3x?xi64>
}

// The ordering ops parse, verify, print and round-trip.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @top_k(%x: tensor<?x6xf32>, %k: tensor<1xi64>) -> (tensor<?x?xf32>, tensor<?x?xi64>, tensor<2x6xf32>, tensor<2x6xi64>) {
    %v, %i = graph.top_k %x, %k {axis = 1 : i64} : (tensor<?x6xf32>, tensor<1xi64>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
    %two = graph.constant dense<2> : tensor<1xi64>
    %sv, %si = graph.top_k %x, %two {axis = 0 : i64, largest = 0 : i64} : (tensor<?x6xf32>, tensor<1xi64>) -> (tensor<2x6xf32>, tensor<2x6xi64>)
    func.return %v, %i, %sv, %si : tensor<?x?xf32>, tensor<?x?xi64>, tensor<2x6xf32>, tensor<2x6xi64>
  }
  func.func @unique(%x: tensor<4x?xi32>) -> (tensor<?xi32>, tensor<4x?xi32>) {
    %y, %first, %inverse, %counts = graph.unique %x : (tensor<4x?xi32>) -> (tensor<?xi32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
    %cols, %cf, %ci, %cc = graph.unique %x {axis = 1 : i64, sorted = 0 : i64} : (tensor<4x?xi32>) -> (tensor<4x?xi32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
    func.return %y, %cols : tensor<?xi32>, tensor<4x?xi32>
  }
}

// CHECK-LABEL: func.func @top_k
// CHECK-NEXT:    %v, %i = graph.top_k %x, %k {axis = 1 : i64} : (tensor<?x6xf32>, tensor<1xi64>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
// CHECK-NEXT:    %two = graph.constant dense<2> : tensor<1xi64>
// CHECK-NEXT:    %sv, %si = graph.top_k %x, %two {axis = 0 : i64, largest = 0 : i64} : (tensor<?x6xf32>, tensor<1xi64>) -> (tensor<2x6xf32>, tensor<2x6xi64>)

// CHECK-LABEL: func.func @unique
// CHECK-NEXT:    %y, %first, %inverse, %counts = graph.unique %x : (tensor<4x?xi32>) -> (tensor<?xi32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
// CHECK-NEXT:    %cols, %cf, %ci, %cc = graph.unique %x {axis = 1 : i64, sorted = 0 : i64} : (tensor<4x?xi32>) -> (tensor<4x?xi32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)

// The running sum / product op parses, verifies, prints and round-trips.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @cumulative(%x: tensor<?x5xf32>, %axis: tensor<i64>, %i: tensor<4xi32>) -> (tensor<?x5xf32>, tensor<4xi32>) {
    %sum = graph.cumulative %x, %axis {exclusive = 1 : i64} : (tensor<?x5xf32>, tensor<i64>) -> tensor<?x5xf32>
    %zero = graph.constant dense<0> : tensor<1xi32>
    %prod = graph.cumulative %i, %zero {kind = "prod", reverse = 1 : i64} : (tensor<4xi32>, tensor<1xi32>) -> tensor<4xi32>
    func.return %sum, %prod : tensor<?x5xf32>, tensor<4xi32>
  }
}

// CHECK-LABEL: func.func @cumulative
// CHECK-NEXT:    %sum = graph.cumulative %x, %axis {exclusive = 1 : i64} : (tensor<?x5xf32>, tensor<i64>) -> tensor<?x5xf32>
// CHECK-NEXT:    %zero = graph.constant dense<0> : tensor<1xi32>
// CHECK-NEXT:    %prod = graph.cumulative %i, %zero {kind = "prod", reverse = 1 : i64} : (tensor<4xi32>, tensor<1xi32>) -> tensor<4xi32>

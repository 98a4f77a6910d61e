// The pooling ops with more than one result parse, verify, print and round-trip.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @max_pool_with_indices(%x: tensor<?x2x6x7xf32>) -> (tensor<?x2x3x3xf32>, tensor<?x2x3x3xi64>) {
    %y, %i = graph.max_pool_with_indices %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, storage_order = 1 : i64} : (tensor<?x2x6x7xf32>) -> (tensor<?x2x3x3xf32>, tensor<?x2x3x3xi64>)
    func.return %y, %i : tensor<?x2x3x3xf32>, tensor<?x2x3x3xi64>
  }
}

// CHECK-LABEL: func.func @max_pool_with_indices
// CHECK-NEXT:    %y, %i = graph.max_pool_with_indices %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, storage_order = 1 : i64} : (tensor<?x2x6x7xf32>) -> (tensor<?x2x3x3xf32>, tensor<?x2x3x3xi64>)

// The linear-algebra ops beyond those of ops.mlir parse, verify, print and round-trip.
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @det(%x: tensor<?x3x3xf32>, %m: tensor<2x2xf64>) -> (tensor<?xf32>, tensor<f64>) {
    %d = graph.det %x : (tensor<?x3x3xf32>) -> tensor<?xf32>
    %s = graph.det %m : (tensor<2x2xf64>) -> tensor<f64>
    func.return %d, %s : tensor<?xf32>, tensor<f64>
  }
}

// CHECK-LABEL: func.func @det
// CHECK-NEXT:    %d = graph.det %x : (tensor<?x3x3xf32>) -> tensor<?xf32>
// CHECK-NEXT:    %s = graph.det %m : (tensor<2x2xf64>) -> tensor<f64>

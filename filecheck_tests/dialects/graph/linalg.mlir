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
  func.func @matmul_packed(%a: tensor<2x?x5xf32>, %w: tensor<2x5x32xf32>, %c: tensor<64xf32>) -> tensor<2x?x37xf32> {
    %y = graph.matmul_packed %a, %w, %c {n = 37 : i64, activation = "relu", tile = array<i64: 6, 2>, block = array<i64: 96, 256, 64>} : (tensor<2x?x5xf32>, tensor<2x5x32xf32>, tensor<64xf32>) -> tensor<2x?x37xf32>
    func.return %y : tensor<2x?x37xf32>
  }
  func.func @pack_panels(%b: tensor<3x?x37xf32>, %t: tensor<20x8xf32>) -> (tensor<3x2x?x32xf32>, tensor<1x8x32xf32>) {
    %p = graph.pack_panels %b {width = 32 : i64} : (tensor<3x?x37xf32>) -> tensor<3x2x?x32xf32>
    %q = graph.pack_panels %t {width = 32 : i64, transposed = 1 : i64} : (tensor<20x8xf32>) -> tensor<1x8x32xf32>
    func.return %p, %q : tensor<3x2x?x32xf32>, tensor<1x8x32xf32>
  }
}

// CHECK-LABEL: func.func @det
// CHECK-NEXT:    %d = graph.det %x : (tensor<?x3x3xf32>) -> tensor<?xf32>
// CHECK-NEXT:    %s = graph.det %m : (tensor<2x2xf64>) -> tensor<f64>

// CHECK-LABEL: func.func @matmul_packed
// CHECK-NEXT:    %y = graph.matmul_packed %a, %w, %c {n = 37 : i64, activation = "relu", tile = array<i64: 6, 2>, block = array<i64: 96, 256, 64>} : (tensor<2x?x5xf32>, tensor<2x5x32xf32>, tensor<64xf32>) -> tensor<2x?x37xf32>

// CHECK-LABEL: func.func @pack_panels
// CHECK-NEXT:    %p = graph.pack_panels %b {width = 32 : i64} : (tensor<3x?x37xf32>) -> tensor<3x2x?x32xf32>
// CHECK-NEXT:    %q = graph.pack_panels %t {width = 32 : i64, transposed = 1 : i64} : (tensor<20x8xf32>) -> tensor<1x8x32xf32>

// What each level of graph-optimize does to one small graph: level 0 nothing; level 1
// folds the ConstantOfShape weight and removes the identity; level 2 also fuses (here the
// Erf form of GELU into graph.gelu, itself fused into the matmul as its activation); level 3
// also moves convs to the blocked NCHWc layout (there are none here: it equals level 2).
// RUN: infer-opt %s -p 'graph-optimize{level=0}' | filecheck %s --check-prefix=NONE-CHECK
// RUN: infer-opt %s -p 'graph-optimize{level=1}' | filecheck %s --check-prefix=BASIC-CHECK
// RUN: infer-opt %s -p 'graph-optimize{level=2}' | filecheck %s --check-prefix=EXT-CHECK
// RUN: infer-opt %s -p 'graph-optimize{level=3}' | filecheck %s --check-prefix=EXT-CHECK
// RUN: infer-opt %s -p graph-optimize | filecheck %s --check-prefix=EXT-CHECK

// NONE-CHECK:       graph.constant_of_shape
// NONE-CHECK:       graph.identity
// NONE-CHECK:       graph.erf

// BASIC-CHECK-NOT:  graph.constant_of_shape
// BASIC-CHECK-NOT:  graph.identity
// BASIC-CHECK:      %w = graph.constant dense<2.000000e-02> : tensor<4x2xf32>
// BASIC-CHECK:      graph.erf
// BASIC-CHECK-NOT:  graph.gelu

// EXT-CHECK-NOT:    graph.constant_of_shape
// EXT-CHECK-NOT:    graph.identity
// EXT-CHECK-NOT:    graph.erf
// EXT-CHECK:        {{graph.gelu|activation = "gelu"}}
// EXT-CHECK-NOT:    graph.erf
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  %s = graph.constant dense<[4, 2]> : tensor<2xi64>
  %w = graph.constant_of_shape %s {value = dense<2.000000e-02> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<4x2xf32>
  %x1 = graph.identity %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %m = graph.matmul %x1, %w : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
  %sqrt2 = graph.constant dense<1.41421354> : tensor<f32>
  %one = graph.constant dense<1.0> : tensor<f32>
  %half = graph.constant dense<0.5> : tensor<f32>
  %0 = graph.div %m, %sqrt2 : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
  %1 = graph.erf %0 : (tensor<?x2xf32>) -> tensor<?x2xf32>
  %2 = graph.add %1, %one : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
  %3 = graph.mul %m, %2 : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  %4 = graph.mul %3, %half : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
  func.return %4 : tensor<?x2xf32>
}

// RUN: not infer-opt %s -p 'graph-optimize{level=4}' 2>&1 | filecheck %s --check-prefix=ERR-CHECK
// ERR-CHECK: infer-opt: error: graph-optimize: level must be 0..3, got 4

// The indexing ops parse, verify, print and round-trip (defaults left out when printed).
// RUN: infer-opt %s | filecheck %s
// RUN: infer-opt %s | infer-opt | filecheck %s
// RUN: infer-opt %s --print-op-generic | infer-opt | filecheck %s

builtin.module {
  func.func @indexing(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>, %j: tensor<2x1xi32>, %k: tensor<i64>, %n: tensor<4xi64>, %d: tensor<f32>, %v: tensor<2xf32>, %y: tensor<1x8x2x3xf32>, %r: tensor<2xi64>, %b: tensor<2xi1>) {
    %ge = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
    %se = graph.scatter_elements %x, %i, %x {axis = -1 : i64, reduction = "add"} : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %s = graph.scatter %x, %i, %x : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %snd = graph.scatter_nd %x, %j, %x {reduction = "max"} : (tensor<2x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %gnd = graph.gather_nd %x, %j : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
    %gnd1 = graph.gather_nd %x, %j {batch_dims = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2xf32>
    %tri = graph.trilu %x, %k {upper = 0 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
    %triu = graph.trilu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %hot = graph.one_hot %i, %d, %v {axis = 0 : i64} : (tensor<2x3xi64>, tensor<f32>, tensor<2xf32>) -> tensor<?x2x3xf32>
    %eye = graph.eye_like %x {k = 1 : i64, dtype = i32} : (tensor<2x3xf32>) -> tensor<2x3xi32>
    %d2s = graph.depth_to_space %y {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
    %s2d = graph.space_to_depth %d2s {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
    %rev = graph.reverse_sequence %x, %r {batch_axis = 0 : i64, time_axis = 1 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
    %tile = graph.tile %x, %r : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %nz = graph.non_zero %x : (tensor<2x3xf32>) -> tensor<2x?xi64>
    %cmp = graph.compress %x, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2xi1>) -> tensor<?x3xf32>
    %flat = graph.compress %x, %b : (tensor<2x3xf32>, tensor<2xi1>) -> tensor<?xf32>
    %kv = graph.tensor_scatter %x, %x, %r {axis = 1 : i64, mode = "circular"} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
    func.return
  }
}

// CHECK:       builtin.module {
// CHECK-LABEL:   func.func @indexing(%x: tensor<2x3xf32>, %i: tensor<2x3xi64>, %j: tensor<2x1xi32>, %k: tensor<i64>, %n: tensor<4xi64>, %d: tensor<f32>, %v: tensor<2xf32>, %y: tensor<1x8x2x3xf32>, %r: tensor<2xi64>, %b: tensor<2xi1>) {
// CHECK-NEXT:      %ge = graph.gather_elements %x, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
// CHECK-NEXT:      %se = graph.scatter_elements %x, %i, %x {axis = -1 : i64, reduction = "add"} : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:      %s = graph.scatter %x, %i, %x : (tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:      %snd = graph.scatter_nd %x, %j, %x {reduction = "max"} : (tensor<2x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:      %gnd = graph.gather_nd %x, %j : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
// CHECK-NEXT:      %gnd1 = graph.gather_nd %x, %j {batch_dims = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2xf32>
// CHECK-NEXT:      %tri = graph.trilu %x, %k {upper = 0 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
// CHECK-NEXT:      %triu = graph.trilu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:      %hot = graph.one_hot %i, %d, %v {axis = 0 : i64} : (tensor<2x3xi64>, tensor<f32>, tensor<2xf32>) -> tensor<?x2x3xf32>
// CHECK-NEXT:      %eye = graph.eye_like %x {k = 1 : i64, dtype = i32} : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT:      %d2s = graph.depth_to_space %y {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
// CHECK-NEXT:      %s2d = graph.space_to_depth %d2s {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
// CHECK-NEXT:      %rev = graph.reverse_sequence %x, %r {batch_axis = 0 : i64, time_axis = 1 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
// CHECK-NEXT:      %tile = graph.tile %x, %r : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK-NEXT:      %nz = graph.non_zero %x : (tensor<2x3xf32>) -> tensor<2x?xi64>
// CHECK-NEXT:      %cmp = graph.compress %x, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2xi1>) -> tensor<?x3xf32>
// CHECK-NEXT:      %flat = graph.compress %x, %b : (tensor<2x3xf32>, tensor<2xi1>) -> tensor<?xf32>
// CHECK-NEXT:      %kv = graph.tensor_scatter %x, %x, %r {axis = 1 : i64, mode = "circular"} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
// CHECK-NEXT:      func.return
// CHECK-NEXT:    }
// CHECK-NEXT:  }

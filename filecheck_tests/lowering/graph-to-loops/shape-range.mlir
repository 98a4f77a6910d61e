// graph.range: the length is computed at run time from the scalars, and a scalar made by
// a shape.of is its map evaluated on the source's memref.dims (no i64 buffer, no kernel);
// the output is filled with start + i * delta.
// RUN: infer-opt %s -p plan-loops,graph-to-loops | filecheck %s
// RUN: infer-opt %s -p plan-loops,graph-to-loops | filecheck %s --check-prefix=NOBUF

// torch.arange(x.size(1)): length max(d1, 0), values i.
// CHECK-LABEL: func.func @arange_of_dim
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[T:.*]] = memref.dim %x, %[[C1]] : memref<?x?x8xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = arith.maxsi %[[T]], %[[C0]] : index
// CHECK-NEXT:    %[[START:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[DELTA:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %pos = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi64>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[K:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:      %[[KD:.*]] = arith.muli %[[K]], %[[DELTA]] : i64
// CHECK-NEXT:      %[[V:.*]] = arith.addi %[[START]], %[[KD]] : i64
// CHECK-NEXT:      memref.store %[[V]], %pos[%[[I]]] : memref<?xi64>
// NOBUF-LABEL: func.func @arange_of_dim
// NOBUF-NOT:   memref.alloc{{.*}} : memref<i64>
// NOBUF-NOT:   shape.of
// NOBUF:       func.return
func.func @arange_of_dim(%x: tensor<?x?x8xf32>) -> tensor<?xi64> {
  %zero = graph.constant dense<0> : tensor<i64>
  %one = graph.constant dense<1> : tensor<i64>
  %t = shape.of %x {map = affine_map<(d0, d1, d2) -> (d1)>} : tensor<?x?x8xf32> -> tensor<i64>
  %pos = graph.range %zero, %t, %one : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  func.return %pos : tensor<?xi64>
}

// range(2 * d0, d1, -3) on i32: length max((2 * d0 - d1 + 2) floordiv 3, 0), the start
// cast from index to the element type.
// CHECK-LABEL: func.func @bounds_from_dims
// CHECK:         %[[D0:.*]] = memref.dim %x, %{{.*}} : memref<?x?x8xf32>
// CHECK:         %[[START:.*]] = arith.muli %[[D0]], %{{.*}} : index
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[D1:.*]] = memref.dim %x, %[[C1]] : memref<?x?x8xf32>
// CHECK-NEXT:    %[[DIFF:.*]] = arith.subi %[[START]], %[[D1]] : index
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[UP:.*]] = arith.addi %[[DIFF]], %[[C2]] : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[Q:.*]] = arith.floordivsi %[[UP]], %[[C3]] : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = arith.maxsi %[[Q]], %[[C0]] : index
// CHECK-NEXT:    %[[START32:.*]] = arith.index_cast %[[START]] : index to i32
// CHECK-NEXT:    %[[DELTA:.*]] = arith.constant -3 : i32
// CHECK-NEXT:    %r = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xi32>
// CHECK:           arith.addi %[[START32]], %{{.*}} : i32
// NOBUF-LABEL: func.func @bounds_from_dims
// NOBUF-NOT:   memref.alloc{{.*}} : memref<i32>
// NOBUF:       func.return
func.func @bounds_from_dims(%x: tensor<?x?x8xf32>) -> tensor<?xi32> {
  %start = shape.of %x {map = affine_map<(d0, d1, d2) -> (d0 * 2)>} : tensor<?x?x8xf32> -> tensor<i32>
  %limit = shape.of %x {map = affine_map<(d0, d1, d2) -> (d1)>} : tensor<?x?x8xf32> -> tensor<i32>
  %delta = graph.constant dense<-3> : tensor<i32>
  %r = graph.range %start, %limit, %delta : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  func.return %r : tensor<?xi32>
}

// Floats read from buffers: ceil((limit - start) / delta) in double, as onnxruntime; NaN,
// <= 0 and a zero delta give an empty range.
// CHECK-LABEL: func.func @floats
// CHECK:         %[[START:.*]] = memref.load %start[] : memref<f32>
// CHECK-NEXT:    %[[DELTA:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %[[LIMIT:.*]] = memref.load %limit[] : memref<f32>
// CHECK-NEXT:    %[[DIFF:.*]] = arith.subf %[[LIMIT]], %[[START]] fastmath<contract> : f32
// CHECK-NEXT:    %[[DIFF64:.*]] = arith.extf %[[DIFF]] : f32 to f64
// CHECK-NEXT:    %[[DELTA64:.*]] = arith.extf %[[DELTA]] : f32 to f64
// CHECK-NEXT:    %[[Q:.*]] = arith.divf %[[DIFF64]], %[[DELTA64]] fastmath<contract> : f64
// CHECK-NEXT:    %[[CEIL:.*]] = math.ceil %[[Q]] : f64
// CHECK:         %[[OK:.*]] = arith.andi
// CHECK-NEXT:    %[[N64:.*]] = arith.fptosi %[[CEIL]] : f64 to i64
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[SEL:.*]] = arith.select %[[OK]], %[[N64]], %[[ZERO]] : i64
// CHECK-NEXT:    %[[N:.*]] = arith.index_cast %[[SEL]] : i64 to index
// CHECK-NEXT:    %r = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK:           %[[K:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:      %[[KF:.*]] = arith.sitofp %[[K]] : i64 to f32
// CHECK-NEXT:      %[[KD:.*]] = arith.mulf %[[KF]], %[[DELTA]] fastmath<contract> : f32
// CHECK-NEXT:      arith.addf %[[START]], %[[KD]] fastmath<contract> : f32
func.func @floats(%start: tensor<f32>, %limit: tensor<f32>) -> tensor<?xf32> {
  %delta = graph.constant dense<0.5> : tensor<f32>
  %r = graph.range %start, %limit, %delta : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// A static length (constant scalars): the type's, no arithmetic.
// CHECK-LABEL: func.func @static
// CHECK-NOT:     arith.maxsi
// CHECK:         %r = memref.alloc() {alignment = 64 : i64} : memref<4xi64>
func.func @static() -> tensor<4xi64> {
  %zero = graph.constant dense<0> : tensor<i64>
  %ten = graph.constant dense<10> : tensor<i64>
  %three = graph.constant dense<3> : tensor<i64>
  %r = graph.range %zero, %ten, %three : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
  func.return %r : tensor<4xi64>
}

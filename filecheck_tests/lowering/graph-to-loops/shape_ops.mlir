// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Reshape is a view: no alloc, no copy; 0 copies the dynamic batch dim.
// CHECK-LABEL: func.func @reshape(%x: memref<?x3x4xf32>) -> memref<?x12xf32>
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x3x4xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %x to offset: [0], sizes: [%[[N]], 12], strides: [12, 1] : memref<?x3x4xf32> to memref<?x12xf32>
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %{{.*}} = memref.dim %[[V]]
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc
// CHECK:         memref.load %[[V]]
// CHECK:         arith.maximumf
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return %[[Y]]
func.func @reshape(%x: tensor<?x3x4xf32>) -> tensor<?x12xf32> {
  %s = graph.constant dense<[0, -1]> : tensor<2xi64>
  %0 = graph.reshape %x, %s : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x12xf32>
  %1 = graph.relu %0 : (tensor<?x12xf32>) -> tensor<?x12xf32>
  func.return %1 : tensor<?x12xf32>
}

// A shape known only at run time is read from its buffer (0 copies, -1 is inferred).
// CHECK-LABEL: func.func @reshape_runtime_shape
// CHECK:         %[[S0:.*]] = memref.load %s[%{{.*}}] : memref<2xi64>
// CHECK-NEXT:    %[[D0:.*]] = arith.index_cast %[[S0]] : i64 to index
// CHECK:         arith.cmpi eq, %[[D0]], %{{.*}} : index
// CHECK:         arith.floordivsi
// CHECK:         memref.reinterpret_cast %x to offset: [0], sizes: [%{{.*}}, %{{.*}}], strides: [%{{.*}}, 1] : memref<6xf32> to memref<?x?xf32>
func.func @reshape_runtime_shape(%x: tensor<6xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = graph.reshape %x, %s : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = graph.neg %0 : (tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %1 : tensor<?x?xf32>
}

// Flatten, Squeeze and Unsqueeze are views too; a view of an argument that is returned
// is copied into a fresh buffer the caller owns.
// CHECK-LABEL: func.func @flatten
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %x to offset: [0], sizes: [2, 12], strides: [12, 1] : memref<2x3x4xf32> to memref<2x12xf32>
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x12xf32>
// CHECK:         %[[E:.*]] = memref.load %[[V]]
// CHECK-NEXT:    memref.store %[[E]], %[[Y]]
// CHECK:         func.return %[[Y]]
func.func @flatten(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %0 = graph.flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  func.return %0 : tensor<2x12xf32>
}

// CHECK-LABEL: func.func @squeeze_unsqueeze
// CHECK:         %[[N:.*]] = memref.dim %x
// CHECK-NEXT:    %[[S:.*]] = memref.reinterpret_cast %x to offset: [0], sizes: [%[[N]]], strides: [1] : memref<1x?x1xf32> to memref<?xf32>
// CHECK:         %[[M:.*]] = memref.dim %[[S]]
// CHECK-NEXT:    memref.reinterpret_cast %[[S]] to offset: [0], sizes: [1, %[[M]]], strides: [%[[M]], 1] : memref<?xf32> to memref<1x?xf32>
func.func @squeeze_unsqueeze(%x: tensor<1x?x1xf32>) -> tensor<1x?xf32> {
  %a = graph.constant dense<[0, 2]> : tensor<2xi64>
  %0 = graph.squeeze %x, %a : (tensor<1x?x1xf32>, tensor<2xi64>) -> tensor<?xf32>
  %b = graph.constant dense<[0]> : tensor<1xi64>
  %1 = graph.unsqueeze %0, %b : (tensor<?xf32>, tensor<1xi64>) -> tensor<1x?xf32>
  func.return %1 : tensor<1x?xf32>
}

// Transpose loops over the output (contiguous stores) and permutes the load indices.
// CHECK-LABEL: func.func @transpose
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[E:.*]] = memref.load %x[%[[J]], %[[K]], %[[I]]] : memref<2x3x4xf32>
// CHECK-NEXT:          memref.store %[[E]], %{{.*}}[%[[I]], %[[J]], %[[K]]] : memref<4x2x3xf32>
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  func.return %0 : tensor<4x2x3xf32>
}

// Shape stores the run-time dims as i64, static ones as constants.
// CHECK-LABEL: func.func @shape
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<2xi64>
// CHECK:         %[[N:.*]] = memref.dim %x
// CHECK-NEXT:    %[[N64:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    memref.store %[[N64]], %{{.*}}[%{{.*}}] : memref<2xi64>
// CHECK-NEXT:    %[[C:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:    memref.store %[[C]], %{{.*}}[%{{.*}}] : memref<2xi64>
func.func @shape(%x: tensor<?x3xf32>) -> tensor<2xi64> {
  %0 = graph.shape %x : (tensor<?x3xf32>) -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
}

// Gather first checks that every index is in [-4, 4) (a failing run-time check: the
// first index out of range and the dim, see runtime-checks.mlir), then wraps negative
// indices: i < 0 ? i + 4 : i.
// CHECK-LABEL: func.func @gather(%x: memref<5x4xf32>, %i: memref<2xi32>, %status: memref<64xi64>)
// CHECK:         %[[N:.*]] = arith.constant 4 : index
// CHECK:         %[[MN:.*]] = arith.subi %{{.*}}, %[[N]] : index
// CHECK:         %[[BAD:.*]], %{{.*}} = scf.for %{{.*}} iter_args
// CHECK-NEXT:      %[[J:.*]] = memref.load %i[%{{.*}}] : memref<2xi32>
// CHECK-NEXT:      %[[JJ:.*]] = arith.index_cast %[[J]] : i32 to index
// CHECK-NEXT:      arith.cmpi slt, %[[JJ]], %[[MN]] : index
// CHECK-NEXT:      arith.cmpi sge, %[[JJ]], %[[N]] : index
// CHECK:         %[[OK:.*]] = arith.xori %[[BAD]], %{{.*}} : i1
// CHECK-NEXT:    cf.cond_br %[[OK]], ^{{.*}}, ^{{.*}}
// CHECK:         memref.alloc() {{.*}} : memref<5x2xf32>
// CHECK:         %[[I:.*]] = memref.load %i[%{{.*}}] : memref<2xi32>
// CHECK-NEXT:    %[[II:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[NEG:.*]] = arith.cmpi slt, %[[II]], %[[Z]] : index
// CHECK-NEXT:    %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[W:.*]] = arith.addi %[[II]], %[[FOUR]] : index
// CHECK-NEXT:    %[[IDX:.*]] = arith.select %[[NEG]], %[[W]], %[[II]] : index
// CHECK-NEXT:    memref.load %x[%{{.*}}, %[[IDX]]] : memref<5x4xf32>
func.func @gather(%x: tensor<5x4xf32>, %i: tensor<2xi32>) -> tensor<5x2xf32> {
  %0 = graph.gather %x, %i {axis = 1 : i64} : (tensor<5x4xf32>, tensor<2xi32>) -> tensor<5x2xf32>
  func.return %0 : tensor<5x2xf32>
}

// Slice on a static dim folds (x[:, 8:2:-2] starts at 8, 3 elements); on a dynamic dim
// the bounds are clamped at run time (x[-1::-1]).
// CHECK-LABEL: func.func @slice
// CHECK:         %[[N:.*]] = memref.dim %x
// CHECK:         arith.maxsi
// CHECK:         %[[FIRST:.*]] = arith.minsi
// CHECK:         %[[COUNT:.*]] = arith.minsi %{{.*}}, %[[N]] : index
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc(%[[COUNT]]) {alignment = 64 : i64} : memref<?x3xf32>
// CHECK:         %[[M1:.*]] = arith.constant -1 : index
// CHECK-NEXT:    %[[A:.*]] = arith.muli %{{.*}}, %[[M1]] : index
// CHECK-NEXT:    %[[R:.*]] = arith.addi %[[FIRST]], %[[A]] : index
// CHECK-NEXT:    %[[M2:.*]] = arith.constant -2 : index
// CHECK-NEXT:    %[[B:.*]] = arith.muli %{{.*}}, %[[M2]] : index
// CHECK-NEXT:    %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[C:.*]] = arith.addi %[[B]], %[[EIGHT]] : index
// CHECK-NEXT:    memref.load %x[%[[R]], %[[C]]] : memref<?x10xf32>
func.func @slice(%x: tensor<?x10xf32>) -> tensor<?x3xf32> {
  %s = graph.constant dense<[-1, 8]> : tensor<2xi64>
  %e = graph.constant dense<[-9223372036854775807, 2]> : tensor<2xi64>
  %a = graph.constant dense<[0, 1]> : tensor<2xi64>
  %t = graph.constant dense<[-1, -2]> : tensor<2xi64>
  %0 = graph.slice %x, %s, %e, %a, %t : (tensor<?x10xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}

// Concat copies each input into its slab; the second one at offset 2 on axis 1.
// CHECK-LABEL: func.func @concat
// CHECK:         %[[Y:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x5xf32>
// CHECK:         %[[E:.*]] = memref.load %a[%[[I:.*]], %[[J:.*]]] : memref<?x2xf32>
// CHECK-NEXT:    memref.store %[[E]], %[[Y]][%[[I]], %[[J]]] : memref<?x5xf32>
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[K:.*]] = arith.addi %[[L:.*]], %[[TWO]] : index
// CHECK-NEXT:    %[[F:.*]] = memref.load %b[%[[M:.*]], %[[L]]] : memref<?x3xf32>
// CHECK-NEXT:    memref.store %[[F]], %[[Y]][%[[M]], %[[K]]] : memref<?x5xf32>
func.func @concat(%a: tensor<?x2xf32>, %b: tensor<?x3xf32>) -> tensor<?x5xf32> {
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<?x2xf32>, tensor<?x3xf32>) -> tensor<?x5xf32>
  func.return %0 : tensor<?x5xf32>
}

// Rows of a static last dim other than the axis (an NCHWc channel block) move as vectors;
// the second input's rows land at offset 2 on axis 1.
// CHECK-LABEL: func.func @concat_blocks
// CHECK:         %[[R:.*]] = vector.load %a[{{.*}}] : memref<1x2x3x3x8xf32>, vector<8xf32>
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    vector.store %[[R]], %[[Y:.*]][{{.*}}] : memref<1x3x3x3x8xf32>, vector<8xf32>
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[K:.*]] = arith.addi %{{.*}}, %[[TWO]] : index
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:    %[[S:.*]] = vector.load %b[{{.*}}] : memref<1x1x3x3x8xf32>, vector<8xf32>
// CHECK:         vector.store %[[S]], %[[Y]][%{{.*}}, %[[K]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x3x3x3x8xf32>, vector<8xf32>
func.func @concat_blocks(%a: tensor<1x2x3x3x8xf32>, %b: tensor<1x1x3x3x8xf32>) -> tensor<1x3x3x3x8xf32> {
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<1x2x3x3x8xf32>, tensor<1x1x3x3x8xf32>) -> tensor<1x3x3x3x8xf32>
  func.return %0 : tensor<1x3x3x3x8xf32>
}

// Split copies each output's slab out of the input.
// CHECK-LABEL: func.func @split
// CHECK:         %[[Y0:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2xf32>
// CHECK-NEXT:    %[[Y1:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3xf32>
// CHECK:         memref.store %{{.*}}, %[[Y0]]
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[K:.*]] = arith.addi %{{.*}}, %[[TWO]] : index
// CHECK-NEXT:    memref.load %x[%{{.*}}, %[[K]]] : memref<?x5xf32>
// CHECK:         func.return %[[Y0]], %[[Y1]]
func.func @split(%x: tensor<?x5xf32>) -> (tensor<?x2xf32>, tensor<?x3xf32>) {
  %s = graph.constant dense<[2, 3]> : tensor<2xi64>
  %0, %1 = graph.split %x, %s {axis = 1 : i64, num_outputs = 2 : i64} : (tensor<?x5xf32>, tensor<2xi64>) -> (tensor<?x2xf32>, tensor<?x3xf32>)
  func.return %0, %1 : tensor<?x2xf32>, tensor<?x3xf32>
}

// Expand reads the input's unit dim at index 0.
// CHECK-LABEL: func.func @expand
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:          %[[E:.*]] = memref.load %x[%[[J]], %[[Z]]] : memref<3x1xi8>
// CHECK-NEXT:          memref.store %[[E]], %{{.*}}[%[[I]], %[[J]], %[[K]]] : memref<2x3x4xi8>
func.func @expand(%x: tensor<3x1xi8>) -> tensor<2x3x4xi8> {
  %s = graph.constant dense<[2, 1, 4]> : tensor<3xi64>
  %0 = graph.expand %x, %s : (tensor<3x1xi8>, tensor<3xi64>) -> tensor<2x3x4xi8>
  func.return %0 : tensor<2x3x4xi8>
}

// ConstantOfShape fills; ui8 200 is stored as the signless i8 with the same bits.
// CHECK-LABEL: func.func @constant_of_shape
// CHECK:         %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xi8>
// CHECK:         %[[C:.*]] = arith.constant -56 : i8
// CHECK-NEXT:    memref.store %[[C]], %[[Y]]
func.func @constant_of_shape() -> tensor<2x3xui8> {
  %s = graph.constant dense<[2, 3]> : tensor<2xi64>
  %0 = graph.constant_of_shape %s {value = dense<200> : tensor<1xui8>} : (tensor<2xi64>) -> tensor<2x3xui8>
  func.return %0 : tensor<2x3xui8>
}

// A shape operand known only at run time is read from its buffer, and each entry is
// checked not to be negative before the allocation.
// CHECK-LABEL: func.func @constant_of_shape_runtime
// CHECK:         %[[A:.*]] = memref.load %s[%{{.*}}] : memref<2xi64>
// CHECK-NEXT:    %[[D0:.*]] = arith.index_cast %[[A]] : i64 to index
// CHECK:         %[[B:.*]] = memref.load %s[%{{.*}}] : memref<2xi64>
// CHECK-NEXT:    %[[D1:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK:         arith.cmpi sge, %[[D0]], %{{.*}} : index
// CHECK:         arith.cmpi sge, %[[D1]], %{{.*}} : index
// CHECK-NEXT:    cf.cond_br
// CHECK-NEXT:  ^{{.*}}:
// CHECK-NEXT:    memref.alloc(%[[D0]], %[[D1]]) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK:         arith.constant 1.500000e+00 : f32
func.func @constant_of_shape_runtime(%s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = graph.constant_of_shape %s {value = dense<1.5> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// Size: the product of the dims into a rank-0 i64 buffer, computed from the run-time
// batch when it is dynamic, a constant when every dim is static; nothing is read.
// CHECK-LABEL: func.func @size
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<i64>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = memref.dim %x, %[[Z]] : memref<?x3x4xf32>
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[N3:.*]] = arith.muli %[[N]], %[[C3]] : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[N12:.*]] = arith.muli %[[N3]], %[[C4]] : index
// CHECK-NEXT:    %[[V:.*]] = arith.index_cast %[[N12]] : index to i64
// CHECK-NEXT:    memref.store %[[V]], %[[A]][] : memref<i64>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<i64>
// CHECK-NEXT:    %[[SIX:.*]] = arith.constant 6 : i64
// CHECK-NEXT:    memref.store %[[SIX]], %[[B]][] : memref<i64>
// CHECK-NOT:     memref.load
// CHECK:         func.return %[[A]], %[[B]]
func.func @size(%x: tensor<?x3x4xf32>, %s: tensor<2x3xi8>) -> (tensor<i64>, tensor<i64>) {
  %0 = graph.size %x : (tensor<?x3x4xf32>) -> tensor<i64>
  %1 = graph.size %s : (tensor<2x3xi8>) -> tensor<i64>
  func.return %0, %1 : tensor<i64>, tensor<i64>
}

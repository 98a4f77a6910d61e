// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Broadcasting both ways with a dynamic batch dim: one loop nest over the output,
// innermost over the last dim; unit dims of an operand are read at index 0. The outer
// dims are one loop whose iterations may run on any thread (the batch is dynamic: there
// may be enough of them); the last dim is always inside, contiguous.
// CHECK-LABEL: func.func @add_broadcast(%a: memref<?x1x5xf32>, %b: memref<4x1xf32>) -> memref<?x4x5xf32>
// CHECK:         %[[N:.*]] = memref.dim %a, %{{.*}} : memref<?x1x5xf32>
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x4x5xf32>
// CHECK:         %[[ROWS:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %[[ROWS]] step
// CHECK:           %[[J:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[I:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:          %[[A:.*]] = memref.load %a[%[[I]], %[[Z]], %[[K]]] : memref<?x1x5xf32>
// CHECK-NEXT:          %[[Z2:.*]] = arith.constant 0 : index
// CHECK-NEXT:          %[[B:.*]] = memref.load %b[%[[J]], %[[Z2]]] : memref<4x1xf32>
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[A]], %[[B]] fastmath<contract> : f32
// CHECK-NEXT:          memref.store %[[S]], %[[Y]][%[[I]], %[[J]], %[[K]]] : memref<?x4x5xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:      } {parallel = {{[0-9]+}} : i64}
func.func @add_broadcast(%a: tensor<?x1x5xf32>, %b: tensor<4x1xf32>) -> tensor<?x4x5xf32> {
  %0 = graph.add %a, %b : (tensor<?x1x5xf32>, tensor<4x1xf32>) -> tensor<?x4x5xf32>
  func.return %0 : tensor<?x4x5xf32>
}

// A scalar (rank-0) operand is loaded with no indices.
// CHECK-LABEL: func.func @mul_scalar
// CHECK:         %[[S:.*]] = memref.load %s[] : memref<f32>
// CHECK-NEXT:    %[[X:.*]] = memref.load %x[%{{.*}}] : memref<?xf32>
// CHECK-NEXT:    arith.mulf %[[S]], %[[X]] fastmath<contract> : f32
func.func @mul_scalar(%s: tensor<f32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.mul %s, %x : (tensor<f32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// Unsigned integers are stored signless and use the unsigned forms of the ops.
// CHECK-LABEL: func.func @unsigned(%x: memref<4xi8>, %lo: memref<i8>, %hi: memref<i8>, %d: memref<4xi8>) -> (memref<4xi8>, memref<4xi1>, memref<4xi8>)
// CHECK:         arith.maxui %{{.*}}, %{{.*}} : i8
// CHECK-NEXT:    arith.minui %{{.*}}, %{{.*}} : i8
// CHECK:         arith.cmpi ult, %{{.*}}, %{{.*}} : i8
// CHECK:         arith.divui %{{.*}}, %{{.*}} : i8
func.func @unsigned(%x: tensor<4xui8>, %lo: tensor<ui8>, %hi: tensor<ui8>, %d: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xi1>, tensor<4xui8>) {
  %0 = graph.clip %x, %lo, %hi : (tensor<4xui8>, tensor<ui8>, tensor<ui8>) -> tensor<4xui8>
  %1 = graph.less %x, %d : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %2 = graph.div %x, %d : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  func.return %0, %1, %2 : tensor<4xui8>, tensor<4xi1>, tensor<4xui8>
}

// Casts pick the conversion from both element types (and signedness).
// CHECK-LABEL: func.func @casts
// CHECK:         arith.fptoui %{{.*}} : f32 to i8
// CHECK:         arith.uitofp %{{.*}} : i8 to f32
// CHECK:         arith.extsi %{{.*}} : i8 to i64
// CHECK:         arith.extui %{{.*}} : i1 to i32
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    arith.cmpf une, %{{.*}}, %[[Z]] : f32
// CHECK:         arith.trunci %{{.*}} : i64 to i8
// CHECK:         arith.extf %{{.*}} : f32 to f64
func.func @casts(%f: tensor<4xf32>, %u: tensor<4xui8>, %s: tensor<4xi8>, %b: tensor<4xi1>, %l: tensor<4xi64>) -> (tensor<4xui8>, tensor<4xf32>, tensor<4xi64>, tensor<4xi32>, tensor<4xi1>, tensor<4xi8>, tensor<4xf64>) {
  %0 = graph.cast %f {to = ui8} : (tensor<4xf32>) -> tensor<4xui8>
  %1 = graph.cast %u {to = f32} : (tensor<4xui8>) -> tensor<4xf32>
  %2 = graph.cast %s {to = i64} : (tensor<4xi8>) -> tensor<4xi64>
  %3 = graph.cast %b {to = i32} : (tensor<4xi1>) -> tensor<4xi32>
  %4 = graph.cast %f {to = i1} : (tensor<4xf32>) -> tensor<4xi1>
  %5 = graph.cast %l {to = i8} : (tensor<4xi64>) -> tensor<4xi8>
  %6 = graph.cast %f {to = f64} : (tensor<4xf32>) -> tensor<4xf64>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<4xui8>, tensor<4xf32>, tensor<4xi64>, tensor<4xi32>, tensor<4xi1>, tensor<4xi8>, tensor<4xf64>
}

// Where broadcasts all three operands; the condition is an i1 buffer.
// CHECK-LABEL: func.func @where
// CHECK:         %[[C:.*]] = memref.load %c[%[[J:.*]], %{{.*}}] : memref<3x1xi1>
// CHECK-NEXT:    %[[A:.*]] = memref.load %a[%[[K:.*]]] : memref<4xi64>
// CHECK-NEXT:    %[[B:.*]] = memref.load %b[%{{.*}}, %[[J]], %[[K]]] : memref<2x3x4xi64>
// CHECK-NEXT:    arith.select %[[C]], %[[A]], %[[B]] : i64
func.func @where(%c: tensor<3x1xi1>, %a: tensor<4xi64>, %b: tensor<2x3x4xi64>) -> tensor<2x3x4xi64> {
  %0 = graph.where %c, %a, %b : (tensor<3x1xi1>, tensor<4xi64>, tensor<2x3x4xi64>) -> tensor<2x3x4xi64>
  func.return %0 : tensor<2x3x4xi64>
}

// Mean of three inputs: two adds, one division by 3.
// CHECK-LABEL: func.func @mean
// CHECK:         %[[S1:.*]] = arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:    %[[S2:.*]] = arith.addf %[[S1]], %{{.*}} fastmath<contract> : f32
// CHECK-NEXT:    %[[N:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT:    arith.divf %[[S2]], %[[N]] fastmath<contract> : f32
func.func @mean(%a: tensor<3xf32>, %b: tensor<3xf32>, %c: tensor<1xf32>) -> tensor<3xf32> {
  %0 = graph.mean %a, %b, %c : (tensor<3xf32>, tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// Identity is the operand's buffer: no loop of its own; the relu reads %x directly.
// CHECK-LABEL: func.func @identity
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK:         memref.load %x
// CHECK-NEXT:    arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    arith.maximumf
// CHECK-NOT:     memref.alloc
// CHECK:         func.return %[[Y]]
func.func @identity(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.identity %x : (tensor<3xf32>) -> tensor<3xf32>
  %1 = graph.relu %0 : (tensor<3xf32>) -> tensor<3xf32>
  func.return %1 : tensor<3xf32>
}

// Sign of an unsigned integer is x != 0 (it has no negative branch); IsInf with
// detect_negative = 0 compares with +inf only; Round halves to even.
// CHECK-LABEL: func.func @sign_isinf_round
// CHECK:         %[[U:.*]] = memref.load %u[%{{.*}}] : memref<4xi8>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i8
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    %[[NZ:.*]] = arith.cmpi ne, %[[U]], %[[Z]] : i8
// CHECK-NEXT:    %[[Z2:.*]] = arith.constant 0 : i8
// CHECK-NEXT:    arith.select %[[NZ]], %[[ONE]], %[[Z2]] : i8
// CHECK:         %[[X:.*]] = memref.load %x[%{{.*}}] : memref<4xf32>
// CHECK-NEXT:    %[[INF:.*]] = arith.constant 0x7f800000 : f32
// CHECK-NEXT:    %[[EQ:.*]] = arith.cmpf oeq, %[[X]], %[[INF]] : f32
// CHECK-NEXT:    memref.store %[[EQ]]
// CHECK:         math.roundeven %{{.*}} : f32
func.func @sign_isinf_round(%x: tensor<4xf32>, %u: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xi1>, tensor<4xf32>) {
  %0 = graph.sign %u : (tensor<4xui8>) -> tensor<4xui8>
  %1 = graph.is_inf %x {detect_negative = 0 : i64} : (tensor<4xf32>) -> tensor<4xi1>
  %2 = graph.round %x : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0, %1, %2 : tensor<4xui8>, tensor<4xi1>, tensor<4xf32>
}

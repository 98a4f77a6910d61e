// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Two dynamic dims broadcast at run time: the output dim is y's where x's is 1, else x's
// (numpy's rule; not their max, which would take 1 over 0 and read an empty operand); each operand
// dim may be 1, so it is read at i * (dim != 1). The factor is computed once, right after
// the dim is read; only the multiply is in the loop. Whether the dims broadcast (equal, or
// one of them 1) is checked before the loops, with the status buffer the function takes
// for its run-time checks (runtime-checks.mlir).
// CHECK-LABEL: func.func @dyn_dyn(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %status: memref<64xi64>) -> memref<?x?xf32>
// CHECK:         %[[X0:.*]] = memref.dim %x, %{{.*}} : memref<?x?xf32>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[NU:.*]] = arith.cmpi ne, %[[X0]], %[[ONE]] : index
// CHECK-NEXT:    %[[FX0:.*]] = arith.select %[[NU]], %[[ONE]], %[[ZERO]] : index
// CHECK:         %[[X1:.*]] = memref.dim %x, %{{.*}} : memref<?x?xf32>
// CHECK:         %[[FX1:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK:         %[[Y0:.*]] = memref.dim %y, %{{.*}} : memref<?x?xf32>
// CHECK:         %[[FY0:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK:         %[[Y1:.*]] = memref.dim %y, %{{.*}} : memref<?x?xf32>
// CHECK:         %[[FY1:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    arith.cmpi eq, %[[X0]], %[[Y0]] : index
// CHECK:         cf.cond_br %{{.*}}, ^[[OK0:.*]], ^{{.*}}
// CHECK-NEXT:  ^[[OK0]]:
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[X0_ONE:.*]] = arith.cmpi eq, %[[X0]], %[[C1]] : index
// CHECK-NEXT:    %[[N0:.*]] = arith.select %[[X0_ONE]], %[[Y0]], %[[X0]] : index
// CHECK-NEXT:    arith.cmpi eq, %[[X1]], %[[Y1]] : index
// CHECK:         cf.cond_br %{{.*}}, ^[[OK1:.*]], ^{{.*}}
// CHECK-NEXT:  ^[[OK1]]:
// CHECK-NEXT:    %[[C1B:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[X1_ONE:.*]] = arith.cmpi eq, %[[X1]], %[[C1B]] : index
// CHECK-NEXT:    %[[N1:.*]] = arith.select %[[X1_ONE]], %[[Y1]], %[[X1]] : index
// CHECK-NEXT:    %[[OUT:.*]] = memref.alloc(%[[N0]], %[[N1]]) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[N0]] step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %[[N1]] step
// CHECK-NEXT:        %[[XI:.*]] = arith.muli %[[I]], %[[FX0]] : index
// CHECK-NEXT:        %[[XJ:.*]] = arith.muli %[[J]], %[[FX1]] : index
// CHECK-NEXT:        %[[A:.*]] = memref.load %x[%[[XI]], %[[XJ]]] : memref<?x?xf32>
// CHECK-NEXT:        %[[YI:.*]] = arith.muli %[[I]], %[[FY0]] : index
// CHECK-NEXT:        %[[YJ:.*]] = arith.muli %[[J]], %[[FY1]] : index
// CHECK-NEXT:        %[[B:.*]] = memref.load %y[%[[YI]], %[[YJ]]] : memref<?x?xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[A]], %[[B]] fastmath<contract> : f32
// CHECK-NEXT:        memref.store %[[S]], %[[OUT]][%[[I]], %[[J]]] : memref<?x?xf32>
func.func @dyn_dyn(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = graph.add %x, %y : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// Static broadcasting stays free: the dynamic dim is only %x's (the output's own dim),
// the unit dim of %b is read at 0, and no max, compare or select is emitted.
// CHECK-LABEL: func.func @dyn_static(%x: memref<?x5xf32>, %b: memref<1x5xf32>) -> memref<?x5xf32>
// CHECK:         %[[N:.*]] = memref.dim %x, %{{.*}} : memref<?x5xf32>
// CHECK-NEXT:    %[[OUT:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x5xf32>
// CHECK-NOT:     arith.maxsi
// CHECK-NOT:     arith.select
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[A:.*]] = memref.load %x[%[[I]], %[[J]]] : memref<?x5xf32>
// CHECK-NEXT:        %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:        %[[B:.*]] = memref.load %b[%[[Z]], %[[J]]] : memref<1x5xf32>
// CHECK-NEXT:        arith.mulf %[[A]], %[[B]] fastmath<contract> : f32
// CHECK:         func.return %[[OUT]]
func.func @dyn_static(%x: tensor<?x5xf32>, %b: tensor<1x5xf32>) -> tensor<?x5xf32> {
  %0 = graph.mul %x, %b : (tensor<?x5xf32>, tensor<1x5xf32>) -> tensor<?x5xf32>
  func.return %0 : tensor<?x5xf32>
}

// A dynamic operand dim against a static output dim > 1 may still be 1 at run time
// (x [1, 4] + w [3, 4]): x is read at i * (dim != 1), w (static) at i; the output is static,
// so no max. The same buffer on both sides shares its dims: no max, no select.
// CHECK-LABEL: func.func @static_out
// CHECK-NOT:     arith.maxsi
// CHECK:         arith.select
// CHECK:         %[[XI:.*]] = arith.muli %[[I:.*]], %{{.*}} : index
// CHECK:         memref.load %x[%[[XI]], %{{.*}}] : memref<?x?xf32>
// CHECK-NEXT:    memref.load %w[%[[I]], %[[J:.*]]] : memref<3x4xf32>
// CHECK-LABEL: func.func @same_operand
// CHECK-NOT:     arith.maxsi
// CHECK-NOT:     arith.select
// CHECK-NOT:     arith.muli
// CHECK:         memref.load %x[%[[I:.*]], %[[J:.*]]] : memref<?x?xf32>
// CHECK-NEXT:    memref.load %x[%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK:         func.return
func.func @static_out(%x: tensor<?x?xf32>, %w: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = graph.add %x, %w : (tensor<?x?xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}
func.func @same_operand(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = graph.mul %x, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// MatMul batch dims broadcast the same way; the operands' batch indices are computed
// once per row, outside the k and j loops.
// CHECK-LABEL: func.func @matmul_batch
// CHECK:         %[[A0:.*]] = memref.dim %a, %{{.*}} : memref<?x3x4xf32>
// CHECK:         %[[FA:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK:         %[[B0:.*]] = memref.dim %b, %{{.*}} : memref<?x4x5xf32>
// CHECK:         %[[FB:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK:         cf.cond_br
// CHECK-NEXT:  ^{{.*}}:
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[A0_ONE:.*]] = arith.cmpi eq, %[[A0]], %[[ONE]] : index
// CHECK-NEXT:    %[[N:.*]] = arith.select %[[A0_ONE]], %[[B0]], %[[A0]] : index
// CHECK-NEXT:    memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x3x5xf32>
// CHECK:         %[[ROWS:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK:         scf.for %[[P:.*]] = %{{.*}} to %[[ROWS]] step
// CHECK:           %[[I:.*]] = arith.remui %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[BT:.*]] = arith.divui %[[P]], %{{.*}} : index
// CHECK-NEXT:      %[[AB:.*]] = arith.muli %[[BT]], %[[FA]] : index
// CHECK-NEXT:      %[[BB:.*]] = arith.muli %[[BT]], %[[FB]] : index
// CHECK:           memref.load %a[%[[AB]], %[[I]], %{{.*}}] : memref<?x3x4xf32>
// CHECK:           memref.load %b[%[[BB]], %{{.*}}, %{{.*}}] : memref<?x4x5xf32>
func.func @matmul_batch(%a: tensor<?x3x4xf32>, %b: tensor<?x4x5xf32>) -> tensor<?x3x5xf32> {
  %0 = graph.matmul %a, %b : (tensor<?x3x4xf32>, tensor<?x4x5xf32>) -> tensor<?x3x5xf32>
  func.return %0 : tensor<?x3x5xf32>
}

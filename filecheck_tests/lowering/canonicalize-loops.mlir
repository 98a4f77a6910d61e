// RUN: infer-opt %s -p canonicalize-loops | filecheck %s
// RUN: infer-opt %s -p canonicalize | filecheck %s --check-prefix=XDSL

// canonicalize-loops folds (2 + 3 -> 5), inlines a loop of one iteration and removes
// dead ops like xDSL's canonicalize, but leaves a loop body's constants where they are
// (xDSL's hoists them out, one loop level per round of the whole module).
// CHECK-LABEL: func.func @loops
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[FIVE:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[J:.*]] = arith.addi %[[I]], %[[FIVE]] : index
// CHECK-NEXT:      memref.store %{{.*}}, %{{.*}}[%[[J]]] : memref<16xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     scf.for
// CHECK:         memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<16xf32>
// CHECK-NEXT:    func.return

// XDSL-LABEL: func.func @loops
// XDSL:         arith.constant 5 : index
// XDSL:         scf.for
func.func @loops(%m: memref<16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %off = arith.addi %c2, %c3 : index
    %j = arith.addi %i, %off : index
    %dead = arith.muli %j, %j : index
    memref.store %v, %m[%j] : memref<16xf32>
  }
  scf.for %k = %c0 to %c1 step %c1 {
    memref.store %v, %m[%k] : memref<16xf32>
  }
  func.return
}

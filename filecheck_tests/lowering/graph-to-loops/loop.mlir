// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// graph.loop as blocks: a header that carries the iteration number, the condition, the
// carried buffers, each scan output's stack and its capacity, and branches to the body
// while `i < n` and the condition holds. The body frees the carried values it replaced,
// grows the stacks (twice the capacity plus one) when a row would not fit, stores its
// row and branches back; the exit copies the rows made into a result of their count.
// CHECK-LABEL: func.func @running_sum
// CHECK:         %[[N:.*]] = memref.load %n[] : memref<i64>
// CHECK:         cf.br ^[[HEAD:.*]](%{{.*}} : i64, i1, memref<3xf32>, memref<?x3xf32>, index)
// CHECK-NEXT:  ^[[HEAD]](%[[I:.*]]: i64, %[[C:.*]]: i1, %[[ACC:.*]]: memref<3xf32>, %[[STACK:.*]]: memref<?x3xf32>, %[[CAP:.*]]: index):
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[N]] : i64
// CHECK-NEXT:    %[[MORE:.*]] = arith.andi %[[C]], %[[LT]] : i1
// CHECK-NEXT:    cf.cond_br %[[MORE]], ^[[BODY:.*]], ^[[EXIT:.*]](%[[ACC]], %[[STACK]], %[[I]] : memref<3xf32>, memref<?x3xf32>, i64)
// CHECK-NEXT:  ^[[BODY]]:
// CHECK:         %next = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK:           arith.addf
// CHECK:         memref.dealloc %[[ACC]] : memref<3xf32>
// CHECK:         %[[ROW:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK:         %[[FULL:.*]] = arith.cmpi eq, %[[ROW]], %[[CAP]] : index
// CHECK-NEXT:    cf.cond_br %[[FULL]], ^[[GROW:.*]], ^[[JOIN:.*]](%[[STACK]], %[[CAP]] : memref<?x3xf32>, index)
// CHECK-NEXT:  ^[[GROW]]:
// CHECK-NEXT:    %[[TWICE:.*]] = arith.addi %[[CAP]], %[[CAP]] : index
// CHECK:         %[[BIGGER:.*]] = arith.addi %[[TWICE]], %{{.*}} : index
// CHECK-NEXT:    %[[NEW:.*]] = memref.alloc(%[[BIGGER]]) {alignment = 64 : i64} : memref<?x3xf32>
// CHECK:         memref.dealloc %[[STACK]] : memref<?x3xf32>
// CHECK-NEXT:    cf.br ^[[JOIN]](%[[NEW]], %[[BIGGER]] : memref<?x3xf32>, index)
// CHECK-NEXT:  ^[[JOIN]](%[[ROOM:.*]]: memref<?x3xf32>, %[[CAP2:.*]]: index):
// CHECK:           memref.store %{{.*}}, %[[ROOM]][%[[ROW]], %{{.*}}] : memref<?x3xf32>
// CHECK:         %[[NEXT_I:.*]] = arith.addi %[[I]], %{{.*}} : i64
// CHECK-NEXT:    cf.br ^[[HEAD]](%[[NEXT_I]], %{{.*}}, %next, %[[ROOM]], %[[CAP2]] : i64, i1, memref<3xf32>, memref<?x3xf32>, index)
// CHECK-NEXT:  ^[[EXIT]](%s: memref<3xf32>, %[[ROWS:.*]]: memref<?x3xf32>, %[[COUNT:.*]]: i64):
// CHECK:         %[[K:.*]] = arith.index_cast %[[COUNT]] : i64 to index
// CHECK:         %rows = memref.alloc(%[[K]]) {alignment = 64 : i64} : memref<?x3xf32>
// CHECK:         memref.dealloc %[[ROWS]] : memref<?x3xf32>
// CHECK-NEXT:    func.return %s, %rows : memref<3xf32>, memref<?x3xf32>
func.func @running_sum(%n: tensor<i64>, %go: tensor<i1>, %x: tensor<3xf32>) -> (tensor<3xf32>, tensor<?x3xf32>) {
  %s, %rows = graph.loop %n, %go, %x : (tensor<i64>, tensor<i1>, tensor<3xf32>) -> (tensor<3xf32>, tensor<?x3xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: tensor<3xf32>):
    %next = graph.add %acc, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    graph.yield %c, %next, %next : tensor<i1>, tensor<3xf32>, tensor<3xf32>
  }
  func.return %s, %rows : tensor<3xf32>, tensor<?x3xf32>
}

// A row whose dims are known only at run time is checked against the first row's.
// CHECK-LABEL: func.func @ragged
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK:         %[[SAME:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[OK:.*]] = arith.ori %[[FIRST]], %[[SAME]] : i1
// CHECK-NEXT:    cf.cond_br %[[OK]]
func.func @ragged(%n: tensor<i64>, %go: tensor<i1>, %x: tensor<?xf32>) -> tensor<?x?xf32> {
  %rows = graph.loop %n, %go : (tensor<i64>, tensor<i1>) -> (tensor<?x?xf32>) {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>):
    %r = graph.relu %x : (tensor<?xf32>) -> tensor<?xf32>
    graph.yield %c, %r : tensor<i1>, tensor<?xf32>
  }
  func.return %rows : tensor<?x?xf32>
}

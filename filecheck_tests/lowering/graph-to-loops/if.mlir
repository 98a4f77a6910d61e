// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// graph.if as blocks: a conditional branch to each branch's blocks, which branch to a
// merge block with fresh buffers (a static one cast to the result's type; a captured
// value copied). A check after the If fails with the merge block's buffer live: freed.
// CHECK-LABEL: func.func @branches
// CHECK:         %[[C:.*]] = memref.load %c[] : memref<i1>
// CHECK-NEXT:    cf.cond_br %[[C]], ^[[THEN:.*]], ^[[ELSE:.*]]
// CHECK-NEXT:  ^[[THEN]]:
// CHECK:         %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK:         %[[TC:.*]] = "memref.cast"(%[[T]]) : (memref<2x4xf32>) -> memref<?x4xf32>
// CHECK-NEXT:    cf.br ^[[MERGE:.*]](%[[TC]] : memref<?x4xf32>)
// CHECK-NEXT:  ^[[ELSE]]:
// CHECK:         %[[E:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK:           memref.load %x
// CHECK:         cf.br ^[[MERGE]](%[[E]] : memref<?x4xf32>)
// CHECK-NEXT:  ^[[MERGE]](%y: memref<?x4xf32>):
// CHECK:         cf.cond_br %{{.*}}, ^[[OK:.*]], ^[[FAIL:.*]]
// CHECK-NEXT:  ^[[OK]]:
// CHECK:         memref.dealloc %y : memref<?x4xf32>
// CHECK-NEXT:    func.return %z
// CHECK-NEXT:  ^[[FAIL]]:
// CHECK:         memref.dealloc %y : memref<?x4xf32>
// CHECK:         func.return
func.func @branches(%c: tensor<i1>, %x: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %y = graph.if %c : tensor<i1> -> (tensor<?x4xf32>) {
    %own = graph.constant dense<3.000000e+00> : tensor<2x4xf32>
    graph.yield %own : tensor<2x4xf32>
  } else {
    graph.yield %x : tensor<?x4xf32>
  }
  %z = graph.add %y, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %z : tensor<?x4xf32>
}

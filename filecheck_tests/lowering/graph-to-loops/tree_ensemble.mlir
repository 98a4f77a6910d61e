// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// A tree ensemble: blocks of 64 rows in parallel, their targets zeroed; then tree by tree
// over the block, 4 rows at a time (then the remainder's tile), the 4 walks interleaved,
// depth[t] steps from the tree's root, each
// row's child loaded from the packed next[n, k] at the k a select chain picks by how the
// feature compares (lt, eq, gt, else nan); the leaves' weights
// (leaf_start[n] .. leaf_start[n + 1]) added to their targets; AVERAGE divides by the
// number of trees.

builtin.module {
  func.func @forest(%x: tensor<?x4xf32>, %feature: tensor<5xi64>, %threshold: tensor<5xf32>, %next: tensor<5x4xi64>, %roots: tensor<2xi64>, %depth: tensor<2xi64>, %start: tensor<6xi64>, %target: tensor<4xi64>, %weight: tensor<4xf32>) -> tensor<?x3xf32> {
    %sum = graph.tree_ensemble %x, %feature, %threshold, %next, %roots, %depth, %start, %target, %weight {targets = 3 : i64, features = 4 : i64, aggregate = "AVERAGE"} : (tensor<?x4xf32>, tensor<5xi64>, tensor<5xf32>, tensor<5x4xi64>, tensor<2xi64>, tensor<2xi64>, tensor<6xi64>, tensor<4xi64>, tensor<4xf32>) -> tensor<?x3xf32>
    func.return %sum : tensor<?x3xf32>
  }
}

// CHECK-LABEL: func.func @forest
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK:           scf.for %[[R0:.*]] = %[[LO:.*]] to %[[HI:.*]] step
// CHECK:             memref.store %{{.*}}, %sum[%[[R0]], %{{.*}}] : memref<?x3xf32>
// CHECK:           scf.for %[[TREE:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[ROW:.*]] = %[[LO]] to %{{.*}} step %{{.*}} {
// CHECK:               %[[ROW1:.*]] = arith.addi %[[ROW]], %{{.*}} : index
// CHECK:               %[[ROOT:.*]] = memref.load %roots[%[[TREE]]]
// CHECK:               %[[DEPTH:.*]] = memref.load %depth[%[[TREE]]]
// CHECK:               %[[LEAF:.*]], %{{.*}}, %{{.*}}, %{{.*}} = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[NODE:.*]] = %{{.*}}, %[[NODE1:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (index, index, index, index) {
// CHECK:                 memref.load %feature[%[[NODE]]]
// CHECK:                 %[[V:.*]] = memref.load %x[%[[ROW]], %{{.*}}] : memref<?x4xf32>
// CHECK:                 %[[T:.*]] = memref.load %threshold[%[[NODE]]]
// CHECK:                 arith.cmpf ogt, %[[V]], %[[T]] : f32
// CHECK:                 arith.cmpf oeq, %[[V]], %[[T]] : f32
// CHECK:                 arith.cmpf olt, %[[V]], %[[T]] : f32
// CHECK:                 %[[K:.*]] = arith.select
// CHECK-NEXT:            memref.load %next[%[[NODE]], %[[K]]] : memref<5x4xi64>
// CHECK:                 memref.load %x[%[[ROW1]], %{{.*}}] : memref<?x4xf32>
// CHECK:                 scf.yield
// CHECK:               memref.load %start[%[[LEAF]]]
// CHECK:               scf.for %[[E:.*]] = %{{.*}} to %{{.*}} step
// CHECK:                 memref.load %target[%[[E]]]
// CHECK:                 memref.load %weight[%[[E]]]
// CHECK:                 arith.addf
// CHECK:           arith.divf
// CHECK:       } {parallel = {{[0-9]+}} : i64}

// RUN: infer-opt %s -p plan-loops,graph-to-loops | filecheck %s

// The logical, bitwise and integer ops fuse with each other and with the elementwise ops
// (Where): the chain is one loop nest with no intermediate buffer.
// CHECK-LABEL: func.func @chain
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for
// CHECK-NOT:     scf.for
// CHECK:           arith.remsi
// CHECK:           arith.shli
// CHECK:           arith.cmpi sge
// CHECK:           arith.xori %{{.*}}, %{{.*}} : i1
// CHECK:           arith.cmpf olt
// CHECK:           arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK:           %[[Y:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      memref.store %[[Y]]
// CHECK-NOT:     scf.for
func.func @chain(%a: tensor<4xi32>, %b: tensor<4xi32>, %x: tensor<4xf32>, %s: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.mod %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = graph.bit_shift %0, %b {direction = "LEFT"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = graph.greater_or_equal %1, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %3 = graph.not %2 : (tensor<4xi1>) -> tensor<4xi1>
  %4 = graph.prelu %x, %s : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = graph.where %3, %4, %x : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %5 : tensor<4xf32>
}

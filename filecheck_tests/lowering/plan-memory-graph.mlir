// RUN: infer-opt %s -p "plan-loops{outline=true},graph-to-loops,plan-memory" | filecheck %s

// From the graph: %a and %c are never live at once and share offset 0; %b sits above
// them. The add reads %c and %b last, at the index it writes, so it writes into %c's
// bytes of the arena (in place); the final softmax's result is returned, on malloc.
// CHECK:       infer.memory_plan = {main = {arena = 128 : i64, total = 192 : i64, buffers = 3 : i64, unplanned = 1 : i64}}
// CHECK-LABEL: func.func @main(%x: memref<16xf32>, %arena: memref<128xi8>) -> memref<16xf32>
// CHECK:         %a = memref.view %arena[%{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK:         %b = memref.view %arena[%[[B:.*]]][] : memref<128xi8> to memref<16xf32>
// CHECK:         %c = memref.view %arena[%{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         memref.load %c
// CHECK:         memref.load %b
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    memref.store %{{.*}}, %c
// CHECK:         %y = memref.alloc()
// CHECK-NOT:     memref.dealloc
func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = graph.softmax %x : (tensor<16xf32>) -> tensor<16xf32>
  %b = graph.softmax %a : (tensor<16xf32>) -> tensor<16xf32>
  %c = graph.softmax %b : (tensor<16xf32>) -> tensor<16xf32>
  %d = graph.add %c, %b : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %y = graph.softmax %d : (tensor<16xf32>) -> tensor<16xf32>
  func.return %y : tensor<16xf32>
}

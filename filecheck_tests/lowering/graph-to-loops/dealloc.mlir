// RUN: infer-opt %s -p graph-to-loops | filecheck %s

// Each intermediate is freed right after the loop nest of its last user; the result is
// returned, not freed. (Softmax between the elementwise ops keeps them from being fused
// into one loop nest, which would leave no intermediates.) The exp reads %b last, at the
// index it writes: it writes its result in place, into %b's buffer, which is returned.
// CHECK-LABEL: func.func @chain
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         arith.divf
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<4xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         %[[X:.*]] = memref.load %[[B]][%[[I:.*]]] : memref<4xf32>
// CHECK-NEXT:    %[[Y:.*]] = math.exp %[[X]]
// CHECK-NEXT:    memref.store %[[Y]], %[[B]][%[[I]]] : memref<4xf32>
// CHECK:         }
// CHECK-NOT:     memref.dealloc
// CHECK-NEXT:    func.return %[[B]] : memref<4xf32>
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %b = graph.softmax %a : (tensor<4xf32>) -> tensor<4xf32>
  %c = graph.exp %b : (tensor<4xf32>) -> tensor<4xf32>
  func.return %c : tensor<4xf32>
}

// A buffer used again later lives until that use (the exp may not write into %a); an
// unused result dies at once. The add, the last reader of %a and %b, writes into %a.
// CHECK-LABEL: func.func @later_use
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         %[[U:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         math.exp
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[U]] : memref<4xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         arith.divf
// CHECK:         }
// CHECK-NOT:     memref.alloc
// CHECK:         arith.addf
// CHECK-NEXT:    memref.store %{{.*}}, %[[A]]
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<4xf32>
// CHECK-NEXT:    func.return %[[A]] : memref<4xf32>
func.func @later_use(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %unused = graph.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  %b = graph.softmax %a : (tensor<4xf32>) -> tensor<4xf32>
  %c = graph.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %c : tensor<4xf32>
}

// A view keeps its buffer alive: freed after the view's last user, not the buffer's.
// CHECK-LABEL: func.func @view_keeps_buffer
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[A]]
// CHECK-NOT:     memref.dealloc
// CHECK:         memref.load %[[V]]
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<2x3xf32>
// CHECK-NEXT:    func.return
func.func @view_keeps_buffer(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %s = graph.constant dense<[6]> : tensor<1xi64>
  %a = graph.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %v = graph.reshape %a, %s : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>
  %y = graph.neg %v : (tensor<6xf32>) -> tensor<6xf32>
  func.return %y : tensor<6xf32>
}

// A returned view is copied into a fresh buffer, and the buffer it viewed is freed.
// CHECK-LABEL: func.func @view_returned
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[A]]
// CHECK-NEXT:    %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6xf32>
// CHECK:         %[[E:.*]] = memref.load %[[V]]
// CHECK-NEXT:    memref.store %[[E]], %[[COPY]]
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<2x3xf32>
// CHECK-NEXT:    func.return %[[COPY]] : memref<6xf32>
func.func @view_returned(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %s = graph.constant dense<[6]> : tensor<1xi64>
  %a = graph.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %v = graph.reshape %a, %s : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<6xf32>
  func.return %v : tensor<6xf32>
}

// Returning an argument, a weight, or one buffer twice copies (the caller frees every
// result); a buffer returned once is handed over as is.
// CHECK-LABEL: func.func @returns_copied
// CHECK:         %[[W:.*]] = memref.get_global @{{.*}} : memref<2xf32>
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK:         arith.negf
// CHECK:         %[[CX:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK:         memref.load %x
// CHECK:         %[[CW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK:         memref.load %[[W]]
// CHECK:         %[[CA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK:         memref.load %[[A]]
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return %[[CX]], %[[CW]], %[[A]], %[[CA]] : memref<2xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>
func.func @returns_copied(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %w = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %a = graph.neg %x : (tensor<2xf32>) -> tensor<2xf32>
  func.return %x, %w, %a, %a : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// Arguments and weights are never freed.
// CHECK-LABEL: func.func @no_free_of_inputs
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return
func.func @no_free_of_inputs(%x: tensor<2xf32>) -> tensor<2xf32> {
  %w = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %a = graph.add %x, %w : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %a : tensor<2xf32>
}

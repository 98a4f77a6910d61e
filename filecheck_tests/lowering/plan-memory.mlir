// RUN: infer-opt %s -p plan-memory | filecheck %s

// %a is last read where %b is made, so %c takes %a's bytes; %b overlaps both. Equal sizes
// are placed in the order they are made; every offset is a multiple of 64 (%t, 12 bytes,
// takes 64, above %b and %c, which it overlaps). A dealloc is not a use: %b is dead after
// @small. The result %r and the buffer of dynamic size %d stay on malloc; the deallocs
// of the planned buffers go.
// CHECK:       infer.memory_plan = {main = {arena = 576 : i64, total = 832 : i64, buffers = 4 : i64, unplanned = 2 : i64}, views = {arena = 512 : i64, total = 512 : i64, buffers = 2 : i64, unplanned = 1 : i64}}
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%x: memref<64xf32>, %n: index, %arena: memref<576xi8>) -> memref<64xf32>
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %a = memref.view %arena[%[[C0]]][] : memref<576xi8> to memref<64xf32>
// CHECK:         %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %b = memref.view %arena[%[[C256]]][] : memref<576xi8> to memref<64xf32>
// CHECK:         %[[C0B:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %c = memref.view %arena[%[[C0B]]][] : memref<576xi8> to memref<64xf32>
// CHECK:         %[[C512:.*]] = arith.constant 512 : index
// CHECK-NEXT:    %t = memref.view %arena[%[[C512]]][] : memref<576xi8> to memref<3xf32>
// CHECK:         %d = memref.alloc(%n) : memref<?xf32>
// CHECK-NEXT:    %r = memref.alloc() : memref<64xf32>
// CHECK:         memref.dealloc %d : memref<?xf32>
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return %r : memref<64xf32>
func.func @main(%x : memref<64xf32>, %n : index) -> memref<64xf32> {
  %a = memref.alloc() : memref<64xf32>
  func.call @produce(%x, %a) : (memref<64xf32>, memref<64xf32>) -> ()
  %b = memref.alloc() : memref<64xf32>
  func.call @produce(%a, %b) : (memref<64xf32>, memref<64xf32>) -> ()
  memref.dealloc %a : memref<64xf32>
  %c = memref.alloc() : memref<64xf32>
  func.call @produce(%b, %c) : (memref<64xf32>, memref<64xf32>) -> ()
  %t = memref.alloc() : memref<3xf32>
  func.call @small(%b, %t) : (memref<64xf32>, memref<3xf32>) -> ()
  memref.dealloc %b : memref<64xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  %r = memref.alloc() : memref<64xf32>
  func.call @produce(%c, %r) : (memref<64xf32>, memref<64xf32>) -> ()
  memref.dealloc %c : memref<64xf32>
  memref.dealloc %t : memref<3xf32>
  memref.dealloc %d : memref<?xf32>
  func.return %r : memref<64xf32>
}

// A view keeps its buffer alive: %v (a reshape of %p) is read after %q is made, so %q
// may not take %p's bytes. A private function keeps its allocations.
// CHECK-LABEL: func.func @views
// CHECK-SAME:    %arena: memref<512xi8>
// CHECK:         %[[P:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %p = memref.view %arena[%[[P]]][] : memref<512xi8> to memref<8x8xf32>
// CHECK:         %[[Q:.*]] = arith.constant 256 : index
// CHECK-NEXT:    %q = memref.view %arena[%[[Q]]][] : memref<512xi8> to memref<64xf32>
// CHECK:         func.func private @produce
// CHECK-NEXT:      %s = memref.alloc() : memref<64xf32>
func.func @views(%x : memref<64xf32>) -> memref<64xf32> {
  %p = memref.alloc() : memref<8x8xf32>
  %v = memref.collapse_shape %p [[0, 1]] : memref<8x8xf32> into memref<64xf32>
  func.call @produce(%x, %v) : (memref<64xf32>, memref<64xf32>) -> ()
  %q = memref.alloc() : memref<64xf32>
  func.call @produce(%v, %q) : (memref<64xf32>, memref<64xf32>) -> ()
  memref.dealloc %p : memref<8x8xf32>
  %r = memref.alloc() : memref<64xf32>
  func.call @produce(%q, %r) : (memref<64xf32>, memref<64xf32>) -> ()
  memref.dealloc %q : memref<64xf32>
  func.return %r : memref<64xf32>
}

func.func private @produce(%x : memref<64xf32>, %y : memref<64xf32>) {
  %s = memref.alloc() : memref<64xf32>
  memref.dealloc %s : memref<64xf32>
  func.return
}
func.func private @small(%x : memref<64xf32>, %y : memref<3xf32>)

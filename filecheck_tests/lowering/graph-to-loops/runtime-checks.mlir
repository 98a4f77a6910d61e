// RUN: infer-opt %s -p "plan-loops{outline=true},graph-to-loops,canonicalize" | filecheck %s

// What a kernel relies on about run-time sizes (here MatMul's inner dims, stated by its
// shape function) is checked before it runs. A public function with checks takes a status
// buffer; a failing check stores its code (1 for the first of the function), the two
// values and the input shapes there, frees the live buffers and returns a result with no
// data. The module's `infer.checks` tells the runtime what each code means.
// CHECK:       builtin.module attributes {infer.checks = {matmul = [["MatMul: inner dims differ: {a} and {b} (input shapes {shapes})", array<i64: 2, 2>]], conv = [["Conv: bias and output channels differ: {a} and {b} (input shapes {shapes})", array<i64: 4, 4, 1>], ["Conv: padded input length {a} is less than {b} (input shapes {shapes})", array<i64: 4, 4, 1>], ["Conv: padded input length {a} is less than {b} (input shapes {shapes})", array<i64: 4, 4, 1>]]}}
// CHECK-LABEL: func.func @matmul(%a: memref<2x3xf32>, %b: memref<?x5xf32>, %status: memref<64xi64>) -> memref<2x5xf32>
// CHECK:         %[[E:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<?x5xf32>
// CHECK:         math.exp
// CHECK:         %[[K:.*]] = memref.dim %[[E]], %{{.*}} : memref<?x5xf32>
// CHECK-NEXT:    %[[THREE:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi eq, %[[THREE]], %[[K]] : index
// CHECK-NEXT:    cf.cond_br %[[OK]], ^[[GO:.*]], ^[[FAIL:.*]]
// CHECK-NEXT:  ^[[GO]]:
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc() {{.*}} : memref<2x5xf32>
// CHECK-NEXT:    func.call @__kernel_matmul_0(%a, %[[E]], %[[Y]])
// CHECK-NEXT:    memref.dealloc %[[E]]
// CHECK-NEXT:    func.return %[[Y]] : memref<2x5xf32>
// CHECK-NEXT:  ^[[FAIL]]:
// CHECK-DAG:     %[[CODE:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[A:.*]] = arith.index_cast %[[THREE]] : index to i64
// CHECK-DAG:     %[[B:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK:         memref.store %[[CODE]], %status[%{{.*}}] : memref<64xi64>
// CHECK:         memref.store %[[A]], %status[%{{.*}}] : memref<64xi64>
// CHECK:         memref.store %[[B]], %status[%{{.*}}] : memref<64xi64>
// CHECK-COUNT-4: memref.store %{{.*}}, %status[%{{.*}}] : memref<64xi64>
// CHECK:         memref.dealloc %[[E]] : memref<?x5xf32>
// CHECK-NEXT:    %[[EMPTY:.*]] = memref.alloc() {{.*}} : memref<2x5xf32>
// CHECK-NEXT:    func.return %[[EMPTY]] : memref<2x5xf32>
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<?x5xf32>) -> tensor<2x5xf32> {
  %e = graph.exp %b : (tensor<?x5xf32>) -> tensor<?x5xf32>
  %0 = graph.matmul %a, %e : (tensor<2x3xf32>, tensor<?x5xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}

// An outlined conv is checked by its caller, before the call (the bias has the output's
// 8 channels; each padded spatial length holds the 3-wide window); the kernel function
// has no checks, and neither has a private function. A dynamic result dim of a failing
// path is 0.
// CHECK-LABEL: func.func @conv(%x: memref<?x4x?x?xf32>, %bias: memref<?xf32>, %status: memref<64xi64>)
// CHECK:         cf.cond_br %{{.*}}, ^[[C1:.*]], ^{{.*}}
// CHECK-NEXT:  ^[[C1]]:
// CHECK-NEXT:    %[[W1:.*]] = arith.constant 3 : index
// CHECK-NEXT:    arith.cmpi sge, %{{.*}}, %[[W1]] : index
// CHECK-NEXT:    cf.cond_br %{{.*}}, ^[[C2:.*]], ^{{.*}}
// CHECK-NEXT:  ^[[C2]]:
// CHECK-NEXT:    %[[W2:.*]] = arith.constant 3 : index
// CHECK-NEXT:    arith.cmpi sge, %{{.*}}, %[[W2]] : index
// CHECK-NEXT:    cf.cond_br %{{.*}}, ^[[C3:.*]], ^{{.*}}
// CHECK-NEXT:  ^[[C3]]:
// CHECK-NEXT:    %y = func.call @__kernel_conv_1(%x, %w, %bias)
// CHECK:         memref.alloc(%[[Z:.*]], %[[Z]], %[[Z]]) {{.*}} : memref<?x8x?x?xf32>
// CHECK:       func.func private @helper(%a: memref<?x3xf32>, %b: memref<?x3xf32>) -> memref<?x3xf32>
// CHECK-NOT:     cf.cond_br
// CHECK:       func.func private @__kernel_matmul_0
// CHECK-NOT:     cf.cond_br
// CHECK:       func.func private @__kernel_conv_1
// CHECK-NOT:     cf.cond_br
func.func @conv(%x: tensor<?x4x?x?xf32>, %bias: tensor<?xf32>) -> tensor<?x8x?x?xf32> {
  %w = graph.constant dense<0.5> : tensor<8x4x3x3xf32>
  %y = graph.conv %x, %w, %bias : (tensor<?x4x?x?xf32>, tensor<8x4x3x3xf32>, tensor<?xf32>) -> tensor<?x8x?x?xf32>
  func.return %y : tensor<?x8x?x?xf32>
}
func.func private @helper(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = graph.add %a, %b : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}

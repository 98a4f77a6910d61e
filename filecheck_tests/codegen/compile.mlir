// `compile{level block}` is the whole pipeline of infer.compile, graph to llvm (see
// pipeline.py): the model's signature recorded as a module attribute at the graph level
// reaches the llvm level unchanged, beside the entry point the runtime calls.
// RUN: infer-opt %inputs/conv_relu.onnx -p 'compile{level=3 block=8}' | filecheck %s
// RUN: infer-opt %inputs/conv_relu.onnx -p compile | filecheck %s
// RUN: infer-opt %inputs/conv_relu.onnx -p graph-optimize,graph-to-loops,lower-to-llvm | filecheck %s --check-prefix=TAIL-CHECK

// CHECK:       builtin.module attributes {infer.model_signature = {main = {inputs = [{name = "x", type = tensor<?x3x7x7xf32>, dims = ["N", "", "", ""]}], outputs = [{name = "y", type = tensor<?x4x4x4xf32>, dims = ["N", "", "", ""]}]}}} {
// CHECK-NEXT:    llvm.func @main(%x: !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<4 x i64>, !llvm.array<4 x i64>)>)
// CHECK-NOT:     {{func\.func|graph\.|memref\.|scf\.|cf\.|arith\.}}
// CHECK:         llvm.func @_infer_packed_main(%{{.*}}: !llvm.ptr) attributes {infer.signature = (memref<?x3x7x7xf32>) -> memref<?x4x4x4xf32>, no_unwind}
// CHECK-NOT:     {{func\.func|graph\.|memref\.|scf\.|cf\.|arith\.}}

// lower-to-llvm alone is the pipeline's tail: loops to llvm (no signature recorded).
// TAIL-CHECK-NOT: infer.model_signature
// TAIL-CHECK:     llvm.func @main(
// TAIL-CHECK:     llvm.func @_infer_packed_main(
// TAIL-CHECK-NOT: {{func\.func|graph\.|memref\.|scf\.}}

// RUN: not infer-opt %inputs/conv_relu.onnx -p 'compile{level=4}' 2>&1 | filecheck %s --check-prefix=ERR-CHECK
// ERR-CHECK: infer-opt: error: compile: level must be 0..3, got 4

// RUN: infer-opt %s -p convert-cf-to-llvm | filecheck %s

// CHECK-LABEL: func.func @loop
func.func @loop(%n: index) -> index {
  %c0 = arith.constant 0 : index
  // CHECK:      %[[Z:.*]] = builtin.unrealized_conversion_cast %c0 : index to i64
  // CHECK-NEXT: llvm.br ^[[HEAD:.*]](%[[Z]] : i64)
  cf.br ^head(%c0 : index)
// block arguments become i64; their users see an index through a cast
// CHECK:      ^[[HEAD]](%[[I:.*]]: i64):
// CHECK-NEXT: %[[II:.*]] = builtin.unrealized_conversion_cast %[[I]] : i64 to index
^head(%i: index):
  %c = arith.cmpi slt, %i, %n : index
  // CHECK:      llvm.cond_br %{{.*}}, ^{{.*}}, ^{{.*}}
  cf.cond_br %c, ^body, ^exit
^body:
  %c1 = arith.constant 1 : index
  %next = arith.addi %i, %c1 : index
  // a loop's back edge keeps its infer.no_unroll mark (convert-scf-to-cf)
  // CHECK:      llvm.br ^[[HEAD]](%{{.*}} : i64) {infer.no_unroll}
  cf.br ^head(%next : index) {infer.no_unroll}
^exit:
  func.return %i : index
}

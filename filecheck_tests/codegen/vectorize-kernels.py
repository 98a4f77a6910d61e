# RUN: python %s > %t
# RUN: filecheck %s --check-prefix=MATMUL < %t
# RUN: filecheck %s --check-prefix=CONV < %t
# RUN: filecheck %s --check-prefix=REDUCE < %t
# The loop nests graph-to-loops writes for matmul, conv and a last-axis reduction are
# shaped so that LLVM's loop vectorizer turns their innermost loops into vector code.
# Their parallel loops are functions of their own (outline-parallel-loops).
from xdsl.parser import Parser

from infer.codegen import emit_llvm_ir
from infer.context import make_context
from infer.pipeline import LOWER_TO_LOOPS, lower_to_llvm, run_passes

IR = """
func.func @matmul(%a: tensor<?x64xf32>, %b: tensor<64x128xf32>) -> tensor<?x128xf32> {
  %y = graph.matmul %a, %b : (tensor<?x64xf32>, tensor<64x128xf32>) -> tensor<?x128xf32>
  func.return %y : tensor<?x128xf32>
}
func.func @conv(%x: tensor<?x8x32x32xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<?x16x32x32xf32> {
  %y = graph.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x8x32x32xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x32x32xf32>
  func.return %y : tensor<?x16x32x32xf32>
}
func.func @reduce(%x: tensor<?x256xf32>) -> tensor<?x1xf32> {
  %axes = graph.constant dense<[1]> : tensor<1xi64>
  %y = graph.reduce_sum %x, %axes : (tensor<?x256xf32>, tensor<1xi64>) -> tensor<?x1xf32>
  func.return %y : tensor<?x1xf32>
}
"""

ctx = make_context()
module = Parser(ctx, IR).parse_module()
run_passes(module, ctx, LOWER_TO_LOOPS)
print(emit_llvm_ir(lower_to_llvm(module, ctx)))

# Each parallel body is compiled once, called by the one-thread path and by the pool's chunk
# function (noinline).
# MATMUL-LABEL: define {{.*}} @matmul(
# MATMUL:       call fastcc void @__kernel_matmul_[[K:[0-9]+]]_parallel_0(
# B (static, a distinct buffer) reaches the row loop as a noalias pointer: its loop of
# N = 128 is unrolled into whole vectors, so no loop is left to be named vector.body.
# MATMUL:       define {{.*}} @__kernel_matmul_[[K]]_parallel_0(
# MATMUL:       fmul contract <{{(8|16)}} x float>
# MATMUL:       fadd contract <{{(8|16)}} x float>
# MATMUL:       define {{.*}} @__kernel_matmul_[[K]]_parallel_0_chunk(
# MATMUL:       call fastcc void @__kernel_matmul_[[K]]_parallel_0(
# Fixed trip counts get unrolled, so no loop is left to be named vector.body.
# CONV-LABEL: define {{.*}} @__kernel_conv_{{[0-9]+}}_parallel_0(
# CONV:       fmul contract <{{(8|16)}} x float>
# CONV:       fadd contract <{{(8|16)}} x float>
# REDUCE-LABEL: define {{.*}} @reduce_parallel_0(
# REDUCE:       load <{{(8|16)}} x float>
# REDUCE:       fadd reassoc contract <{{(8|16)}} x float>
# REDUCE:       call reassoc contract float @llvm.vector.reduce.fadd

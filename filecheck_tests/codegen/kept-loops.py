# RUN: python %s | filecheck %s
# A loop marked infer.no_unroll (a kernel the lowering unrolled to its register tile)
# reaches LLVM with `llvm.loop.unroll.disable` on its back edge and stays a loop after
# O3; the same loop unmarked (16 iterations) is unrolled whole.
from xdsl.parser import Parser

from infer.codegen import emit_llvm_ir
from infer.context import make_context
from infer.pipeline import lower_to_llvm

LOOP = """
func.func @{name}(%x: memref<16xf32>) -> f32 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {{
    %v = memref.load %x[%i] : memref<16xf32>
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }} {attrs}
  func.return %s : f32
}}
"""

ctx = make_context()
module = Parser(ctx, LOOP.format(name="kept", attrs="{infer.no_unroll}")
                + LOOP.format(name="unrolled", attrs="")).parse_module()
print(emit_llvm_ir(lower_to_llvm(module, ctx)))

# CHECK-LABEL: define {{.*}} @kept(
# CHECK:       fadd float
# CHECK-NOT:   fadd float
# CHECK:       br i1 %{{.*}}, label %{{.*}}, label %{{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
# CHECK-LABEL: define {{.*}} @unrolled(
# CHECK-COUNT-16: fadd float
# CHECK-NOT:   !llvm.loop
# CHECK:       ![[LOOP]] = distinct !{![[LOOP]], ![[DISABLE:[0-9]+]]}
# CHECK:       ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}

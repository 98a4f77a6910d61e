# RUN: python %s | filecheck %s
# An elementwise loop lowered to LLVM and optimized at O3 for the host is vectorized.
from xdsl.parser import Parser

from infer.codegen import emit_assembly, emit_llvm_ir
from infer.context import make_context
from infer.pipeline import lower_to_llvm

IR = """
func.func @main(%a: memref<?xf32>, %b: memref<?xf32>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = memref.load %b[%i] : memref<?xf32>
    %p = arith.mulf %x, %y fastmath<contract> : f32
    %s = arith.addf %p, %x fastmath<contract> : f32
    memref.store %s, %out[%i] : memref<?xf32>
  }
  func.return %out : memref<?xf32>
}
"""

ctx = make_context()
module = lower_to_llvm(Parser(ctx, IR).parse_module(), ctx)
print(emit_llvm_ir(module))
print(emit_assembly(module))

# CHECK-LABEL: define {{.*}} @main(
# CHECK:       vector.body:
# CHECK:       load <{{(8|16)}} x float>, ptr %{{.*}}, align 4
# CHECK:       %[[M:.*]] = fmul contract <{{(8|16)}} x float>
# CHECK:       fadd contract <{{(8|16)}} x float> %{{.*}}, %[[M]]
# CHECK:       store <{{(8|16)}} x float>
# CHECK-LABEL: define void @_infer_packed_main(ptr
# `contract` lets the backend fuse them into a packed FMA
# CHECK:       vfmadd{{[0-9]+}}ps

# RUN: python %s | filecheck %s
# Loop nests outlined from a function (outline-loops) keep what LLVM knew about their
# buffers: distinct allocations arrive as `noalias` pointers, so the scale-shift-ReLU of a
# channel block (8 lanes, fully unrolled) still becomes vector code, and `noinline` keeps
# each nest a function of its own.
from xdsl.parser import Parser

from infer.codegen import emit_llvm_ir
from infer.context import make_context
from infer.pipeline import lower_to_llvm, run_passes

IR = """
func.func @main(%x: memref<1x2x4x4x8xf32>, %s: memref<2x8xf32>) -> memref<1x2x4x4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() {alignment = 64 : i64} : memref<1x2x4x4x8xf32>
  scf.for %b = %c0 to %c2 step %c1 {
    scf.for %h = %c0 to %c4 step %c1 {
      scf.for %w = %c0 to %c4 step %c1 {
        scf.for %l = %c0 to %c8 step %c1 {
          %v = memref.load %x[%c0, %b, %h, %w, %l] : memref<1x2x4x4x8xf32>
          %k = memref.load %s[%b, %l] : memref<2x8xf32>
          %m = arith.mulf %v, %k fastmath<contract> : f32
          %r = arith.maximumf %m, %zero : f32
          memref.store %r, %y[%c0, %b, %h, %w, %l] : memref<1x2x4x4x8xf32>
        }
      }
    }
  }
  scf.for %b = %c0 to %c2 step %c1 {
    scf.for %l = %c0 to %c8 step %c1 {
      %v = memref.load %y[%c0, %b, %c0, %c0, %l] : memref<1x2x4x4x8xf32>
      memref.store %v, %y[%c0, %b, %c1, %c1, %l] : memref<1x2x4x4x8xf32>
    }
  }
  func.return %y : memref<1x2x4x4x8xf32>
}
"""

ctx = make_context()
module = Parser(ctx, IR).parse_module()
run_passes(module, ctx, ["outline-loops"])
print(emit_llvm_ir(lower_to_llvm(module, ctx)))

# CHECK-LABEL: define {{.*}} @main(
# CHECK:       call {{.*}}void @main__loop_0(ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}})
# CHECK:       call {{.*}}void @main__loop_1(ptr %{{.*}})
# CHECK:       define internal {{.*}}void @main__loop_0(ptr noalias {{.*}}, ptr noalias {{.*}}, ptr noalias {{.*}}) {{.*}}#[[ATTRS:[0-9]+]] {
# CHECK:       fmul contract <{{(8|16)}} x float>
# CHECK:       @llvm.maximum.v{{(8|16)}}f32
# CHECK:       store <{{(8|16)}} x float>
# CHECK:       define internal {{.*}}void @main__loop_1(ptr noalias
# CHECK:       attributes #[[ATTRS]] = { {{.*}}noinline{{.*}} }

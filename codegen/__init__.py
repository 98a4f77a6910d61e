"""llvm dialect -> LLVM IR (llvmlite) -> O3 for the target CPU -> object code -> MCJIT.

Entry points for the layers above:

- `JitModule(module).get_entry("main")(inputs) -> outputs`: compile, map and call;
- `compile_object(module, target)` / `ObjectModule(code)`: the two steps apart;
- `emit_llvm_ir(module, optimized=True)` / `emit_assembly(module)`: text, for tests.
"""

from xdsl.dialects.builtin import ModuleOp

from infer.codegen.jit import JitModule, ObjectModule, compile_llvm_ir, compile_object
from infer.codegen.target import Target, host_target, host_target_machine


def emit_llvm_ir(module: ModuleOp, optimized: bool = True) -> str:
    """LLVM IR of an llvm-dialect module, after O3 for the host when `optimized`."""
    ref, _ = compile_llvm_ir(module, host_target_machine(), optimized=optimized)
    return str(ref)


def emit_assembly(module: ModuleOp, target: Target | None = None) -> str:
    """Assembly of an llvm-dialect module after O3, for `target` (this CPU when None)."""
    tm = (target or host_target()).machine()
    ref, _ = compile_llvm_ir(module, tm, optimized=True)
    return tm.emit_assembly(ref)


__all__ = ["JitModule", "ObjectModule", "compile_object", "emit_assembly", "emit_llvm_ir"]

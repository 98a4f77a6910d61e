"""llvm dialect -> LLVM IR (llvmlite) -> O3 for the host CPU -> MCJIT.

Entry points for the layers above:

- `JitModule(module).get_entry("main")(inputs) -> outputs`: compile and call;
- `emit_llvm_ir(module, optimized=True)` / `emit_assembly(module)`: text, for tests.
"""

from xdsl.dialects.builtin import ModuleOp

from infer.codegen.jit import JitModule, compile_llvm_ir
from infer.codegen.target import host_target_machine


def emit_llvm_ir(module: ModuleOp, optimized: bool = True) -> str:
    """LLVM IR of an llvm-dialect module, after O3 for the host when `optimized`."""
    ref, _ = compile_llvm_ir(module, host_target_machine(), optimized=optimized)
    return str(ref)


def emit_assembly(module: ModuleOp) -> str:
    """Host assembly of an llvm-dialect module after O3."""
    tm = host_target_machine()
    ref, _ = compile_llvm_ir(module, tm, optimized=True)
    return tm.emit_assembly(ref)


__all__ = ["JitModule", "emit_assembly", "emit_llvm_ir"]

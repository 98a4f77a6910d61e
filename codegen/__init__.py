"""llvm dialect -> LLVM IR (llvmlite) -> O3 for the target CPU -> object code -> MCJIT.

Entry points for the layers above:

- `JitModule(module).get_entry("main")(inputs) -> outputs`: compile, map and call;
- `compile_object(module, target)` / `ObjectModule(code)`: the two steps apart
  (codegen/compile.py, the compiler's side; codegen/jit.py, the runtime's, which does not
  import xDSL);
- `emit_llvm_ir(module, optimized=True)` / `emit_assembly(module)`: text, for tests.

The names load lazily, so that mapping an artifact imports no compiler.
"""

from importlib import import_module

_NAMES = {
    "JitModule": "infer.codegen.compile",
    "compile_object": "infer.codegen.compile",
    "compile_llvm_ir": "infer.codegen.compile",
    "emit_assembly": "infer.codegen.compile",
    "emit_llvm_ir": "infer.codegen.compile",
    "ObjectModule": "infer.codegen.jit",
}

__all__ = sorted(_NAMES)


def __getattr__(name: str):  # noqa: ANN202 - module attribute hook
    if name in _NAMES:
        return getattr(import_module(_NAMES[name]), name)
    raise AttributeError(f"module 'infer.codegen' has no attribute {name!r}")

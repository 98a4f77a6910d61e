"""The two long calls into LLVM of a compile, made outside llvmlite's lock.

llvmlite takes one process-wide lock around every call into LLVM (binding/ffi.py), so
parts compiled in threads of their own (codegen/compile.py) would run one at a time. LLVM
itself is thread-safe for modules in distinct contexts with distinct target machines and
pass managers (its ORC JIT and ThinLTO compile such modules at once). The callers here
own all three, so O3 and code generation go straight to the ctypes functions, which
release the GIL; every other call keeps the lock.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

import llvmlite.binding as llvm
from llvmlite.binding import ffi


def _unlocked(name: str) -> Callable[..., Any]:
    """llvmlite's ctypes function `name` without its lock (the locked one if llvmlite's
    wrapper ever stops exposing it)."""
    wrapped = getattr(ffi.lib, name)
    return getattr(wrapped, "_cfn", wrapped)


def run_module_passes(pm: llvm.ModulePassManager, module: llvm.ModuleRef,
                      pb: llvm.PassBuilder) -> None:
    """`pm.run(module, pb)` outside the lock: `module` must have a context of its own."""
    _unlocked("LLVMPY_RunNewModulePassManager")(pm, module, pb)


def emit_object(tm: llvm.TargetMachine, module: llvm.ModuleRef) -> bytes:
    """`tm.emit_object(module)` outside the lock: `module` must have a context of its own
    and `tm` serve this thread only."""
    with ffi.OutputString() as err:
        buffer = _unlocked("LLVMPY_TargetMachineEmitToMemory")(tm, module, 1, err)
        if not buffer:
            raise RuntimeError(str(err))
    try:
        return ctypes.string_at(ffi.lib.LLVMPY_GetBufferStart(buffer),
                                ffi.lib.LLVMPY_GetBufferSize(buffer))
    finally:
        ffi.lib.LLVMPY_DisposeMemoryBuffer(buffer)

"""Native code as a relocatable object file for this CPU: emitted from a compiled module's
optimized IR (`object_code`), and mapped into an execution engine of its own with its
weights bound (`load_object`), which compiles nothing.

The object file refers to each weight by its symbol name, `<prefix><name>`, and the
weights are bound to those names with the process-global `llvmlite.binding.add_symbol`.
Each copy loaded therefore gets a fresh prefix (`new_symbol_prefix`), written over the
old one in the object's bytes: both prefixes have the same length, so the string table
keeps its offsets, and the old one holds 128 random bits, so it occurs nowhere but in the
symbol names.
"""

from __future__ import annotations

from dataclasses import dataclass

import llvmlite.binding as llvm
import numpy as np

from infer.codegen.jit import (
    SYMBOL_PREFIX,
    EntrySignature,
    JitModule,
    NativeModule,
    bind_weights,
    new_symbol_prefix,
)
from infer.codegen.target import host_target_machine, host_triple


@dataclass(frozen=True)
class ObjectCode:
    """What it takes to map compiled code again: the object file, the prefix of the weight
    symbols it refers to, the weights by name without the prefix, and the entries' ways
    of passing arguments."""

    obj: bytes
    symbol_prefix: str
    weights: dict[str, np.ndarray]
    signatures: dict[str, EntrySignature]


class ObjectModule(NativeModule):
    """An object file mapped into an engine of its own, its weights bound."""

    def __init__(self, code: ObjectCode) -> None:
        if not SYMBOL_PREFIX.fullmatch(code.symbol_prefix):
            raise ValueError(f"malformed weight symbol prefix '{code.symbol_prefix}'")
        prefix = new_symbol_prefix()
        obj = code.obj.replace(code.symbol_prefix.encode(), prefix.encode())
        bound = bind_weights(prefix, code.weights)  # before the engine resolves symbols
        tm = host_target_machine()
        # An engine is made from a module: an empty one, the code comes from the object.
        empty = llvm.parse_assembly(
            f'target triple = "{host_triple()}"\ntarget datalayout = "{tm.target_data}"\n')
        engine = llvm.create_mcjit_compiler(empty, tm)
        engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        engine.finalize_object()
        super().__init__(engine, prefix, bound, code.signatures)
        self.code = ObjectCode(obj, prefix, code.weights, code.signatures)


def emit_object(optimized_ir: str) -> bytes:
    """The host object file of optimized LLVM IR (code generation only, as the JIT does)."""
    ref = llvm.parse_assembly(optimized_ir)
    return host_target_machine().emit_object(ref)


def object_code(native: NativeModule) -> ObjectCode:
    """The object code of a JIT-compiled or loaded module."""
    if isinstance(native, ObjectModule):
        return native.code
    assert isinstance(native, JitModule)
    return ObjectCode(emit_object(native.optimized_ir), native.symbol_prefix,
                      native.weights(), native.signatures)


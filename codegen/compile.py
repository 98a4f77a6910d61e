"""An llvm-dialect module compiled for a target: translated to LLVM IR (codegen/translate.py),
optimized at O3 and emitted once as an object file (`compile_object`), which
codegen/jit.py maps; `JitModule` does both, for a module compiled in-process.
"""

from __future__ import annotations

from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor

import llvmlite.binding as llvm
import numpy as np
from xdsl.dialects import llvm as llvm_d
from xdsl.dialects.builtin import FunctionType, MemRefType, ModuleOp, NoneAttr
from xdsl.ir import Attribute

from infer.abi import PACKED_PREFIX, SIGNATURE_ATTR
from infer.codegen.jit import ArgSpec, ObjectCode, ObjectModule, new_symbol_prefix, pack_objects
from infer.codegen.llvm_calls import emit_object
from infer.codegen.optimize import optimize
from infer.codegen.partition import Parts, compile_workers, partition
from infer.codegen.target import Target, host_target, host_triple
from infer.codegen.translate import INLINE_LIMIT, Translation, numpy_dtype, translate_module


def translate(module: ModuleOp, tm: llvm.TargetMachine, prefix: str, *,
              bodies: Collection[str] | None = None, exported: Collection[str] = (),
              owns_globals: bool = True) -> Translation:
    """`module` (or one part of it: `translate_module`) as LLVM IR for `tm`'s data layout."""
    return translate_module(
        module, triple=host_triple(), data_layout=str(tm.target_data), symbol_prefix=prefix,
        inline_limit=INLINE_LIMIT, bodies=bodies, exported=exported, owns_globals=owns_globals)


def compile_llvm_ir(
    module: ModuleOp, tm: llvm.TargetMachine, *, optimized: bool, prefix: str = ""
) -> tuple[llvm.ModuleRef, dict[str, np.ndarray]]:
    """Translates, parses, verifies and (optionally) optimizes `module` for `tm`."""
    translation = translate(module, tm, prefix)
    ref = llvm.parse_assembly(str(translation.module))
    ref.verify()
    if optimized:
        optimize(ref, tm)
    return ref, translation.weights


def compile_object(module: ModuleOp, target: Target | None = None) -> ObjectCode:
    """The object code of an llvm-dialect module for `target` (the host when None):
    translated, optimized at O3 and emitted once; mapping it (`ObjectModule`) compiles
    nothing more."""
    target = target or host_target()
    prefix = new_symbol_prefix()
    objects, weights = compile_objects(module, target, prefix)
    return object_code(module, objects, prefix, weights, target)


def compile_objects(module: ModuleOp, target: Target, prefix: str,
                    exported: frozenset[str] | set[str] = frozenset(), owns_globals: bool = True,
                    ) -> tuple[list[bytes], dict[str, np.ndarray]]:
    """The object files of an llvm-dialect module (or of one part of a model, which
    exports the functions in `exported` and defines the globals if it `owns_globals`) and
    its weights. A large module is compiled as several parts at once (`partition`), one
    LLVM context and thread each: their O3 and code generation, most of a compile's time,
    run outside llvmlite's lock and the GIL (`emit_part`)."""
    parts = partition(module, compile_workers())
    texts, weights = _translate_parts(module, parts, target, prefix, exported, owns_globals)
    if len(texts) == 1:
        return [emit_part(texts[0], target)], weights
    with ThreadPoolExecutor(len(texts)) as pool:
        return list(pool.map(lambda text: emit_part(text, target), texts)), weights


def object_code(module: ModuleOp, objects: list[bytes], prefix: str,
                weights: dict[str, np.ndarray], target: Target) -> ObjectCode:
    """The compiled model of `module`'s object files: its weights by name without the
    prefix, and the signatures of the entries' packed wrappers (in `module`)."""
    n = len(prefix)
    signatures = {}
    for op in module.ops:
        if isinstance(op, llvm_d.FuncOp) and SIGNATURE_ATTR in op.attributes:
            signature = op.attributes[SIGNATURE_ATTR]
            assert isinstance(signature, FunctionType)
            signatures[op.sym_name.data[len(PACKED_PREFIX):]] = (
                [_spec(t) for t in signature.inputs.data],
                [_spec(t) for t in signature.outputs.data])
    return ObjectCode(pack_objects(objects), prefix,
                      {name[n:]: data for name, data in weights.items()}, signatures, target)


def _translate_parts(module: ModuleOp, parts: Parts, target: Target, prefix: str,
                     exported: frozenset[str] | set[str], owns_globals: bool
                     ) -> tuple[list[str], dict[str, np.ndarray]]:
    """The LLVM IR text of each part: its functions defined, the others declared; the
    first part defines the module's globals (if the module `owns_globals`). Functions
    another part refers to are exported (in one engine, the parts' symbols resolve to each
    other), and those in `exported`."""
    tm = target.machine()  # its data layout, for every part
    texts, weights = [], {}
    for i, group in enumerate(parts.groups):
        translation = translate(
            module, tm, prefix, bodies=group if len(parts.groups) > 1 else None,
            exported=parts.exported | exported, owns_globals=owns_globals and i == 0)
        texts.append(str(translation.module))
        weights.update(translation.weights)
    return texts, weights


def emit_part(text: str, target: Target) -> bytes:
    """One part's object code, in an LLVM context and target machine of its own (neither
    may be shared between threads). O3 and code generation, most of a compile's time, run
    outside llvmlite's lock (codegen/llvm_calls.py): the parts compile at once."""
    tm = target.machine()
    ref = llvm.parse_assembly(text, context=llvm.create_context())
    ref.verify()
    optimize(ref, tm, unlocked=True)
    return emit_object(tm, ref)


class JitModule(ObjectModule):
    """An llvm-dialect module compiled in-process for this CPU and mapped."""

    def __init__(self, module: ModuleOp) -> None:
        super().__init__(compile_object(module))


def _spec(typ: Attribute) -> ArgSpec:
    """How a memref or scalar argument or result is passed."""
    if isinstance(typ, MemRefType):
        return ArgSpec(numpy_dtype(typ.get_element_type()), typ.get_num_dims(),
                       isinstance(typ.layout, NoneAttr))
    return ArgSpec(numpy_dtype(typ), None, False)


def emit_llvm_ir(module: ModuleOp, optimized: bool = True) -> str:
    """LLVM IR of an llvm-dialect module, after O3 for the host when `optimized`."""
    ref, _ = compile_llvm_ir(module, host_target().machine(), optimized=optimized)
    return str(ref)


def emit_assembly(module: ModuleOp, target: Target | None = None) -> str:
    """Assembly of an llvm-dialect module after O3, for `target` (this CPU when None)."""
    tm = (target or host_target()).machine()
    ref, _ = compile_llvm_ir(module, tm, optimized=True)
    return tm.emit_assembly(ref)

"""An llvm-dialect module compiled for a target: translated to LLVM IR (codegen/translate.py),
optimized at O3 and emitted once as an object file (`compile_object`), which
codegen/jit.py maps; `JitModule` does both, for a module compiled in-process.
"""

from __future__ import annotations

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
from infer.codegen.translate import INLINE_LIMIT, numpy_dtype, translate_module


def compile_llvm_ir(
    module: ModuleOp, tm: llvm.TargetMachine, *, optimized: bool, prefix: str = ""
) -> tuple[llvm.ModuleRef, dict[str, np.ndarray]]:
    """Translates, parses, verifies and (optionally) optimizes `module` for `tm`."""
    translation = translate_module(
        module, triple=host_triple(), data_layout=str(tm.target_data), symbol_prefix=prefix,
        inline_limit=INLINE_LIMIT,
    )  # fmt: skip
    ref = llvm.parse_assembly(str(translation.module))
    ref.verify()
    if optimized:
        optimize(ref, tm)
    return ref, translation.weights


def compile_object(module: ModuleOp, target: Target | None = None) -> ObjectCode:
    """The object code of an llvm-dialect module for `target` (the host when None):
    translated, optimized at O3 and emitted once; mapping it (`ObjectModule`) compiles
    nothing more. A large module is compiled as several parts at once (`partition`), one
    LLVM context and thread each: their O3 and code generation, most of a compile's time,
    run outside llvmlite's lock and the GIL (`_emit_part`)."""
    target = target or host_target()
    prefix = new_symbol_prefix()
    parts = partition(module, compile_workers())
    texts, weights = _translate_parts(module, parts, target, prefix)
    if len(texts) == 1:
        objects = [_emit_part(texts[0], target)]
    else:
        with ThreadPoolExecutor(len(texts)) as pool:
            objects = list(pool.map(lambda text: _emit_part(text, target), texts))
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


def _translate_parts(module: ModuleOp, parts: Parts, target: Target, prefix: str
                     ) -> tuple[list[str], dict[str, np.ndarray]]:
    """The LLVM IR text of each part: its functions defined, the others declared; the
    first part defines the module's globals. Functions another part refers to are
    exported (in one engine, the parts' symbols resolve to each other)."""
    data_layout = str(target.machine().target_data)
    if len(parts.groups) == 1:
        translation = translate_module(module, triple=host_triple(), data_layout=data_layout,
                                       symbol_prefix=prefix, inline_limit=INLINE_LIMIT)
        return [str(translation.module)], translation.weights
    texts, weights = [], {}
    for i, group in enumerate(parts.groups):
        translation = translate_module(
            module, triple=host_triple(), data_layout=data_layout, symbol_prefix=prefix,
            inline_limit=INLINE_LIMIT, bodies=group, exported=parts.exported, owns_globals=i == 0)
        texts.append(str(translation.module))
        weights.update(translation.weights)
    return texts, weights


def _emit_part(text: str, target: Target) -> bytes:
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

"""`llvm` dialect module -> llvmlite `ir.Module`.

xDSL's translator (`xdsl.backend.llvm`) does most of the work: we reuse its function
declaration, type conversion and per-op conversion, and handle here only what it lacks:

- `llvmx` ops (fptosi/fptoui/uitofp, vector fcmp/select, extractelement);
- `llvm.call_intrinsic` with fast-math flags (xDSL refuses them); names come mangled
  from the lowering, so one intrinsic at two types is two declarations;
- a loop's NO_UNROLL_ATTR mark on its back-edge `llvm.br`, as `llvm.loop.unroll.disable`;
- linkage and `nounwind` on functions (xDSL drops both), `noalias` on pointer arguments
  marked `llvm.noalias`;
- globals: a dense value with more than `inline_limit` elements becomes an external
  declaration named `<symbol_prefix><name>` whose data is returned as a numpy array for
  the JIT to bind, instead of an LLVM constant (which takes minutes for ResNet-50).
"""

from collections.abc import Collection
from dataclasses import dataclass, field
from math import prod

import llvmlite.ir as ir
import numpy as np
from xdsl.backend.llvm.convert import _declare_func  # pyright: ignore[reportPrivateUsage]
from xdsl.backend.llvm.convert_op import convert_op, create_constant
from xdsl.backend.llvm.convert_type import convert_type
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from infer.abi import ALLOC_SYMBOL, NO_UNROLL_ATTR, NOALIAS_ATTR, NOINLINE_ATTR
from infer.dialects import llvmx
from infer.dialects.element_types import numpy_dtype as element_numpy_dtype

INLINE_LIMIT = 256
GLOBAL_ALIGNMENT = 64


@dataclass
class Translation:
    module: ir.Module
    weights: dict[str, np.ndarray] = field(default_factory=dict[str, np.ndarray])
    """Symbol name -> contents of each external weight the module declares."""


def numpy_dtype(typ: Attribute) -> np.dtype:
    """numpy dtype of an element type (index is int64, i1 is bool)."""
    if isinstance(typ, IndexType):
        return np.dtype(np.int64)
    try:
        return element_numpy_dtype(typ)
    except (KeyError, ValueError):
        raise NotImplementedError(f"no numpy dtype for {typ}") from None


def dense_to_numpy(value: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The attribute's elements as a flat array, without a copy when not a splat."""
    dtype = numpy_dtype(value.get_element_type())
    count = prod(value.get_shape())
    data = np.frombuffer(value.data.data, dtype=dtype)
    if data.size == 1 and count != 1:
        return np.full(count, data[0], dtype=dtype)
    return data


def _convert_global(
    op: llvm.GlobalOp, module: ir.Module, out: Translation, prefix: str, inline_limit: int,
    define: bool = True,
) -> str:
    """Emits the global (a declaration where not `define` and it is not private); returns
    the LLVM symbol name used for it."""
    typ = convert_type(op.global_type)
    value = op.value
    name = op.sym_name.data
    if isinstance(value, DenseIntOrFPElementsAttr) and prod(value.get_shape()) > inline_limit:
        name = prefix + name
        gvar = ir.GlobalVariable(module, typ, name=name)
        gvar.linkage = "external"
        gvar.global_constant = op.constant is not None
        out.weights[name] = dense_to_numpy(value)
    else:
        gvar = ir.GlobalVariable(module, typ, name=name)
        linkage = op.linkage.linkage.data
        if not define and linkage not in ("private", "internal"):
            value, linkage = None, "external"  # defined by another part
        # MLIR's external global with a value is a definition: LLVM's default linkage
        gvar.linkage = "" if linkage == "external" and value is not None else linkage
        gvar.global_constant = op.constant is not None
        if isinstance(value, DenseIntOrFPElementsAttr):
            values = dense_to_numpy(value).tolist()
            gvar.initializer = ir.Constant(typ, values)
        elif value is not None:
            gvar.initializer = create_constant(op.global_type, value)
        elif gvar.linkage != "external":
            gvar.initializer = ir.Constant(typ, None)  # zeroinitializer
    gvar.align = op.alignment.value.data if op.alignment is not None else GLOBAL_ALIGNMENT
    return name


def _flags(op: Operation) -> list[str]:
    fm = op.properties.get("fastmathFlags")
    return [f.value for f in fm.data] if isinstance(fm, llvm.FastMathAttr) else []


def _call_intrinsic(
    op: llvm.CallIntrinsicOp, builder: ir.IRBuilder, vals: dict[SSAValue, ir.Value]
) -> None:
    args = [vals[a] for a in op.args]
    ret = convert_type(op.ress.type) if op.ress is not None else ir.VoidType()
    name = op.intrin.data
    fn = builder.module.globals.get(name)
    if fn is None:
        fn = ir.Function(builder.module, ir.FunctionType(ret, [a.type for a in args]), name=name)
    result = builder.call(fn, args, fastmath=_flags(op) if op.ress is not None else ())
    if op.ress is not None:
        vals[op.ress] = result


def _convert_own(
    op: Operation, builder: ir.IRBuilder, vals: dict[SSAValue, ir.Value], renamed: dict[str, str]
) -> bool:
    """Converts ops xDSL does not (or not fully); False hands `op` to xDSL."""
    match op:
        case llvmx.FPToSIOp():
            vals[op.result] = builder.fptosi(vals[op.arg], convert_type(op.result.type))
        case llvmx.FPToUIOp():
            vals[op.result] = builder.fptoui(vals[op.arg], convert_type(op.result.type))
        case llvmx.UIToFPOp():
            vals[op.result] = builder.uitofp(vals[op.arg], convert_type(op.result.type))
        case llvmx.FCmpOp():
            # fcmp_ordered passes a full predicate name ("olt", "uno", ...) through
            vals[op.res] = builder.fcmp_ordered(
                op.predicate.data, vals[op.lhs], vals[op.rhs], flags=_flags(op)
            )
        case llvmx.SelectOp():
            vals[op.res] = builder.select(vals[op.cond], vals[op.lhs], vals[op.rhs])
        case llvmx.ExtractElementOp():
            vals[op.res] = builder.extract_element(vals[op.vector], vals[op.index])
        case llvm.CallIntrinsicOp():
            _call_intrinsic(op, builder, vals)
        case llvm.AddressOfOp():
            name = op.global_name.root_reference.data
            vals[op.result] = builder.module.get_global(renamed.get(name, name))
        case _:
            return False
    return True


def _loop_id(module: ir.Module) -> ir.values.MDValue:
    """A new loop's `llvm.loop` metadata asking LLVM not to unroll it. A loop ID refers
    to itself (LLVM ignores one that does not), so each is a node of its own."""
    disable = module.add_metadata([ir.MetaDataString(module, "llvm.loop.unroll.disable")])
    loop = ir.values.MDValue(module, [disable], name=str(len(module.metadata)))
    loop.operands = (loop, disable)
    return loop


def _convert_body(op: llvm.FuncOp, module: ir.Module, renamed: dict[str, str]) -> None:
    fn = module.get_global(op.sym_name.data)
    blocks: dict[Block, ir.Block] = {}
    vals: dict[SSAValue, ir.Value] = {}
    for i, block in enumerate(op.body.blocks):
        blocks[block] = fn.append_basic_block(name=block.name_hint or "")
        if i == 0:
            vals.update(zip(block.args, fn.args, strict=True))
        else:
            # phis first; incoming values are added by the branches (xDSL's convert_op)
            phi_builder = ir.IRBuilder(blocks[block])
            for arg in block.args:
                vals[arg] = phi_builder.phi(convert_type(arg.type))
    for block in op.body.blocks:
        builder = ir.IRBuilder(blocks[block])
        builder.position_at_end(blocks[block])
        for inner in block.ops:
            if not _convert_own(inner, builder, vals, renamed):
                convert_op(inner, builder, vals, blocks)
                if NO_UNROLL_ATTR in inner.attributes:  # a loop's back edge
                    builder.block.terminator.set_metadata("llvm.loop", _loop_id(module))


def translate_module(
    module: ModuleOp,
    *,
    triple: str,
    data_layout: str = "",
    symbol_prefix: str = "",
    inline_limit: int = INLINE_LIMIT,
    bodies: Collection[str] | None = None,
    exported: Collection[str] = (),
    owns_globals: bool = True,
) -> Translation:
    """Translates a module of `llvm.func`/`llvm.mlir.global` ops to llvmlite IR.

    `symbol_prefix` makes the names of large weights unique in the process, since the JIT
    binds them with the process-global `llvmlite.binding.add_symbol`.

    One part of a module compiled in several (codegen/compile.py): only the functions
    named in `bodies` are defined (the others declared), those in `exported` visible to
    the other parts; without `owns_globals`, the globals another part defines (not the
    private constants, which each part keeps a copy of) are declared.
    """
    llvm_module = ir.Module()
    llvm_module.triple = triple
    if data_layout:
        llvm_module.data_layout = data_layout
    out = Translation(llvm_module)
    renamed: dict[str, str] = {}
    funcs: list[llvm.FuncOp] = []
    for op in module.ops:
        match op:
            case llvm.GlobalOp():
                name = _convert_global(op, llvm_module, out, symbol_prefix, inline_limit,
                                       owns_globals)
                renamed[op.sym_name.data] = name
            case llvm.FuncOp():
                funcs.append(op)
            case _:
                raise NotImplementedError(f"cannot translate top-level op {op.name}")
    for op in funcs:
        _declare_func(op, llvm_module)
        fn = llvm_module.get_global(op.sym_name.data)
        for arg, attrs in zip(fn.args, op.arg_attrs or (), strict=False):
            if "llvm.noalias" in attrs.data and isinstance(arg.type, ir.PointerType):
                arg.add_attribute("noalias")
        if op.sym_name.data == ALLOC_SYMBOL:  # fresh memory, as malloc's (LLVM knows
            fn.return_value.add_attribute("noalias")  # malloc, not infer's allocator)
        if op.body.blocks and (bodies is None or op.sym_name.data in bodies):
            linkage = op.linkage.linkage.data
            fn.linkage = "" if linkage == "external" or op.sym_name.data in exported else linkage
            if op.no_unwind is not None:
                fn.attributes.add("nounwind")
            if NOINLINE_ATTR in op.attributes:
                fn.attributes.add("noinline")
            noalias = op.attributes.get(NOALIAS_ATTR)
            for i in noalias.get_values() if isinstance(noalias, DenseArrayBase) else ():
                fn.args[i].add_attribute("noalias")
    for op in funcs:
        if op.body.blocks and (bodies is None or op.sym_name.data in bodies):
            _convert_body(op, llvm_module, renamed)
    return out

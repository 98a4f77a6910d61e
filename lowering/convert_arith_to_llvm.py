"""`convert-arith-to-llvm`: arith ops on scalars and 1-D vectors to `llvm` (+ `llvmx`).

index becomes i64. Fast-math flags are carried over: `contract` on fmul/fadd is what lets
LLVM fuse them into FMAs. Results are cast back to their original types with unrealized
casts, which `reconcile-unrealized-casts` removes once every user is converted.
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i1,
)
from xdsl.dialects.utils import FastMathFlag
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from infer.dialects import llvmx
from infer.lowering.llvm_descriptor import (
    Emitter,
    call_intrinsic,
    convert_type,
    lower_with,
)

_INT_BINARY: dict[type[Operation], type[Operation]] = {
    arith.AddiOp: llvm.AddOp,
    arith.SubiOp: llvm.SubOp,
    arith.MuliOp: llvm.MulOp,
    arith.DivSIOp: llvm.SDivOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemSIOp: llvm.SRemOp,
    arith.RemUIOp: llvm.URemOp,
    arith.AndIOp: llvm.AndOp,
    arith.OrIOp: llvm.OrOp,
    arith.XOrIOp: llvm.XOrOp,
    arith.ShLIOp: llvm.ShlOp,
    arith.ShRSIOp: llvm.AShrOp,
    arith.ShRUIOp: llvm.LShrOp,
}

_FLOAT_BINARY: dict[type[Operation], type[llvm.AbstractFloatArithOp]] = {
    arith.AddfOp: llvm.FAddOp,
    arith.SubfOp: llvm.FSubOp,
    arith.MulfOp: llvm.FMulOp,
    arith.DivfOp: llvm.FDivOp,
}

# maximumf/minimumf propagate NaN (llvm.maximum); maxnumf/minnumf ignore it (llvm.maxnum)
_BINARY_INTRINSICS: dict[type[Operation], str] = {
    arith.MaximumfOp: "llvm.maximum",
    arith.MinimumfOp: "llvm.minimum",
    arith.MaxnumfOp: "llvm.maxnum",
    arith.MinnumfOp: "llvm.minnum",
    arith.MaxSIOp: "llvm.smax",
    arith.MinSIOp: "llvm.smin",
    arith.MaxUIOp: "llvm.umax",
    arith.MinUIOp: "llvm.umin",
}

_CASTS: dict[type[Operation], type[llvm.GenericCastOp] | type[Operation]] = {
    arith.SIToFPOp: llvm.SIToFPOp,
    arith.UIToFPOp: llvmx.UIToFPOp,
    arith.FPToSIOp: llvmx.FPToSIOp,
    arith.FPToUIOp: llvmx.FPToUIOp,
    arith.ExtFOp: llvm.FPExtOp,
    arith.TruncFOp: llvm.FPTruncOp,
    arith.ExtSIOp: llvm.SExtOp,
    arith.ExtUIOp: llvm.ZExtOp,
    arith.TruncIOp: llvm.TruncOp,
    arith.BitcastOp: llvm.BitcastOp,
}


def fastmath_of(op: Operation) -> llvm.FastMathAttr:
    """The op's arith/math fast-math flags as LLVM's (the flag names are shared)."""
    flags = op.properties.get("fastmath")
    if flags is None:
        return llvm.FastMathAttr(None)
    # normalized: flags built from plain strings would reach xDSL's translator as str
    return llvm.FastMathAttr([FastMathFlag(str(f)) for f in flags.data])  # type: ignore[attr-defined]


def _width(typ: Attribute) -> int:
    if isinstance(typ, VectorType):
        typ = typ.element_type
    if isinstance(typ, IndexType):
        return 64
    assert isinstance(typ, IntegerType)
    return typ.width.data


def _constant(op: arith.ConstantOp, emit: Emitter) -> SSAValue:
    typ = convert_type(op.result.type)
    value = op.value
    if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
        value = IntegerAttr(value.value.data, typ)
    elif isinstance(value, DenseIntOrFPElementsAttr) and typ != value.type:
        value = DenseIntOrFPElementsAttr.from_list(typ, list(value.get_values()))
    assert isinstance(value, IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr)
    return emit(llvm.ConstantOp(value, typ)).result


def _splat(emit: Emitter, value: int, like: SSAValue) -> SSAValue:
    typ = like.type
    if isinstance(typ, VectorType):
        attr = DenseIntOrFPElementsAttr.from_list(typ, [value] * typ.get_shape()[0])
        return emit(llvm.ConstantOp(attr, typ)).result
    return emit.const(value, typ)


def _icmp(emit: Emitter, pred: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    predicate = IntegerAttr(llvm.ICmpPredicateFlag(pred).to_int(), 64)
    return emit(llvm.ICmpOp(lhs, rhs, predicate)).res


def _select(emit: Emitter, cond: SSAValue, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    if cond.type == i1:
        return emit(llvm.SelectOp(cond, lhs, rhs)).res
    return emit(llvmx.SelectOp(cond, lhs, rhs)).res


def _div_rounded(op: Operation, emit: Emitter, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """floordivsi / ceildivsi / ceildivui from the truncating division.

    floor(a/b) = q - 1 if a % b != 0 and sign(a) != sign(b), else q
    ceil(a/b)  = q + 1 if a % b != 0 and sign(a) == sign(b) (always, unsigned), else q
    """
    unsigned = isinstance(op, arith.CeilDivUIOp)
    quot = emit((llvm.UDivOp if unsigned else llvm.SDivOp)(lhs, rhs)).res
    rem = emit((llvm.URemOp if unsigned else llvm.SRemOp)(lhs, rhs)).res
    zero = _splat(emit, 0, lhs)
    inexact = _icmp(emit, "ne", rem, zero)
    if unsigned:
        adjust = inexact
    else:
        signs_differ = _icmp(emit, "slt", emit(llvm.XOrOp(lhs, rhs)).res, zero)
        if isinstance(op, arith.CeilDivSIOp):
            true = _splat(emit, 1, signs_differ)
            signs_differ = emit(llvm.XOrOp(signs_differ, true)).res
        adjust = emit(llvm.AndOp(inexact, signs_differ)).res
    one = _splat(emit, 1, lhs)
    if isinstance(op, arith.FloorDivSIOp):
        moved = emit(llvm.SubOp(quot, one)).res
    else:
        moved = emit(llvm.AddOp(quot, one)).res
    return _select(emit, adjust, moved, quot)


def _index_cast(op: arith.IndexCastOp, emit: Emitter, source: SSAValue) -> SSAValue:
    target = convert_type(op.result.type)
    src_w, dst_w = _width(source.type), _width(target)
    if src_w == dst_w:
        return source
    if src_w > dst_w:
        return emit(llvm.TruncOp(source, target)).res
    return emit(llvm.SExtOp(source, target)).res


def _lower(op: Operation, emit: Emitter) -> SSAValue:
    kind = type(op)
    args = [emit.to_llvm(v) for v in op.operands]
    if kind in _INT_BINARY:
        return emit(_INT_BINARY[kind](args[0], args[1])).results[0]  # type: ignore[call-arg]
    if kind in _FLOAT_BINARY:
        return emit(_FLOAT_BINARY[kind](args[0], args[1], fastmath_of(op))).res
    if kind in _BINARY_INTRINSICS:
        res_type = args[0].type
        return call_intrinsic(emit, _BINARY_INTRINSICS[kind], args, res_type, fastmath_of(op))
    if kind in _CASTS:
        return emit(_CASTS[kind](args[0], convert_type(op.results[0].type))).results[0]  # type: ignore[call-arg]
    match op:
        case arith.ConstantOp():
            return _constant(op, emit)
        case arith.NegfOp():
            return emit(llvm.FNegOp(args[0], fastmath_of(op))).res
        case arith.CmpiOp():
            return emit(llvm.ICmpOp(args[0], args[1], op.predicate)).res
        case arith.CmpfOp():
            pred = llvmx.FCMP_PREDICATES[op.predicate.value.data]
            return emit(llvmx.FCmpOp(pred, args[0], args[1], fastmath_of(op))).res
        case arith.SelectOp():
            return _select(emit, args[0], args[1], args[2])
        case arith.IndexCastOp():
            return _index_cast(op, emit, args[0])
        case arith.FloorDivSIOp() | arith.CeilDivSIOp() | arith.CeilDivUIOp():
            return _div_rounded(op, emit, args[0], args[1])
    raise AssertionError(f"unhandled {op.name}")


_OTHERS = (
    arith.ConstantOp, arith.NegfOp, arith.CmpiOp, arith.CmpfOp, arith.SelectOp,
    arith.IndexCastOp, arith.FloorDivSIOp, arith.CeilDivSIOp, arith.CeilDivUIOp,
)  # fmt: skip
_HANDLED = frozenset([*_INT_BINARY, *_FLOAT_BINARY, *_BINARY_INTRINSICS, *_CASTS, *_OTHERS])


class ArithToLLVM(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if type(op) not in _HANDLED:
            return
        result = _lower(op, Emitter(rewriter))
        lower_with(rewriter, op, [result])


@dataclass(frozen=True)
class ConvertArithToLLVMPass(ModulePass):
    name = "convert-arith-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([ArithToLLVM()]), apply_recursively=False
        ).rewrite_module(op)

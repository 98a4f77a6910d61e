"""`convert-vector-to-llvm`: 1-D vector ops to LLVM vector instructions and intrinsics.

Loads and stores get the element's alignment, not the vector's: numpy hands us buffers
that are often only 16-byte aligned, and an over-aligned `<16 x float>` load faults.
Reductions use `llvm.vector.reduce.*`; a float add/mul reduction is only reordered into a
tree when the op carries `reassoc`.
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.utils.exceptions import DiagnosticException

from infer.dialects import llvmx
from infer.lowering.convert_arith_to_llvm import fastmath_of
from infer.lowering.llvm_descriptor import (
    Emitter,
    MemRefDescriptor,
    call_intrinsic,
    convert_type,
    element_byte_size,
    lower_with,
)

K = vector.CombiningKindFlag

# kind -> (reduction intrinsic, scalar intrinsic or llvm op combining it with `acc`)
_REDUCTIONS: dict[K, tuple[str, str | type[Operation]]] = {
    K.ADD: ("llvm.vector.reduce.add", llvm.AddOp),
    K.MUL: ("llvm.vector.reduce.mul", llvm.MulOp),
    K.AND: ("llvm.vector.reduce.and", llvm.AndOp),
    K.OR: ("llvm.vector.reduce.or", llvm.OrOp),
    K.XOR: ("llvm.vector.reduce.xor", llvm.XOrOp),
    K.MINSI: ("llvm.vector.reduce.smin", "llvm.smin"),
    K.MAXSI: ("llvm.vector.reduce.smax", "llvm.smax"),
    K.MINUI: ("llvm.vector.reduce.umin", "llvm.umin"),
    K.MAXUI: ("llvm.vector.reduce.umax", "llvm.umax"),
    K.MINNUMF: ("llvm.vector.reduce.fmin", "llvm.minnum"),
    K.MAXNUMF: ("llvm.vector.reduce.fmax", "llvm.maxnum"),
    K.MINIMUMF: ("llvm.vector.reduce.fminimum", "llvm.minimum"),
    K.MAXIMUMF: ("llvm.vector.reduce.fmaximum", "llvm.maximum"),
}


def _reduction(op: vector.ReductionOp, emit: Emitter) -> SSAValue:
    vec = emit.to_llvm(op.vector)
    res_type = convert_type(op.dest.type)
    kind = op.kind.data
    fm = fastmath_of(op)
    is_float = not isinstance(res_type, IntegerType)
    acc = emit.to_llvm(op.acc) if op.acc is not None else None
    if is_float and kind in (K.ADD, K.MUL):
        # the start value is folded into the ordered chain; -0.0 / 1.0 are the identities
        if acc is None:
            ident = -0.0 if kind == K.ADD else 1.0
            acc = emit(llvm.ConstantOp(FloatAttr(ident, res_type), res_type)).result  # type: ignore[arg-type]
        name = "llvm.vector.reduce.fadd" if kind == K.ADD else "llvm.vector.reduce.fmul"
        res = call_intrinsic(emit, name, [acc, vec], res_type, fm, overloads=[vec.type])
        assert res is not None
        return res
    name, combine = _REDUCTIONS[kind]
    res = call_intrinsic(emit, name, [vec], res_type, fm, overloads=[vec.type])
    assert res is not None
    if acc is None:
        return res
    if isinstance(combine, str):
        out = call_intrinsic(emit, combine, [acc, res], res_type, fm)
        assert out is not None
        return out
    return emit(combine(acc, res)).results[0]  # type: ignore[call-arg]


def _broadcast(op: vector.BroadcastOp, emit: Emitter) -> SSAValue:
    source = emit.to_llvm(op.source)
    res_type = convert_type(op.vector.type)
    assert isinstance(res_type, VectorType)
    if source.type == res_type:
        return source
    if isinstance(source.type, VectorType):
        raise DiagnosticException("only scalar-to-1-D vector broadcasts are supported")
    lanes = res_type.get_shape()[0]
    undef = emit(llvm.UndefOp(res_type)).res
    first = emit(llvm.InsertElementOp(undef, source, emit.const(0, i32))).res
    mask = DenseArrayBase.from_list(i32, [0] * lanes)
    return emit(llvm.ShuffleVectorOp(first, undef, mask, res_type)).res


def _position(emit: Emitter, position: list[SSAValue | int]) -> SSAValue | None:
    if not position:
        return None
    if len(position) != 1:
        raise DiagnosticException("only 1-D vector extract/insert is supported")
    pos = position[0]
    return emit.const(pos) if isinstance(pos, int) else emit.to_llvm(pos)


def _lower(op: Operation, emit: Emitter) -> SSAValue | None:
    match op:
        case vector.LoadOp():
            desc = MemRefDescriptor.of(emit, op.base)
            ptr = desc.element_ptr([emit.to_llvm(i) for i in op.indices])
            typ = convert_type(op.result.type)
            align = element_byte_size(desc.type.get_element_type())
            return emit(llvm.LoadOp(ptr, typ, alignment=align)).dereferenced_value
        case vector.BroadcastOp():
            return _broadcast(op, emit)
        case vector.FMAOp():
            args = [emit.to_llvm(v) for v in op.operands]
            return call_intrinsic(emit, "llvm.fma", args, args[0].type, fastmath_of(op))
        case vector.ReductionOp():
            return _reduction(op, emit)
        case vector.ExtractOp():
            vec = emit.to_llvm(op.vector)
            pos = _position(emit, op.get_mixed_position())
            return vec if pos is None else emit(llvmx.ExtractElementOp(vec, pos)).res
        case vector.InsertOp():
            dest = emit.to_llvm(op.dest)
            pos = _position(emit, op.get_mixed_position())
            value = emit.to_llvm(op.source)
            return value if pos is None else emit(llvm.InsertElementOp(dest, value, pos)).res
        case vector.BitcastOp():
            return emit(llvm.BitcastOp(emit.to_llvm(op.source), _res_type(op))).result
        case _:
            return None


def _res_type(op: Operation) -> Attribute:
    return convert_type(op.results[0].type)


class VectorToLLVM(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.dialect_name() != "vector":
            return
        emit = Emitter(rewriter)
        if isinstance(op, vector.StoreOp):
            desc = MemRefDescriptor.of(emit, op.base)
            ptr = desc.element_ptr([emit.to_llvm(i) for i in op.indices])
            align = element_byte_size(desc.type.get_element_type())
            emit(llvm.StoreOp(emit.to_llvm(op.vector), ptr, alignment=align))
            rewriter.erase(op)
            return
        result = _lower(op, emit)
        if result is not None:
            lower_with(rewriter, op, [result])


@dataclass(frozen=True)
class ConvertVectorToLLVMPass(ModulePass):
    name = "convert-vector-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(VectorToLLVM(), apply_recursively=False).rewrite_module(op)

"""Index arithmetic on `Dim`s for the lowerings: static values fold in Python, run-time
ones (`Index`) become `arith` ops on `index` values; and the index of an operand read
with broadcasting."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, i64
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint

from infer.dialects.dims import Dim
from infer.lowering.loop_builder import Index, LoopBuilder


def as_dim(b: LoopBuilder, v: Dim | SSAValue) -> Dim:
    """A loop induction variable (or any index SSA value) as a `Dim`."""
    return Index(b, v) if isinstance(v, SSAValue) else v


def _binop(b: LoopBuilder, op: type[Operation], x: Dim, y: Dim) -> Index:
    return Index(b, b.insert(op(b.idx(x), b.idx(y))).results[0])


def imax(b: LoopBuilder, x: Dim, y: Dim) -> Dim:
    if isinstance(x, int) and isinstance(y, int):
        return max(x, y)
    return _binop(b, arith.MaxSIOp, x, y)


def imin(b: LoopBuilder, x: Dim, y: Dim) -> Dim:
    if isinstance(x, int) and isinstance(y, int):
        return min(x, y)
    return _binop(b, arith.MinSIOp, x, y)


def floor_div(b: LoopBuilder, x: Dim, d: int) -> Dim:
    if isinstance(x, int) or d == 1:
        return x // d
    return _binop(b, arith.FloorDivSIOp, x, d)


def ceil_div(b: LoopBuilder, x: Dim, d: int) -> Dim:
    if isinstance(x, int):
        return -(-x // d)
    return x if d == 1 else _binop(b, arith.CeilDivSIOp, x, d)


def to_i64(b: LoopBuilder, x: Dim | SSAValue) -> SSAValue:
    """An index value as an i64 (an index tensor's element)."""
    if isinstance(x, int):
        return b.const(x, i64)
    return b.insert(arith.IndexCastOp(b.idx(x), i64)).results[0]


def to_float(b: LoopBuilder, x: Dim | SSAValue, t: Attribute) -> SSAValue:
    """An index value as a float of type `t`."""
    if isinstance(x, int):
        return b.const(float(x), t)
    return b.insert(arith.SIToFPOp(to_i64(b, x), t)).results[0]


def broadcast_index(
    ivs: Sequence[SSAValue], dims: Sequence[Dim], out: Sequence[Dim] | None = None
) -> list[Dim | SSAValue]:
    """Index into an operand of dims `dims` broadcast to an output of dims `out` (all
    unknown if None) indexed by `ivs`.

    A dim statically 1 is read at 0; a static dim, or a run-time one that is the output's
    own dim (or faces an output dim of 1), at the output index.
    Any other run-time dim may be 1 while the output's is not (even a static output dim
    > 1: x[?, 4] + w[3, 4] with x [1, 4] at run time): it is read at
    `iv * (dim != 1)`, the factor computed once where the dim is defined. A multiply by a
    loop-invariant factor (not a select on the index) keeps the access an affine
    recurrence, which LLVM's vectorizer versions on "stride == 1".
    """
    lead = len(ivs) - len(dims)
    idx: list[Dim | SSAValue] = []
    for i, d in enumerate(dims):
        iv, o = ivs[lead + i], out[lead + i] if out is not None else None
        if isinstance(d, int):
            idx.append(0 if d == 1 else iv)
        elif not isinstance(d, Index) or o == 1 or _same_dim(d, o):
            idx.append(iv)
        else:
            idx.append(d.b.insert(arith.MuliOp(iv, _unless_unit(d))).results[0])
    return idx


def _same_dim(d: Index, o: Dim | None) -> bool:
    return isinstance(o, Index) and o.value is d.value


def _unless_unit(d: Index) -> SSAValue:
    """`d != 1 ? 1 : 0` as an index, inserted right after d's definition (loop-invariant,
    so it is not recomputed in the loop nest that reads the operand)."""
    v = d.value
    if isinstance(v, OpResult):
        point = InsertPoint.after(v.op)
    else:
        assert isinstance(v, BlockArgument)
        point = InsertPoint.at_start(v.block)
    at = LoopBuilder(point)
    one, zero = at.const(1, IndexType()), at.const(0, IndexType())
    return at.select(at.cmpi("ne", v, one), one, zero)

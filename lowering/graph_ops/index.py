"""Index arithmetic on `Dim`s for the lowerings: static values fold in Python, run-time
ones (`Index`) become `arith` ops on `index` values."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import i64
from xdsl.ir import Attribute, Operation, SSAValue

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


def to_float(b: LoopBuilder, x: Dim, t: Attribute) -> SSAValue:
    """An index value as a float of type `t`."""
    if isinstance(x, int):
        return b.const(float(x), t)
    as_int = b.insert(arith.IndexCastOp(b.idx(x), i64)).results[0]
    return b.insert(arith.SIToFPOp(as_int, t)).results[0]

"""Lowering of CumSum / CumProd: x seen as [outer, n, inner] around the axis (its place
read at run time when it is not a constant), one sequential pass along n per (outer,
inner) with the running value carried."""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.operands import int_scalar, view
from infer.lowering.loop_builder import Index, LoopBuilder, storage_type


def _around(b: LoopBuilder, dims: list[Dim], axis: Dim) -> tuple[Dim, Dim, Dim]:
    """(product of the dims before `axis`, its dim, product of those after)."""
    if isinstance(axis, int):
        a = graph.normalize_axis(axis, len(dims), "axis")
        return D.product(dims[:a]), dims[a], D.product(dims[a + 1:])
    rank = len(dims)
    D.require(D.AT_LEAST, axis, -rank, "the axis (at least -rank)")
    D.require(D.AT_LEAST, rank - 1, axis, "rank - 1 (the axis must be below the rank)")
    a = Index(b, b.select(b.cmpi("slt", b.idx(axis), b.idx(0)), b.idx(axis + rank),
                          b.idx(axis)))
    outer: Dim = 1
    n: Dim = 0
    inner: Dim = 1
    for k, d in enumerate(dims):
        before = b.cmpi("sgt", b.idx(a), b.idx(k))
        at = b.cmpi("eq", b.idx(a), b.idx(k))
        outer = outer * Index(b, b.select(before, b.idx(d), b.idx(1)))
        n = n + Index(b, b.select(at, b.idx(d), b.idx(0)))
        after = b.cmpi("slt", b.idx(a), b.idx(k))
        inner = inner * Index(b, b.select(after, b.idx(d), b.idx(1)))
    return outer, n, inner


@lowers(graph.CumulativeOp)
def _cumulative(s: Lowering, op: graph.CumulativeOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    dims = b.dims(ins[0])
    outer, n, inner = _around(b, dims, int_scalar(s, op, ins, 1))
    (y,) = s.alloc_results(op, ins)
    element = cast(TensorType, op.x.type).element_type
    flat = TensorType(element, [DYNAMIC_INDEX] * 3)
    x3, y3 = view(s, ins[0], [outer, n, inner], flat), view(s, y, [outer, n, inner], flat)
    product = op.kind.data == "prod"
    exclusive, reverse = op.exclusive.value.data, op.reverse.value.data
    with b.loop_nest([outer, inner]) as (o, i):

        def step(t: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            at = b.idx(Index(b, b.idx(n)) - 1 - Index(b, t)) if reverse else t
            v = b.load(x3, [o, at, i])
            nxt = b.mul(acc[0], v) if product else b.add(acc[0], v)
            b.store(acc[0] if exclusive else nxt, y3, [o, at, i])
            return [nxt]

        b.reduce_loop(0, n, [b.const(1 if product else 0, storage_type(element))], step)
    return [y]

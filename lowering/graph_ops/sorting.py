"""Lowering of the ops that order data (TopK), in the order `graph.sorting` states: by
value, NaN above every number, equal values by index (the lower first)."""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, MemRefType, TensorType, i64
from xdsl.ir import Attribute, SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.shape_ops import shape_entries
from infer.lowering.loop_builder import LoopBuilder, is_unsigned

i1 = IntegerType(1)


def _or(b: LoopBuilder, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.insert(arith.OrIOp(x, y)).results[0]


def _and(b: LoopBuilder, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.insert(arith.AndIOp(x, y)).results[0]


def _not(b: LoopBuilder, x: SSAValue) -> SSAValue:
    return b.insert(arith.XOrIOp(x, b.const(1, i1))).results[0]


def precedes(b: LoopBuilder, element: Attribute, descending: bool, a: tuple[SSAValue, SSAValue],
             c: tuple[SSAValue, SSAValue]) -> SSAValue:
    """Whether (value, index) `a` comes before `c` in the order (an i1)."""
    (va, ia), (vc, ic) = a, c
    lower = b.cmpi("ult", ia, ic)
    if graph.is_float(element):
        strict = b.cmpf("ogt" if descending else "olt", va, vc)
        a_nan, c_nan = b.cmpf("uno", va, va), b.cmpf("uno", vc, vc)
        tie = _or(b, b.cmpf("oeq", va, vc), _and(b, a_nan, c_nan))
        ordered = _or(b, strict, _and(b, tie, lower))
        one_nan = b.insert(arith.XOrIOp(a_nan, c_nan)).results[0]
        return b.select(one_nan, a_nan if descending else c_nan, ordered)
    u = "u" if is_unsigned(element) else "s"
    strict = b.cmpi(f"{u}gt" if descending else f"{u}lt", va, vc)
    return _or(b, strict, _and(b, b.cmpi("eq", va, vc), lower))


@lowers(graph.TopKOp)
def _top_k(s: Lowering, op: graph.TopKOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Per row along the axis, k selection passes: pass t finds the first element in the
    order among those after pass t-1's (O(k n) compares, no scratch buffer)."""
    b = s.b
    x = ins[0]
    dims = b.dims(x)
    axis = graph.normalize_axis(op.axis.value.data, len(dims), "axis")
    n = dims[axis]
    (k,) = shape_entries(s, op, ins, 1)  # checked not negative
    D.require(D.AT_LEAST, n, k, "the input's dim along axis (k must not exceed it)")
    out_dims = list(dims)
    out_dims[axis] = k
    element = cast(TensorType, op.x.type).element_type
    tv, ti = cast(TensorType, op.values.type), cast(TensorType, op.indices.type)
    values = s.alloc(s.typed_dims(out_dims, tv), tv.element_type)
    indices = s.alloc(s.typed_dims(out_dims, ti), ti.element_type)
    descending = bool(op.largest.value.data)
    rows = [d for i, d in enumerate(dims) if i != axis]
    with b.loop_nest(rows) as r:

        def at(j: SSAValue) -> list[Dim | SSAValue]:
            return [*r[:axis], j, *r[axis:]]

        def pick(t: SSAValue, prev: list[SSAValue]) -> list[SSAValue]:
            first = b.cmpi("eq", t, b.idx(0))

            def scan(j: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
                found, best = c[0], (c[1], c[2])
                v = b.load(x, at(j))
                after = _or(b, first, precedes(b, element, descending, (prev[0], prev[1]),
                                               (v, j)))
                better = _or(b, _not(b, found), precedes(b, element, descending, (v, j), best))
                take = _and(b, after, better)
                return [_or(b, found, take), b.select(take, v, best[0]),
                        b.select(take, j, best[1])]

            _, v, j = b.reduce_loop(0, n, [b.const(0, i1), prev[0], prev[1]], scan)
            b.store(v, values, at(t))
            b.store(b.insert(arith.IndexCastOp(j, i64)).results[0], indices, at(t))
            return [v, j]

        zero = b.const(0, cast(MemRefType, values.type).element_type)
        b.reduce_loop(0, k, [zero, b.idx(0)], pick)
    return [values, indices]


__all__ = ["precedes"]

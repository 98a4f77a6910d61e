"""Lowering of the ops that order data (TopK, Unique), in the order `graph.sorting`
states: by value, NaN above every number, equal values by index (the lower first)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerType,
    MemRefType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.operands import shape_entries, view
from infer.lowering.loop_builder import Index, LoopBuilder, index, is_unsigned

i1 = IntegerType(1)
# TopK's largest constant k done by selection passes (O(k n)) rather than a sort
SELECTION_MAX = 8


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
    """Per row along the axis: for a constant k up to SELECTION_MAX, k selection passes
    (pass t finds the first element in the order among those after pass t-1's: O(k n)
    compares, no scratch buffer); else the row's order by `argsort` (O(n log n)), its
    first k taken."""
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

        def item(j: SSAValue) -> tuple[SSAValue, SSAValue]:
            return b.load(x, at(j)), j

        if isinstance(k, int) and k <= SELECTION_MAX:
            _select_top(b, element, descending, n, k, item, values, indices, at)
        else:
            order = argsort(s, n, lambda i, j: precedes(b, element, descending, item(i),
                                                         item(j)))
            with b.loop(0, k) as t:
                j = b.insert(arith.IndexCastOp(b.load(order, [t]), index)).results[0]
                b.store(b.load(x, at(j)), values, at(t))
                b.store(b.load(order, [t]), indices, at(t))
            s.free(order)
    return [values, indices]


def _select_top(b: LoopBuilder, element: Attribute, descending: bool, n: Dim, k: int,
                item: Callable[[SSAValue], tuple[SSAValue, SSAValue]], values: SSAValue,
                indices: SSAValue, at: Callable[[SSAValue], list[Dim | SSAValue]]) -> None:
    """The first k items of a row in the order, by k selection passes."""

    def pick(t: SSAValue, prev: list[SSAValue]) -> list[SSAValue]:
        first = b.cmpi("eq", t, b.idx(0))

        def scan(j: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
            found, best = c[0], (c[1], c[2])
            v = item(j)
            after = _or(b, first, precedes(b, element, descending, (prev[0], prev[1]), v))
            better = _or(b, _not(b, found), precedes(b, element, descending, v, best))
            take = _and(b, after, better)
            return [_or(b, found, take), b.select(take, v[0], best[0]),
                    b.select(take, j, best[1])]

        _, v, j = b.reduce_loop(0, n, [b.const(0, i1), prev[0], prev[1]], scan)
        b.store(v, values, at(t))
        b.store(b.insert(arith.IndexCastOp(j, i64)).results[0], indices, at(t))
        return [v, j]

    zero = b.const(0, cast(MemRefType, values.type).element_type)
    b.reduce_loop(0, k, [zero, b.idx(0)], pick)


def _same(b: LoopBuilder, element: Attribute, a: SSAValue, c: SSAValue) -> SSAValue:
    """a equals c, NaN equal to NaN (as i1)."""
    if graph.is_float(element):
        both_nan = _and(b, b.cmpf("uno", a, a), b.cmpf("uno", c, c))
        return _or(b, b.cmpf("oeq", a, c), both_nan)
    return b.cmpi("eq", a, c)


def _below(b: LoopBuilder, element: Attribute, a: SSAValue, c: SSAValue) -> SSAValue:
    """a < c, NaN above every number (as i1)."""
    if graph.is_float(element):
        return _or(b, b.cmpf("olt", a, c), _and(b, _not(b, b.cmpf("uno", a, a)),
                                                 b.cmpf("uno", c, c)))
    return b.cmpi("ult" if is_unsigned(element) else "slt", a, c)


@lowers(graph.UniqueOp)
def _unique(s: Lowering, op: graph.UniqueOp, ins: list[SSAValue]) -> list[SSAValue]:
    """x seen as [outer, n, inner]: items are its n slices (elements without an axis).
    The items' order by a stable sort (lexicographic, NaN above numbers and equal to NaN)
    puts equal items in runs, each led by its first occurrence: one walk of the order
    gives every item's first occurrence and each run's place in value order. An item that
    is its own first is distinct; its place in y is its run's (`sorted`) or the number of
    distinct items before it in x. Then one pass writes y, the first indices and counts
    at those places, and every item's place as its inverse index. O(n log n) compares."""
    items = _UniqueItems.of(s, op, ins)
    order = argsort(s, items.n, lambda i, j: items.compare(i, j)[1])
    first, place = s.alloc([items.n], i64), s.alloc([items.n], i64)
    u = _unique_runs(items, order, first, place)
    s.free(order)
    if not op.sorted.value.data:  # places in order of first occurrence
        _places_by_first_occurrence(items, first, place)
    outs = _unique_outputs(s, op, items, first, place, u)
    s.free(first)
    s.free(place)
    return outs


@dataclass
class _UniqueItems:
    """Unique's input x seen as [outer, n, inner], its n slices the items."""

    b: LoopBuilder
    element: Attribute
    dims: list[Dim]  # x's
    axis: int | None
    outer: Dim
    n: Dim
    inner: Dim
    flat: TensorType  # the type of a view as [outer, n, inner]
    x: SSAValue  # that view of x
    false: SSAValue

    @staticmethod
    def of(s: Lowering, op: graph.UniqueOp, ins: list[SSAValue]) -> _UniqueItems:
        b = s.b
        element = cast(TensorType, op.x.type).element_type
        dims = b.dims(ins[0])
        if op.axis is None:
            axis, outer, n, inner = None, 1, D.product(dims), 1
        else:
            axis = graph.normalize_axis(op.axis.value.data, len(dims), "axis")
            outer, n, inner = D.product(dims[:axis]), dims[axis], D.product(dims[axis + 1:])
        flat = TensorType(element, [DYNAMIC_INDEX] * 3)
        x = view(s, ins[0], [outer, n, inner], flat)
        return _UniqueItems(b, element, dims, axis, outer, n, inner, flat, x, b.const(0, i1))

    def compare(self, i: SSAValue, j: SSAValue) -> tuple[SSAValue, SSAValue]:
        """(item i equals item j, item i < item j lexicographically)."""
        b, x, element = self.b, self.x, self.element

        def step(ivs: list[SSAValue], c: list[SSAValue]) -> list[SSAValue]:
            a, e = b.load(x, [ivs[0], i, ivs[1]]), b.load(x, [ivs[0], j, ivs[1]])
            now = _and(b, _not(b, c[0]), _not(b, _same(b, element, a, e)))
            return [_or(b, c[0], now), b.select(now, _below(b, element, a, e), c[1])]

        decided, less = b.fold([self.outer, self.inner], [self.false, self.false], step)
        return _not(b, decided), less


def _load_index(b: LoopBuilder, buf: SSAValue, i: SSAValue) -> SSAValue:
    """Element i of an i64 buffer, as an index."""
    return b.insert(arith.IndexCastOp(b.load(buf, [i]), index)).results[0]


def _store_index(b: LoopBuilder, v: SSAValue, buf: SSAValue, i: Dim | SSAValue) -> None:
    """Index v stored as element i of an i64 buffer."""
    b.store(b.insert(arith.IndexCastOp(v, i64)).results[0], buf, [i])


def _plus_one(b: LoopBuilder, v: SSAValue) -> SSAValue:
    return b.insert(arith.AddiOp(v, b.idx(1))).results[0]


def _is_first(b: LoopBuilder, first: SSAValue, i: SSAValue) -> SSAValue:
    """Whether item i is its own first occurrence (a distinct item)."""
    return b.cmpi("eq", _load_index(b, first, i), i)


def _unique_runs(items: _UniqueItems, order: SSAValue, first: SSAValue, place: SSAValue
                 ) -> Index:
    """One walk of the sorted `order`: every item's first occurrence into `first`, each
    run's place in value order into `place` at its leader; returns the number of runs."""
    b = items.b

    def walk(t: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
        """c: the runs so far. A new run starts where the item differs from the one
        before it in the order; its leader (the lowest index, the sort being stable) is
        the run's first occurrence and gets the run's place."""
        item = _load_index(b, order, t)
        prev = _load_index(b, order, b.insert(arith.MaxSIOp(b.idx(Index(b, t) - 1),
                                                            b.idx(0))).results[0])
        new = _or(b, b.cmpi("eq", t, b.idx(0)), _not(b, items.compare(prev, item)[0]))
        _store_index(b, b.select(new, item, _load_index(b, first, prev)), first, item)
        with b.if_(new):
            _store_index(b, c[0], place, item)
        return [b.select(new, _plus_one(b, c[0]), c[0])]

    return Index(b, b.reduce_loop(0, items.n, [b.idx(0)], walk)[0])


def _places_by_first_occurrence(items: _UniqueItems, first: SSAValue, place: SSAValue
                                ) -> None:
    """Each distinct item's place rewritten as the number of distinct items before it."""
    b = items.b

    def count(i: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
        leads = _is_first(b, first, i)
        with b.if_(leads):
            _store_index(b, c[0], place, i)
        return [b.select(leads, _plus_one(b, c[0]), c[0])]

    b.reduce_loop(0, items.n, [b.idx(0)], count)


def _unique_outputs(s: Lowering, op: graph.UniqueOp, items: _UniqueItems, first: SSAValue,
                    place: SSAValue, u: Index) -> list[SSAValue]:
    """Y, the first indices, the inverse indices and the counts, written in one pass over
    the items at the places found."""
    b, n, outer, inner, axis, dims = s.b, items.n, items.outer, items.inner, items.axis, items.dims
    ty, ti, tv, tc = (cast(TensorType, r.type) for r in op.results)
    y_dims = [u] if axis is None else [*dims[:axis], u, *dims[axis + 1:]]
    y = s.alloc(s.typed_dims(y_dims, ty), items.element)
    firsts = s.alloc(s.typed_dims([u], ti), i64)
    inverse = s.alloc(s.typed_dims([n], tv), i64)
    counts = s.alloc(s.typed_dims([u], tc), i64)
    y3 = view(s, y, [outer, u, inner], items.flat)
    with b.loop(0, u) as p:
        b.store(b.const(0, i64), counts, [p])
    with b.loop(0, n) as i:
        p = _load_index(b, place, _load_index(b, first, i))
        _store_index(b, p, inverse, i)
        b.store(b.insert(arith.AddiOp(b.load(counts, [p]), b.const(1, i64))).results[0],
                counts, [p])
        with b.if_(_is_first(b, first, i)):
            _store_index(b, i, firsts, p)
            with b.loop_nest([outer, inner]) as o:
                b.store(b.load(items.x, [o[0], i, o[1]]), y3, [o[0], p, o[1]])
    return [y, firsts, inverse, counts]


def argsort(s: Lowering, n: Dim, before: Callable[[SSAValue, SSAValue], SSAValue]
            ) -> SSAValue:
    """A fresh i64 buffer [n]: the items 0..n-1 in order, stably (items that neither
    precedes keep their index order), where `before(i, j)` (index values) says whether
    item i goes strictly before item j. A bottom-up merge sort: runs of width 1, 2, 4...
    merged into a scratch buffer and copied back, O(n log n) compares."""
    b = s.b
    order, merged = s.alloc([n], i64), s.alloc([n], i64)
    with b.loop(0, n) as i:
        b.store(b.insert(arith.IndexCastOp(i, i64)).results[0], order, [i])
    last = Index(b, b.idx(n)) - 1

    def item(buf: SSAValue, at: SSAValue) -> SSAValue:  # clamped: a run's end is n at most
        clamped = b.insert(arith.MinSIOp(at, b.idx(last))).results[0]
        return b.insert(arith.IndexCastOp(b.load(buf, [clamped]), index)).results[0]

    with b.loop(0, 62) as p:  # widths up to 2^61
        width = Index(b, b.insert(arith.ShLIOp(b.idx(1), p)).results[0])
        with b.if_(b.cmpi("slt", b.idx(width), b.idx(n))):
            pairs = (Index(b, b.idx(n)) + (width * 2 - 1)) // (width * 2)
            with b.loop(0, pairs) as q:
                lo = Index(b, q) * (width * 2)
                mid = _min(b, lo + width, n)
                hi = _min(b, lo + width * 2, n)

                def step(t: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
                    i, j = c
                    left_open = b.cmpi("slt", i, b.idx(mid))
                    right_open = b.cmpi("slt", j, b.idx(hi))
                    right_first = _and(b, right_open, before(item(order, j), item(order, i)))
                    take_left = _and(b, left_open, _not(b, right_first))
                    src = b.select(take_left, i, j)
                    b.store(b.load(order, [src]), merged, [t])
                    one = b.idx(1)
                    return [b.select(take_left, b.insert(arith.AddiOp(i, one)).results[0], i),
                            b.select(take_left, j, b.insert(arith.AddiOp(j, one)).results[0])]

                b.reduce_loop(lo, hi, [b.idx(lo), b.idx(mid)], step)
            with b.loop(0, n) as i:
                b.store(b.load(merged, [i]), order, [i])
    s.free(merged)
    return order


def _min(b: LoopBuilder, x: Dim, y: Dim) -> Index:
    return Index(b, b.insert(arith.MinSIOp(b.idx(x), b.idx(y))).results[0])


__all__ = ["argsort", "precedes"]

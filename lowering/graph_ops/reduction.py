"""Reductions (ReduceSum/Mean/Max/Min) and Softmax/LogSoftmax → loop nests.

Reductions over constant axes take one of two loop orders, both with a contiguous
innermost loop: when the last axis is reduced, a loop nest over the kept dims carries a
scalar accumulator through the reduced loops (innermost = last axis, an `scf.for` with
`iter_args` that LLVM vectorizes because float accumulations carry `reassoc`); otherwise
the output is initialised and the input is walked in order, accumulating into the output
element (innermost = last axis for both). Mean divides by the count at the end.

Softmax is numerically stable (max, then sum of exp(x - max), then normalise): three
passes along the axis for each position of the other dims; when the axis is the last one
those passes are the innermost, contiguous loops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerType, TensorType, i64
from xdsl.ir import Attribute, Operation, SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, lowers, operand_element
from infer.lowering.graph_ops.operands import runtime_axes_dims, shape_entries, view
from infer.lowering.loop_builder import (
    REDUCE,
    Index,
    LoopBuilder,
    is_unsigned,
    static_product,
    storage_type,
)

Combine = Callable[[LoopBuilder, SSAValue, SSAValue], SSAValue]
Map = Callable[[LoopBuilder, SSAValue], SSAValue]


class Kind(NamedTuple):
    """A reduction: its identity (see `reduction_init`), how it combines, the map applied
    to each element before and to the result after."""

    init: str  # "sum", "prod", "max" or "min"
    pre: Map | None = None
    post: Map | None = None


def _abs(b: LoopBuilder, v: SSAValue) -> SSAValue:
    if graph.is_float(v.type):
        return b.unary(math.AbsFOp, v)
    return b.select(b.cmpi("slt", v, b.const(0, v.type)), b.sub(b.const(0, v.type), v), v)


def _square(b: LoopBuilder, v: SSAValue) -> SSAValue:
    return b.mul(v, v)


_KINDS: dict[type[Operation], Kind] = {
    graph.ReduceSumOp: Kind("sum"),
    graph.ReduceMeanOp: Kind("sum"),  # divided by the count at the end
    graph.ReduceMaxOp: Kind("max"),
    graph.ReduceMinOp: Kind("min"),
    graph.ReduceProdOp: Kind("prod"),
    graph.ReduceL1Op: Kind("sum", _abs),
    graph.ReduceSumSquareOp: Kind("sum", _square),
    graph.ReduceL2Op: Kind("sum", _square, lambda b, v: b.unary(math.SqrtOp, v)),
    graph.ReduceLogSumOp: Kind("sum", None, lambda b, v: b.unary(math.LogOp, v)),
    graph.ReduceLogSumExpOp: Kind("max"),  # then sum(exp(x - max)), see `_lse_shift`
}


def reduction_init(kind: str, element: Attribute) -> float | int:
    """The identity of the reduction `kind` on `element` (what an empty reduction gives)."""
    if kind in ("sum", "prod"):
        return int(kind == "prod")
    if graph.is_float(element):
        return float("-inf") if kind == "max" else float("inf")
    assert isinstance(element, IntegerType)
    w = element.width.data
    if _unsigned(element):
        return 0 if kind == "max" else 2**w - 1
    return -(2 ** (w - 1)) if kind == "max" else 2 ** (w - 1) - 1


def _unsigned(element: Attribute) -> bool:
    """Whether integers compare unsigned: uint types and bool (false < true)."""
    return is_unsigned(element) or element == IntegerType(1)


def _combine(kind: str, unsigned: bool) -> Combine:
    if kind == "sum":
        return lambda b, acc, v: b.add(acc, v, REDUCE)
    if kind == "prod":
        return lambda b, acc, v: b.mul(acc, v, REDUCE)
    if kind == "max":
        return lambda b, acc, v: b.max(acc, v, unsigned)
    return lambda b, acc, v: b.min(acc, v, unsigned)


def _count(b: LoopBuilder, n: Dim, t: Attribute) -> SSAValue:
    """The element count `n` as a scalar of type `t`."""
    if isinstance(n, int):
        return b.const(n, t)
    v = b.insert(arith.IndexCastOp(b.idx(n), i64)).results[0]
    if graph.is_float(t):
        return b.insert(arith.SIToFPOp(v, t)).results[0]
    if t != i64:
        return b.insert(arith.TruncIOp(v, t)).results[0]
    return v


def _lse_shift(b: LoopBuilder, m: SSAValue) -> SSAValue:
    """What log-sum-exp subtracts: the max when finite, else 0 (so that all -inf gives
    log(0) = -inf, +inf gives +inf and NaN stays NaN, as log(sum(exp(x))) does)."""
    finite = b.cmpf("olt", b.unary(math.AbsFOp, m), b.const(float("inf"), m.type))
    return b.select(finite, m, b.const(0.0, m.type))


def _runtime_axes(s: Lowering, op: graph.ReduceOp, ins: list[SSAValue], rank: int
                  ) -> list[SSAValue]:
    """Per dim, an i1 saying whether the axes read at run time name it (wrapped); each
    entry is checked to be in [-rank, rank)."""
    b = s.b
    entries = shape_entries(s, op, ins, 1, sizes=False)
    if b.checks is not None:
        for k, a in enumerate(entries):
            ai, lo, hi = b.idx(a), b.idx(-rank), b.idx(rank)
            ok = b.insert(arith.AndIOp(b.cmpi("sge", ai, lo), b.cmpi("slt", ai, hi))).results[0]
            b.checks.check(ok, ai, hi, f"axes entry {k} {{a}} is out of range for rank {{b}}")
    hits = []
    for d in range(rank):
        hit = b.const(0, IntegerType(1))
        for a in entries:
            ai = b.idx(a)
            for target in (d, d - rank):
                hit = b.insert(arith.OrIOp(hit, b.cmpi("eq", ai, b.idx(target)))).results[0]
        hits.append(hit)
    return hits


@lowers(*_KINDS)
def _reduce(s: Lowering, op: graph.ReduceOp, ins: list[SSAValue]) -> list[SSAValue]:
    kind = _KINDS[type(op)]
    lse = isinstance(op, graph.ReduceLogSumExpOp)
    b = s.b
    src = ins[0]
    x = b.dims(src)
    consts = [graph.constant_value(o) for o in op.operands]
    n_axes = b.dims(ins[1])[0] if len(ins) > 1 else 1
    axes = op.reduced_axes(op.properties, len(x), consts, n_axes)
    if axes == []:  # noop_with_empty_axes: the input itself
        return [s.alias(src, of=src)]
    keep = op.keepdims.value.data
    element = storage_type(operand_element(op))
    unsigned = _unsigned(operand_element(op))
    combine = _combine(kind.init, unsigned)
    init = reduction_init(kind.init, operand_element(op))
    pre = kind.pre or (lambda b, v: v)

    if axes is None:  # read at run time: reduced dims have size 1 (squeezed at the end)
        hits = _runtime_axes(s, op, ins, len(x))
        out_dims: list[Dim] = [Index(b, b.select(h, b.idx(1), b.idx(d)))
                               for h, d in zip(hits, x, strict=True)]
        kept_type = op.results[0].type if keep else TensorType(element, [DYNAMIC_INDEX] * len(x))
        out = s.alloc(s.typed_dims(out_dims, kept_type), element)
        count = D.product([Index(b, b.select(h, b.idx(d), b.idx(1)))
                           for h, d in zip(hits, x, strict=True)])

        def out_index(idx: Sequence[Dim | SSAValue]) -> list[Dim | SSAValue]:
            return [b.select(h, b.idx(0), b.idx(v)) for h, v in zip(hits, idx, strict=True)]
    else:
        (out,) = s.alloc_results(op, ins)
        count = D.product([x[a] for a in axes])
        reduced = axes

        def out_index(idx: Sequence[Dim | SSAValue]) -> list[Dim | SSAValue]:
            """Output index of input index `idx`: reduced dims at 0, or dropped."""
            return [0 if i in reduced else v for i, v in enumerate(idx)
                    if keep or i not in reduced]

    def finish(b: LoopBuilder, acc: SSAValue) -> SSAValue:
        if isinstance(op, graph.ReduceMeanOp):
            return b.div(acc, _count(b, count, element), unsigned)
        return kind.post(b, acc) if kind.post else acc

    if axes is not None and len(x) - 1 in axes:
        _reduce_last(b, src, out, x, axes, out_index, lambda acc_of: _scalar_result(
            b, acc_of, pre, combine, init, element, lse, finish))
        return [out]
    # Accumulate into the output, walking the input in memory order.
    o_dims = b.dims(out)

    def accumulate(dst: SSAValue, start: float | int, fn: Map, join: Combine,
                   shift: SSAValue | None = None) -> None:
        with b.loop_nest(o_dims) as ivs:
            b.store(b.const(start, element), dst, ivs)
        with b.loop_nest(x) as ivs:
            o = out_index(ivs)
            v = b.load(src, ivs)
            if shift is not None:
                v = b.unary(math.ExpOp, b.sub(v, b.load(shift, o)))
            b.store(join(b, b.load(dst, o), fn(b, v)), dst, o)

    accumulate(out, init, pre, combine)
    if lse:  # out holds the max: the shift in place, then the sums of exp beside it
        with b.loop_nest(o_dims) as ivs:
            b.store(_lse_shift(b, b.load(out, ivs)), out, ivs)
        sums = s.alloc(list(o_dims), element)
        accumulate(sums, 0, pre, _combine("sum", False), shift=out)
        with b.loop_nest(o_dims) as ivs:
            total = b.unary(math.LogOp, b.load(sums, ivs))
            b.store(b.add(b.load(out, ivs), total), out, ivs)
        s.free(sums)  # a scratch buffer: graph-to-loops frees only results
    elif kind.post or isinstance(op, graph.ReduceMeanOp):
        with b.loop_nest(o_dims) as ivs:
            b.store(finish(b, b.load(out, ivs)), out, ivs)
    if not keep and axes is None:  # the reduced dims (all 1) dropped
        return [view(s, out, runtime_axes_dims(s, op, [out, *ins[1:]]), op.results[0].type)]
    return [out]


def _scalar_result(b: LoopBuilder, acc_of: Callable[[Map, Combine, SSAValue], SSAValue],
                   pre: Map, combine: Combine, init: float | int, element: Attribute,
                   lse: bool, finish: Map) -> SSAValue:
    """One output element from passes over its reduced elements (`acc_of`)."""
    acc = acc_of(pre, combine, b.const(init, element))
    if not lse:
        return finish(b, acc)
    shift = _lse_shift(b, acc)
    total = acc_of(lambda b, v: b.unary(math.ExpOp, b.sub(v, shift)),
                   _combine("sum", False), b.const(0.0, element))
    return b.add(shift, b.unary(math.LogOp, total))


def _reduce_last(b: LoopBuilder, src: SSAValue, out: SSAValue, x: list[Dim], axes: list[int],
                 out_index: Callable[[Sequence[Dim | SSAValue]], list[Dim | SSAValue]],
                 result: Callable[[Callable[[Map, Combine, SSAValue], SSAValue]], SSAValue]
                 ) -> None:
    """The last axis is reduced: a loop nest over the kept dims carries scalar
    accumulators through the reduced loops (innermost = last axis)."""
    kept = [i for i in range(len(x)) if i not in axes]
    # one output element an iteration, on any thread
    with b.parallel([x[i] for i in kept], static_product([x[a] for a in axes], 2)) as ivs:
        idx: list[Dim | SSAValue] = [0] * len(x)
        for i, iv in zip(kept, ivs, strict=True):
            idx[i] = iv

        def acc_of(fn: Map, combine: Combine, start: SSAValue) -> SSAValue:
            def over(k: int, acc: SSAValue) -> SSAValue:
                if k == len(axes):
                    return combine(b, acc, fn(b, b.load(src, idx)))
                a = axes[k]

                def body(iv: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                    idx[a] = iv
                    return [over(k + 1, carried[0])]

                return b.reduce_loop(0, x[a], [acc], body)[0]

            return over(0, start)

        b.store(result(acc_of), out, out_index(idx))


@lowers(graph.ArgMaxOp, graph.ArgMinOp)
def _arg_reduce(s: Lowering, op: graph.ArgReduceOp, ins: list[SSAValue]) -> list[SSAValue]:
    """A scan along the axis carrying (best value, its index): element k wins when it
    compares strictly better than the best, or equal with select_last_index."""
    b = s.b
    src = ins[0]
    x = b.dims(src)
    (out,) = s.alloc_results(op, ins)
    axis = graph.normalize_axis(op.axis.value.data, len(x), "axis")
    keep = op.keepdims.value.data
    last = op.select_last_index.value.data
    e = operand_element(op)
    order = op.PREDICATE[0] + ("e" if last else "t")  # gt, ge, lt or le
    pred = ("o" if graph.is_float(e) else "u" if _unsigned(e) else "s") + order
    with b.loop_nest([d for i, d in enumerate(x) if i != axis]) as ivs:

        def at(j: Dim | SSAValue) -> list[Dim | SSAValue]:
            return [*ivs[:axis], j, *ivs[axis:]]

        def body(k: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
            v = b.load(src, at(k))
            wins = b.cmpf(pred, v, c[0]) if graph.is_float(e) else b.cmpi(pred, v, c[0])
            return [b.select(wins, v, c[0]), b.select(wins, k, c[1])]

        _, k = b.reduce_loop(1, x[axis], [b.load(src, at(0)), b.idx(0)], body)
        o = at(0) if keep else list(ivs)
        b.store(b.insert(arith.IndexCastOp(k, i64)).results[0], out, o)
    return [out]


@lowers(graph.SoftmaxOp, graph.LogSoftmaxOp)
def _softmax(s: Lowering, op: graph.AxisSoftmaxOp, ins: list[SSAValue]) -> list[SSAValue]:
    log = isinstance(op, graph.LogSoftmaxOp)
    b = s.b
    src = ins[0]
    x = b.dims(src)
    (out,) = s.alloc_results(op, ins)
    axis = op.axis.value.data
    axis = axis + len(x) if axis < 0 else axis
    t = storage_type(operand_element(op))
    n = x[axis]
    # one row an iteration, on any thread
    with b.parallel([d for i, d in enumerate(x) if i != axis], static_product([n], 16)
                    ) as ivs:

        def at(j: SSAValue) -> list[SSAValue]:
            return [*ivs[:axis], j, *ivs[axis:]]

        # m = max_j x[j]
        (m,) = b.reduce_loop(
            0, n, [b.const(float("-inf"), t)],
            lambda j, c: [b.max(c[0], b.load(src, at(j)))],
        )  # fmt: skip

        # total = sum_j exp(x[j] - m); softmax keeps the exps in the output
        def exp_sum(j: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
            e = b.unary(math.ExpOp, b.sub(b.load(src, at(j)), m))
            if not log:
                b.store(e, out, at(j))
            return [b.add(c[0], e, REDUCE)]

        (total,) = b.reduce_loop(0, n, [b.const(0.0, t)], exp_sum)
        if log:  # x - (m + log(total))
            lse = b.add(m, b.unary(math.LogOp, total))
            with b.loop(0, n) as j:
                b.store(b.sub(b.load(src, at(j)), lse), out, at(j))
        else:  # exp(x - m) * (1 / total)
            inv = b.div(b.const(1.0, t), total)
            with b.loop(0, n) as j:
                b.store(b.mul(b.load(out, at(j)), inv), out, at(j))
    return [out]

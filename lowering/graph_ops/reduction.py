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

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IntegerType, i64
from xdsl.ir import Attribute, Operation, SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, lowers, operand_element
from infer.lowering.loop_builder import REDUCE, LoopBuilder, is_unsigned, storage_type

Combine = Callable[[LoopBuilder, SSAValue, SSAValue], SSAValue]

def reduction_init(kind: str, element: Attribute) -> float | int:
    """The identity of the reduction `kind` on `element` (what an empty reduction gives)."""
    if kind in ("sum", "mean"):
        return 0
    if graph.is_float(element):
        return float("-inf") if kind == "max" else float("inf")
    assert isinstance(element, IntegerType)
    w = element.width.data
    if is_unsigned(element):
        return 0 if kind == "max" else 2**w - 1
    return -(2 ** (w - 1)) if kind == "max" else 2 ** (w - 1) - 1


def _combine(kind: str, unsigned: bool) -> Combine:
    if kind in ("sum", "mean"):
        return lambda b, acc, v: b.add(acc, v, REDUCE)
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


_KINDS: dict[type[Operation], str] = {
    graph.ReduceSumOp: "sum",
    graph.ReduceMeanOp: "mean",
    graph.ReduceMaxOp: "max",
    graph.ReduceMinOp: "min",
}


@lowers(*_KINDS)
def _reduce(s: Lowering, op: graph.ReduceOp, ins: list[SSAValue]) -> list[SSAValue]:
    kind = _KINDS[type(op)]
    b = s.b
    src = ins[0]
    x = b.dims(src)
    consts = [graph.constant_value(o) for o in op.operands]
    axes = op.reduced_axes(op.properties, len(x), consts)
    if not axes:  # noop_with_empty_axes: the input itself
        return [s.alias(src, of=src)]
    (out,) = s.alloc_results(op, ins)
    keep = op.keepdims.value.data
    element = storage_type(operand_element(op))
    unsigned = is_unsigned(operand_element(op))
    combine = _combine(kind, unsigned)
    init = reduction_init(kind, operand_element(op))

    def out_index(idx: Sequence[Dim | SSAValue]) -> list[Dim | SSAValue]:
        """Output index of input index `idx`: reduced dims at 0, or dropped."""
        return [0 if i in axes else v for i, v in enumerate(idx) if keep or i not in axes]

    count = D.product([x[a] for a in axes])

    def finish(b: LoopBuilder, acc: SSAValue) -> SSAValue:
        return b.div(acc, _count(b, count, element), unsigned) if kind == "mean" else acc

    kept = [i for i in range(len(x)) if i not in axes]
    if len(x) - 1 in axes:
        # Scalar accumulator; the reduced loops are innermost.
        with b.loop_nest([x[i] for i in kept]) as ivs:
            idx: list[Dim | SSAValue] = [0] * len(x)
            for i, iv in zip(kept, ivs, strict=True):
                idx[i] = iv

            def over(k: int, acc: SSAValue) -> SSAValue:
                if k == len(axes):
                    return combine(b, acc, b.load(src, idx))
                a = axes[k]

                def body(iv: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                    idx[a] = iv
                    return [over(k + 1, carried[0])]

                return b.reduce_loop(0, x[a], [acc], body)[0]

            acc = over(0, b.const(init, element))
            b.store(finish(b, acc), out, out_index(idx))
        return [out]
    # Accumulate into the output, walking the input in memory order.
    out_dims = b.dims(out)
    with b.loop_nest(out_dims) as ivs:
        b.store(b.const(init, element), out, ivs)
    with b.loop_nest(x) as ivs:
        o = out_index(ivs)
        b.store(combine(b, b.load(out, o), b.load(src, ivs)), out, o)
    if kind == "mean":
        with b.loop_nest(out_dims) as ivs:
            b.store(finish(b, b.load(out, ivs)), out, ivs)
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
    with b.loop_nest([d for i, d in enumerate(x) if i != axis]) as ivs:

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

"""LayerNormalization → one loop nest over the leading dims, three passes per row.

For each position of the dims before `axis` (a "row" of the normalized dims axis..):

    mean = sum(x) / n                        (pass 1, a reassociable scalar sum)
    rstd = 1 / sqrt(sum((x - mean)^2) / n + epsilon)   (pass 2: two-pass variance, which
                                              unlike E[x^2] - E[x]^2 does not cancel)
    y = (x - mean) * rstd * scale + bias     (pass 3, scale and bias broadcast to x)

The normalized dims are the innermost loops, so every pass reads x contiguously.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import math
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim, product
from infer.lowering.graph_ops.base import Lowering, element_type, lowers, optional
from infer.lowering.graph_ops.index import broadcast_index, to_float
from infer.lowering.loop_builder import REDUCE, LoopBuilder


def sum_over(
    b: LoopBuilder,
    dims: Sequence[Dim],
    value: Callable[[list[SSAValue]], SSAValue],
    init: SSAValue,
) -> SSAValue:
    """init + the sum of value(ivs) over the loop nest `dims`, carried as `reassoc` adds."""

    def level(k: int, ivs: list[SSAValue], acc: SSAValue) -> SSAValue:
        if k == len(dims):
            return b.add(acc, value(ivs), REDUCE)
        return b.reduce_loop(
            0, dims[k], [acc], lambda iv, c: [level(k + 1, [*ivs, iv], c[0])]
        )[0]

    return level(0, [], init)


@lowers(graph.LayerNormalizationOp)
def _layer_norm(s: Lowering, op: graph.LayerNormalizationOp, ins: list[SSAValue]
                ) -> list[SSAValue]:
    y, *stats = s.alloc_results(op, ins)
    b = s.b
    x, scale = ins[:2]
    (bias,) = optional(ins, 2)
    et = element_type(op)
    xd = b.dims(x)
    axis = op.axis.value.data
    axis = axis + len(xd) if axis < 0 else axis
    eps = op.epsilon.value.data
    outer, inner = xd[:axis], xd[axis:]
    sd = b.dims(scale)
    bd = b.dims(bias) if bias is not None else []
    count = to_float(b, product(inner), et)
    with b.loop_nest(outer) as ivs:
        zero = b.const(0.0, et)
        total = sum_over(b, inner, lambda jv: b.load(x, [*ivs, *jv]), zero)
        mean = b.div(total, count)

        def square(jv: list[SSAValue]) -> SSAValue:
            d = b.sub(b.load(x, [*ivs, *jv]), mean)
            return b.mul(d, d, REDUCE)

        var = b.div(sum_over(b, inner, square, zero), count)
        std = b.unary(math.SqrtOp, b.add(var, b.const(eps, et)))
        rstd = b.div(b.const(1.0, et), std)
        for value, buf in zip((mean, rstd), stats, strict=False):  # ONNX's Mean, InvStdDev
            b.store(value, buf, [*ivs, *([0] * len(inner))])
        with b.loop_nest(inner) as jv:
            at = [*ivs, *jv]
            v = b.mul(b.sub(b.load(x, at), mean), rstd)
            v = b.mul(v, b.load(scale, broadcast_index(at, sd)))
            if bias is not None:
                v = b.add(v, b.load(bias, broadcast_index(at, bd)))
            b.store(v, y, at)
    return [y, *stats]

"""BatchNormalization (inference) and LRN → loop nests over (n, c, flattened plane).

BatchNormalization folds its four parameters into a per-channel affine map first (a
loop over C into two small temporary buffers), so the pass over the data is one FMA per
element:

    a[c] = scale[c] / sqrt(var[c] + epsilon),  b[c] = B[c] - mean[c] * a[c]
    y = x * a[c] + b[c]

(graph.batch_normalization's `affine`, which evaluation and the fusions compute in numpy).

LRN accumulates the squares of the channel window into the output row, then rescales:

    y = x / (bias + alpha / size * sum_{c' in [c - (size-1)//2, c + ceil((size-1)/2)]} x[c']^2)^beta
"""

from __future__ import annotations

from xdsl.dialects import math, memref
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim, product
from infer.lowering.graph_ops.base import Lowering, element_type, lowers
from infer.lowering.graph_ops.index import as_dim, imax, imin
from infer.lowering.graph_ops.window import flatten_from
from infer.lowering.loop_builder import LoopBuilder, static_product


def _planes(b: LoopBuilder, bufs: list[SSAValue]) -> tuple[list[SSAValue], list[Dim]]:
    """Views of same-shaped buffers with dims 2.. flattened (if all allow it), their dims."""
    dims = b.dims(bufs[0])[2:]
    flat = [flatten_from(b, v, 2) for v in bufs]
    if all(v is not None for v in flat):
        return [v for v in flat if v is not None], [product(dims)]
    return bufs, dims


@lowers(graph.BatchNormalizationOp)
def _batch_norm(s: Lowering, op: graph.BatchNormalizationOp, ins: list[SSAValue]
                ) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, scale, shift, mean, var = ins
    et = element_type(op)
    eps = op.epsilon.value.data
    xd = b.dims(x)
    channels = xd[1]
    # temporaries, freed below: not results the function-level buffer tracking knows about
    mul = b.alloc([channels], et)
    add = b.alloc([channels], et)
    with b.loop(0, channels) as c:
        std = b.unary(math.SqrtOp, b.add(b.load(var, [c]), b.const(eps, et)))
        a = b.div(b.load(scale, [c]), std)
        b.store(a, mul, [c])
        b.store(b.sub(b.load(shift, [c]), b.mul(b.load(mean, [c]), a)), add, [c])
    (xv, yv), plane = _planes(b, [x, y])
    with b.parallel([xd[0], channels], static_product(plane, 2)) as (n, c):
        a, sh = b.load(mul, [c]), b.load(add, [c])
        with b.loop_nest(plane) as p:
            b.store(b.add(b.mul(b.load(xv, [n, c, *p]), a), sh), yv, [n, c, *p])
    b.insert(memref.DeallocOp.get(mul))
    b.insert(memref.DeallocOp.get(add))
    return [y]


@lowers(graph.LRNOp)
def _lrn(s: Lowering, op: graph.LRNOp, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    size = op.size.value.data
    alpha, beta, bias = op.alpha.value.data, op.beta.value.data, op.bias.value.data
    et = element_type(op)
    before = (size - 1) // 2
    after = size - 1 - before  # ceil((size - 1) / 2)
    xd = b.dims(ins[0])
    channels = xd[1]
    (x, yv), plane = _planes(b, [ins[0], y])
    zero = b.const(0.0, et)
    # one channel's plane an iteration, on any thread
    with b.parallel([xd[0], channels], static_product(plane, 2 * size + 8)) as (n, c):
        with b.loop_nest(plane) as p:
            b.store(zero, yv, [n, c, *p])
        lo = imax(b, 0, as_dim(b, c) - before)
        hi = imin(b, channels, as_dim(b, c) + (after + 1))
        with b.loop(lo, hi) as c2, b.loop_nest(plane) as p:
            v = b.load(x, [n, c2, *p])
            b.store(b.add(b.load(yv, [n, c, *p]), b.mul(v, v)), yv, [n, c, *p])
        with b.loop_nest(plane) as p:
            sq = b.load(yv, [n, c, *p])
            base = b.add(b.const(bias, et), b.mul(sq, b.const(alpha / size, et)))
            # x / base^beta as x * base^-beta: one pow, no divide
            scale = b.insert(math.PowFOp(base, b.const(-beta, et))).results[0]
            b.store(b.mul(b.load(x, [n, c, *p]), scale), yv, [n, c, *p])
    return [y]

"""Pooling → loop nests shaped like the conv's: per output row, per kernel tap, a loop
over the valid range of the last output dim.

    max:     y[..., ow] = max(y[..., ow], x[..., ow * stride - pad + kw * dilation])
    average: y[..., ow] += x[...], then y[..., ow] /= count(ow)

Taps in the padding are skipped by the valid ranges (so they never win a max), and the
average's count is the number of taps inside the input, or with `count_include_pad`
inside the padded input (ceil mode can push a window past the end padding). Global
pools reduce the flattened spatial plane into a loop-carried scalar (`reassoc` on the
sum so LLVM may vectorize it).
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import arith
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim, product
from infer.lowering.graph_ops.base import Lowering, element_type, lowers
from infer.lowering.graph_ops.index import as_dim, to_float, to_i64
from infer.lowering.graph_ops.reduction import reduction_init
from infer.lowering.graph_ops.window import Window, flatten_from
from infer.lowering.loop_builder import REDUCE, is_unsigned, static_product, storage_type


def include_pad(op: graph.PoolOp) -> bool:
    """Whether an average pool counts the padding in its divisor (a max pool: False)."""
    if isinstance(op, graph.AveragePoolOp | graph.AveragePoolNchwcOp):
        return bool(op.count_include_pad.value.data)
    return False


@lowers(graph.MaxPoolOp, graph.AveragePoolOp, outline=True)
def _pool(s: Lowering, op: graph.PoolOp, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x = ins[0]
    is_max = isinstance(op, graph.MaxPoolOp)
    xd, yd = b.dims(x), b.dims(y)
    et = element_type(op)
    window = Window.of_pool(op)
    with_pad = include_pad(op)
    last = len(window.kernel) - 1
    init = b.const(reduction_init("max", et) if is_max else 0.0, storage_type(et))
    unsigned = is_unsigned(et)

    # one output row an iteration, on any thread
    row_work = static_product(yd[-1:], prod(window.kernel))
    with b.parallel([yd[0], yd[1], *yd[2:-1]], row_work) as (n, c, *outer):
        row = [n, c, *outer]
        with b.loop(0, yd[-1]) as ow:
            b.store(init, y, [*row, ow])
        taps = window.taps_at(b, outer, xd[2:])

        def last_taps(_: list[SSAValue], pos: list[Dim], __: list[SSAValue]) -> list[SSAValue]:
            with b.loop(0, window.kernel[last]) as kw:
                off = as_dim(b, kw) * window.dilations[last] - window.pads[last]
                lo, hi = window.outputs(b, last, off, yd[-1], xd[-1])
                with b.loop(lo, hi) as ow:
                    iw = as_dim(b, ow) * window.strides[last] + off
                    acc = b.load(y, [*row, ow])
                    xv = b.load(x, [n, c, *pos, iw])
                    b.store(b.max(acc, xv, unsigned) if is_max else b.add(acc, xv), y, [*row, ow])
            return []

        taps.loop(b, [], last_taps)
        if not is_max:
            # count = taps of the outer dims (fixed for the row) x taps of the last dim
            outer_count = window.count(b, taps, xd[2:], with_pad)
            with b.loop(0, yd[-1]) as ow:
                st = window.start(b, last, ow)
                if with_pad:
                    last_count = window.padded_taps(b, last, st, xd[2:])
                else:
                    lo, hi = window.taps(b, last, st, xd[-1])
                    last_count = hi - lo
                cnt = outer_count * last_count
                v = b.load(y, [*row, ow])
                b.store(b.div(v, to_float(b, cnt, et)), y, [*row, ow])
    return [y]


@lowers(graph.MaxPoolWithIndicesOp, outline=True)
def _max_pool_with_indices(s: Lowering, op: graph.MaxPoolWithIndicesOp, ins: list[SSAValue]
                           ) -> list[SSAValue]:
    """The max pool's loops, keeping beside each running max the flat input index it was
    read at; a later tap replaces it only if greater, or NaN over a number."""
    y, idx = s.alloc_results(op, ins)
    b = s.b
    x = ins[0]
    xd, yd = b.dims(x), b.dims(y)
    et = element_type(op)
    window = Window.of_pool(op)
    last = len(window.kernel) - 1
    init = b.const(reduction_init("max", et), storage_type(et))
    unsigned = is_unsigned(et)
    spatial = xd[2:]
    # the flat index's stride of each spatial dim: row-major, or column-major (order 1)
    order = list(range(len(spatial)))
    if op.storage_order.value.data:
        order.reverse()
    strides: list[Dim] = [1] * len(spatial)
    running: Dim = 1
    for i in reversed(order):
        strides[i] = running
        running = running * spatial[i]

    row_work = static_product(yd[-1:], prod(window.kernel))
    with b.parallel([yd[0], yd[1], *yd[2:-1]], row_work) as (n, c, *outer):
        row = [n, c, *outer]
        plane = (as_dim(b, n) * xd[1] + as_dim(b, c)) * product(spatial)
        with b.loop(0, yd[-1]) as ow:
            b.store(init, y, [*row, ow])
            b.store(to_i64(b, plane), idx, [*row, ow])
        taps = window.taps_at(b, outer, spatial)

        def last_taps(_: list[SSAValue], pos: list[Dim], __: list[SSAValue]) -> list[SSAValue]:
            base = plane + sum((p * st for p, st in zip(pos, strides, strict=False)), start=0)
            with b.loop(0, window.kernel[last]) as kw:
                off = as_dim(b, kw) * window.dilations[last] - window.pads[last]
                lo, hi = window.outputs(b, last, off, yd[-1], xd[-1])
                with b.loop(lo, hi) as ow:
                    iw = as_dim(b, ow) * window.strides[last] + off
                    acc = b.load(y, [*row, ow])
                    xv = b.load(x, [n, c, *pos, iw])
                    if graph.is_float(xv.type):
                        wins = b.insert(arith.OrIOp(b.cmpf("ogt", xv, acc), b.insert(
                            arith.AndIOp(b.cmpf("uno", xv, xv), b.cmpf("ord", acc, acc))
                        ).results[0])).results[0]
                    else:
                        wins = b.cmpi("ugt" if unsigned else "sgt", xv, acc)
                    b.store(b.select(wins, xv, acc), y, [*row, ow])
                    at = to_i64(b, base + iw * strides[last])
                    b.store(b.select(wins, at, b.load(idx, [*row, ow])), idx, [*row, ow])
            return []

        taps.loop(b, [], last_taps)
    return [y, idx]


@lowers(graph.GlobalMaxPoolOp, graph.GlobalAveragePoolOp, outline=True)
def _global_pool(s: Lowering, op: graph.GlobalPoolOp, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    is_max = isinstance(op, graph.GlobalMaxPoolOp)
    et = element_type(op)
    x = ins[0]
    xd = b.dims(x)
    flat = flatten_from(b, x, 2)
    src, plane = (flat, [product(xd[2:])]) if flat is not None else (x, list(xd[2:]))
    init = b.const(float("-inf") if is_max else 0.0, et)
    ones = [0] * (len(xd) - 2)

    with b.parallel([xd[0], xd[1]], static_product(xd[2:])) as (n, c):

        def reduce(i: int, acc: SSAValue, at: list[SSAValue]) -> SSAValue:
            """Nested loop-carried reduction over the plane's dims i..."""
            if i == len(plane):
                v = b.load(src, [n, c, *at])
                return b.max(acc, v) if is_max else b.add(acc, v, REDUCE)
            (out,) = b.reduce_loop(
                0, plane[i], [acc], lambda iv, carried: [reduce(i + 1, carried[0], [*at, iv])]
            )
            return out

        total = reduce(0, init, [])
        if not is_max:
            total = b.div(total, to_float(b, product(xd[2:]), et))
        b.store(total, y, [n, c, *ones])
    return [y]

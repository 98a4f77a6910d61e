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

from collections.abc import Sequence
from typing import NamedTuple

from xdsl.ir import Operation, SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim, product
from infer.lowering.graph_ops.conv import (
    as_dim,
    element_type,
    flatten_from,
    floor_div,
    imin,
    to_float,
    valid_outputs,
    valid_taps,
    window_attrs,
)
from infer.lowering.graph_to_loops import Lowering, LoweringFn
from infer.lowering.loop_builder import REDUCE, LoopBuilder


class PoolWindow(NamedTuple):
    """A pool op's window attributes, with ONNX defaults."""

    kernel: list[int]
    strides: list[int]
    dilations: list[int]
    pads: list[int]
    ceil: bool
    include_pad: bool
    # per spatial dim: no window passes the input's end (no end pad, floor mode)
    exact_end: list[bool]


def pool_window(op: Operation) -> PoolWindow:
    kernel = graph.get_ints(op.properties, "kernel_shape") or []
    n_sp = len(kernel)
    strides, dilations, pads = window_attrs(op, n_sp, kernel)
    ceil = bool(graph.get_int(op.properties, "ceil_mode", 0))
    include_pad = bool(graph.get_int(op.properties, "count_include_pad", 0))
    exact_end = [pads[n_sp + i] == 0 and not ceil for i in range(n_sp)]
    return PoolWindow(kernel, strides, dilations, pads, ceil, include_pad, exact_end)


def _pool(s: Lowering, op: Operation, ins: list[SSAValue], is_max: bool) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x = ins[0]
    xd, yd = b.dims(x), b.dims(y)
    et = element_type(op)
    kernel, strides, dilations, pads, ceil, include_pad, exact_end = pool_window(op)
    last = len(kernel) - 1
    init = b.const(float("-inf") if is_max else 0.0, et)

    with b.loop(0, yd[0]) as n, b.loop(0, yd[1]) as c, b.loop_nest(yd[2:-1]) as outer:
        row = [n, c, *outer]
        with b.loop(0, yd[-1]) as ow:
            b.store(init, y, [*row, ow])
        starts = [as_dim(b, o) * strides[i] - pads[i] for i, o in enumerate(outer)]
        ranges = [
            valid_taps(b, st, xd[2 + i], kernel[i], dilations[i], pads[i], exact_end[i])
            for i, st in enumerate(starts)
        ]

        def taps_loop(i: int, pos: list[Dim]) -> None:
            if i < last:
                with b.loop(*ranges[i]) as t:
                    taps_loop(i + 1, [*pos, starts[i] + as_dim(b, t) * dilations[i]])
                return
            with b.loop(0, kernel[last]) as kw:
                off = as_dim(b, kw) * dilations[last] - pads[last]
                lo, hi = valid_outputs(b, off, yd[-1], xd[-1], strides[last], pads[last],
                                       exact_end[last])
                with b.loop(lo, hi) as ow:
                    iw = as_dim(b, ow) * strides[last] + off
                    acc = b.load(y, [*row, ow])
                    xv = b.load(x, [n, c, *pos, iw])
                    b.store(b.max(acc, xv) if is_max else b.add(acc, xv), y, [*row, ow])

        taps_loop(0, [])
        if not is_max:
            # count = taps of the outer dims (fixed for the row) x taps of the last dim
            outer_count = window_count(b, starts, ranges, xd[2:], kernel, dilations, pads,
                                       ceil, include_pad)
            with b.loop(0, yd[-1]) as ow:
                st = as_dim(b, ow) * strides[last] - pads[last]
                if include_pad:
                    taps = padded_taps(b, st, last, xd[2:], kernel, dilations, pads, ceil)
                else:
                    lo, hi = valid_taps(b, st, xd[-1], kernel[last], dilations[last],
                                        pads[last], exact_end[last])
                    taps = hi - lo
                cnt = outer_count * taps
                v = b.load(y, [*row, ow])
                b.store(b.div(v, to_float(b, cnt, et)), y, [*row, ow])
    return [y]


def padded_taps(
    b: LoopBuilder,
    start: Dim,
    i: int,
    sizes: Sequence[Dim],
    kernel: Sequence[int],
    dilations: Sequence[int],
    pads: Sequence[int],
    ceil: bool,
) -> Dim:
    """Taps of spatial dim i's window starting at `start` (o*s - pb) inside the padded
    input, whose spatial sizes are `sizes`."""
    if not ceil:  # in floor mode no window passes the end padding
        return kernel[i]
    # taps whose position start + t*d lies in [-pb, size + pe): all from t = 0 on
    end = sizes[i] + pads[len(kernel) + i] - 1 - start
    return imin(b, kernel[i], floor_div(b, end, dilations[i]) + 1)


def window_count(
    b: LoopBuilder,
    starts: Sequence[Dim],
    ranges: Sequence[tuple[Dim, Dim]],
    sizes: Sequence[Dim],
    kernel: Sequence[int],
    dilations: Sequence[int],
    pads: Sequence[int],
    ceil: bool,
    include_pad: bool,
) -> Dim:
    """An average pool's divisor over the window dims given (`starts` and valid tap
    `ranges` of each): the taps inside the input, or with `include_pad` inside the padded
    input."""
    count: Dim = 1
    for i, st in enumerate(starts):
        lo, hi = ranges[i]
        count = count * (
            padded_taps(b, st, i, sizes, kernel, dilations, pads, ceil) if include_pad
            else hi - lo
        )
    return count


def _global_pool(s: Lowering, op: Operation, ins: list[SSAValue], is_max: bool) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    et = element_type(op)
    x = ins[0]
    xd = b.dims(x)
    flat = flatten_from(b, x, 2)
    src, plane = (flat, [product(xd[2:])]) if flat is not None else (x, list(xd[2:]))
    init = b.const(float("-inf") if is_max else 0.0, et)
    ones = [0] * (len(xd) - 2)

    with b.loop(0, xd[0]) as n, b.loop(0, xd[1]) as c:

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


def _lower(fn, is_max: bool) -> LoweringFn:
    return lambda s, op, ins: fn(s, op, ins, is_max)


LOWERINGS: dict[type[Operation], LoweringFn] = {
    graph.MaxPoolOp: _lower(_pool, True),
    graph.AveragePoolOp: _lower(_pool, False),
    graph.GlobalMaxPoolOp: _lower(_global_pool, True),
    graph.GlobalAveragePoolOp: _lower(_global_pool, False),
}

# One kernel function per distinct signature (see graph_to_loops: kernel outlining).
OUTLINED = set(LOWERINGS)

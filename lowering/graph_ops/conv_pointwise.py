"""A pointwise conv on NCHW (1x1 kernel, unit strides, no pads; grouped or not) as small
GEMMs with register tiles: per group, Y[m, p] = bias[m] + sum_c W[m, c] X[c, p] over the
flattened spatial plane p.

conv.py's row loop reads and writes each output row once per input channel: two loads and
a store per FMA, bound by the L1 cache. Here a tile of R output channels by T vectors of
V pixels lives in R x T accumulators through the whole reduction: per input channel, T
vector loads of X and R broadcasts of W feed R x T FMAs. Grouped pointwise convs (the
ShuffleNet blocks, whose 34 or 68 channels per group fit no NCHWc block) run here at
every opt level.

R is the largest of 4, 3, 2, 1 dividing the outputs per group (each parallel iteration is
one full tile of channels), T = A / R vectors of V f32 lanes, where (A, V) is the op's
`pointwise_tile` that select-conv-tile writes (AVX2's A = 12 accumulators of its 16
registers, the rest holding the broadcasts and a load, and V = 8; LLVM splits or joins
vectors for the target). The plane's remainder after the T-vector tiles runs
one vector at a time, then lane by lane. A fused residual Z starts the accumulators
(bias + Z); an activation made of min/max/mul/add runs on them before the store, any
other over the finished rows, as in conv.py.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import SSAValue

from infer.dialects.dims import Dim
from infer.lowering.graph_ops.elementwise import Epilogue
from infer.lowering.graph_ops.index import as_dim, floor_div
from infer.lowering.loop_builder import LoopBuilder


def channels_per_tile(m_per_group: int) -> int:
    """R: output channels a tile accumulates, dividing the outputs of a group."""
    return next(r for r in (4, 3, 2, 1) if m_per_group % r == 0)


def conv_pointwise(b: LoopBuilder, x: SSAValue, w: SSAValue, y: SSAValue,
                   bias: SSAValue | None, group: int, act: Epilogue | None,
                   z: SSAValue | None, register_tile: tuple[int, int]) -> None:
    """Y [N, M, P] = conv(X [N, C, P], W [M, C / group, 1]) (+ bias, + Z, then `act`), in
    register tiles of (accumulators, lanes)."""
    wd, yd = b.dims(w), b.dims(y)
    et = cast(MemRefType, y.type).element_type
    m_per_group = cast(int, wd[0]) // group
    c_per_group = wd[1]
    plane = yd[2]
    r = channels_per_tile(m_per_group)
    accumulators, vector = register_tile
    t = max(1, accumulators // r)
    vector_act = act if act is not None and act.vector else None
    work = None if not isinstance(plane, int) or not isinstance(c_per_group, int) else (
        plane * c_per_group * r)
    with b.parallel([yd[0], group, m_per_group // r], work) as (n, g, mt):
        m0 = as_dim(b, g) * m_per_group + as_dim(b, mt) * r
        c0 = as_dim(b, g) * c_per_group
        ms = [m0 + i for i in range(r)]
        inits = [b.load(bias, [m]) if bias is not None else b.const(0.0, et) for m in ms]

        def tile(p0: Dim, count: int, lanes: int) -> None:
            """Outputs p0 .. p0 + count * lanes - 1 of the R channels: `count` vectors of
            `lanes` (1: scalars)."""
            def at(i: int, k: int) -> list[Dim]:
                return [n, ms[i], p0 + k * lanes]

            def value(buf: SSAValue, idx: list[Dim]) -> SSAValue:
                return b.vload(buf, idx, lanes) if lanes > 1 else b.load(buf, idx)

            accs = []
            for i, init in enumerate(inits):
                start = b.splat(init, lanes) if lanes > 1 else init
                for k in range(count):
                    accs.append(start if z is None else b.add(start, value(z, at(i, k))))

            def channel(ic: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                c = c0 + as_dim(b, ic)
                xs = [value(x, [n, c, p0 + k * lanes]) for k in range(count)]
                out = list(carried)
                for i, m in enumerate(ms):
                    wv = b.widen(b.load(w, [m, ic, 0]), et)
                    if lanes > 1:
                        wv = b.splat(wv, lanes)
                    for k, xv in enumerate(xs):
                        j = i * count + k
                        out[j] = b.fma(wv, xv, out[j]) if lanes > 1 else b.add(
                            out[j], b.mul(wv, xv))
                return out

            accs = b.reduce_loop(0, c_per_group, accs, channel)
            for j, acc in enumerate(accs):
                v = vector_act(b, acc) if vector_act is not None else acc
                idx = at(j // count, j % count)
                if lanes > 1:
                    b.vstore(v, y, idx)
                else:
                    b.store(v, y, idx)

        step = t * vector
        tiles_end = floor_div(b, plane, step) * step
        vectors_end = floor_div(b, plane, vector) * vector
        with b.loop(0, tiles_end, step) as p:
            tile(as_dim(b, p), t, vector)
        with b.loop(tiles_end, vectors_end, vector) as p:
            tile(as_dim(b, p), 1, vector)
        with b.loop(vectors_end, plane) as p:
            tile(as_dim(b, p), 1, 1)
        if act is not None and vector_act is None:
            for m in ms:
                with b.loop(0, plane) as p:
                    b.store(act(b, b.load(y, [n, m, p])), y, [n, m, p])

"""Blocked channel layout (NCHWc) ops → register-blocked vector loops.

A blocked tensor is [N, C/c, *spatial, c] with c = 8 on AVX2: the c channels of a block
are one `vector<8xf32>`. The conv computes output channel blocks as vectors. For each n,
pair of output blocks ocb, ocb + 1 and outer output position, the row of outputs along
the last spatial dim is cut into tiles of T = 6 consecutive outputs whose 2 x T
accumulators live in registers (a group of an odd number of blocks: one block, T = 12):

    acc[j, t] = B[(ocb + j)*c : (ocb + j)*c + c]  (or 0)          j < 2, t < T
    for icb, valid outer taps (kh ...), kw, ii < c:
        w[j] = W[ocb + j, icb, kh, kw, ii, 0:c]          two vector loads, each used T times
        xv = broadcast(X[n, g0 + icb, ih, iw(t), ii])    one load, used twice    (each t)
        acc[j, t] = fma(xv, w[j], acc[j, t])
    Y[n, ocb + j, oh, ow + t, 0:c] = act(acc[j, t] + Z[n, ocb + j, oh, ow + t, 0:c])

12 accumulators + 2 weights + a broadcast fill 15 of AVX2's 16 ymm registers, and 12
independent FMA chains cover the FMA latency (6 did not: 88 vs 120 GFLOP/s measured for
a 3x3 64->64 conv at 56x56). A depthwise conv (one input channel per group, as many
outputs as inputs) has no input to share: one block per tile and no ii loop, the input
is a vector too, acc[t] = fma(X[n, ocb, ih, iw(t), 0:c], W[ocb, 0, kh, kw, 0, 0:c],
acc[t]). An NCHW input of C < c channels (the image stem, W packed [M/c, 1, *k, C, c])
takes the dense tile with one group of C input channels: the broadcast reads X[n, ii, ih,
iw(t)], ii < C. The accumulators are loop-carried values (scf.for iter_args) that LLVM
keeps in registers; it unrolls the ii loop of constant trip count (c, or C).

Only the interior tiles (every kw tap inside the input) take that path; outputs whose
window touches the left or right padding take a T = 1 path whose kw range is computed
per output, so the interior never bounds-checks. A static remainder of the interior is
one shorter tile (a dynamic one takes the T = 1 path). The outer dims' valid tap ranges
are computed once per output row, like in conv.py. Activations made of min/max/mul/add
are applied to the accumulators; the others run over the finished rows as conv.py's
scalar epilogue. The block size is read from the types: nothing here assumes c = 8.

Pools run the same window loops per output with the c channels as one vector; the
layout conversions are plain loop nests with the c channels innermost (contiguous).
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation, SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.conv import (
    as_dim,
    ceil_div,
    element_type,
    floor_div,
    imax,
    imin,
    to_float,
    valid_taps,
    window_attrs,
)
from infer.lowering.graph_ops.elementwise import activation
from infer.lowering.graph_ops.pool import pool_window, window_count
from infer.lowering.graph_to_loops import Lowering, LoweringFn

# Register tile: TILE outputs x OUT_BLOCKS output channel blocks of accumulators, plus
# OUT_BLOCKS weight vectors and one broadcast input, within AVX2's 16 ymm registers.
TILE = 6
OUT_BLOCKS = 2

# Fused activations built from min/max/mul/add only: applied to the accumulators as
# vectors before the store. The others (cmpf/select or transcendental math) run as the
# scalar epilogue over the finished row, which LLVM vectorizes.
_VECTOR_ACTIVATIONS = {"relu", "clip", "hard_sigmoid", "hard_swish"}


# ---------------------------------------------------------------------------------------
# Layout conversions
# ---------------------------------------------------------------------------------------


def _to_nchwc(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    yd = b.dims(y)
    c = cast(int, yd[-1])
    # Writes contiguous: the block's c channels innermost (c reads from c planes).
    with b.loop(0, yd[0]) as n, b.loop(0, yd[1]) as cb, b.loop_nest(yd[2:]) as rest:
        *sp, j = rest
        ch = as_dim(b, cb) * c + as_dim(b, j)
        b.store(b.load(ins[0], [n, ch, *sp]), y, [n, cb, *sp, j])
    return [y]


def _from_nchwc(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x = ins[0]
    xd = b.dims(x)
    c = cast(int, xd[-1])
    # Reads contiguous: the block's c channels innermost (an interleaved group LLVM
    # vectorizes as loads + shuffles).
    with b.loop(0, xd[0]) as n, b.loop(0, xd[1]) as cb, b.loop_nest(xd[2:]) as rest:
        *sp, j = rest
        ch = as_dim(b, cb) * c + as_dim(b, j)
        b.store(b.load(x, [n, cb, *sp, j]), y, [n, ch, *sp])
    return [y]


# ---------------------------------------------------------------------------------------
# Conv
# ---------------------------------------------------------------------------------------


def _conv_nchwc(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[SSAValue]:
    assert isinstance(op, graph.ConvNchwcOp)
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, w = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 else None
    z = ins[3] if len(ins) > 3 else None
    xd, wd, yd = b.dims(x), b.dims(w), b.dims(y)
    n_sp = len(wd) - 4
    plain = len(xd) == n_sp + 2  # an NCHW input (the image stem), read as x[n, ic, *sp]
    c, ci = cast(int, wd[-1]), cast(int, wd[-2])
    kernel = cast(list[int], wd[2:-2])
    strides, dilations, pads = window_attrs(op, n_sp, kernel)
    group = graph.get_int(op.properties, "group", 1)
    cin, m = cast(int, xd[1]) * (1 if plain else c), cast(int, wd[0]) * c
    cg, mg = cin // group, m // group
    depthwise = not plain and ci == 1 and cg == 1 and m == cin
    if plain and not (group == 1 and ci == cin):
        raise UnsupportedError(
            f"graph.conv_nchwc: an NCHW input of {cin} channels needs group 1 and weights "
            f"packed [M/c, 1, *k, {cin}, c]"
        )
    if not plain and not depthwise and not (ci == c and cg % c == 0 and mg % c == 0):
        raise UnsupportedError(
            f"graph.conv_nchwc: {group} groups of {cg} input / {mg} output channels do not "
            f"fill whole blocks of {c} (only dense blocks or a depthwise conv without "
            "channel multiplier are supported)"
        )
    et = element_type(op)
    vt = VectorType(et, [c])
    act = graph.activation_of(op.properties)
    vector_act = activation(*act) if act is not None and act[0] in _VECTOR_ACTIVATIONS else None
    row_act = activation(*act) if act is not None and vector_act is None else None

    last = n_sp - 1
    k_w, s_w, d_w, pl = kernel[last], strides[last], dilations[last], pads[last]
    in_w, out_w = xd[2 + last], yd[2 + last]
    exact_end = [pads[n_sp + i] == 0 for i in range(n_sp)]
    cgb = 1 if depthwise or plain else cg // c  # input blocks of a group
    blocks_per_group = mg // c
    # Output blocks per tile: they share each broadcast input (a depthwise conv has no
    # input to share); all of them must be in one group.
    ob = OUT_BLOCKS if not depthwise and blocks_per_group % OUT_BLOCKS == 0 else 1
    # Outputs per tile: with one dense block, twice as many keep 12 FMA chains in flight
    # (+9% measured); a depthwise conv is bound by its input loads and stays at TILE.
    t_w = TILE if depthwise else TILE * OUT_BLOCKS // ob

    with b.loop(0, yd[0]) as n, b.loop(0, yd[1], ob) as ocb, b.loop_nest(yd[2:-2]) as outer:
        ocb_d = as_dim(b, ocb)
        blocks = [ocb_d + j for j in range(ob)]
        # First input block of ocb's group (dense); a depthwise block reads its own block.
        if depthwise:
            xb0: Dim = ocb_d
        elif group == 1:
            xb0 = 0
        else:
            xb0 = floor_div(b, ocb_d, blocks_per_group) * cgb
        inits = [b.vload(bias, [blk * c], c) if bias is not None else b.const(0.0, vt)
                 for blk in blocks]
        rows = [[n, blk, *outer] for blk in blocks]
        starts = [as_dim(b, o) * strides[i] - pads[i] for i, o in enumerate(outer)]
        ranges = [
            valid_taps(b, st, xd[2 + i], kernel[i], dilations[i], pads[i], exact_end[i])
            for i, st in enumerate(starts)
        ]

        def tile(ow0: Dim, size: int, kw_range: tuple[Dim, Dim]) -> None:
            """Outputs ow0 .. ow0 + size - 1 of the row, every one with taps kw_range;
            accumulator j * size + t is output block j, output t."""

            def taps(i: int, icb: Dim, tap: list[SSAValue], pos: list[Dim],
                     accs: list[SSAValue]) -> list[SSAValue]:
                """Loops over the valid taps of dim i.., innermost kw then ii."""
                if i < last:
                    def outer_tap(t: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                        p = starts[i] + as_dim(b, t) * dilations[i]
                        return taps(i + 1, icb, [*tap, t], [*pos, p], carried)

                    return b.reduce_loop(*ranges[i], accs, outer_tap)

                def kw_tap(kw: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                    iw0 = as_dim(b, ow0) * s_w - pl + as_dim(b, kw) * d_w
                    iws = [iw0 + t * s_w for t in range(size)]
                    if depthwise:
                        wv = b.vload(w, [ocb, 0, *tap, kw, 0, 0], c)
                        return [b.fma(b.vload(x, [n, xb0, *pos, iw, 0], c), wv, acc)
                                for iw, acc in zip(iws, carried, strict=True)]
                    xb = xb0 + icb

                    def channel(ii: SSAValue, accs_ii: list[SSAValue]) -> list[SSAValue]:
                        wvs = [b.vload(w, [blk, icb, *tap, kw, ii, 0], c) for blk in blocks]
                        out = list(accs_ii)
                        for t, iw in enumerate(iws):
                            at = [n, ii, *pos, iw] if plain else [n, xb, *pos, iw, ii]
                            xv = b.splat(b.load(x, at), c)
                            for j, wv in enumerate(wvs):
                                out[j * size + t] = b.fma(xv, wv, out[j * size + t])
                        return out

                    # the ci input channels of the tap: a block, or all C of an NCHW input
                    return b.reduce_loop(0, ci, carried, channel)

                return b.reduce_loop(*kw_range, accs, kw_tap)

            accs = [init for init in inits for _ in range(size)]
            if depthwise:
                accs = taps(0, 0, [], [], accs)
            else:
                accs = b.reduce_loop(
                    0, cgb, accs, lambda icb, carried: taps(0, as_dim(b, icb), [], [], carried)
                )
            for k, acc in enumerate(accs):
                at = [*rows[k // size], as_dim(b, ow0) + k % size, 0]
                v = acc if z is None else b.add(acc, b.vload(z, at, c))
                if vector_act is not None:
                    v = vector_act(b, v)
                b.vstore(v, y, at)

        def single(ow: SSAValue) -> None:
            """One output whose window may reach into the padding: its own kw range."""
            st = as_dim(b, ow) * s_w - pl
            tile(ow, 1, valid_taps(b, st, in_w, k_w, d_w, pl, exact_end[last]))

        # Interior outputs [lo, hi): ow*s - pl >= 0 and ow*s - pl + (k-1)*d <= in_w - 1.
        lo = imin(b, ceil_div(b, pl, s_w), out_w)
        reach = in_w - 1 + pl - (k_w - 1) * d_w
        hi = imax(b, lo, imin(b, out_w, floor_div(b, reach, s_w) + 1))
        tiles_end = lo + floor_div(b, hi - lo, t_w) * t_w
        with b.loop(0, lo) as ow:
            single(ow)
        with b.loop(lo, tiles_end, t_w) as ow:
            tile(ow, t_w, (0, k_w))
        if isinstance(hi, int) and isinstance(tiles_end, int) and hi > tiles_end:
            # a static remainder of the interior: one shorter tile, still unchecked
            tile(tiles_end, hi - tiles_end, (0, k_w))
            tiles_end = hi
        with b.loop(tiles_end, out_w) as ow:
            single(ow)
        if row_act is not None:  # one pass over the finished rows while they are in cache
            for row in rows:
                with b.loop(0, out_w) as ow, b.loop(0, c) as j:
                    b.store(row_act(b, b.load(y, [*row, ow, j])), y, [*row, ow, j])
    return [y]


# ---------------------------------------------------------------------------------------
# Pooling
# ---------------------------------------------------------------------------------------


def _pool_nchwc(s: Lowering, op: Operation, ins: list[SSAValue], is_max: bool) -> list[SSAValue]:
    """pool.py's windows (pads skipped, ceil mode, count_include_pad) per output, with
    the block's c channels as one vector."""
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x = ins[0]
    xd, yd = b.dims(x), b.dims(y)
    c = cast(int, xd[-1])
    et = element_type(op)
    vt = VectorType(et, [c])
    kernel, strides, dilations, pads, ceil, include_pad, exact_end = pool_window(op)
    n_sp = len(kernel)
    sp_in = xd[2:-1]
    init = b.const(float("-inf") if is_max else 0.0, vt)

    with b.loop(0, yd[0]) as n, b.loop(0, yd[1]) as cb, b.loop_nest(yd[2:-1]) as out:
        starts = [as_dim(b, o) * strides[i] - pads[i] for i, o in enumerate(out)]
        ranges = [
            valid_taps(b, st, sp_in[i], kernel[i], dilations[i], pads[i], exact_end[i])
            for i, st in enumerate(starts)
        ]

        def taps(i: int, pos: list[Dim], acc: SSAValue) -> SSAValue:
            if i == n_sp:
                v = b.vload(x, [n, cb, *pos, 0], c)
                return b.max(acc, v) if is_max else b.add(acc, v)

            def body(t: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                p = starts[i] + as_dim(b, t) * dilations[i]
                return [taps(i + 1, [*pos, p], carried[0])]

            return b.reduce_loop(*ranges[i], [acc], body)[0]

        total = taps(0, [], init)
        if not is_max:
            count = window_count(b, starts, ranges, sp_in, kernel, dilations, pads, ceil,
                                 include_pad)
            total = b.div(total, b.splat(to_float(b, count, et), c))
        b.vstore(total, y, [n, cb, *out, 0])
    return [y]


def _pool(is_max: bool) -> LoweringFn:
    return lambda s, op, ins: _pool_nchwc(s, op, ins, is_max)


LOWERINGS: dict[type[Operation], LoweringFn] = {
    graph.ToNchwcOp: _to_nchwc,
    graph.FromNchwcOp: _from_nchwc,
    graph.ConvNchwcOp: _conv_nchwc,
    graph.MaxPoolNchwcOp: _pool(True),
    graph.AveragePoolNchwcOp: _pool(False),
}

# One kernel function per distinct signature (see graph_to_loops: kernel outlining).
OUTLINED = {graph.ConvNchwcOp, graph.MaxPoolNchwcOp, graph.AveragePoolNchwcOp}

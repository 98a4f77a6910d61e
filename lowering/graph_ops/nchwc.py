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
a 3x3 64->64 conv at 56x56). An op may choose another tile for its target with the
attribute `tile = array<i64: T, blocks>` (`register_tile`).

A depthwise conv (one input channel per group, as many outputs as inputs) has no input
to share: one block per tile and no ii loop, the input is a vector too,
acc[t] = fma(X[n, ocb, ih, iw(t), 0:c], W[ocb, 0, kh, kw, 0, 0:c], acc[t]). An NCHW input
of C < c channels (the image stem, W packed [M/c, 1, *k, C, c]) takes the dense tile with
one group of C input channels: the broadcast reads X[n, ii, ih, iw(t)], ii < C. The
accumulators are loop-carried values (scf.for iter_args) that LLVM
keeps in registers. A dense tile is unrolled here already: its loops are marked to stay
loops (NO_UNROLL_ATTR), since LLVM unrolling the ii loop of constant trip count again
doubled ResNet-50's code generation time for no measured speed.

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

from contextlib import nullcontext
from math import prod
from typing import cast

from xdsl.dialects.builtin import DenseArrayBase, MemRefType, TensorType, VectorType
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, element_type, lowers, optional
from infer.lowering.graph_ops.elementwise import epilogue
from infer.lowering.graph_ops.index import as_dim, ceil_div, floor_div, imax, imin, to_float
from infer.lowering.graph_ops.pool import include_pad
from infer.lowering.graph_ops.window import Window


def register_tile(op: graph.ConvNchwcOp) -> tuple[int, int]:
    """(outputs, output blocks) of the conv's register tile: accumulators for that many
    outputs of that many channel blocks, their weight vectors and one broadcast input. Its
    `tile` attribute (chosen for the target by select-conv-tile), else graph.DEFAULT_TILE."""
    attr = op.attributes.get(graph.TILE_ATTR)
    if attr is None:
        return graph.DEFAULT_TILE
    values = attr.get_values() if isinstance(attr, DenseArrayBase) else ()
    if len(values) != 2 or not all(isinstance(v, int) and v >= 1 for v in values):
        raise UnsupportedError(
            f"graph.conv_nchwc: {graph.TILE_ATTR} must be array<i64: outputs, blocks> of positive "
            f"sizes, got {attr}"
        )
    return cast(int, values[0]), cast(int, values[1])


# ---------------------------------------------------------------------------------------
# Layout conversions
# ---------------------------------------------------------------------------------------


@lowers(graph.ToNchwcOp)
def _to_nchwc(s: Lowering, op: graph.ToNchwcOp, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    yd = b.dims(y)
    c = cast(int, yd[-1])
    # Writes contiguous: the block's c channels innermost (c reads from c planes).
    with b.parallel_nest(yd) as (n, cb, *sp, j):
        ch = as_dim(b, cb) * c + as_dim(b, j)
        b.store(b.load(ins[0], [n, ch, *sp]), y, [n, cb, *sp, j])
    return [y]


@lowers(graph.FromNchwcOp)
def _from_nchwc(s: Lowering, op: graph.FromNchwcOp, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x = ins[0]
    xd = b.dims(x)
    c = cast(int, xd[-1])
    # Reads contiguous: the block's c channels innermost (an interleaved group LLVM
    # vectorizes as loads + shuffles).
    with b.parallel_nest(xd) as (n, cb, *sp, j):
        ch = as_dim(b, cb) * c + as_dim(b, j)
        b.store(b.load(x, [n, cb, *sp, j]), y, [n, ch, *sp])
    return [y]


# ---------------------------------------------------------------------------------------
# Conv
# ---------------------------------------------------------------------------------------


# Rows of at most this many outputs take edge tiles; wider ones take their few edge
# outputs one at a time (little of their time, and less code to compile).
EDGE_TILE_WIDTH = 16


def row_tiles(out_w: Dim, lo: Dim, hi: Dim, t_w: int) -> list[tuple[int, int, int, str]] | None:
    """A static row of `out_w` outputs whose interior is [lo, hi) as register tiles of at
    most `t_w` outputs, never a tile of one output beside full ones where it can be
    helped: it keeps too few FMA chains in flight (at 7x7 and 14x14 the edge outputs
    taken one at a time were a third of a 3x3 conv's time, a 7-wide 1x1 conv's last
    output a seventh). As (start, size, count, kind) runs of `count` tiles of `size`:
    kind "tile" (the interior), "edge" (outputs outside it: its taps chosen statically)
    or "single" (one output, its taps computed). Interiors are split into tiles of about
    equal size; narrow rows' edges into one or two edge tiles (7 outputs: 4 + 3, 14:
    4 + 6 + 4). None for a dynamic row, or padding deeper than an edge tile."""
    if not all(isinstance(v, int) for v in (out_w, lo, hi)) or out_w == 0:
        return None
    out_w, lo, hi = cast(int, out_w), cast(int, lo), cast(int, hi)
    if lo == 0 and hi == out_w:
        return _even(0, out_w, t_w)
    if out_w > EDGE_TILE_WIDTH:
        if hi <= lo:
            return None
        return ([(0, 1, lo, "single")] if lo else []) + _even(lo, hi - lo, t_w) + (
            [(hi, 1, out_w - hi, "single")] if hi < out_w else [])
    # the fewest full tiles that leave at most two tiles' worth for the edges
    full = max(0, -(-(out_w - 2 * t_w) // t_w))
    rest = out_w - full * t_w
    left = rest if rest <= t_w else -(-rest // 2)
    runs = []
    for start, size, count in ((0, left, 1), (left, t_w, full),
                               (left + full * t_w, rest - left, 1)):
        if size and count:
            edge = start < lo or start + size * count > hi
            if edge and count > 1:
                return None
            runs.append((start, size, count, "edge" if edge else "tile"))
    return runs


def _even(start: int, outputs: int, t_w: int) -> list[tuple[int, int, int, str]]:
    """`outputs` interior outputs from `start` in tiles of about equal size: two runs at
    most (14 outputs: 5 + 5 + 4)."""
    n = -(-outputs // t_w)
    size, extra = divmod(outputs, n)
    runs = [(start, size + 1, extra, "tile"),
            (start + extra * (size + 1), size, n - extra, "tile")]
    return [run for run in runs if run[2]]


def _input_blocks_at_run_time(op: graph.ConvNchwcOp) -> dict[int, tuple[int, ...]]:
    """A dense conv of blocked input takes its input blocks at run time (x's and w's dim 1):
    DenseNet's 1x1 convs, one per input width, share a kernel per image size."""
    x, w = (cast(MemRefType | TensorType, v.type) for v in op.operands[:2])
    blocked = x.get_num_dims() == w.get_num_dims() - 1  # not the NCHW stem
    dense = op.group.value.data == 1 and w.get_shape()[-2] == w.get_shape()[-1] > 1
    return {0: (1,), 1: (1,)} if blocked and dense else {}


@lowers(graph.ConvNchwcOp, outline=True, run_time_dims=_input_blocks_at_run_time)
def _conv_nchwc(s: Lowering, op: graph.ConvNchwcOp, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, w = ins[:2]
    bias, z = optional(ins, 2, 3)
    xd, wd, yd = b.dims(x), b.dims(w), b.dims(y)
    # The structure from the op's static shapes: a kernel may take x's and w's input
    # blocks at run time (`_input_blocks_at_run_time`), in xd[1] and wd[1].
    xs = cast(MemRefType | TensorType, op.operands[0].type).get_shape()
    n_sp = len(wd) - 4
    plain = len(xd) == n_sp + 2  # an NCHW input (the image stem), read as x[n, ic, *sp]
    c, ci = cast(int, wd[-1]), cast(int, wd[-2])
    window = Window.of_conv(op, cast(list[int], wd[2:-2]))
    group = op.group.value.data
    cin, m = xs[1] * (1 if plain else c), cast(int, wd[0]) * c
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
    act = epilogue(op)
    vector_act = act if act is not None and act.vector else None
    row_act = act if act is not None and not act.vector else None

    last = n_sp - 1
    k_w, s_w, d_w = window.kernel[last], window.strides[last], window.dilations[last]
    pl = window.pads[last]
    in_w, out_w = xd[2 + last], yd[2 + last]
    # input blocks of a group: with one group, all of x's (known at run time only when
    # the kernel takes them so)
    cgb: Dim = 1 if depthwise or plain else xd[1] if group == 1 else cg // c
    blocks_per_group = mg // c
    tile_w, tile_blocks = register_tile(op)
    # Output blocks per tile: they share each broadcast input (a depthwise conv has no
    # input to share); all of them must be in one group.
    ob = tile_blocks if not depthwise and blocks_per_group % tile_blocks == 0 else 1
    # Outputs per tile: with fewer blocks, more outputs keep as many FMA chains in flight
    # (one block x 12: +9% measured); a depthwise conv is bound by its input loads and
    # stays at tile_w.
    t_w = tile_w if depthwise else tile_w * tile_blocks // ob

    # One output row of `ob` blocks an iteration, on any thread: over batch, blocks, rows.
    row_work = out_w * ob * c * cg * prod(window.kernel) if isinstance(out_w, int) else None
    with b.parallel([yd[0], cast(int, yd[1]) // ob, *yd[2:-2]], row_work) as (n, obi, *outer):
        ocb_d = as_dim(b, obi) * ob
        ocb = b.idx(ocb_d)
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
        outer_taps = window.taps_at(b, outer, xd[2:])

        def tile(ow0: Dim, size: int, kw_range: tuple[Dim, Dim], edge: bool = False) -> None:
            """Outputs ow0 .. ow0 + size - 1 of the row, every one with taps kw_range;
            accumulator j * size + t is output block j, output t. An `edge` tile (static
            ow0) takes for each output only the kw taps inside the input, known here."""

            def taps(icb: Dim, tap: list[SSAValue], pos: list[Dim], accs: list[SSAValue]
                     ) -> list[SSAValue]:
                """The taps of the last dim (within outer taps `tap`), innermost ii."""

                def kw_tap(kw: SSAValue | int, carried: list[SSAValue],
                           ts: range | list[int] = range(size)) -> list[SSAValue]:
                    iw0 = as_dim(b, ow0) * s_w - pl + as_dim(b, kw) * d_w
                    iws = {t: iw0 + t * s_w for t in ts}
                    out = list(carried)
                    if depthwise:
                        wv = b.widen(b.vload(w, [ocb, 0, *tap, kw, 0, 0], c), et)
                        for t in ts:
                            out[t] = b.fma(b.vload(x, [n, xb0, *pos, iws[t], 0], c), wv, out[t])
                        return out
                    xb = xb0 + icb

                    def channel(ii: SSAValue, accs_ii: list[SSAValue]) -> list[SSAValue]:
                        wvs = [b.widen(b.vload(w, [blk, icb, *tap, kw, ii, 0], c), et)
                               for blk in blocks]
                        out = list(accs_ii)
                        for t in ts:
                            iw = iws[t]
                            at = [n, ii, *pos, iw] if plain else [n, xb, *pos, iw, ii]
                            xv = b.splat(b.load(x, at), c)
                            for j, wv in enumerate(wvs):
                                out[j * size + t] = b.fma(xv, wv, out[j * size + t])
                        return out

                    # the ci input channels of the tap: a block, or all C of an NCHW input
                    return b.reduce_loop(0, ci, out, channel)

                if not edge:
                    return b.reduce_loop(*kw_range, accs, kw_tap)
                # Which outputs each tap reaches is static: the taps that reach all of
                # them stay a loop, the others are unrolled, each for its outputs (in
                # tap order, so each output sums as an interior one does).
                reached = [[t for t in range(size) if 0 <= (cast(int, ow0) + t) * s_w - pl
                            + kw * d_w < cast(int, in_w)] for kw in range(k_w)]
                full = [kw for kw in range(k_w) if len(reached[kw]) == size]
                first, end = (full[0], full[-1] + 1) if full else (k_w, k_w)
                if end - first != len(full):  # not one run: unroll them all
                    first = end = k_w
                for kw in range(k_w):
                    if kw == first and end - first > 1:
                        accs = b.reduce_loop(first, end, accs, kw_tap)
                    elif not first < kw < end and reached[kw]:
                        accs = kw_tap(kw, accs, reached[kw])
                return accs

            accs = [init for init in inits for _ in range(size)]

            def block_taps(icb: Dim, carried: list[SSAValue]) -> list[SSAValue]:
                return outer_taps.loop(b, carried, lambda tap, pos, c: taps(icb, tap, pos, c))

            if depthwise:
                accs = block_taps(0, accs)
            else:
                accs = b.reduce_loop(
                    0, cgb, accs, lambda icb, carried: block_taps(as_dim(b, icb), carried)
                )
            for k, acc in enumerate(accs):
                at = [*rows[k // size], as_dim(b, ow0) + k % size, 0]
                v = acc if z is None else b.add(acc, b.vload(z, at, c))
                if vector_act is not None:
                    v = vector_act(b, v)
                b.vstore(v, y, at)

        def single(ow: SSAValue) -> None:
            """One output whose window may reach into the padding: its own kw range."""
            tile(ow, 1, window.taps(b, last, window.start(b, last, ow), in_w))

        # Interior outputs [lo, hi): ow*s - pl >= 0 and ow*s - pl + (k-1)*d <= in_w - 1.
        lo = imin(b, ceil_div(b, pl, s_w), out_w)
        reach = in_w - 1 + pl - (k_w - 1) * d_w
        hi = imax(b, lo, imin(b, out_w, floor_div(b, reach, s_w) + 1))
        row = row_tiles(out_w, lo, hi, t_w)
        # The dense tiles, unrolled here, stay loops in LLVM (module doc).
        with b.kept_loops() if not depthwise else nullcontext():
            if row is not None:  # a static row: tiles of about equal size, the edges static
                for start, size, count, kind in row:
                    if kind == "single":
                        with b.loop(start, start + count) as ow:
                            single(ow)
                    elif count == 1:
                        tile(start, size, (0, k_w), kind == "edge")
                    else:
                        with b.loop(start, start + count * size, size) as ow:
                            tile(ow, size, (0, k_w))
            else:
                tiles_end = lo + floor_div(b, hi - lo, t_w) * t_w
                with b.loop(0, lo) as ow:
                    single(ow)
                with b.loop(lo, tiles_end, t_w) as ow:
                    tile(ow, t_w, (0, k_w))
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


@lowers(graph.MaxPoolNchwcOp, graph.AveragePoolNchwcOp, outline=True)
def _pool_nchwc(s: Lowering, op: graph.PoolNchwcOp, ins: list[SSAValue]) -> list[SSAValue]:
    """pool.py's windows (pads skipped, ceil mode, count_include_pad) per output, with
    the block's c channels as one vector."""
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x = ins[0]
    is_max = isinstance(op, graph.MaxPoolNchwcOp)
    xd, yd = b.dims(x), b.dims(y)
    c = cast(int, xd[-1])
    et = element_type(op)
    vt = VectorType(et, [c])
    window = Window.of_pool(op)
    sp_in = xd[2:-1]
    init = b.const(float("-inf") if is_max else 0.0, vt)

    # one output position an iteration, on any thread
    with b.parallel([yd[0], yd[1], *yd[2:-1]], c * prod(window.kernel)) as (n, cb, *out):
        taps = window.taps_at(b, out, sp_in)

        def tap(_: list[SSAValue], pos: list[Dim], acc: list[SSAValue]) -> list[SSAValue]:
            v = b.vload(x, [n, cb, *pos, 0], c)
            return [b.max(acc[0], v) if is_max else b.add(acc[0], v)]

        (total,) = taps.loop(b, [init], tap)
        if not is_max:
            count = window.count(b, taps, sp_in, include_pad(op))
            total = b.div(total, b.splat(to_float(b, count, et), c))
        b.vstore(total, y, [n, cb, *out, 0])
    return [y]

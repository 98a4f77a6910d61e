"""Blocked channel layout (NCHWc) ops → register-blocked vector loops.

A blocked tensor is [N, C/c, *spatial, c] with c = 8 on AVX2: the c channels of a block
are one `vector<8xf32>`. The conv computes output channel blocks as vectors. For each n,
pair of output blocks ocb, ocb + 1 and outer output position, the row of outputs along
the last spatial dim is cut into tiles of T = 6 consecutive outputs whose 2 x T
accumulators live in registers (a dense conv of an odd number of blocks runs its last
block as a tile of its own after the pairs; a group of several, of an odd number of blocks
each: one block, T = 12):

    acc[j, t] = B[(ocb + j)*c : (ocb + j)*c + c]  (or 0)          j < 2, t < T
    for icb, valid outer taps (kh ...), kw, ii < c:
        w[j] = W[ocb + j, icb, kh, kw, ii, 0:c]          two vector loads, each used T times
        xv = broadcast(X[n, g0 + icb, ih, iw(t), ii])    one load, used twice    (each t)
        acc[j, t] = fma(xv, w[j], acc[j, t])
    Y[n, ocb + j, oh, ow + t, 0:c] = act(acc[j, t] + Z[n, ocb + j, oh, ow + t, 0:c])

12 accumulators + 2 weights + a broadcast fill 15 of AVX2's 16 ymm registers, and 12
independent FMA chains cover the FMA latency (6 did not: 88 vs 120 GFLOP/s measured for
a 3x3 64->64 conv at 56x56). An op may choose another tile for its target with the
attribute `tile = array<i64: T, blocks>` (`graph.conv_nchwc.register_tile`).

A row's tiles take the input blocks BATCH_CHANNELS at a time (8 blocks of 8): the tiles
of the row over the first batch (acc from the bias), then over the next (acc from the
partial sums stored in Y), the epilogue with the last; so a batch's weights and input
rows stay in cache instead of each tile walking every input plane. A pointwise conv with
`flat_rows` takes its spatial dims as one row (collapsed views of X, W, Y and Z).

A depthwise conv (one input channel per group, as many outputs as inputs) has no input
to share: one block per tile and no ii loop, the input is a vector too,
acc[t] = fma(X[n, ocb, ih, iw(t), 0:c], W[ocb, 0, kh, kw, 0, 0:c], acc[t]). An NCHW input
of C < c channels (the image stem, W packed [M/c, 1, *k, C, c]) takes the dense tile with
one group of C input channels: the broadcast reads X[n, ii, ih, iw(t)], ii < C. The
accumulators are loop-carried values (scf.for iter_args) that LLVM
keeps in registers. A dense tile is unrolled here already: its loops are marked to stay
loops (NO_UNROLL_ATTR), since LLVM unrolling the ii loop of constant trip count again
doubled ResNet-50's code generation time for no measured speed.

How a row is cut into tiles is the op's `row_tiles` (select-conv-rows): interior tiles
(every kw tap inside the input), edge tiles whose taps inside the input are chosen
statically, and single outputs whose kw range is computed per output, so the interior
never bounds-checks. A dynamic row takes single outputs wherever the window touches the
padding and tiles of T between, the remainder single outputs again. The outer dims' valid tap ranges
are computed once per output row, like in conv.py. Activations made of min/max/mul/add
are applied to the accumulators; the others run over the finished rows as conv.py's
scalar epilogue. The block size is read from the types: nothing here assumes c = 8.

Pools run the same window loops per output with the c channels as one vector; the
layout conversions are plain loop nests with the c channels innermost (contiguous).
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, replace
from math import prod
from typing import cast

from xdsl.dialects.builtin import MemRefType, TensorType, VectorType
from xdsl.ir import Attribute, SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, element_type, lowers, optional
from infer.lowering.graph_ops.elementwise import Epilogue, epilogue
from infer.lowering.graph_ops.index import as_dim, ceil_div, floor_div, imax, imin, to_float
from infer.lowering.graph_ops.pool import include_pad
from infer.lowering.graph_ops.window import Taps, Window, collapse
from infer.lowering.loop_builder import LoopBuilder

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


def _input_blocks_at_run_time(op: graph.ConvNchwcOp) -> dict[int, tuple[int, ...]]:
    """A dense conv of blocked input takes its input blocks at run time (x's and w's dim 1):
    DenseNet's 1x1 convs, one per input width, share a kernel per image size."""
    x, w = (cast(MemRefType | TensorType, v.type) for v in op.operands[:2])
    blocked = x.get_num_dims() == w.get_num_dims() - 1  # not the NCHW stem
    dense = op.group.value.data == 1 and w.get_shape()[-2] == w.get_shape()[-1] > 1
    return {0: (1,), 1: (1,)} if blocked and dense else {}


# Input channels a row's tiles take before the next batch (ConvRow.batch): the batch's
# weights of a tile (2 blocks x 64 channels x c x 4 bytes a tap: 4 KiB, 36 KiB at 3x3)
# and input rows stay in cache, where each tile took every input channel at once from
# planes far apart (a 1x1 conv of 256 channels at 56x56 ran at half the speed of one of
# 64). ResNet-50 at one thread on Zen 3: 1.35x onnxruntime's latency before, 1.14-1.20
# after; batches of 128 channels gave 1.22-1.25, of 32 1.16, and 1x1 and 3x3 convs
# measured apart preferred no other size.
BATCH_CHANNELS = 64


@dataclass(frozen=True)
class ConvPlan:
    """What a blocked conv's static shapes and its `tile` decide (the module doc): the
    form (NCHW stem, depthwise or dense blocks), the window along the last spatial dim,
    input blocks per group and the register tile of `blocks` output blocks x `outputs`."""

    plain: bool  # an NCHW input (the image stem), read as x[n, ic, *sp]
    depthwise: bool
    c: int  # channels per block
    ci: int  # input channels a weight block holds: c, 1 (depthwise) or C (the stem)
    window: Window
    group: int
    blocks_per_group: int  # output blocks
    channels_per_group: int  # input channels
    input_blocks: Dim  # of a group (known at run time only when the kernel takes them so)
    blocks: int  # output blocks per tile
    outputs: int  # outputs per tile
    in_w: Dim
    out_w: Dim
    row_tiles: list[tuple[int, int, int]] | None  # (size, count, kind) runs of a row

    @property
    def last(self) -> int:
        return len(self.window.kernel) - 1

    def row_work(self) -> int | None:
        """Multiply-adds of one output row of `blocks` blocks (a parallel iteration)."""
        if not isinstance(self.out_w, int):
            return None
        return (self.out_w * self.blocks * self.c * self.channels_per_group
                * prod(self.window.kernel))


def conv_plan(op: graph.ConvNchwcOp, xd: list[Dim], wd: list[Dim], yd: list[Dim]) -> ConvPlan:
    """The plan of `op` whose x, w and y have dims xd, wd, yd; refuses channel groups that
    fill no whole blocks."""
    # The structure from the op's static shapes: a kernel may take x's and w's input
    # blocks at run time (`_input_blocks_at_run_time`), in xd[1] and wd[1].
    xs = cast(MemRefType | TensorType, op.operands[0].type).get_shape()
    n_sp = len(wd) - 4
    plain, depthwise = op.is_plain(), op.is_depthwise()
    c, ci = cast(int, wd[-1]), cast(int, wd[-2])
    group = op.group.value.data
    cin, m = xs[1] * (1 if plain else c), cast(int, wd[0]) * c
    cg, mg = cin // group, m // group
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
    blocks_per_group = mg // c
    ob, t_w = op.tile_shape()
    # flat rows (dims given as one): a 1-D window of one tap
    window = (Window([1], [1], [1], [0, 0], [True]) if op.flat_rows()
              else Window.of_conv(op, cast(list[int], wd[2:-2])))
    return ConvPlan(
        plain=plain, depthwise=depthwise, c=c, ci=ci, window=window, group=group,
        blocks_per_group=blocks_per_group, channels_per_group=cg,
        input_blocks=1 if depthwise or plain else xd[1] if group == 1 else cg // c,
        blocks=ob, outputs=t_w, in_w=xd[1 + n_sp], out_w=yd[1 + n_sp],
        row_tiles=op.row_tiles())


@dataclass(frozen=True)
class ConvRow:
    """One parallel iteration of the conv: an output row of `plan.blocks` blocks, the
    values its tiles share."""

    b: LoopBuilder
    plan: ConvPlan
    x: SSAValue
    w: SSAValue
    y: SSAValue
    z: SSAValue | None
    n: SSAValue
    ocb: SSAValue  # the first output block
    blocks: list[Dim]
    xb0: Dim  # the first input block of the row's group (depthwise: its own block)
    inits: list[SSAValue]  # the accumulators' start: bias or 0, per block
    rows: list[list[Dim]]  # y's index of the row, per block
    outer_taps: Taps
    element: Attribute  # the accumulators' (f32 weights are widened to it)
    act: Epilogue | None  # applied to the accumulators
    # Input blocks [lo, hi) only (a batch of them, BATCH_CHANNELS): whether it is the
    # first (accumulators start from the bias) and the last (the epilogue is applied);
    # the others start from and leave partial sums in y. None: all input blocks.
    batch: tuple[Dim, Dim, SSAValue, SSAValue] | None = None


@dataclass(frozen=True)
class RowTile:
    """Outputs ow0 .. ow0 + size - 1 of the row, every one with taps kw_range;
    accumulator j * size + t is output block j, output t. An `edge` tile (static ow0)
    takes for each output only the kw taps inside the input, known here."""

    ow0: Dim
    size: int
    kw_range: tuple[Dim, Dim]
    edge: bool = False


@lowers(graph.ConvNchwcOp, outline=True, run_time_dims=_input_blocks_at_run_time)
def _conv_nchwc(s: Lowering, op: graph.ConvNchwcOp, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    views, out = ins, y
    if op.flat_rows():  # x, w, y and z with their spatial dims as one (contiguous)
        end = cast(MemRefType, y.type).get_num_dims() - 1
        views = [v if k == 2 else _flat(b, v, end) for k, v in enumerate(ins)]
        out = _flat(b, y, end)
    xd, yd = b.dims(views[0]), b.dims(out)
    plan = conv_plan(op, xd, b.dims(views[1]), yd)
    et = element_type(op)
    act = epilogue(op)
    # A dense conv whose output blocks the tile's do not divide runs its last blocks
    # (fewer than a tile's) as a tile of their own after the others.
    tail = cast(int, yd[1]) % plan.blocks
    whole = cast(int, yd[1]) - tail
    if whole:
        _conv_rows(s, plan, views, out, xd, yd, 0, whole, act, et)
    if tail:
        _conv_rows(s, replace(plan, blocks=tail), views, out, xd, yd, whole, tail, act, et)
    return [y]


def _flat(b: LoopBuilder, buf: SSAValue, end: int) -> SSAValue:
    """`buf` with dims 2..end-1 as one (x, y, z: the spatial dims; w: the kernel's)."""
    view = collapse(b, buf, 2, end)
    assert view is not None, "a kernel's buffers have the identity layout"
    return view


def _conv_rows(s: Lowering, plan: ConvPlan, ins: list[SSAValue], y: SSAValue,
               xd: list[Dim], yd: list[Dim], first: int, count: int, act: Epilogue | None,
               et: Attribute) -> None:
    """Output blocks [first, first + count) of every row (x's dims xd, y's yd),
    `plan.blocks` at a time."""
    b = s.b
    x, w = ins[:2]
    bias, z = optional(ins, 2, 3)
    c, ob = plan.c, plan.blocks
    vt = VectorType(et, [c])
    row_act = act if act is not None and not act.vector else None
    # One output row of `ob` blocks an iteration, on any thread: over batch, blocks, rows.
    with b.parallel([yd[0], count // ob, *yd[2:-2]], plan.row_work()
                    ) as (n, obi, *outer):
        ocb_d = as_dim(b, obi) * ob + first
        ocb = b.idx(ocb_d)
        blocks = [ocb_d + j for j in range(ob)]
        if plan.depthwise:
            xb0: Dim = ocb_d
        elif plan.group == 1:
            xb0 = 0
        else:
            xb0 = floor_div(b, ocb_d, plan.blocks_per_group) * plan.input_blocks
        inits = [b.vload(bias, [blk * c], c) if bias is not None else b.const(0.0, vt)
                 for blk in blocks]
        rows = [[n, blk, *outer] for blk in blocks]
        row = ConvRow(b, plan, x, w, y, z, n, ocb, blocks, xb0, inits, rows,
                      plan.window.taps_at(b, outer, xd[2:]), et,
                      act if act is not None and act.vector else None)
        batch = max(1, BATCH_CHANNELS // c)
        if plan.depthwise or plan.plain or (isinstance(plan.input_blocks, int)
                                            and plan.input_blocks <= batch):
            _conv_row(row)
        else:  # the row's tiles over a batch of input blocks at a time
            # at least one batch: no input channels at all still writes the bias
            with b.loop(0, imax(b, 1, ceil_div(b, plan.input_blocks, batch))) as bi:
                lo = as_dim(b, bi) * batch
                hi = imin(b, lo + batch, plan.input_blocks)
                is_first = b.cmpi("eq", b.idx(lo), b.idx(0))
                is_last = b.cmpi("eq", b.idx(hi), b.idx(plan.input_blocks))
                _conv_row(replace(row, batch=(lo, hi, is_first, is_last)))
        if row_act is not None:  # one pass over the finished rows while they are in cache
            for at in rows:
                with b.loop(0, plan.out_w) as ow, b.loop(0, c) as j:
                    b.store(row_act(b, b.load(y, [*at, ow, j])), y, [*at, ow, j])


def _conv_row(r: ConvRow) -> None:
    """The row's outputs: the op's `row_tiles` runs, else (a dynamic row) single outputs
    at its ends and tiles between."""
    b, p = r.b, r.plan
    win, last = p.window, p.last
    k_w, s_w, d_w, pl = win.kernel[last], win.strides[last], win.dilations[last], win.pads[last]
    # The dense tiles, unrolled here, stay loops in LLVM (module doc).
    with b.kept_loops() if not p.depthwise else nullcontext():
        if p.row_tiles is not None:
            start = 0
            for size, count, kind in p.row_tiles:
                if kind == graph.ROW_SINGLE:
                    with b.loop(start, start + count) as ow:
                        _single_output(r, ow)
                elif count == 1:
                    _conv_tile(r, RowTile(start, size, (0, k_w), kind == graph.ROW_EDGE))
                else:
                    with b.loop(start, start + count * size, size) as ow:
                        _conv_tile(r, RowTile(ow, size, (0, k_w)))
                start += size * count
            return
        # Interior outputs [lo, hi): ow*s - pl >= 0 and ow*s - pl + (k-1)*d <= in_w - 1.
        lo = imin(b, ceil_div(b, pl, s_w), p.out_w)
        reach = p.in_w - 1 + pl - (k_w - 1) * d_w
        hi = imax(b, lo, imin(b, p.out_w, floor_div(b, reach, s_w) + 1))
        tiles_end = lo + floor_div(b, hi - lo, p.outputs) * p.outputs
        with b.loop(0, lo) as ow:
            _single_output(r, ow)
        with b.loop(lo, tiles_end, p.outputs) as ow:
            _conv_tile(r, RowTile(ow, p.outputs, (0, k_w)))
        with b.loop(tiles_end, p.out_w) as ow:
            _single_output(r, ow)


def _single_output(r: ConvRow, ow: SSAValue) -> None:
    """One output whose window may reach into the padding: its own kw range."""
    win, last = r.plan.window, r.plan.last
    _conv_tile(r, RowTile(ow, 1, win.taps(r.b, last, win.start(r.b, last, ow), r.plan.in_w)))


def _conv_tile(r: ConvRow, t: RowTile) -> None:
    """A tile's accumulators over every input block and tap, stored with the epilogue."""
    b, c = r.b, r.plan.c
    accs = [init for init in r.inits for _ in range(t.size)]
    ats = [[*r.rows[k // t.size], as_dim(b, t.ow0) + k % t.size, 0] for k in range(len(accs))]
    blocks: tuple[Dim, Dim] = (0, r.plan.input_blocks)
    if r.batch is not None:
        lo, hi, first, last = r.batch
        blocks = (lo, hi)
        starts = accs
        accs = b.choose(first, lambda: starts, lambda: [b.vload(r.y, at, c) for at in ats])

    def block_taps(icb: Dim, carried: list[SSAValue]) -> list[SSAValue]:
        return r.outer_taps.loop(
            b, carried, lambda tap, pos, acc: _last_dim_taps(r, t, icb, tap, pos, acc))

    if r.plan.depthwise:
        accs = block_taps(0, accs)
    else:
        accs = b.reduce_loop(*blocks, accs,
                             lambda icb, carried: block_taps(as_dim(b, icb), carried))
    for acc, at in zip(accs, ats, strict=True):
        v = acc if r.z is None else b.add(acc, b.vload(r.z, at, c))
        if r.act is not None:
            v = r.act(b, v)
        if r.batch is not None and v is not acc:  # partial sums until the last batch
            v = b.select(r.batch[3], v, acc)
        b.vstore(v, r.y, at)


def _last_dim_taps(r: ConvRow, t: RowTile, icb: Dim, tap: list[SSAValue], pos: list[Dim],
                   accs: list[SSAValue]) -> list[SSAValue]:
    """The taps of the last dim (within outer taps `tap` at input position `pos`)."""
    def kw_tap(kw: SSAValue | int, carried: list[SSAValue],
               ts: range | list[int] = range(t.size)) -> list[SSAValue]:
        return _kw_tap(r, t, icb, tap, pos, kw, carried, ts)

    if not t.edge:
        return r.b.reduce_loop(*t.kw_range, accs, kw_tap)
    # Which outputs each tap reaches is static: the taps that reach all of them stay a
    # loop, the others are unrolled, each for its outputs (in tap order, so each output
    # sums as an interior one does).
    win, last = r.plan.window, r.plan.last
    k_w, s_w, d_w, pl = win.kernel[last], win.strides[last], win.dilations[last], win.pads[last]
    reached = [[o for o in range(t.size) if 0 <= (cast(int, t.ow0) + o) * s_w - pl
                + kw * d_w < cast(int, r.plan.in_w)] for kw in range(k_w)]
    full = [kw for kw in range(k_w) if len(reached[kw]) == t.size]
    first, end = (full[0], full[-1] + 1) if full else (k_w, k_w)
    if end - first != len(full):  # not one run: unroll them all
        first = end = k_w
    for kw in range(k_w):
        if kw == first and end - first > 1:
            accs = r.b.reduce_loop(first, end, accs, kw_tap)
        elif not first < kw < end and reached[kw]:
            accs = kw_tap(kw, accs, reached[kw])
    return accs


def _kw_tap(r: ConvRow, t: RowTile, icb: Dim, tap: list[SSAValue], pos: list[Dim],
            kw: SSAValue | int, carried: list[SSAValue], ts: range | list[int]
            ) -> list[SSAValue]:
    """One kw tap for outputs `ts` of the tile, innermost the ci input channels: a
    block, or all C of an NCHW input (a depthwise tap is one vector FMA per output)."""
    b, p = r.b, r.plan
    win, c = p.window, p.c
    s_w = win.strides[p.last]
    iw0 = as_dim(b, t.ow0) * s_w - win.pads[p.last] + as_dim(b, kw) * win.dilations[p.last]
    iws = {o: iw0 + o * s_w for o in ts}
    et = r.element
    if p.depthwise:
        out = list(carried)
        wv = b.widen(b.vload(r.w, [r.ocb, 0, *tap, kw, 0, 0], c), et)
        for o in ts:
            out[o] = b.fma(b.vload(r.x, [r.n, r.xb0, *pos, iws[o], 0], c), wv, out[o])
        return out
    xb = r.xb0 + icb

    def channel(ii: SSAValue, accs_ii: list[SSAValue]) -> list[SSAValue]:
        wvs = [b.widen(b.vload(r.w, [blk, icb, *tap, kw, ii, 0], c), et) for blk in r.blocks]
        out = list(accs_ii)
        for o in ts:
            at = [r.n, ii, *pos, iws[o]] if p.plain else [r.n, xb, *pos, iws[o], ii]
            xv = b.splat(b.load(r.x, at), c)
            for j, wv in enumerate(wvs):
                out[j * t.size + o] = b.fma(xv, wv, out[j * t.size + o])
        return out

    return b.reduce_loop(0, p.ci, carried, channel)


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

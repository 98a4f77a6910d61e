"""A 1-D convolution as a GEMM over columns of its input (im2col), for the convs of audio
and sequence front ends (an STFT as a strided conv, a feature extractor's stack).

conv.py's row loops vectorize along the output only at stride 1 and take one FMA per
load and store of y; a 1-D conv of stride 32 and 64 taps runs them as gathers. Here each
block of up to BLOCK outputs of one (batch, group) first gathers its input columns,

    cols[c * K + k, j] = x[n, g * C + c, (o0 + j) * stride - pad + k * dilation]   (0 outside)

and then Y[n, g * M + m, o0 + j] = bias + sum over c, k of W[m, c, k] * cols[c * K + k, j]
is gemm.py's register tile: ROWS output channels by VECTORS vectors of outputs, the
weights broadcast, each column vector loaded once per tile, DEPTH rows of cols at a time
(a span of them stays in L1 while W's slice streams from L2). The block's last outputs
(fewer than a vector) go through a scratch vector per channel: cols has room for a whole
vector there. Blocks run on any thread, each with its own cols; a fused summand starts Y
as bias + Z and a fused activation runs over each finished row, as in conv.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias, cast

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import SSAValue

from infer.dialects.dims import Dim
from infer.lowering.graph_ops.elementwise import Epilogue
from infer.lowering.graph_ops.gemm import gemm_tile, row_tiles
from infer.lowering.graph_ops.index import as_dim, ceil_div, imax, imin
from infer.lowering.graph_ops.window import Window, collapse
from infer.lowering.loop_builder import Index, LoopBuilder, tile_lanes

BLOCK = 256  # outputs a block gathers (its cols: C * K x BLOCK)
ROWS, VECTORS = 4, 3  # the register tile: 12 accumulators
DEPTH = 128  # rows of cols (input channels x taps) a pass over the outputs sums
# Where output vector v of row r of a tile at (first row, column) goes: a buffer's index.
Out: TypeAlias = "Callable[[Dim, int, Dim, int], list[Dim | SSAValue]]"


def conv_columns(b: LoopBuilder, x: SSAValue, w: SSAValue, y: SSAValue, bias: SSAValue | None,
                 group: int, window: Window, act: Epilogue | None, z: SSAValue | None) -> bool:
    """The 1-D conv of x [N, C, L] and w [M, C / group, K] into y [N, M, O] (module doc);
    False, nothing built, when W's sizes are not static or W is not contiguous."""
    xd, wd, yd = b.dims(x), b.dims(w), b.dims(y)
    if not all(isinstance(d, int) for d in wd):
        return False
    flat_w = collapse(b, w, 1, 3)  # [M, C / group * K]: a GEMM's A
    if flat_w is None:
        return False
    et = cast(MemRefType, y.type).element_type
    lanes = tile_lanes(et)
    m_per_group, c_per_group = cast(int, wd[0]) // group, cast(int, wd[1])
    depth = c_per_group * cast(int, wd[2])
    out = yd[2]
    # a static output shorter than a block: cols as wide as its whole vectors
    block = BLOCK if not isinstance(out, int) else min(BLOCK, -(-out // lanes) * lanes)
    blocks = ceil_div(b, out, block) if not isinstance(out, int) else -(-out // block)
    with b.parallel([yd[0], group, blocks], m_per_group * depth * block) as (n, g, ob):
        o0 = as_dim(b, ob) * block
        width = imin(b, out - o0, block) if not isinstance(out, int) or out > block else out
        cols = b.alloc([depth, block], et)
        _gather(b, x, xd, window, n, as_dim(b, g) * c_per_group, c_per_group, o0, width, cols)
        m0 = as_dim(b, g) * m_per_group
        with b.loop(0, m_per_group) as m:  # Y's rows start as bias (+ Z)
            row = [n, m0 + Index(b, m)]
            init = b.load(bias, [row[1]]) if bias is not None else b.const(0.0, et)
            with b.loop(0, width) as j:
                at = [*row, o0 + Index(b, j)]
                b.store(init if z is None else b.add(init, b.load(z, at)), y, at)
        _products(b, flat_w, y, cols, n, m0, m_per_group, depth, o0, width, lanes)
        b.insert(memref.DeallocOp.get(cols))
        if act is not None:
            with b.loop_nest([m_per_group, width]) as (m, j):
                at = [n, m0 + Index(b, m), o0 + Index(b, j)]
                b.store(act(b, b.load(y, at)), y, at)
    return True


def _gather(b: LoopBuilder, x: SSAValue, xd: list[Dim], window: Window, n: SSAValue,
            c0: Dim, channels: int, o0: Dim, width: Dim, cols: SSAValue) -> None:
    """cols[c * K + k, j] for the block's outputs o0 + j, j < width: the input under tap
    k of output o0 + j, zero where that lies in the padding."""
    k_taps = window.kernel[0]
    with b.loop_nest([channels, k_taps]) as (c, k):
        r = Index(b, c) * k_taps + Index(b, k)
        off = Index(b, k) * window.dilations[0] - window.pads[0]
        lo, hi = window.outputs(b, 0, off, o0 + width, xd[2])  # valid outputs, absolute
        first = imin(b, imax(b, as_dim(b, lo) - o0, 0), width)
        last = imax(b, imin(b, as_dim(b, hi) - o0, width), first)
        zero = b.const(0.0, cast(MemRefType, cols.type).element_type)
        with b.loop(0, first) as j:
            b.store(zero, cols, [r, j])
        with b.loop(first, last) as j:
            iw = (o0 + Index(b, j)) * window.strides[0] + off
            b.store(b.load(x, [n, c0 + Index(b, c), iw]), cols, [r, j])
        with b.loop(last, width) as j:
            b.store(zero, cols, [r, j])


def _products(b: LoopBuilder, w: SSAValue, y: SSAValue, cols: SSAValue, n: SSAValue,
              m0: Dim, rows_all: int, depth: int, o0: Dim, width: Dim, lanes: int) -> None:
    """y[n, m0 + m, o0 + j] += w[m0 + m, :] . cols[:, j] (w: [M, depth]): register tiles over
    the block's whole vectors of outputs; the last outputs (fewer than a vector) through a
    scratch of one vector per row, since cols has room for a whole vector there."""
    et = cast(MemRefType, y.type).element_type
    whole: Dim = width // lanes * lanes if isinstance(width, int) else (
        Index(b, b.idx(width)) // lanes) * lanes
    k0, k1 = 0, depth  # the slice of the depth being summed (below)

    def in_y(mr: Dim, r: int, col: Dim, v: int) -> list[Dim | SSAValue]:
        return [n, as_dim(b, mr) + r, o0 + as_dim(b, col) + v * lanes]

    def tile(mr: Dim, rows: int, col: Dim, vectors: int, buf: SSAValue, at: Out) -> None:
        dests = [(buf, lambda r, v=v: at(mr, r, col, v)) for v in range(vectors)]
        sources = [([], as_dim(b, col) + v * lanes) for v in range(vectors)]
        with b.kept_loops():
            gemm_tile(b, w, lambda r: [as_dim(b, mr) + r], cols, [], k0, k1, lanes, dests,
                      rows, sources)

    def channel_tiles(col: Dim, vectors: int, buf: SSAValue = y, at: Out = in_y) -> None:
        row_tiles(b, m0, m0 + rows_all, ROWS,
                  lambda mr, rows: tile(mr, rows, col, vectors, buf, at))

    span = VECTORS * lanes
    spans: Dim = whole // span * span if isinstance(whole, int) else (
        Index(b, b.idx(whole)) // span) * span
    left: Dim = width - whole if isinstance(width, int) else Index(b, b.idx(width)) - whole
    if isinstance(left, int) and left == 0:
        tail = None
    else:
        tail = b.alloc([rows_all, lanes], et)  # row m's last outputs, as one vector
        with b.loop_nest([rows_all, left]) as (m, j):
            b.store(b.load(y, [n, m0 + Index(b, m), o0 + whole + Index(b, j)]), tail, [m, j])

    def in_tail(mr: Dim, r: int, col: Dim, v: int) -> list[Dim | SSAValue]:
        return [as_dim(b, mr) - m0 + r, 0]

    # DEPTH rows of cols at a time: a span of them (DEPTH x span) stays in L1 while every
    # row tile of W's DEPTH columns (in L2) runs over it
    for k0 in range(0, depth, DEPTH):
        k1 = min(k0 + DEPTH, depth)
        if spans != 0:
            with b.loop(0, spans, span) as jt:
                channel_tiles(as_dim(b, jt), VECTORS)
        if not isinstance(whole, int) or whole > spans:
            with b.loop(spans, whole, lanes) as jv:
                channel_tiles(as_dim(b, jv), 1)
        if tail is not None:
            with b.if_(b.cmpi("ne", b.idx(left), b.idx(0))):
                channel_tiles(whole, 1, tail, in_tail)
    if tail is not None:
        with b.loop_nest([rows_all, left]) as (m, j):
            b.store(b.load(tail, [m, j]), y, [n, m0 + Index(b, m), o0 + whole + Index(b, j)])
        b.insert(memref.DeallocOp.get(tail))

"""Pad → loop nests.

    constant:  y = value everywhere, then y[o] = x[o - pb] over the rows where o - pb is
               inside x (a copy with no per-element test; negative pads crop)
    edge:      y[o] = x[min(max(o - pb, 0), n - 1)]
    reflect:   y[o] = x[(n - 1) - |(n - 1) - |o - pb||]   (mirror without the edge element)
    wrap:      y[o] = x[(o - pb) mod n]

Edge, reflect and wrap map every output index to an input index per dim, so they are one
loop nest with a few index ops per element (only the innermost dim's run in the inner
loop). Pads (and the axes they apply to) may be read at run time: the pads of dim i are
then the sum of the entries whose axis is i, and each axis is checked to name one dim.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.index import as_dim, imax, imin
from infer.lowering.graph_ops.operands import shape_entries
from infer.lowering.loop_builder import Index, LoopBuilder


def _pads(s: Lowering, op: graph.PadOp, ins: list[SSAValue], rank: int
          ) -> tuple[list[Dim], list[Dim]]:
    """The (begin, end) pads of every dim."""
    b = s.b
    pads = shape_entries(s, op, ins, 1, sizes=False)
    if len(ins) == 3:
        if len(pads) != 2 * rank:
            raise UnsupportedError(f"graph.pad has {len(pads)} pads for rank {rank}")
        return pads[:rank], pads[rank:]
    axes = shape_entries(s, op, ins, 3, sizes=False)
    k = len(axes)
    begin: list[Dim] = [0] * rank
    end: list[Dim] = [0] * rank
    for a, axis in enumerate(axes):
        D.require(D.AT_LEAST, axis, -rank, f"axes entry {a}")
        D.require(D.AT_LEAST, rank - 1, axis, f"axes entry {a}")
    for i in range(rank):
        named: Dim = 0
        for a, axis in enumerate(axes):
            if isinstance(axis, int):
                if axis % rank == i:
                    named, begin[i], end[i] = named + 1, begin[i] + pads[a], end[i] + pads[k + a]
                continue
            wrapped = b.insert(arith.RemSIOp(b.idx(axis + rank), b.idx(rank))).results[0]
            hit = b.cmpi("eq", wrapped, b.idx(i))
            zero, one = b.idx(0), b.idx(1)
            named = named + Index(b, b.select(hit, one, zero))
            begin[i] = begin[i] + Index(b, b.select(hit, b.idx(pads[a]), zero))
            end[i] = end[i] + Index(b, b.select(hit, b.idx(pads[k + a]), zero))
        D.require(D.AT_LEAST, 1, named, f"the number of axes entries naming dim {i}")
    return begin, end


def _iabs(b: LoopBuilder, x: Dim) -> Dim:
    return imax(b, x, 0 - x)


@lowers(graph.PadOp)
def _pad(s: Lowering, op: graph.PadOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    x, fill = ins[0], ins[2]
    xd = b.dims(x)
    rank = len(xd)
    begin, end = _pads(s, op, ins, rank)
    mode = op.mode.data
    yd = [n + p + q for n, p, q in zip(xd, begin, end, strict=True)]
    # Negative pads crop first; edge, reflect and wrap then pad the cropped dims (as
    # onnxruntime does: ONNX's reference has no negative pads in these modes).
    crop = [imax(b, 0, 0 - p) for p in begin]
    kept = [n - c - imax(b, 0, 0 - q) for n, c, q in zip(xd, crop, end, strict=True)]
    for i, (n, o) in enumerate(zip(kept, yd, strict=True)):
        D.require(D.AT_LEAST, o, 0, f"padded dim {i}")
        if mode == "constant":
            continue
        p, q = begin[i], end[i]
        if isinstance(p, int) and isinstance(q, int):
            need: Dim = graph.PadOp.needed(mode, max(p, q))
        else:  # graph.PadOp.needed, on run-time pads
            widest = imax(b, imax(b, p, q), 0)
            pads_any = imin(b, widest, 1)
            need = pads_any + widest if mode == "reflect" else pads_any
        D.require(D.AT_LEAST, n, need, f"dim {i} padded by {mode}")
    t = op.output.type
    assert isinstance(t, TensorType)
    y = s.alloc(s.typed_dims(yd, t), t.element_type)

    if mode == "constant":
        value = b.load(fill, [0] * len(b.dims(fill)))
        with b.loop_nest(yd) as ivs:
            b.store(value, y, ivs)
        # outputs o with 0 <= o - pb < n: [max(0, pb), min(out, n + pb))
        lo = [imax(b, 0, p) for p in begin]
        hi = [imin(b, o, n + p) for o, n, p in zip(yd, xd, begin, strict=True)]
        _copy_interior(b, x, y, lo, hi, begin)
        return [y]
    padded = [imax(b, p, 0) for p in begin]
    with b.loop_nest(yd) as ivs:
        src: list[Dim] = []
        for iv, n, p, c in zip(ivs, kept, padded, crop, strict=True):
            r = as_dim(b, iv) - p
            last = n - 1
            if mode == "edge":
                k = imin(b, imax(b, r, 0), last)
            elif mode == "wrap":  # r mod n, for r of either sign
                rem = Index(b, b.insert(arith.RemSIOp(b.idx(r), b.idx(n))).results[0])
                k = Index(b, b.insert(arith.RemSIOp(b.idx(rem + n), b.idx(n))).results[0])
            else:
                k = last - _iabs(b, last - _iabs(b, r))
            src.append(c + k)
        b.store(b.load(x, src), y, ivs)
    return [y]


def _copy_interior(
    b: LoopBuilder, x: SSAValue, y: SSAValue, lo: list[Dim], hi: list[Dim], begin: list[Dim]
) -> None:
    """y[o] = x[o - begin] for o in the box [lo, hi), outermost dim first."""

    def nest(i: int, ivs: list[SSAValue]) -> None:
        if i == len(lo):
            src = [as_dim(b, iv) - p for iv, p in zip(ivs, begin, strict=True)]
            b.store(b.load(x, src), y, ivs)
            return
        with b.loop(lo[i], hi[i]) as iv:
            nest(i + 1, [*ivs, iv])

    nest(0, [])

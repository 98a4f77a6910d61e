"""Pad → loop nests.

    constant:  y = value everywhere, then y[o] = x[o - pb] over the rows where o - pb is
               inside x (a copy with no per-element test; negative pads crop)
    edge:      y[o] = x[min(max(o - pb, 0), n - 1)]
    reflect:   y[o] = x[(n - 1) - |(n - 1) - |o - pb||]   (mirror without the edge element)

Edge and reflect map every output index to an input index per dim, so they are one loop
nest with a few index ops per element (only the innermost dim's run in the inner loop).
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.index import as_dim, imax, imin
from infer.lowering.loop_builder import LoopBuilder


def _pads(op: graph.PadOp) -> list[int]:
    value = graph.constant_value(op.operands[1])
    if value is None:
        raise UnsupportedError("graph.pad needs constant pads")
    return [int(v) for v in value.reshape(-1)]


def _iabs(b: LoopBuilder, x: Dim) -> Dim:
    return imax(b, x, 0 - x)


@lowers(graph.PadOp)
def _pad(s: Lowering, op: graph.PadOp, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, fill = ins[0], ins[2]
    xd, yd = b.dims(x), b.dims(y)
    rank = len(xd)
    pads = _pads(op)
    begin = pads[:rank]
    mode = op.mode.data

    if mode == "constant":
        value = b.load(fill, [0] * len(b.dims(fill)))
        with b.loop_nest(yd) as ivs:
            b.store(value, y, ivs)
        # outputs o with 0 <= o - pb < n: [max(0, pb), min(out, n + pb))
        lo = [max(0, p) for p in begin]
        hi = [imin(b, o, n + p) for o, n, p in zip(yd, xd, begin, strict=True)]
        _copy_interior(b, x, y, lo, hi, begin)
        return [y]
    if mode not in ("edge", "reflect"):
        raise UnsupportedError(f"graph.pad mode '{mode}' is not supported yet")
    with b.loop_nest(yd) as ivs:
        src: list[Dim] = []
        for iv, n, p in zip(ivs, xd, begin, strict=True):
            r = as_dim(b, iv) - p
            last = n - 1
            if mode == "edge":
                src.append(imin(b, imax(b, r, 0), last))
            else:
                src.append(last - _iabs(b, last - _iabs(b, r)))
        b.store(b.load(x, src), y, ivs)
    return [y]


def _copy_interior(
    b: LoopBuilder, x: SSAValue, y: SSAValue, lo: list[Dim], hi: list[Dim], begin: list[int]
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

"""Lowering of DeformConv: per output element, the sum over its group's input channels and
kernel taps of W * mask * X read bilinearly at the tap's moved position.

The position (y, x) = (o * stride - pad + k * dilation) + offset is read from its four
neighbours, each weighted by its share and counted only inside X (zero padding, as ONNX's
reference samples with GridSample); a NaN offset gives NaN. Positions are clamped before
their conversion to indices, so no offset reads outside X.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IndexType, TensorType, i1, i64
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.index import as_dim, to_float
from infer.lowering.loop_builder import Index, LoopBuilder


def _bilinear(b: LoopBuilder, x: SSAValue, at: list[Dim | SSAValue], y: SSAValue,
              xx: SSAValue, h: Dim, w: Dim) -> SSAValue:
    """X[at..., y, xx] interpolated from its four neighbours inside [0, h) x [0, w)."""
    t = y.type
    zero, one = b.const(0.0, t), b.const(1.0, t)
    total = zero
    corners = []
    for v, size in ((y, h), (xx, w)):
        # clamped to [-2, size + 1]: outside, every neighbour is out of range anyway
        lo, hi = b.const(-2.0, t), to_float(b, size + 1, t)
        v = b.min(b.max(b.select(b.cmpf("uno", v, v), lo, v), lo), hi)
        v0 = b.unary(math.FloorOp, v)
        frac = b.sub(v, v0)
        i0 = Index(b, b.insert(arith.IndexCastOp(
            b.insert(arith.FPToSIOp(v0, i64)).results[0], IndexType())).results[0])
        corners.append([(i0, b.sub(one, frac)), (i0 + 1, frac)])
    for iy, wy in corners[0]:
        for ix, wx in corners[1]:
            inside = b.const(1, i1)
            for i, size in ((iy, h), (ix, w)):
                ok = b.insert(arith.AndIOp(b.cmpi("sge", b.idx(i), b.idx(0)),
                                           b.cmpi("slt", b.idx(i), b.idx(size)))).results[0]
                inside = b.insert(arith.AndIOp(inside, ok)).results[0]
            safe = [Index(b, b.select(inside, b.idx(i), b.idx(0))) for i in (iy, ix)]
            v = b.select(inside, b.load(x, [*at, *safe]), zero)
            total = b.add(total, b.mul(b.mul(wy, wx), v))
    nan = b.insert(arith.OrIOp(b.cmpf("uno", y, y), b.cmpf("uno", xx, xx))).results[0]
    return b.select(nan, b.const(float("nan"), t), total)


@lowers(graph.DeformConvOp, outline=True)
def _deform_conv(s: Lowering, op: graph.DeformConvOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    x, w, offset, bias = ins[:4]
    mask = ins[4] if len(ins) > 4 else None
    xd, wd = b.dims(x), b.dims(w)
    kh, kw = cast(int, wd[2]), cast(int, wd[3])
    strides, dilations, pads = graph.spatial_attrs(op.properties, 2, [kh, kw])
    group, offset_group = op.group.value.data, op.offset_group.value.data
    (out,) = s.alloc_results(op, ins)
    t = cast(TensorType, op.Y.type).element_type
    od = b.dims(out)
    ics = wd[1]  # input channels per group
    ocs = as_dim(b, b.idx(wd[0])) // group
    per_offset_group = as_dim(b, b.idx(xd[1])) // offset_group

    with b.loop_nest(od) as (n, oc, oh, ow):
        first_ic = (as_dim(b, oc) // ocs) * ics

        def channel(ci: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            ic = first_ic + as_dim(b, ci)
            og = ic // per_offset_group
            total = acc[0]
            for i in range(kh):
                for j in range(kw):
                    tap = (og * kh + i) * kw + j
                    dy = b.load(offset, [n, b.idx(tap * 2), oh, ow])
                    dx = b.load(offset, [n, b.idx(tap * 2 + 1), oh, ow])
                    y = b.add(to_float(b, as_dim(b, oh) * strides[0] - pads[0]
                                       + i * dilations[0], t), dy)
                    xx = b.add(to_float(b, as_dim(b, ow) * strides[1] - pads[1]
                                        + j * dilations[1], t), dx)
                    v = _bilinear(b, x, [n, b.idx(ic)], y, xx, xd[2], xd[3])
                    if mask is not None:
                        v = b.mul(v, b.load(mask, [n, b.idx(tap), oh, ow]))
                    total = b.add(total, b.mul(b.load(w, [oc, ci, i, j]), v))
            return [total]

        (result,) = b.reduce_loop(0, ics, [b.load(bias, [oc])], channel)
        b.store(result, out, [n, oc, oh, ow])
    return [out]

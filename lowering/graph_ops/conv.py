"""Convolution → loop nests that LLVM vectorizes along the output's last spatial dim
(a 1-D conv: a GEMM over its input's columns, conv_columns.py).

For each (n, group, output channel, outer output position) the output row starts as the
bias; then for every input channel and kernel tap

    y[n, m, ..., ow] += w[m, ic, ..., kw] * x[n, c, ..., ow * stride - pad + kw * dilation]

runs over the range of `ow` whose input position lies inside the image. Padding thus costs
a few index ops per row (the valid tap range of the outer dims, the valid `ow` range of the
last one), never a bounds check per element; with stride 1 the loads and stores are
contiguous and the tap's weight is a loop-invariant scalar, so the innermost loop becomes
vector FMAs (no reassociation needed: each output element is its own accumulator). A
pointwise conv (1x1 kernel, unit strides, no pads) runs over the flattened spatial plane.
A fused activation (`activation` property, set by the graph fusions) is an epilogue: one
more pass over each finished row while it is still in cache, instead of another kernel. A
fused residual summand Z (4th operand) is a prologue: the row starts as bias + Z, so
`relu(conv(x) + shortcut)` costs no pass of its own (the activation still follows the taps).
"""

from __future__ import annotations

from math import prod
from typing import cast

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.dialects.graph import is_float
from infer.lowering.graph_ops.base import Lowering, lowers, optional
from infer.lowering.graph_ops.conv_columns import conv_columns
from infer.lowering.graph_ops.conv_pointwise import conv_pointwise
from infer.lowering.graph_ops.elementwise import Epilogue, epilogue
from infer.lowering.graph_ops.index import as_dim
from infer.lowering.graph_ops.window import Window, flatten_from
from infer.lowering.loop_builder import LoopBuilder


@lowers(graph.ConvOp, outline=True)
def _conv(s: Lowering, op: graph.ConvOp, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, w = ins[:2]
    bias, z = optional(ins, 2, 3)  # z: a fused residual summand of Y's shape
    wd = b.dims(w)
    n_sp = len(wd) - 2
    window = Window.of_conv(op, [k for k in wd[2:] if isinstance(k, int)])
    group = op.group.value.data
    act = epilogue(op)

    if op.is_pointwise():
        views = [flatten_from(b, v, 2) for v in (x, w, y, z) if v is not None]
        if n_sp > 1 and all(v is not None for v in views):
            xv, wv, yv, *zv = cast(list[SSAValue], views)
            # float: the tiles are FMAs (an integer conv, qnn's int32 form, takes the rows)
            if isinstance(wd[0], int) and is_float(cast(MemRefType, y.type).element_type):
                conv_pointwise(b, xv, wv, yv, bias, group, act, zv[0] if zv else None,
                               op.pointwise_tile())
                return [y]
            pointwise = Window([1], [1], [1], [0, 0], [True])
            _conv_rows(b, xv, wv, yv, bias, group, pointwise, act, zv[0] if zv else None)
            return [y]
    if n_sp == 1 and is_float(cast(MemRefType, y.type).element_type) and conv_columns(
            b, x, w, y, bias, group, window, act, z):
        return [y]
    _conv_rows(b, x, w, y, bias, group, window, act, z)
    return [y]


def _conv_rows(
    b: LoopBuilder,
    x: SSAValue,
    w: SSAValue,
    y: SSAValue,
    bias: SSAValue | None,
    group: int,
    window: Window,
    act: Epilogue | None = None,
    z: SSAValue | None = None,
) -> None:
    """The loop nest over buffers whose ranks agree with `window` (see the module doc);
    `act`, a fused activation, runs over each finished row while it is still in cache;
    `z`, a summand shaped like `y`, is added by starting each row from bias + z."""
    xd, wd, yd = b.dims(x), b.dims(w), b.dims(y)
    last = len(window.kernel) - 1
    et = cast(MemRefType, y.type).element_type  # W's may be f16 (stored as f16)
    m_per_group: Dim = wd[0] // group if group > 1 else wd[0]
    c_per_group = wd[1]

    # One output channel's plane an iteration, on any thread.
    spatial = yd[2:]
    plane = prod(spatial) if all(isinstance(d, int) for d in spatial) else None
    work = None if plane is None or not isinstance(c_per_group, int) else (
        cast(int, plane) * c_per_group * prod(window.kernel))
    with b.parallel([yd[0], group, m_per_group], work) as (n, g, oc):
        m = as_dim(b, oc) if group == 1 else as_dim(b, g) * m_per_group + as_dim(b, oc)
        init = b.load(bias, [m]) if bias is not None else b.const(0.0, et)
        with b.loop_nest(yd[2:-1]) as outer:
            y_row = [n, m, *outer]
            with b.loop(0, yd[-1]) as ow:
                # The row init writes every element anyway: adding z here costs one load.
                v = init if z is None else b.add(init, b.load(z, [*y_row, ow]))
                b.store(v, y, [*y_row, ow])
            # Window starts and valid taps of the outer dims depend on the output row only.
            taps = window.taps_at(b, outer, xd[2:])
            with b.loop(0, c_per_group) as ic:
                c = as_dim(b, ic) if group == 1 else as_dim(b, g) * c_per_group + as_dim(b, ic)

                def row(tap: list[SSAValue], pos: list[Dim], _: list[SSAValue]
                        ) -> list[SSAValue]:
                    """The taps of the last dim, innermost the loop over the row."""
                    with b.loop(0, window.kernel[last]) as kw:
                        wv = b.widen(b.load(w, [m, ic, *tap, kw]), et)
                        off = as_dim(b, kw) * window.dilations[last] - window.pads[last]
                        lo, hi = window.outputs(b, last, off, yd[-1], xd[-1])
                        with b.loop(lo, hi) as ow:
                            iw = as_dim(b, ow) * window.strides[last] + off
                            acc = b.load(y, [*y_row, ow])
                            xv = b.load(x, [n, c, *pos, iw])
                            b.store(b.add(acc, b.mul(wv, xv)), y, [*y_row, ow])
                    return []

                taps.loop(b, [], row)
            if act is not None:
                with b.loop(0, yd[-1]) as ow:
                    b.store(act(b, b.load(y, [*y_row, ow])), y, [*y_row, ow])


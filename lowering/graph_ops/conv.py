"""Convolution → loop nests that LLVM vectorizes along the output's last spatial dim.

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

The window helpers here (valid tap / output ranges, plane flattening) are shared with the
pooling lowerings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import cast

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim, product
from infer.lowering.graph_ops.elementwise import epilogue
from infer.lowering.graph_to_loops import Lowering, LoweringFn
from infer.lowering.loop_builder import Index, LoopBuilder

# ---------------------------------------------------------------------------------------
# Index arithmetic folding static values (Index objects emit arith ops on `index`)
# ---------------------------------------------------------------------------------------


def as_dim(b: LoopBuilder, v: Dim | SSAValue) -> Dim:
    """A loop induction variable (or any index SSA value) as a `Dim`."""
    return Index(b, v) if isinstance(v, SSAValue) else v


def _binop(b: LoopBuilder, op: type[Operation], x: Dim, y: Dim) -> Index:
    return Index(b, b.insert(op(b.idx(x), b.idx(y))).results[0])


def imax(b: LoopBuilder, x: Dim, y: Dim) -> Dim:
    if isinstance(x, int) and isinstance(y, int):
        return max(x, y)
    return _binop(b, arith.MaxSIOp, x, y)


def imin(b: LoopBuilder, x: Dim, y: Dim) -> Dim:
    if isinstance(x, int) and isinstance(y, int):
        return min(x, y)
    return _binop(b, arith.MinSIOp, x, y)


def floor_div(b: LoopBuilder, x: Dim, d: int) -> Dim:
    if isinstance(x, int) or d == 1:
        return x // d
    return _binop(b, arith.FloorDivSIOp, x, d)


def ceil_div(b: LoopBuilder, x: Dim, d: int) -> Dim:
    if isinstance(x, int):
        return -(-x // d)
    return x if d == 1 else _binop(b, arith.CeilDivSIOp, x, d)


def to_float(b: LoopBuilder, x: Dim, t: Attribute) -> SSAValue:
    """An index value as a float of type `t`."""
    if isinstance(x, int):
        return b.const(float(x), t)
    as_int = b.insert(arith.IndexCastOp(b.idx(x), i64)).results[0]
    return b.insert(arith.SIToFPOp(as_int, t)).results[0]


# ---------------------------------------------------------------------------------------
# Sliding windows: ONNX attributes and valid ranges
# ---------------------------------------------------------------------------------------


def window_attrs(
    op: Operation, n: int, kernel: Sequence[int]
) -> tuple[list[int], list[int], list[int]]:
    """(strides, dilations, pads) of a conv/pool op with `n` spatial dims, with defaults."""
    props = op.properties
    strides = graph.get_ints(props, "strides") or [1] * n
    dilations = graph.get_ints(props, "dilations") or [1] * n
    pads = graph.get_ints(props, "pads") or [0] * (2 * n)
    return strides, dilations, pads


def valid_taps(
    b: LoopBuilder, start: Dim, size: Dim, k: int, d: int, pb: int, exact_end: bool
) -> tuple[Dim, Dim]:
    """Taps [lo, hi) of a window starting at `start` (o*s - pb) whose position
    start + t*d lies in [0, size).

    `exact_end`: no window reaches past the input's end (end pad 0, floor mode), so the
    upper bound is the kernel size without any index arithmetic.
    """
    lo: Dim = 0 if pb == 0 else imax(b, 0, ceil_div(b, 0 - start, d))
    hi: Dim = k if exact_end else imin(b, k, floor_div(b, size - 1 - start, d) + 1)
    return lo, hi


def valid_outputs(
    b: LoopBuilder, off: Dim, out: Dim, size: Dim, s: int, pb: int, exact_end: bool
) -> tuple[Dim, Dim]:
    """Outputs [lo, hi) for which a tap at offset `off` (t*d - pb; position o*s + off)
    lies in [0, size)."""
    lo: Dim = 0 if pb == 0 else imax(b, 0, ceil_div(b, 0 - off, s))
    hi: Dim = out if exact_end else imin(b, out, floor_div(b, size - 1 - off, s) + 1)
    return lo, hi


def flatten_from(b: LoopBuilder, buf: SSAValue, axis: int) -> SSAValue | None:
    """A view of `buf` with dims axis.. collapsed into one, or None if it has a layout.

    Small spatial planes (7x7 in ResNet's last stage) make short rows; one flattened loop
    of 49 vectorizes where seven loops of 7 do not.
    """
    t = buf.type
    assert isinstance(t, MemRefType)
    shape = list(t.get_shape())
    if not isinstance(t.layout, NoneAttr) or len(shape) - axis < 2:
        return None
    tail = shape[axis:]
    flat = DYNAMIC_INDEX if DYNAMIC_INDEX in tail else cast(int, product(tail))
    groups = [[i] for i in range(axis)] + [list(range(axis, len(shape)))]
    reassoc = ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])
    op = memref.CollapseShapeOp.build(
        operands=[buf],
        result_types=[MemRefType(t.element_type, [*shape[:axis], flat])],
        properties={"reassociation": reassoc},
    )
    return b.insert(op).results[0]


def element_type(op: Operation) -> Attribute:
    t = op.results[0].type
    assert isinstance(t, TensorType)
    return t.element_type


# ---------------------------------------------------------------------------------------
# Conv
# ---------------------------------------------------------------------------------------


def _conv(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[SSAValue]:
    assert isinstance(op, graph.ConvOp)
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, w = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 else None
    z = ins[3] if len(ins) > 3 else None  # a fused residual summand of Y's shape
    wd = b.dims(w)
    n_sp = len(wd) - 2
    kernel = [k for k in wd[2:] if isinstance(k, int)]
    strides, dilations, pads = window_attrs(op, n_sp, kernel)
    group = graph.get_int(op.properties, "group", 1)
    act = epilogue(op)

    if all(k == 1 for k in kernel) and all(v == 1 for v in strides) and not any(pads):
        views = [flatten_from(b, v, 2) for v in (x, w, y, z) if v is not None]
        if n_sp > 1 and all(v is not None for v in views):
            xv, wv, yv, *zv = cast(list[SSAValue], views)
            _conv_rows(b, xv, wv, yv, bias, group, [1], [1], [1], [0, 0], act,
                       zv[0] if zv else None)
            return [y]
    _conv_rows(b, x, w, y, bias, group, kernel, strides, dilations, pads, act, z)
    return [y]


def _conv_rows(
    b: LoopBuilder,
    x: SSAValue,
    w: SSAValue,
    y: SSAValue,
    bias: SSAValue | None,
    group: int,
    kernel: list[int],
    strides: list[int],
    dilations: list[int],
    pads: list[int],
    act: Callable[[LoopBuilder, SSAValue], SSAValue] | None = None,
    z: SSAValue | None = None,
) -> None:
    """The loop nest over buffers whose ranks agree with `kernel` (see the module doc);
    `act`, a fused activation, runs over each finished row while it is still in cache;
    `z`, a summand shaped like `y`, is added by starting each row from bias + z."""
    xd, wd, yd = b.dims(x), b.dims(w), b.dims(y)
    n_sp = len(kernel)
    et = cast(MemRefType, w.type).element_type
    m_per_group: Dim = wd[0] // group if group > 1 else wd[0]
    c_per_group = wd[1]
    # A window never passes the input's end when there is no end padding (floor mode).
    exact_end = [pads[n_sp + i] == 0 for i in range(n_sp)]

    with b.loop(0, yd[0]) as n, _maybe_loop(b, group) as g, b.loop(0, m_per_group) as oc:
        m = as_dim(b, oc) if group == 1 else as_dim(b, g) * m_per_group + as_dim(b, oc)
        init = b.load(bias, [m]) if bias is not None else b.const(0.0, et)
        with b.loop_nest(yd[2:-1]) as outer:
            y_row = [n, m, *outer]
            with b.loop(0, yd[-1]) as ow:
                # The row init writes every element anyway: adding z here costs one load.
                v = init if z is None else b.add(init, b.load(z, [*y_row, ow]))
                b.store(v, y, [*y_row, ow])
            # Window starts and valid taps of the outer dims depend on the output row only.
            starts = [as_dim(b, o) * strides[i] - pads[i] for i, o in enumerate(outer)]
            ranges = [
                valid_taps(b, st, xd[2 + i], kernel[i], dilations[i], pads[i], exact_end[i])
                for i, st in enumerate(starts)
            ]
            with b.loop(0, c_per_group) as ic:
                c = as_dim(b, ic) if group == 1 else as_dim(b, g) * c_per_group + as_dim(b, ic)

                def taps_loop(i: int, taps: list[SSAValue], pos: list[Dim]) -> None:
                    """Loops over the valid taps of outer dim i, innermost the row loop."""
                    if i < n_sp - 1:
                        with b.loop(*ranges[i]) as t:
                            p = starts[i] + as_dim(b, t) * dilations[i]
                            taps_loop(i + 1, [*taps, t], [*pos, p])
                        return
                    with b.loop(0, kernel[i]) as kw:
                        wv = b.load(w, [m, ic, *taps, kw])
                        off = as_dim(b, kw) * dilations[i] - pads[i]
                        lo, hi = valid_outputs(b, off, yd[-1], xd[-1], strides[i], pads[i],
                                               exact_end[i])
                        with b.loop(lo, hi) as ow:
                            iw = as_dim(b, ow) * strides[i] + off
                            acc = b.load(y, [*y_row, ow])
                            xv = b.load(x, [n, c, *pos, iw])
                            b.store(b.add(acc, b.mul(wv, xv)), y, [*y_row, ow])

                taps_loop(0, [], [])
            if act is not None:
                with b.loop(0, yd[-1]) as ow:
                    b.store(act(b, b.load(y, [*y_row, ow])), y, [*y_row, ow])


def _maybe_loop(b: LoopBuilder, n: int) -> AbstractContextManager[SSAValue | int]:
    """A loop over [0, n), or a context yielding 0 when there is one iteration."""
    return b.loop(0, n) if n > 1 else nullcontext(0)


LOWERINGS: dict[type[Operation], LoweringFn] = {
    graph.ConvOp: _conv,
}

# One kernel function per distinct conv signature (see graph_to_loops: kernel outlining).
OUTLINED = {graph.ConvOp}

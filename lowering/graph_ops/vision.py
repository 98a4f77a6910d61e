"""Lowerings of the vision ops: Resize, GridSample, LpPool, MaxUnpool, RoiAlign, MaxRoiPool
(ConvTranspose and Col2Im: conv_transpose.py).

Resize computes, per resized axis, tables of the input indices and weights each output
position reads ([out, K], as `graph.resize_taps` does in numpy; float64 coordinate math
without contraction, so nearest rounding and crop bounds agree with ONNX's reference),
then one loop nest over the output:

    y[o] = sum_{k_1..k_n} w_1[o_1, k_1] * ... * w_n[o_n, k_n] * x[.., i_1[o_1, k_1], ..]

nearest reads the one index per axis and copies (any element type); tf_crop_and_resize
stores the extrapolation value where an axis's `outside` table says so. Sizes, scales
and roi may be run-time values: the tables are built at run time, O(out * K) per axis.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, math, memref
from xdsl.dialects.builtin import TensorType, f64, i1, i8, i64
from xdsl.ir import Attribute, Operation, SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim, product
from infer.lowering.graph_ops.base import Lowering, lowers, operand_element
from infer.lowering.graph_ops.index import as_dim, to_float
from infer.lowering.graph_ops.operands import shape_entries, to_index
from infer.lowering.loop_builder import Index, LoopBuilder
from infer.lowering.runtime_checks import check_indices

EXACT = arith.FastMathFlagsAttr("none")


class _FloatOps:
    """Float arithmetic (float64 unless told) without fast-math flags: each op rounds
    once, as numpy's do."""

    def __init__(self, b: LoopBuilder, t: Attribute = f64):
        self.b = b
        self.t = t

    def _op(self, cls: Callable[..., Operation], a: SSAValue, c: SSAValue | float
            ) -> SSAValue:
        return self.b.insert(cls(a, self.c(c), EXACT)).results[0]

    def c(self, v: SSAValue | float) -> SSAValue:
        return v if isinstance(v, SSAValue) else self.b.const(v, self.t)

    def add(self, a: SSAValue, c: SSAValue | float) -> SSAValue:
        return self._op(arith.AddfOp, a, c)

    def sub(self, a: SSAValue | float, c: SSAValue | float) -> SSAValue:
        return self._op(arith.SubfOp, self.c(a), c)

    def mul(self, a: SSAValue, c: SSAValue | float) -> SSAValue:
        return self._op(arith.MulfOp, a, c)

    def div(self, a: SSAValue, c: SSAValue | float) -> SSAValue:
        return self._op(arith.DivfOp, a, c)

    def when(self, pred: str, a: SSAValue, c: SSAValue | float, then: SSAValue | float,
             other: SSAValue | float) -> SSAValue:
        return self.b.select(self.b.cmpf(pred, a, self.c(c)), self.c(then), self.c(other))


def _source(f: _FloatOps, ctm: str, o: SSAValue, width: SSAValue, out: SSAValue,
            scale: SSAValue, crop: tuple[SSAValue, SSAValue] | None) -> SSAValue:
    """The input coordinate output position o samples (`_source_coordinates`)."""
    length = f.mul(scale, width)
    if ctm == "align_corners":
        return f.when("oeq", length, 1.0, 0.0, f.div(f.mul(o, f.sub(width, 1.0)),
                                                     f.sub(length, 1.0)))
    if ctm == "asymmetric":
        return f.div(o, scale)
    if ctm == "tf_crop_and_resize":
        assert crop is not None
        start, end = crop
        span = f.mul(f.sub(end, start), f.sub(width, 1.0))
        single = f.div(span, 2.0)
        x = f.when("oeq", length, 1.0, single, f.div(f.mul(f.mul(o, f.sub(end, start)),
                                                           f.sub(width, 1.0)),
                                                     f.sub(length, 1.0)))
        return f.add(x, f.mul(start, f.sub(width, 1.0)))
    half = f.div(f.add(o, 0.5), scale)
    if ctm == "tf_half_pixel_for_nn":
        return half
    if ctm == "pytorch_half_pixel":
        return f.when("oeq", length, 1.0, -0.5, f.sub(half, 0.5))
    if ctm == "half_pixel_symmetric":
        offset = f.mul(f.div(width, 2.0), f.sub(1.0, f.div(out, length)))
        return f.sub(f.add(offset, half), 0.5)
    return f.sub(half, 0.5)


def _weight(f: _FloatOps, op: graph.ResizeOp, d: SSAValue) -> SSAValue:
    """The linear or cubic kernel at distance d."""
    if op.mode.data == "linear":
        return f.b.max(f.sub(1.0, f.b.unary(math.AbsFOp, d)), f.c(0.0))
    return _keys(f, d, float(op.cubic_coeff_a.value.data))


def _taps(s: Lowering, op: graph.ResizeOp, width: Dim, out: Dim, scale: SSAValue,
          known_scale: float | None, crop: tuple[SSAValue, SSAValue] | None
          ) -> tuple[SSAValue, SSAValue | None, SSAValue | None]:
    """The index [out, K] (i64), weight [out, K] (X's type; None for nearest) and outside
    [out] (i8; tf_crop_and_resize only) tables of one axis, scratch buffers."""
    b = s.b
    f = _FloatOps(b)
    mode = op.mode.data
    ctm = op.coordinate_transformation_mode.data
    k_taps: Dim = {"nearest": 2, "linear": 2, "cubic": 4}[mode]
    shrink: SSAValue | float = 1.0
    antialias = bool(op.antialias.value.data)
    if antialias:  # the kernel widens by 1 / scale when shrinking: K = 2 - 2 * start
        support = float(k_taps // 2)
        if known_scale is not None:
            shrink = min(known_scale, 1.0)
            k_taps = 2 * -pymath.floor(-support / shrink)
        else:
            shrink = b.min(scale, f.c(1.0))
            k_taps = (0 - _floor_index(b, f.div(f.c(-support), shrink))) * 2
    element = operand_element(op)
    nearest = mode == "nearest"
    index = b.alloc([out, 1 if nearest else k_taps], i64)
    weights = None if nearest else b.alloc([out, k_taps], element)
    outside = b.alloc([out], i8) if crop is not None else None
    wf = to_float(b, width, f64)
    zero = b.const(0, i64)
    w_last = b.insert(arith.IndexCastOp(b.idx(width - 1), i64)).results[0]
    first = b.insert(arith.IndexCastOp(b.idx(1 - k_taps // 2), i64)).results[0]
    with b.loop(0, out) as o:
        x = _source(f, ctm, to_float(b, as_dim(b, o), f64), wf, to_float(b, out, f64), scale,
                    crop)
        left = b.unary(math.FloorOp, x)
        exact = b.cmpf("oeq", x, left)
        ratio = b.select(exact, f.c(1.0), f.sub(x, left))  # in (0, 1]
        # The K points nearest x, ties to the smaller: from floor(x) - (K/2 - 1), one
        # further left when x is a whole number (ratio 1).
        base = b.sub(b.insert(arith.FPToSIOp(left, i64)).results[0],
                     b.insert(arith.ExtUIOp(exact, i64)).results[0])

        def clamp(i: SSAValue) -> SSAValue:
            return b.min(b.max(i, zero), w_last)

        if nearest:  # K = 2: floor(x) - (x whole) and the point after it
            after = b.add(base, b.const(1, i64))
            pick = _rounds_down(f, op.nearest_mode.data, ratio)
            b.store(b.select(pick, clamp(base), clamp(after)), index, [o, 0])
        else:
            _weights(f, op, k_taps, base, first, ratio, shrink, w_last, o, index, weights)
        if outside is not None:
            off = b.insert(arith.OrIOp(b.cmpf("olt", x, f.c(0.0)),
                                       b.cmpf("ogt", x, f.sub(wf, 1.0)))).results[0]
            b.store(b.insert(arith.ExtUIOp(off, i8)).results[0], outside, [o])
    return index, weights, outside


def _weights(f: _FloatOps, op: graph.ResizeOp, k_taps: Dim, base: SSAValue, first: SSAValue,
             ratio: SSAValue, shrink: SSAValue | float, w_last: SSAValue, o: SSAValue,
             index: SSAValue, weights: SSAValue | None) -> None:
    """Row o of the index and weight tables: tap k at base + first + k, weighted by the
    kernel at (first + k - ratio) * shrink, the row normalized to sum 1 under antialias
    or exclude_outside (which weights points past the ends 0)."""
    b = f.b
    zero = b.const(0, i64)
    exclude = bool(op.exclude_outside.value.data)

    def tap(k: SSAValue) -> tuple[SSAValue, SSAValue]:
        t = b.add(first, b.insert(arith.IndexCastOp(k, i64)).results[0])
        i = b.add(base, t)
        tf = b.insert(arith.SIToFPOp(t, f64)).results[0]
        w = _weight(f, op, f.mul(f.sub(tf, ratio), shrink))
        if exclude:
            past = b.insert(arith.OrIOp(b.cmpi("slt", i, zero),
                                        b.cmpi("sgt", i, w_last))).results[0]
            w = b.select(past, f.c(0.0), w)
        return b.min(b.max(i, zero), w_last), w

    total = None
    if exclude or op.antialias.value.data:
        (sum_w,) = b.reduce_loop(0, k_taps, [f.c(0.0)],
                                 lambda k, c: [f.add(c[0], tap(k)[1])])
        total = f.when("oeq", sum_w, 0.0, 1.0, sum_w)
    assert weights is not None
    et = weights.type.element_type  # type: ignore[attr-defined]
    with b.loop(0, k_taps) as k:
        i, w = tap(k)
        w = w if total is None else f.div(w, total)
        b.store(i, index, [o, k])
        b.store(w if et == f64 else b.insert(arith.TruncFOp(w, et)).results[0], weights, [o, k])


def _rounds_down(f: _FloatOps, nearest_mode: str, ratio: SSAValue) -> SSAValue:
    """Whether nearest takes the point left of x (never when x is whole: ratio 1)."""
    b = f.b
    if nearest_mode == "ceil":
        return b.const(0, i1)
    whole = b.cmpf("one", ratio, f.c(1.0))
    if nearest_mode == "floor":
        return whole
    pred = "ole" if nearest_mode == "round_prefer_floor" else "olt"
    return b.insert(arith.AndIOp(b.cmpf(pred, ratio, f.c(0.5)), whole)).results[0]


def _plan(s: Lowering, op: graph.ResizeOp, ins: list[SSAValue], width: list[Dim]
          ) -> tuple[list[Dim], list[SSAValue], list[float] | None]:
    """Each resized axis's output size and float64 scale (`graph.resize_plan`), and the
    scales as numbers when the target is a constant."""
    b = s.b
    f = _FloatOps(b)
    target = graph.constant_value(op.operands[1])
    known = None
    if target is not None and all(isinstance(w, int) for w in width):
        sizes_, scales_ = graph.resize_plan(op.properties, width, target)  # type: ignore[arg-type]
        return list(sizes_), [f.c(v) for v in scales_], scales_
    t = op.operands[1].type
    assert isinstance(t, TensorType)
    wf = [to_float(b, w, f64) for w in width]
    if graph.is_float(t.element_type):
        scales = []
        for j in range(len(width)):
            v = b.load(ins[1], [j])
            scales.append(v if t.element_type == f64 else
                          b.insert(arith.ExtFOp(v, f64)).results[0])
        sizes = [_floor_index(b, f.mul(sc, w)) for sc, w in zip(scales, wf, strict=True)]
        return sizes, scales, known
    sizes = shape_entries(s, op, ins, 1)
    scales = [f.when("oeq", w, 0.0, 1.0, f.div(to_float(b, n, f64), w))
              for n, w in zip(sizes, wf, strict=True)]
    policy = op.keep_aspect_ratio_policy.data
    if policy == "stretch":
        return sizes, scales, known
    one = scales[0]
    for sc in scales[1:]:
        one = b.min(one, sc) if policy == "not_larger" else b.max(one, sc)
    sizes = [_floor_index(b, f.add(f.mul(one, w), 0.5)) for w in wf]
    return sizes, [one] * len(width), known


def _floor_index(b: LoopBuilder, v: SSAValue) -> Index:
    return to_index(b, b.insert(arith.FPToSIOp(b.unary(math.FloorOp, v), i64)).results[0])


@lowers(graph.ResizeOp)
def _resize(s: Lowering, op: graph.ResizeOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    x = ins[0]
    xd = b.dims(x)
    axes = graph.ResizeOp.prop(op.properties, "axes")
    width = [xd[a] for a in axes]
    sizes, scales, known = _plan(s, op, ins, width)
    out = list(xd)
    for a, size in zip(axes, sizes, strict=True):
        out[a] = size
    t = op.results[0].type
    assert isinstance(t, TensorType)
    y = s.alloc(s.typed_dims(out, t), t.element_type)
    element = operand_element(op)
    crops: list[tuple[SSAValue, SSAValue] | None] = [None] * len(axes)
    if len(ins) == 3:
        vals = [b.load(ins[2], [i]) for i in range(2 * len(axes))]
        vals = [v if v.type == f64 else b.insert(arith.ExtFOp(v, f64)).results[0] for v in vals]
        crops = [(vals[j], vals[len(axes) + j]) for j in range(len(axes))]
    tables = [
        _taps(s, op, w, n, sc, None if known is None else known[j], crops[j])
        for j, (w, n, sc) in enumerate(zip(width, sizes, scales, strict=True))
    ]
    nearest = op.mode.data == "nearest"

    with b.loop_nest(b.dims(y)) as ivs:

        def gather(j: int, src: list, weight: SSAValue | None, acc: SSAValue | None
                   ) -> SSAValue:
            """acc + the weighted sum over the taps of resized axes j.. (nearest: the
            one element they select)."""
            if j == len(axes):
                v = b.load(x, src)
                if acc is None:
                    return v
                assert weight is not None
                return b.add(acc, b.mul(weight, v))
            a = axes[j]
            index, weights, _ = tables[j]

            def tap(k: SSAValue | int, carried: SSAValue | None) -> SSAValue:
                at = [*src[:a], to_index(b, b.load(index, [ivs[a], k])), *src[a + 1:]]
                if weights is None:
                    return gather(j + 1, at, None, None)
                w = b.load(weights, [ivs[a], k])
                return gather(j + 1, at, w if weight is None else b.mul(weight, w), carried)

            if weights is None:
                return tap(0, None)
            assert acc is not None
            k_taps = b.dims(weights)[1]
            return b.reduce_loop(0, k_taps, [acc], lambda k, c: [tap(k, c[0])])[0]

        value = gather(0, list(ivs), None, None if nearest else b.const(0.0, element))
        flags = [b.cmpi("ne", b.load(t, [ivs[a]]), b.const(0, i8))
                 for a, (_, _, t) in zip(axes, tables, strict=True) if t is not None]
        if flags:
            off = flags[0]
            for fl in flags[1:]:
                off = b.insert(arith.OrIOp(off, fl)).results[0]
            fill = b.const(op.extrapolation_value.value.data, element)
            value = b.select(off, fill, value)
        b.store(value, y, ivs)
    for table in tables:
        for buf in table:
            if buf is not None:
                b.insert(memref.DeallocOp.get(buf))
    return [y]



def _reflect(f: _FloatOps, v: SSAValue, lo: SSAValue, hi: SSAValue) -> SSAValue:
    """v mirrored at lo and hi until it lies between them (GridSample's reflection)."""
    b = f.b
    span = f.sub(hi, lo)
    below, above = b.cmpf("olt", v, lo), b.cmpf("ogt", v, hi)
    dx = b.select(below, f.sub(lo, v), f.sub(v, hi))
    k = b.unary(math.FloorOp, f.div(dx, span))
    r = f.sub(dx, f.mul(k, span))
    half = b.unary(math.FloorOp, f.mul(k, 0.5))
    even = b.cmpf("oeq", f.sub(k, f.mul(half, 2.0)), f.c(0.0))
    from_lo, from_hi = f.add(lo, r), f.sub(hi, r)
    mirrored = b.select(below, b.select(even, from_lo, from_hi),
                        b.select(even, from_hi, from_lo))
    inside = b.select(b.insert(arith.OrIOp(below, above)).results[0], mirrored, v)
    return b.select(b.cmpf("oeq", span, f.c(0.0)), lo, inside)


def _to_i64(f: _FloatOps, v: SSAValue) -> SSAValue:
    """A whole float as i64; NaN as 0 and huge values bounded first, so the index built
    from it is never poison (it is clamped into the buffer next)."""
    b = f.b
    bounded = b.min(b.max(v, f.c(-(2.0 ** 24))), f.c(2.0 ** 24))
    safe = b.select(b.cmpf("uno", v, v), f.c(0.0), bounded)
    return b.insert(arith.FPToSIOp(safe, i64)).results[0]


@lowers(graph.GridSampleOp)
def _grid_sample(s: Lowering, op: graph.GridSampleOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Per output element and spatial dim: the grid coordinate denormalized (and for
    nearest rounded half to even), moved inside by the padding mode, then the taps
    (1 nearest, 2 linear, 4 cubic) with their weights; a tap outside reads 0 (zeros), the
    border or its reflection. Y = sum over the taps of all dims of the weights' product
    times X there (its load clamped into X; zeros' outside taps selected away)."""
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, grid = ins
    xd = b.dims(x)
    n = len(xd) - 2
    et = operand_element(op)
    f = _FloatOps(b, et)
    mode, padding = op.mode.data, op.padding_mode.data
    align = bool(op.align_corners.value.data)
    zero_i = b.const(0, i64)
    sizes = [to_float(b, d, et) for d in xd[2:]]
    lasts = [b.insert(arith.IndexCastOp(b.idx(d - 1), i64)).results[0] for d in xd[2:]]
    bounds = [(f.c(0.0), f.sub(d, 1.0)) if align else (f.c(-0.5), f.sub(d, 0.5))
              for d in sizes]
    with b.loop_nest(b.dims(y)) as ivs:
        axes: list[list[tuple[SSAValue, SSAValue | None, SSAValue]]] = []
        for i in range(n):
            g = b.load(grid, [ivs[0], *ivs[2:], n - 1 - i])
            d, (lo, hi), last = sizes[i], bounds[i], lasts[i]
            v = (f.mul(f.div(f.add(g, 1.0), 2.0), f.sub(d, 1.0)) if align
                 else f.div(f.sub(f.mul(f.add(g, 1.0), d), 1.0), 2.0))
            if mode == "nearest":
                v = b.unary(math.RoundEvenOp, v)
            # cubic clamps its taps only, as onnxruntime and PyTorch do (ONNX's reference
            # also clamps the coordinate, which no conformance case exercises)
            if padding == "border" and mode != "cubic":
                outside = b.insert(arith.OrIOp(b.cmpf("olt", v, lo),
                                               b.cmpf("ogt", v, hi))).results[0]
                v = b.select(outside, b.min(b.max(v, f.c(0.0)), f.sub(d, 1.0)), v)
            elif padding == "reflection":
                v = _reflect(f, v, lo, hi)
            axes.append(_grid_taps(f, mode, padding, v, lo, hi, last, zero_i))

        def total(i: int, src: list[Dim], weight: SSAValue | None, ok: SSAValue | None,
                  acc: SSAValue | None) -> SSAValue:
            if i == n:
                v = b.load(x, [ivs[0], ivs[1], *src])
                if ok is not None:
                    v = b.select(ok, v, f.c(0.0))
                v = v if weight is None else b.mul(weight, v)
                return v if acc is None else b.add(acc, v)
            for idx, valid, w in axes[i]:
                both = valid if ok is None or valid is None else b.insert(
                    arith.AndIOp(ok, valid)).results[0]
                acc = total(i + 1, [*src, to_index(b, idx)],
                            w if weight is None else b.mul(weight, w), both, acc)
            assert acc is not None
            return acc

        b.store(total(0, [], None, None, None), y, ivs)
    return [y]


def _grid_taps(f: _FloatOps, mode: str, padding: str, v: SSAValue, lo: SSAValue,
               hi: SSAValue, last: SSAValue, zero: SSAValue
               ) -> list[tuple[SSAValue, SSAValue | None, SSAValue]]:
    """(index clamped into the dim, whether it is inside (zeros padding only, else None),
    weight) of each tap of coordinate v along one dim."""
    b = f.b
    if mode == "nearest":
        points, weights = [_to_i64(f, v)], [f.c(1.0)]
    else:
        left = b.unary(math.FloorOp, v)
        t = f.sub(v, left)
        first = _to_i64(f, left)
        if mode == "linear":
            offsets, weights = [0, 1], [f.sub(1.0, t), t]
        else:
            offsets = [-1, 0, 1, 2]
            weights = [_keys(f, f.sub(t, float(o))) for o in offsets]
        points = [b.add(first, b.const(o, i64)) for o in offsets]
    taps = []
    for p, w in zip(points, weights, strict=True):
        valid = None
        if padding == "zeros":
            valid = b.insert(arith.AndIOp(b.cmpi("sge", p, zero),
                                          b.cmpi("sle", p, last))).results[0]
        elif padding == "reflection":
            as_float = b.insert(arith.SIToFPOp(p, v.type)).results[0]
            p = _to_i64(f, b.unary(math.TruncOp, _reflect(f, as_float, lo, hi)))
        taps.append((b.min(b.max(p, zero), last), valid, w))
    return taps


def _keys(f: _FloatOps, d: SSAValue, a: float = -0.75) -> SSAValue:
    """Keys' cubic convolution kernel with parameter a at distance d."""
    b = f.b
    ad = b.unary(math.AbsFOp, d)
    near = f.add(f.mul(f.mul(f.sub(f.mul(ad, a + 2), a + 3), ad), ad), 1.0)
    far = f.sub(f.mul(f.add(f.mul(f.sub(f.mul(ad, a), 5 * a), ad), 8 * a), ad), 4 * a)
    return f.when("ole", ad, 1.0, near, f.when("olt", ad, 2.0, far, 0.0))


@lowers(graph.LpPoolOp)
def _lp_pool(s: Lowering, op: graph.LpPoolOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Per output element, a loop over the window's taps; those in the padding (their
    loads clamped into X) are selected away. p = 2 squares, other p call pow."""
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x = ins[0]
    xd = b.dims(x)
    n = len(xd) - 2
    kernel = graph.LpPoolOp.prop(op.properties, "kernel_shape")
    strides, dilations, pads = graph.spatial_attrs(op.properties, n, kernel)
    et = operand_element(op)
    p = op.p.value.data
    zero = b.idx(0)
    with b.loop_nest(b.dims(y)) as ivs:

        def taps(j: int, src: list[Dim], inside: SSAValue | None, acc: SSAValue) -> SSAValue:
            if j == n:
                v = b.unary(math.AbsFOp, b.load(x, [ivs[0], ivs[1], *src]))
                v = b.mul(v, v) if p == 2 else b.insert(
                    math.PowFOp(v, b.const(float(p), et))).results[0]
                assert inside is not None
                return b.select(inside, b.add(acc, v), acc)
            last = b.idx(xd[2 + j] - 1)

            def tap(k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
                i = b.idx(as_dim(b, ivs[2 + j]) * strides[j] - pads[j]
                          + as_dim(b, k) * dilations[j])
                ok = b.insert(arith.AndIOp(b.cmpi("sge", i, zero),
                                           b.cmpi("sle", i, last))).results[0]
                both = ok if inside is None else b.insert(arith.AndIOp(inside, ok)).results[0]
                at = b.min(b.max(i, zero), last)
                return [taps(j + 1, [*src, at], both, carried[0])]

            return b.reduce_loop(0, kernel[j], [acc], tap)[0]

        total = taps(0, [], None, b.const(0.0, et))
        root = b.unary(math.SqrtOp, total) if p == 2 else b.insert(
            math.PowFOp(total, b.const(1.0 / p, et))).results[0]
        b.store(root, y, ivs)
    return [y]


@lowers(graph.MaxUnpoolOp)
def _max_unpool(s: Lowering, op: graph.MaxUnpoolOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Zeros, then X's elements in order stored where I points (I checked at run time to
    lie in the pooled-from shape, whose coordinates it is split into): a later duplicate
    overwrites an earlier one, as in ONNX's reference."""
    b = s.b
    x, indices = ins[0], ins[1]
    xd = b.dims(x)
    pooled = graph.MaxUnpoolOp.pooled_dims(op.properties, xd)
    out = shape_entries(s, op, ins, 2) if len(ins) == 3 else pooled
    for i, (o, p) in enumerate(zip(out, pooled, strict=True)):
        D.require(D.AT_LEAST, o, p, f"output_shape dim {i}")
    t = op.results[0].type
    assert isinstance(t, TensorType)
    y = s.alloc(s.typed_dims(out, t), t.element_type)
    with b.loop_nest(b.dims(y)) as ivs:
        b.store(b.const(0, t.element_type), y, ivs)
    check_indices(b, indices, product(pooled), to_index, lo=0)
    with b.loop_nest(xd) as ivs:
        flat: Dim = to_index(b, b.load(indices, ivs))
        at: list[Dim] = []
        for d in reversed(pooled[1:]):
            at.append(flat - (flat // d) * d)
            flat = flat // d
        b.store(b.load(x, ivs), y, [flat, *reversed(at)])
    return [y]


@lowers(graph.RoiAlignOp)
def _roi_align(s: Lowering, op: graph.RoiAlignOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Per roi its window, bin sizes and sample grid (run-time counts); per output element
    the samples of its bin, each bilinear from the 4 pixels around it (weights 0 for a
    sample past the image by more than one pixel), averaged or maxed. NaN coordinates
    read pixel 0 (their indices are made safe before use)."""
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, rois, batch = ins
    xd = b.dims(x)
    et = operand_element(op)
    f = _FloatOps(b, et)
    check_indices(b, batch, xd[0], to_index, lo=0)
    half = op.coordinate_transformation_mode.data == "half_pixel"
    is_max = op.mode.data == "max"
    pooled = [op.output_height.value.data, op.output_width.value.data]
    size = [to_float(b, d, et) for d in xd[2:]]
    last = [b.insert(arith.IndexCastOp(b.idx(d - 1), i64)).results[0] for d in xd[2:]]
    zero = b.const(0, i64)
    with b.loop(0, b.dims(y)[0]) as r:
        image = to_index(b, b.load(batch, [r]))
        start, bins, grid = _roi_window(op, f, rois, r, half, pooled, zero)
        count = b.max(b.mul(grid[0], grid[1]), b.const(1, i64))
        count_f = b.insert(arith.SIToFPOp(count, et)).results[0]
        grid_f = [b.insert(arith.SIToFPOp(g, et)).results[0] for g in grid]
        steps = [to_index(b, g) for g in grid]
        roi = _Roi(f, x, et, is_max, size, last, zero, image, start, bins, grid, grid_f)
        with b.loop_nest([xd[1], *pooled]) as (c, *bin_at):
            b.store(roi.bin_value(c, bin_at, steps, count_f), y, [r, c, *bin_at])
    return [y]


def _roi_window(op: graph.RoiAlignOp, f: _FloatOps, rois: SSAValue, r: SSAValue, half: bool,
                pooled: list[int], zero: SSAValue
                ) -> tuple[list[SSAValue], list[SSAValue], list[SSAValue]]:
    """Roi r's (h, w) window start, bin size and samples per bin (i64)."""
    b = f.b
    ratio = op.sampling_ratio.value.data
    scale = op.spatial_scale.value.data
    start, bins, grid = [], [], []
    for j, corner in ((0, 1), (1, 0)):
        lo = f.sub(f.mul(b.load(rois, [r, corner]), scale), 0.5 if half else 0.0)
        hi = f.sub(f.mul(b.load(rois, [r, corner + 2]), scale), 0.5 if half else 0.0)
        extent = f.sub(hi, lo) if half else b.max(f.sub(hi, lo), f.c(1.0))
        bins.append(f.div(extent, float(pooled[j])))
        start.append(lo)
        grid.append(b.const(ratio, i64) if ratio > 0 else
                    b.max(_to_i64(f, b.unary(math.CeilOp, bins[-1])), zero))
    return start, bins, grid


@dataclass
class _Roi:
    """One roi of RoiAlign being pooled, and the op's settings its samples read. Pairs
    are (h, w)."""

    f: _FloatOps
    x: SSAValue
    et: Attribute
    is_max: bool
    size: list[SSAValue]  # the image's, as floats
    last: list[SSAValue]  # the image's last pixel, i64
    zero: SSAValue  # i64
    image: SSAValue  # the roi's image (batch index)
    start: list[SSAValue]  # the window's
    bins: list[SSAValue]  # bin sizes
    grid: list[SSAValue]  # samples per bin, i64
    grid_f: list[SSAValue]  # the same as floats

    def bin_value(self, c: SSAValue, bin_at: list[SSAValue], steps: list[SSAValue],
                  count_f: SSAValue) -> SSAValue:
        """The pooled value of channel c's bin at `bin_at`: its samples averaged or
        maxed."""
        b, f, is_max = self.f.b, self.f, self.is_max

        def row(iy: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            return b.reduce_loop(0, steps[1], acc, lambda ix, a: [
                b.max(a[0], self.sample(c, bin_at, iy, ix)) if is_max
                else f.add(a[0], self.sample(c, bin_at, iy, ix))])

        init = f.c(float("-inf") if is_max else 0.0)
        (total,) = b.reduce_loop(0, steps[0], [init], row)
        if is_max:  # no samples: 0
            some = b.cmpi("sgt", b.mul(self.grid[0], self.grid[1]), self.zero)
            return b.select(some, total, f.c(0.0))
        return f.div(total, count_f)

    def sample(self, c: SSAValue, bin_at: list[SSAValue], iy: SSAValue, ix: SSAValue
               ) -> SSAValue:
        """The bilinear sample (iy, ix) of the bin: its 4 weighted pixels, summed (avg) or
        maxed (max)."""
        b, f = self.f.b, self.f
        corners, weights, outside = [], [], None
        for j, i in ((0, iy), (1, ix)):
            pixels, weight, outside = self._along(j, i, bin_at[j], outside)
            corners.append(pixels)
            weights.append(weight)
        assert outside is not None
        terms = []
        for a in range(2):
            for c2 in range(2):
                w = b.select(outside, f.c(0.0), f.mul(weights[0][a], weights[1][c2]))
                at = [to_index(b, corners[0][a]), to_index(b, corners[1][c2])]
                # outside: position 0 with weight 0, as the reference reads it
                at = [Index(b, b.select(outside, b.idx(0), b.idx(p))) for p in at]
                terms.append(f.mul(w, b.load(self.x, [self.image, c, *at])))
        out = terms[0]
        for t in terms[1:]:
            out = b.max(out, t) if self.is_max else f.add(out, t)
        return out

    def _along(self, j: int, i: SSAValue, bin_pos: SSAValue, outside: SSAValue | None
               ) -> tuple[list[SSAValue], list[SSAValue], SSAValue]:
        """Along axis j, sample i of the bin at `bin_pos`: its two pixels (clamped into
        the image), their weights, and `outside` or'ed with whether it is past the image
        by more than one pixel."""
        b, f, et, j_size = self.f.b, self.f, self.et, self.size[j]
        at = b.insert(arith.SIToFPOp(b.insert(arith.IndexCastOp(
            i, i64)).results[0], et)).results[0]
        pos = to_float(b, as_dim(b, bin_pos), et)
        v = f.add(f.add(self.start[j], f.mul(pos, self.bins[j])),
                  f.div(f.mul(f.add(at, 0.5), self.bins[j]), self.grid_f[j]))
        off = b.insert(arith.OrIOp(b.cmpf("olt", v, f.c(-1.0)),
                                   b.cmpf("ogt", v, j_size))).results[0]
        outside = off if outside is None else b.insert(arith.OrIOp(outside, off)).results[0]
        v = b.max(v, f.c(0.0))
        low = b.unary(math.FloorOp, v)
        edge = b.cmpf("oge", low, f.sub(j_size, 1.0))
        v = b.select(edge, f.sub(j_size, 1.0), v)
        low = b.select(edge, f.sub(j_size, 1.0), low)
        high = b.select(edge, low, f.add(low, 1.0))
        frac = f.sub(v, low)
        pixels = [b.min(b.max(_to_i64(f, p), self.zero), self.last[j]) for p in (low, high)]
        return pixels, [f.sub(1.0, frac), frac], outside


@lowers(graph.MaxRoiPoolOp)
def _max_roi_pool(s: Lowering, op: graph.MaxRoiPoolOp, ins: list[SSAValue]
                  ) -> list[SSAValue]:
    """onnxruntime's MaxRoiPool: per roi its image (the batch index truncated, checked
    in range before any pixel is read) and window (the corners times spatial_scale,
    rounded; at least one pixel), split in pooled bins [floor(i * bin), ceil((i + 1) *
    bin)) clamped to the image; each bin's max, 0 for an empty one."""
    (y,) = s.alloc_results(op, ins)
    b = s.b
    x, rois = ins
    xd = b.dims(x)
    f = _FloatOps(b, operand_element(op))
    pooled = list(op.pooled_shape.get_values())
    scale = op.spatial_scale.value.data
    count = b.dims(y)[0]
    images = s.alloc([count], i64)
    with b.loop(0, count) as r:
        b.store(_to_i64(f, b.load(rois, [r, 0])), images, [r])
    check_indices(b, images, xd[0], to_index, lo=0)
    zero, one = b.const(0, i64), b.const(1, i64)
    sizes = [b.insert(arith.IndexCastOp(b.idx(d), i64)).results[0] for d in xd[2:]]
    with b.loop(0, count) as r:
        image = to_index(b, b.load(images, [r]))
        # x1, y1, x2, y2 scaled and rounded: (h, w) starts and extents
        corner = [_to_i64(f, b.unary(math.RoundOp, f.mul(b.load(rois, [r, k]), scale)))
                  for k in range(1, 5)]
        start = [corner[1], corner[0]]
        extent = [b.max(b.add(b.sub(corner[3], corner[1]), one), one),
                  b.max(b.add(b.sub(corner[2], corner[0]), one), one)]
        bins = [f.div(b.insert(arith.SIToFPOp(e, f.t)).results[0], float(p))
                for e, p in zip(extent, pooled, strict=True)]
        with b.loop_nest([xd[1], *pooled]) as (c, *at):
            bounds = []
            for j in range(2):
                pos = b.insert(arith.SIToFPOp(b.insert(arith.IndexCastOp(
                    at[j], i64)).results[0], f.t)).results[0]
                lo = _to_i64(f, b.unary(math.FloorOp, f.mul(pos, bins[j])))
                hi = _to_i64(f, b.unary(math.CeilOp, f.mul(f.add(pos, 1.0), bins[j])))
                bounds.append([b.min(b.max(b.add(v, start[j]), zero), sizes[j])
                               for v in (lo, hi)])
            empty = b.insert(arith.OrIOp(b.cmpi("sle", bounds[0][1], bounds[0][0]),
                                         b.cmpi("sle", bounds[1][1], bounds[1][0]))).results[0]
            (h_lo, h_hi), (w_lo, w_hi) = ([to_index(b, v) for v in pair] for pair in bounds)

            def row(h: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
                return b.reduce_loop(w_lo, w_hi, acc, lambda w, a: [
                    b.max(a[0], b.load(x, [image, c, h, w]))])
            (best,) = b.reduce_loop(h_lo, h_hi, [f.c(float("-inf"))], row)
            b.store(b.select(empty, f.c(0.0), best), y, [r, c, *at])
    s.free(images)  # a scratch buffer: graph-to-loops frees only results
    return [y]


@lowers(graph.AffineGridOp)
def _affine_grid(s: Lowering, op: graph.AffineGridOp, ins: list[SSAValue]) -> list[SSAValue]:
    """grid[n, p..., j] = theta[n, j, :k] . (x, y[, z]) + theta[n, j, k], the base point
    (innermost dim first) in float64: -1 + i * 2 / (L - 1) with align_corners (-1 when L
    is 1), else -1 + 1 / L + i * 2 / L, as ONNX's reference spaces them."""
    b = s.b
    theta = ins[0]
    k = b.dims(theta)[1]
    assert isinstance(k, int)
    sizes = shape_entries(s, op, ins, 1)
    D.require(D.EQUAL, b.dims(theta)[0], sizes[0], "theta's and size's N")
    spatial = sizes[2:]
    t = op.results[0].type
    assert isinstance(t, TensorType)
    y = s.alloc(s.typed_dims([b.dims(theta)[0], *spatial, k], t), t.element_type)
    et = t.element_type
    f = _FloatOps(b)
    align = bool(op.align_corners.value.data)
    lengths = [to_float(b, d, f64) for d in spatial]
    with b.loop_nest([b.dims(theta)[0], *spatial]) as (n, *at):
        base = []
        for iv, length in zip(reversed(at), reversed(lengths), strict=True):
            i = to_float(b, as_dim(b, iv), f64)
            if align:
                step = f.div(f.c(2.0), f.sub(length, 1.0))
                v = f.when("oeq", length, 1.0, -1.0, f.add(f.c(-1.0), f.mul(i, step)))
            else:
                step = f.div(f.c(2.0), length)
                v = f.add(f.add(f.c(-1.0), f.div(step, 2.0)), f.mul(i, step))
            base.append(v)
        for j in range(k):
            coef = [b.load(theta, [n, j, c]) for c in range(k + 1)]
            if et != f64:
                coef = [b.insert(arith.ExtFOp(v, f64)).results[0] for v in coef]
            acc = coef[k]
            for c, v in enumerate(base):
                acc = f.add(acc, f.mul(coef[c], v))
            out = acc if et == f64 else b.insert(arith.TruncFOp(acc, et)).results[0]
            b.store(out, y, [n, *at, j])
    return [y]

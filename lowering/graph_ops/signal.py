"""Lowering of the signal ops: the DFT (and each frame of the STFT) as a direct sum in f64.

y[k] = sum_n x[n] w^(kn) with w = e^(-+2 pi i / L): the twiddles w^j (j < L) are tabled once
per run and read at (k * n) mod L, so each is one rounding of cos / sin away from exact
and the sum's error stays far inside f32's precision, as numpy's FFT (ONNX's reference)
is. O(L^2) per signal: exact first; a fast transform is a later kernel.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Sequence

from xdsl.dialects import arith, llvm, math
from xdsl.dialects.builtin import Float64Type, TensorType, f64, i64
from xdsl.ir import SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.index import to_float
from infer.lowering.graph_ops.operands import float_scalar, int_scalar, to_index
from infer.lowering.loop_builder import Index, LoopBuilder, storage_type


def _to_f64(b: LoopBuilder, v: SSAValue) -> SSAValue:
    return v if isinstance(v.type, Float64Type) else b.insert(arith.ExtFOp(v, f64)).results[0]


def _from_f64(b: LoopBuilder, v: SSAValue, t) -> SSAValue:
    return v if isinstance(t, Float64Type) else b.insert(arith.TruncFOp(v, t)).results[0]


def _pick(b: LoopBuilder, axis: Dim, dims: Sequence[Dim]) -> Dim:
    """dims[axis] for an axis known at run time only."""
    if isinstance(axis, int):
        return dims[axis]
    picked: Dim = dims[0]
    for i in range(1, len(dims)):
        hit = b.cmpi("eq", b.idx(axis), b.idx(i))
        picked = Index(b, b.select(hit, b.idx(dims[i]), b.idx(picked)))
    return picked


def _twiddles(s: Lowering, n: Dim) -> tuple[SSAValue, SSAValue]:
    """cos and sin of 2 pi j / n for j < n, in f64."""
    b = s.b
    cos, sin = s.alloc([n], f64), s.alloc([n], f64)
    step = b.div(b.const(2 * pymath.pi, f64), to_float(b, n, f64))
    with b.loop_nest([n]) as (j,):
        angle = b.mul(to_float(b, j, f64), step)
        b.store(b.unary(math.CosOp, angle), cos, [j])
        b.store(b.unary(math.SinOp, angle), sin, [j])
    return cos, sin


def _free(s: Lowering, *tables: SSAValue) -> None:
    """Free the twiddle tables: temporaries, not results the emission walk frees (a
    static table becomes arena memory; a dynamic one was malloc'd per run)."""
    for t in tables:
        s.free(t)


@lowers(graph.DFTOp)
def _dft(s: Lowering, op: graph.DFTOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    src = ins[0]
    x = b.dims(src)
    rank = len(x)
    t = op.results[0].type
    assert isinstance(t, TensorType)
    element = storage_type(t.element_type)
    inverse, onesided = op.inverse.value.data, op.onesided.value.data
    irfft = bool(inverse and onesided)
    complex_in = x[-1] == 2

    axis = int_scalar(s, op, ins, 1)
    if isinstance(axis, int):
        axis %= rank
    else:  # in [-r, -2] or [0, r - 2]: wrapped, at most r - 2
        D.require(D.AT_LEAST, axis, -rank, "the DFT's axis")
        wrapped = b.insert(arith.RemSIOp(b.idx(axis + rank), b.idx(rank))).results[0]
        axis = Index(b, wrapped)
        D.require(D.AT_LEAST, rank - 2, axis, "the DFT's axis (wrapped to [0, rank))")
    n_in = _pick(b, axis, x)
    given = int_scalar(s, op, ins, 2) if len(ins) > 2 else None
    length, out_n = op.length(op.properties, n_in, given)
    D.require(D.AT_LEAST, length, 1, "the DFT's length")

    out_dims: list[Dim] = [out_n if i == axis else d for i, d in enumerate(x[:-1])]
    if not isinstance(axis, int):
        out_dims = [Index(b, b.select(b.cmpi("eq", b.idx(axis), b.idx(i)), b.idx(out_n),
                                      b.idx(d))) for i, d in enumerate(x[:-1])]
    out = s.alloc(s.typed_dims([*out_dims, 1 if irfft else 2], t), element)
    cos, sin = _twiddles(s, length)
    # terms read along the axis: the input's, cut to the length (irfft: the half spectrum)
    bound = length // 2 + 1 if irfft else length
    terms = (min(n_in, bound) if isinstance(n_in, int) and isinstance(bound, int)
             else Index(b, b.min(b.idx(n_in), b.idx(bound))))
    sign = 1.0 if inverse else -1.0
    zero = b.const(0.0, f64)

    with b.loop_nest(out_dims) as ivs:
        k = ivs[axis] if isinstance(axis, int) else _pick(b, axis, ivs)

        def body(m: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            idx: list[Dim | SSAValue] = list(ivs)
            if isinstance(axis, int):
                idx[axis] = m
            else:
                idx = [b.select(b.cmpi("eq", b.idx(axis), b.idx(i)), m, b.idx(v))
                       for i, v in enumerate(ivs)]
            re = _to_f64(b, b.load(src, [*idx, 0]))
            im = _to_f64(b, b.load(src, [*idx, 1])) if complex_in else None
            j = b.insert(arith.RemUIOp(b.idx(Index(b, b.idx(k)) * Index(b, m)),
                                       b.idx(length))).results[0]
            c, sn = b.load(cos, [j]), b.load(sin, [j])
            if irfft:  # bin m and its mirror L - m: 2 Re(X w); bins 0 and L / 2 once, real
                alone = b.insert(arith.OrIOp(
                    b.cmpi("eq", m, b.idx(0)),
                    b.cmpi("eq", b.idx(Index(b, m) * 2), b.idx(length)))).results[0]
                assert im is not None
                term = b.sub(b.mul(re, c), b.mul(b.select(alone, zero, im), sn))
                weight = b.select(alone, b.const(1.0, f64), b.const(2.0, f64))
                return [b.add(acc[0], b.mul(weight, term)), acc[1]]
            # (re + i im)(c + i sign sn)
            s_sn = b.mul(b.const(sign, f64), sn)
            if im is None:
                return [b.add(acc[0], b.mul(re, c)), b.add(acc[1], b.mul(re, s_sn))]
            return [b.add(acc[0], b.sub(b.mul(re, c), b.mul(im, s_sn))),
                    b.add(acc[1], b.add(b.mul(im, c), b.mul(re, s_sn)))]

        total_re, total_im = b.reduce_loop(0, terms, [zero, zero], body)
        if inverse:
            scale = to_float(b, length, f64)
            total_re, total_im = b.div(total_re, scale), b.div(total_im, scale)
        b.store(_from_f64(b, total_re, element), out, [*ivs, 0])
        if not irfft:
            b.store(_from_f64(b, total_im, element), out, [*ivs, 1])
    _free(s, cos, sin)
    return [out]


@lowers(graph.STFTOp)
def _stft(s: Lowering, op: graph.STFTOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Per batch, frame and bin, the windowed frame's DFT sum in f64 (as the DFT's)."""
    b = s.b
    src = ins[0]
    x = b.dims(src)
    t = op.results[0].type
    assert isinstance(t, TensorType)
    element = storage_type(t.element_type)
    step, length = int_scalar(s, op, ins, 1), int_scalar(s, op, ins, 2)
    D.require(D.AT_LEAST, step, 1, "frame_step")
    D.require(D.AT_LEAST, length, 1, "frame_length")
    D.require(D.AT_LEAST, x[1], length, "the signal's length vs frame_length")
    if len(ins) > 3:
        D.require(D.EQUAL, b.dims(ins[3])[0], length, "the window's length and frame_length")
    frames, bins = op.frames(op.properties, x[1], step, length)
    out = s.alloc(s.typed_dims([x[0], frames, bins, 2], t), element)
    cos, sin = _twiddles(s, length)
    complex_in = x[-1] == 2
    zero = b.const(0.0, f64)

    with b.loop_nest([x[0], frames, bins]) as (n, f, k):
        start = Index(b, f) * step

        def body(m: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            at = b.idx(start + Index(b, m))
            re = _to_f64(b, b.load(src, [n, at, 0]))
            im = _to_f64(b, b.load(src, [n, at, 1])) if complex_in else None
            if len(ins) > 3:
                w = _to_f64(b, b.load(ins[3], [m]))
                re, im = b.mul(re, w), (None if im is None else b.mul(im, w))
            j = b.insert(arith.RemUIOp(b.idx(Index(b, k) * Index(b, m)),
                                       b.idx(length))).results[0]
            c, sn = b.load(cos, [j]), b.load(sin, [j])
            # (re + i im)(c - i sn)
            if im is None:
                return [b.add(acc[0], b.mul(re, c)), b.sub(acc[1], b.mul(re, sn))]
            return [b.add(acc[0], b.add(b.mul(re, c), b.mul(im, sn))),
                    b.add(acc[1], b.sub(b.mul(im, c), b.mul(re, sn)))]

        total_re, total_im = b.reduce_loop(0, length, [zero, zero], body)
        b.store(_from_f64(b, total_re, element), out, [n, f, k, 0])
        b.store(_from_f64(b, total_im, element), out, [n, f, k, 1])
    _free(s, cos, sin)
    return [out]


class _Exact:
    """f64 arithmetic without fast-math flags: the reference's roundings, one by one."""

    def __init__(self, b: LoopBuilder):
        self.b = b

    def __call__(self, cls: type, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.b.insert(cls(x, y)).results[0]


def _floor_divide(b: LoopBuilder, a: SSAValue, c: SSAValue) -> SSAValue:
    """numpy's a // c on floats (its divmod: from fmod, not floor(a / c))."""
    f = _Exact(b)
    zero = b.const(0.0, a.type)
    mod = f(llvm.FRemOp, a, c)  # C's fmod (xDSL's arith has no remf)
    div = f(arith.DivfOp, f(arith.SubfOp, a, mod), c)
    signs_differ = b.insert(arith.XOrIOp(b.cmpf("olt", c, zero),
                                         b.cmpf("olt", mod, zero))).results[0]
    fix = b.insert(arith.AndIOp(b.cmpf("une", mod, zero), signs_differ)).results[0]
    div = b.select(fix, f(arith.SubfOp, div, b.const(1.0, a.type)), div)
    floor = b.unary(math.FloorOp, div)
    up = b.cmpf("ogt", f(arith.SubfOp, div, floor), b.const(0.5, a.type))
    return b.select(up, f(arith.AddfOp, floor, b.const(1.0, a.type)), floor)


@lowers(graph.MelWeightMatrixOp)
def _mel_weight_matrix(s: Lowering, op: graph.MelWeightMatrixOp, ins: list[SSAValue]
                       ) -> list[SSAValue]:
    """The corner bins into a scratch buffer (their range checked: each a bin of the
    result, the last at most one past), then each filter's rising and falling edge."""
    b = s.b
    f = _Exact(b)
    mels, length, rate = (int_scalar(s, op, ins, i) for i in range(3))
    low, high = float_scalar(s, op, ins, 3), float_scalar(s, op, ins, 4)
    bins = Index(b, b.idx(length)) // 2 + 1
    t = op.results[0].type
    assert isinstance(t, TensorType)
    out = s.alloc(s.typed_dims([bins, mels], t), t.element_type)
    element = storage_type(t.element_type)
    log10 = b.const(pymath.log(10), f64)

    def mel(hertz: SSAValue) -> SSAValue:  # in the edge's own type, then f64
        ratio = f(arith.DivfOp, hertz, b.const(700.0, hertz.type))
        scaled = f(arith.MulfOp, b.const(2595.0, hertz.type), b.unary(math.Log1pOp, ratio))
        return f(arith.DivfOp, _to_f64(b, scaled), log10)

    low_mel, high_mel = mel(low), mel(high)
    count = Index(b, b.idx(mels)) + 2
    step = f(arith.DivfOp, f(arith.SubfOp, high_mel, low_mel), to_float(b, count, f64))
    points = s.alloc([count], i64)
    scale = to_float(b, Index(b, b.idx(length)) + 1, f64)
    rate_f = to_float(b, rate, f64)

    def corner(ivs: list[SSAValue], c: list[SSAValue]) -> list[SSAValue]:
        (k,) = ivs
        m = f(arith.AddfOp, f(arith.MulfOp, to_float(b, k, f64), step), low_mel)
        exponent = f(arith.MulfOp, f(arith.DivfOp, m, b.const(2595.0, f64)), log10)
        hertz = f(arith.MulfOp, b.const(700.0, f64), b.unary(math.ExpM1Op, exponent))
        p = b.insert(arith.FPToSIOp(_floor_divide(b, f(arith.MulfOp, scale, hertz), rate_f),
                                    i64)).results[0]
        b.store(p, points, [k])
        last = b.cmpi("eq", k, b.idx(count - 1))
        lowest = b.insert(arith.MinSIOp(c[0], p)).results[0]
        center = b.insert(arith.MaxSIOp(c[1], b.select(last, c[1], p))).results[0]
        return [lowest, center, b.select(last, p, c[2])]

    big, small = b.const(2 ** 62, i64), b.const(-(2 ** 62), i64)
    lowest, center, last = b.fold([count], [big, small, small], corner)
    D.require(D.AT_LEAST, to_index(b, lowest), 0, "the lowest filter corner bin")
    D.require(D.AT_LEAST, bins - 1, to_index(b, center), "the spectrum's last bin (a filter "
              "center past it)")
    D.require(D.AT_LEAST, bins, to_index(b, last), "the spectrum's bins (the top corner)")

    zero, one = b.const(0.0, element), b.const(1.0, element)
    with b.loop_nest([bins, mels]) as (j, i):
        b.store(zero, out, [j, i])
    with b.loop(0, mels) as i:
        lo, mid, hi = (to_index(b, b.load(points, [Index(b, i) + k])) for k in range(3))
        rise, fall = mid - lo, hi - mid
        with b.if_(b.cmpi("eq", b.idx(rise), b.idx(0))):
            b.store(one, out, [mid, i])
        with b.if_(b.cmpi("sgt", b.idx(rise), b.idx(0))), b.loop(lo, mid + 1) as j:
            b.store(_from_f64(b, f(arith.DivfOp, to_float(b, Index(b, j) - lo, f64),
                                   to_float(b, rise, f64)), element), out, [j, i])
        with b.if_(b.cmpi("sgt", b.idx(fall), b.idx(0))), b.loop(mid, hi) as j:
            b.store(_from_f64(b, f(arith.DivfOp, to_float(b, hi - Index(b, j), f64),
                                   to_float(b, fall, f64)), element), out, [j, i])
    s.free(points)
    return [out]

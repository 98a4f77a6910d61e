"""qnn-canonicalize: every qnn op as graph ops on int32 and f32, each next to its formula.

    qnn.quantize x, s, zp           graph.quantize_linear             to zp's type
    qnn.dequantize x, s, zp         graph.dequantize_linear
    qnn.concat x_i, s_i, zp_i..., sy, zy
                                    graph.concat of x_i where s_i, zp_i are sy, zy (x_i of
                                    the result's type), else of r_i = quantize_linear(
                                    dequantize_linear(x_i, s_i, zp_i), sy, zy); of
                                    where(s_i == sy and zp_i == zy, x_i, r_i) where the
                                    parameters are known at run time only
    qnn.matmul a, b, a_zp, b_zp     (a - a_zp) @ (b - b_zp)          int32 casts, a
                                                                     graph.einsum (int32)
    qnn.conv x, w, x_zp, w_zp       conv(x - x_zp, w - w_zp)          int32 casts, graph.conv
    qnn.requantize x, si, so, zp    clip(round(x * (si / so)) + zp)   the multiplier in the
                                                                     scales' type, then f32
    qnn.add a, sa, za, b, sb, zb,   clip(round((sa * (a - za)         f32, as the spec's
            sy, zy                    + sb * (b - zb)) / sy) + zy)     formula
    qnn.mul (same operands)         clip(round((a - za) * (b - zb)    int32 product, zy
                                    * (sa * sb / sy) + zy))           added before rounding
    qnn.global_avg_pool x, sx, zx,  requantize(sum(x - zx), sx,       int32 sum over the
                        sy, zy                 sy * count, zy)       spatial dims
    qnn.avg_pool (same operands)    clip(round(average_pool(sx *      f32; zy added
                                    (x - zx)) / sy + zy))            before rounding

A 1-D zero point or scale is reshaped to lie along its axis (a's rows, w's output
channels, requantize's `axis`). The int32 operands are exact, and so is the f32
requantization onnxruntime computes: float(acc) * multiplier rounded half to even.

A conv or matmul by constant weights whose int32 sum only a requantize reads (plus a
constant bias, then maybe a clip) becomes one qnn.conv_requant / qnn.matmul_requant,
computed by the integer kernels. Its sum is TVM's four-term decomposition,

    sum((x - zx) * (w - zw)) = sum(x*w) - zw*sum(x) - zx*sum(w) + K*zx*zw
                             = sum(x * w') - zx*sum(w')        with w' = w - zw,

terms 1 and 2 as one product by the weights shifted at compile time (exact in i16), terms
3 and 4 (weights only) folded into the int32 bias, which conv padding with zx keeps exact
at the borders. The requantization stays float(acc) * multiplier in f32, the multiplier
in_scale / out_scale computed here as the graph ops would: onnxruntime computes it so,
and a fixed-point multiply and shift (TFLite's) rounds differently on some values. A
clip of the result narrows the kernel's clamp [lo, hi] (QDQ's folded Relu).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, StringAttr, TensorType, f32, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from infer.dialects import graph as G
from infer.dialects import qnn as Q
from infer.dialects.graph.build import OpList
from infer.dialects.graph.evaluate import can_evaluate, evaluate


def _element(v: SSAValue) -> Attribute:
    return cast(TensorType, v.type).element_type


def _rank(v: SSAValue) -> int:
    return cast(TensorType, v.type).get_num_dims()


def _along(ops: OpList, v: SSAValue, axis: int, rank: int) -> SSAValue:
    """A 1-D `v` shaped to broadcast along `axis` of a rank-`rank` tensor (one element
    broadcasts as it is)."""
    if _rank(v) != 1 or rank < 2 or cast(TensorType, v.type).get_shape()[0] == 1:
        return v
    axis = G.normalize_axis(axis, rank, "axis")
    return ops.add(G.ReshapeOp, v, ops.const(np.array([-1] + [1] * (rank - 1 - axis))))


def _cast(ops: OpList, v: SSAValue, to: Attribute) -> SSAValue:
    if cast(TensorType, v.type).element_type == to:
        return v
    return ops.add(G.CastOp, v, to=to)


def _minus(ops: OpList, q: SSAValue, zero_point: SSAValue) -> SSAValue:
    """q - zero_point in int32."""
    return ops.add(G.SubOp, _cast(ops, q, i32), _cast(ops, zero_point, i32))


def _matmul(ops: OpList, op: Q.MatMulOp) -> SSAValue:
    rows = _along(ops, op.a_zero_point, _rank(op.a) - 2, _rank(op.a))
    a, b = _minus(ops, op.a, rows), _minus(ops, op.b, op.b_zero_point)
    return ops.add(G.EinsumOp, a, b,
                   equation=StringAttr(G.matmul_equation(_rank(a), _rank(b))))


def _conv(ops: OpList, op: Q.ConvOp) -> SSAValue:
    x = _minus(ops, op.x, op.x_zero_point)
    w = _minus(ops, op.w, _along(ops, op.w_zero_point, 0, _rank(op.w)))
    return ops.add(G.ConvOp, x, w, **dict(op.properties))


def _clip_cast(ops: OpList, v: SSAValue, out: Attribute) -> SSAValue:
    """v (f32, whole numbers) clipped to `out`'s range and cast to it."""
    lo, hi = G.QUANTIZED_RANGES[out]
    clipped = ops.add(G.ClipOp, v, ops.const(np.array(lo, np.float32)),
                      ops.const(np.array(hi, np.float32)))
    return _cast(ops, clipped, out)


def _saturate(ops: OpList, v: SSAValue, zero_point: SSAValue, out: Attribute) -> SSAValue:
    """clip(round(v) + zero_point), cast to `out`: v f32."""
    zero_point = _cast(ops, zero_point, f32)
    return _clip_cast(ops, ops.add(G.AddOp, ops.add(G.RoundOp, v), zero_point), out)


def _rounded_after_zero_point(ops: OpList, v: SSAValue, zero_point: SSAValue,
                              out: Attribute) -> SSAValue:
    """round(clip(v, lo - zero_point, hi - zero_point) + zero_point), cast to `out`
    (range lo..hi), as onnxruntime's kernels compute it: the f32 sum may round v to a
    half that round(v) + zero_point would not see. The clip also keeps the lowering from
    contracting a product v with the add into a fused multiply-add, which rounds once."""
    zero_point = _cast(ops, zero_point, f32)
    lo, hi = (ops.const(np.array(end, np.float32)) for end in G.QUANTIZED_RANGES[out])
    clipped = ops.add(G.ClipOp, v, ops.add(G.SubOp, lo, zero_point),
                      ops.add(G.SubOp, hi, zero_point))
    return _cast(ops, ops.add(G.RoundOp, ops.add(G.AddOp, clipped, zero_point)), out)


def _requantized(ops: OpList, x: SSAValue, in_scale: SSAValue, out_scale: SSAValue,
                 zero_point: SSAValue, axis: int, out: Attribute) -> SSAValue:
    """clip(round(x * (in_scale / out_scale)) + zero_point): x int32, the multiplier
    divided in the scales' type, then applied in f32; 1-D parameters along `axis`."""
    rank = _rank(x)
    multiplier = _cast(ops, ops.add(G.DivOp, in_scale, out_scale), f32)
    scaled = ops.add(G.MulOp, _cast(ops, x, f32), _along(ops, multiplier, axis, rank))
    return _saturate(ops, scaled, _along(ops, zero_point, axis, rank), out)


def _requantize(ops: OpList, op: Q.RequantizeOp) -> SSAValue:
    return _requantized(ops, op.x, op.input_scale, op.output_scale, op.output_zero_point,
                        op.axis.value.data, cast(TensorType, op.y.type).element_type)


def _real(ops: OpList, q: SSAValue, scale: SSAValue, zero_point: SSAValue) -> SSAValue:
    """scale * (q - zero_point) in f32."""
    return ops.add(G.MulOp, _cast(ops, scale, f32), _cast(ops, _minus(ops, q, zero_point), f32))


def _add(ops: OpList, op: Q.AddOp) -> SSAValue:
    total = ops.add(G.AddOp, _real(ops, op.a, op.a_scale, op.a_zero_point),
                    _real(ops, op.b, op.b_scale, op.b_zero_point))
    return _saturate(ops, ops.add(G.DivOp, total, _cast(ops, op.y_scale, f32)),
                     op.y_zero_point, cast(TensorType, op.y.type).element_type)


def _mul(ops: OpList, op: Q.MulOp) -> SSAValue:
    product = ops.add(G.MulOp, _minus(ops, op.a, op.a_zero_point),
                      _minus(ops, op.b, op.b_zero_point))
    multiplier = ops.add(G.DivOp, ops.add(G.MulOp, op.a_scale, op.b_scale), op.y_scale)
    scaled = ops.add(G.MulOp, _cast(ops, product, f32), _cast(ops, multiplier, f32))
    return _rounded_after_zero_point(ops, scaled, op.y_zero_point,
                                     cast(TensorType, op.y.type).element_type)


def _global_avg_pool(ops: OpList, op: Q.GlobalAvgPoolOp) -> SSAValue:
    shape = cast(TensorType, op.x.type).get_shape()
    spatial = list(range(2, len(shape)))
    total = ops.add(G.ReduceSumOp, _minus(ops, op.x, op.x_zero_point),
                    ops.const(np.array(spatial, np.int64)))
    count = ops.const(np.array(int(np.prod(shape[2:])), np.float32))
    return _requantized(ops, total, op.x_scale, ops.add(G.MulOp, op.y_scale, count),
                        op.y_zero_point, 0, cast(TensorType, op.y.type).element_type)


def _avg_pool(ops: OpList, op: Q.AvgPoolOp) -> SSAValue:
    average = ops.add(G.AveragePoolOp, _real(ops, op.x, op.x_scale, op.x_zero_point),
                      **dict(op.properties))
    return _rounded_after_zero_point(ops, ops.add(G.DivOp, average, _cast(ops, op.y_scale, f32)),
                                     op.y_zero_point, cast(TensorType, op.y.type).element_type)


def _quantize(ops: OpList, x: SSAValue, scale: SSAValue, zero_point: SSAValue, axis: int
              ) -> SSAValue:
    """graph.quantize_linear to the zero point's type."""
    return ops.add(G.QuantizeLinearOp, x, scale, zero_point, axis=axis,
                   to=cast(TensorType, zero_point.type).element_type)


def _quantize_op(ops: OpList, op: Q.QuantizeOp) -> SSAValue:
    return _quantize(ops, op.x, op.scale, op.zero_point, op.axis.value.data)


def _dequantize_op(ops: OpList, op: Q.DequantizeOp) -> SSAValue:
    return ops.add(G.DequantizeLinearOp, op.x, op.scale, op.zero_point, axis=op.axis)


def _same(a: SSAValue, b: SSAValue) -> bool | None:
    """Whether one-element parameters a and b are equal: known when they are one value or
    both constants, else None."""
    if a is b:
        return True
    va, vb = G.constant_value(a), G.constant_value(b)
    if va is None or vb is None:
        return None
    return bool(va.reshape(()) == vb.reshape(()))


def _concat(ops: OpList, op: Q.ConcatOp) -> SSAValue:
    parts = []
    ins = list(op.inputs)
    for x, scale, zp in zip(ins[::3], ins[1::3], ins[2::3], strict=True):
        same = [_same(scale, op.y_scale), _same(zp, op.y_zero_point)]
        typed = _element(x) == _element(op.y)
        if typed and all(same):
            parts.append(x)  # in the result's parameters: copied
            continue
        real = ops.add(G.DequantizeLinearOp, x, scale, zp)
        requantized = _quantize(ops, real, op.y_scale, op.y_zero_point, 1)
        if typed and False not in same:
            # the parameters are known at run time only: copied where they are equal
            equal = ops.add(G.AndOp, ops.add(G.EqualOp, scale, op.y_scale),
                            ops.add(G.EqualOp, zp, op.y_zero_point))
            requantized = ops.add(G.WhereOp, equal, x, requantized)
        parts.append(requantized)
    return ops.add(G.ConcatOp, *parts, axis=op.axis)


_RULES = {Q.QuantizeOp: _quantize_op, Q.DequantizeOp: _dequantize_op, Q.ConcatOp: _concat,
          Q.MatMulOp: _matmul, Q.ConvOp: _conv, Q.RequantizeOp: _requantize, Q.AddOp: _add,
          Q.MulOp: _mul, Q.GlobalAvgPoolOp: _global_avg_pool,
          Q.AvgPoolOp: _avg_pool}


def _value(v: SSAValue, depth: int = 4) -> np.ndarray | None:
    """v's value when a constant or a few graph ops of constants make it (qnn-fold-qdq's
    products of scales, a transposed weight, a reshaped bias), else None."""
    value = G.constant_value(v)
    op = v.owner
    if value is not None or depth == 0 or not isinstance(op, Operation) or (
            op.dialect_name() != "graph" or not can_evaluate(op) or len(op.results) != 1):
        return value
    ins = [_value(o, depth - 1) for o in op.operands]
    if any(i is None for i in ins):
        return None
    try:
        return evaluate(op, cast(list[np.ndarray], ins))[0]
    except (ValueError, ZeroDivisionError, FloatingPointError):
        return None


def _sole_use(v: SSAValue) -> Operation | None:
    uses = list(v.uses)
    return uses[0].operation if len(uses) == 1 else None


def _per(value: np.ndarray | None, n: int) -> np.ndarray | None:
    """A constant of one element or n along its last axis, as [n] (None if not)."""
    if value is None or value.size not in (1, n) or (value.size > 1 and value.shape[-1] != n):
        return None
    return np.broadcast_to(value.reshape(-1), (n,))


def _wrap32(v: np.ndarray) -> np.ndarray:
    """int64 values as int32 modulo 2**32, as the int32 sum wraps."""
    return ((v + 2**31) % 2**32 - 2**31).astype(np.int32)


class _Fused:
    """The chain product [+ bias] -> requantize [-> clip] ending in requantize `r`."""

    def __init__(self, r: Q.RequantizeOp) -> None:
        self.r, self.chain = r, [r]
        self.out = cast(TensorType, r.y.type).element_type
        self.lo, self.hi = G.QUANTIZED_RANGES[self.out]
        self.bias: np.ndarray | None = None
        acc = r.x
        add = acc.owner
        if isinstance(add, G.AddOp) and _sole_use(acc) is r:
            for a, c in (add.operands, add.operands[::-1]):
                if isinstance(a.owner, Q.ConvOp | Q.MatMulOp) and _value(c) is not None:
                    acc, self.bias = a, _value(c)
                    self.chain.append(add)
                    break
        self.product = acc.owner if _sole_use(acc) is self.chain[-1] else None
        self.last: SSAValue = r.y
        clip = _sole_use(r.y)
        if isinstance(clip, G.ClipOp) and clip.input is r.y:
            lo, hi = _value(clip.min), _value(clip.max)
            if lo is not None and hi is not None and lo.size == hi.size == 1 and (
                    max(self.lo, int(lo.reshape(()))) <= min(self.hi, int(hi.reshape(())))):
                self.lo = max(self.lo, int(lo.reshape(())))
                self.hi = min(self.hi, int(hi.reshape(())))
                self.chain.insert(0, clip)
                self.last = clip.output

    def multiplier(self, axis: int, n: int) -> np.ndarray | None:
        """in_scale / out_scale in the scales' type, then f32, as [n] or [1]: per tensor
        or along the output channels (`axis` of the requantized tensor)."""
        r = self.r
        si, so = _value(r.input_scale), _value(r.output_scale)
        if si is None or so is None:
            return None
        rank = cast(TensorType, r.x.type).get_num_dims()
        if (si.size > 1 or so.size > 1) and G.normalize_axis(r.axis.value.data, rank,
                                                             "axis") != axis:
            return None
        mult = (si.reshape(-1) / so.reshape(-1)).astype(np.float32)
        return mult if mult.size == 1 else _per(mult, n)

    def zero_point(self, ops: OpList) -> SSAValue | None:
        zy = _value(self.r.output_zero_point)
        if zy is None or zy.size != 1:
            return None
        return ops.const(zy.reshape(()))

    def replace(self, ops: OpList, y: SSAValue) -> None:
        Rewriter.insert_op(ops, InsertPoint.before(self.r))
        self.last.replace_all_uses_with(y)
        for op in [*self.chain, cast(Operation, self.product)]:
            _erase(op)


def _erase(op: Operation) -> None:
    """`op`, then the producers of its operands that nothing else uses (the scales and
    weights only the fused op's constants replace)."""
    producers = [o.owner for o in op.operands]
    Rewriter.erase_op(op)
    for p in producers:
        if isinstance(p, Operation) and p.dialect_name() == "graph" and not any(
                r.uses for r in p.results) and p.parent is not None:
            _erase(p)


def _conv_requant(f: _Fused) -> bool:
    """conv(x - zx, w - zw) + b requantized: w' = w - zw, bias' = b - zx * sum(w')."""
    op = cast(Q.ConvOp, f.product)
    xt = cast(TensorType, op.x.type)
    w, zw, zx = _value(op.w), _value(op.w_zero_point), _value(op.x_zero_point)
    if xt.get_num_dims() != 4 or any(d < 0 for d in xt.get_shape()[1:]) or w is None or (
            zw is None or zx is None or zx.size != 1):
        return False
    m = w.shape[0]
    bias = np.zeros(m, np.int64)
    if f.bias is not None:
        b = f.bias
        while b.ndim > 3 and b.shape[0] == 1:
            b = b[0]
        if b.ndim > 3 or b.size not in (1, m) or b.ndim == 3 and b.shape[1:] != (1, 1):
            return False
        bias = np.broadcast_to(b.reshape(-1), (m,)).astype(np.int64)
    mult, zw_m = f.multiplier(1, m), _per(zw, m)
    ops = OpList()
    zy = f.zero_point(ops)
    if mult is None or zw_m is None or zy is None:
        return False
    shifted = w.astype(np.int64) - zw_m.astype(np.int64).reshape(-1, 1, 1, 1)   # w' = w - zw
    zx_v = int(zx.reshape(()))
    folded = bias - zx_v * shifted.reshape(m, -1).sum(1)                      # b - zx*sum(w')
    props = {k: v for k, v in op.properties.items()
             if k in ("strides", "pads", "dilations", "group")}
    y = ops.add(Q.ConvRequantOp, op.x, ops.const(shifted.astype(np.int16)),
                ops.const(_wrap32(folded)), ops.const(mult), zy,
                x_zero_point=G.int_attr(zx_v), lo=G.int_attr(f.lo), hi=G.int_attr(f.hi),
                kernel_shape=DenseArrayBase.from_list(i64, list(w.shape[2:])), **props)
    f.replace(ops, y)
    return True


def _matmul_requant(f: _Fused) -> bool:
    """(a - za) @ (w - zw) + b requantized: w' = w - zw, bias' = b - za * sum_k(w')."""
    op = cast(Q.MatMulOp, f.product)
    at = cast(TensorType, op.a.type)
    w, zw, za = _value(op.b), _value(op.b_zero_point), _value(op.a_zero_point)
    if at.get_num_dims() < 2 or at.get_shape()[-1] < 0 or w is None or w.ndim != 2 or (
            zw is None or za is None or za.size != 1):
        return False
    n = w.shape[1]
    bias = np.zeros(n, np.int64) if f.bias is None else _per(f.bias, n)
    rank = cast(TensorType, f.r.x.type).get_num_dims()
    mult, zw_n = f.multiplier(rank - 1, n), _per(zw, n)
    ops = OpList()
    zy = f.zero_point(ops)
    if bias is None or mult is None or zw_n is None or zy is None or (
            f.bias is not None and f.bias.size > 1 and any(d != 1 for d in f.bias.shape[:-1])):
        return False
    shifted = w.astype(np.int64) - zw_n.astype(np.int64)                   # w' = w - zw
    za_v = int(za.reshape(()))
    folded = bias.astype(np.int64) - za_v * shifted.sum(0)                 # b - za*sum(w')
    y = ops.add(Q.MatMulRequantOp, op.a, ops.const(shifted.astype(np.int16)),
                ops.const(_wrap32(folded)), ops.const(mult), zy,
                x_zero_point=G.int_attr(za_v), lo=G.int_attr(f.lo), hi=G.int_attr(f.hi),
                n=G.int_attr(n))
    f.replace(ops, y)
    return True


def fuse_requantized(r: Q.RequantizeOp) -> bool:
    """Whether requantize `r` and the product it requantizes became one integer-kernel op."""
    f = _Fused(r)
    if isinstance(f.product, Q.ConvOp):
        return _conv_requant(f)
    if isinstance(f.product, Q.MatMulOp):
        return _matmul_requant(f)
    return False


def canonicalize(op: Operation) -> None:
    """Replace qnn `op` by its graph ops."""
    ops = OpList()
    result = _RULES[type(op)](ops, op)  # type: ignore[index]
    Rewriter.insert_op(ops, InsertPoint.before(op))
    op.results[0].replace_all_uses_with(result)
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class QnnCanonicalizePass(ModulePass):
    name = "qnn-canonicalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for r in [o for o in op.walk() if isinstance(o, Q.RequantizeOp)]:
            fuse_requantized(r)
        for q in [o for o in op.walk() if type(o) in _RULES]:
            canonicalize(q)

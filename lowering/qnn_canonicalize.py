"""qnn-canonicalize: every qnn op as graph ops on int32 and f32, each next to its formula.

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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType, f32, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from infer.dialects import graph as G
from infer.dialects import qnn as Q
from infer.dialects.graph.build import OpList


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


_RULES = {Q.MatMulOp: _matmul, Q.ConvOp: _conv, Q.RequantizeOp: _requantize, Q.AddOp: _add,
          Q.MulOp: _mul, Q.GlobalAvgPoolOp: _global_avg_pool,
          Q.AvgPoolOp: _avg_pool}


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
        for q in [o for o in op.walk() if type(o) in _RULES]:
            canonicalize(q)

"""qnn-canonicalize: every qnn op as graph ops on int32 and f32, each next to its formula.

    qnn.matmul a, b, a_zp, b_zp     (a - a_zp) @ (b - b_zp)          int32 casts, a
                                                                     graph.einsum (int32)
    qnn.conv x, w, x_zp, w_zp       conv(x - x_zp, w - w_zp)          int32 casts, graph.conv
    qnn.requantize x, si, so, zp    clip(round(x * (si / so)) + zp)   the multiplier in the
                                                                     scales' type, then f32

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


def _requantize(ops: OpList, op: Q.RequantizeOp) -> SSAValue:
    rank, axis = _rank(op.x), op.axis.value.data
    multiplier = _cast(ops, ops.add(G.DivOp, op.input_scale, op.output_scale), f32)
    scaled = ops.add(G.MulOp, _cast(ops, op.x, f32), _along(ops, multiplier, axis, rank))
    zero_point = _cast(ops, _along(ops, op.output_zero_point, axis, rank), f32)
    shifted = ops.add(G.AddOp, ops.add(G.RoundOp, scaled), zero_point)
    out = cast(TensorType, op.y.type).element_type
    lo, hi = G.QUANTIZED_RANGES[out]
    clipped = ops.add(G.ClipOp, shifted, ops.const(np.array(lo, np.float32)),
                      ops.const(np.array(hi, np.float32)))
    return _cast(ops, clipped, out)


_RULES = {Q.MatMulOp: _matmul, Q.ConvOp: _conv, Q.RequantizeOp: _requantize}


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

"""Lowering of QuantizeLinear / DequantizeLinear: one loop nest over x, the scale and zero
point read per tensor, per axis or per block at each element (`_param_index`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AnyFloat,
    Float4E2M1FNType,
    Float32Type,
    Float64Type,
    IntegerType,
    TensorType,
    f32,
    i32,
)
from xdsl.ir import Attribute, SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering import narrow_types
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.index import as_dim
from infer.lowering.loop_builder import LoopBuilder, is_unsigned, storage_type


def _param_index(b: LoopBuilder, op: graph.QuantizeLinearOp | graph.DequantizeLinearOp,
                 x: list[Dim], param: SSAValue
                 ) -> Callable[[Sequence[SSAValue]], list[Dim | SSAValue]]:
    """Where x's element at ivs reads the scale or zero point `param` (whose dims the
    shape function has checked)."""
    dims = b.dims(param)
    kind, axis = op.layout(op.properties, x, dims, "param", check=False)
    block = op.block_size.value.data

    def at(ivs: Sequence[SSAValue]) -> list[Dim | SSAValue]:
        if kind == "tensor":
            return [0] * len(dims)
        if kind == "axis":
            return [ivs[axis]]
        return [as_dim(b, iv) // block if i == axis else iv for i, iv in enumerate(ivs)]

    return at


def _to_f32(b: LoopBuilder, v: SSAValue, unsigned: bool) -> SSAValue:
    if isinstance(v.type, IntegerType):
        cls = arith.UIToFPOp if unsigned else arith.SIToFPOp
        return b.insert(cls(v, f32)).results[0]
    if isinstance(v.type, Float32Type):
        return v
    return b.insert(arith.ExtFOp(v, f32)).results[0]


def _load_f32(b: LoopBuilder, buf: SSAValue, at: Sequence[Dim | SSAValue],
              element: Attribute) -> SSAValue:
    """The element of `buf` (of graph element type `element`) at `at`, as f32."""
    v = b.load(buf, at)
    if graph.is_narrow(element):
        v = narrow_types.decode(b, element, v)
    return _to_f32(b, v, is_unsigned(element))


@lowers(graph.QuantizeLinearOp)
def _quantize(s: Lowering, op: graph.QuantizeLinearOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    x = b.dims(ins[0])
    (y,) = s.alloc_results(op, ins)
    scale_at = _param_index(b, op, x, ins[1])
    zp_at = _param_index(b, op, x, ins[2]) if len(ins) > 2 else None
    if op.to in graph.QUANTIZED_FLOATS:
        with b.loop_nest(x) as ivs:
            q = _to_f32(b, b.div(b.load(ins[0], ivs), b.load(ins[1], scale_at(ivs))), False)
            if zp_at is not None and op.to == Float4E2M1FNType():
                q = b.add(q, _load_f32(b, ins[2], zp_at(ivs), op.to))
            b.store(narrow_types.encode(b, op.to, q, saturate=bool(op.saturate.value.data)),
                    y, ivs)
        return [y]
    lo, hi = graph.QUANTIZED_RANGES[op.to]
    out = storage_type(op.to)
    with b.loop_nest(x) as ivs:
        v = b.load(ins[0], ivs)
        q = _to_f32(b, b.unary(math.RoundEvenOp, b.div(v, b.load(ins[1], scale_at(ivs)))),
                    False)
        if zp_at is not None:
            q = b.add(q, _load_f32(b, ins[2], zp_at(ivs), op.to))
        low, high = b.const(float(lo), f32), b.const(float(hi), f32)
        clamped = b.min(b.max(q, low), high)  # NaN through maximumf stays NaN: made lo
        clamped = b.select(b.cmpf("uno", q, q), low, clamped)
        as_int = b.insert(arith.FPToSIOp(clamped, i32)).results[0]
        if graph.is_narrow(op.to):
            b.store(narrow_types.encode(b, op.to, as_int), y, ivs)
        else:
            b.store(b.insert(arith.TruncIOp(as_int, out)).results[0], y, ivs)
    return [y]


@lowers(graph.DequantizeLinearOp)
def _dequantize(s: Lowering, op: graph.DequantizeLinearOp, ins: list[SSAValue]
                ) -> list[SSAValue]:
    b = s.b
    x = b.dims(ins[0])
    (y,) = s.alloc_results(op, ins)
    t = op.results[0].type
    assert isinstance(t, TensorType)
    out = t.element_type
    x_element = cast(TensorType, op.x.type).element_type
    scale_at = _param_index(b, op, x, ins[1])
    zp_at = _param_index(b, op, x, ins[2]) if len(ins) > 2 else None
    with b.loop_nest(x) as ivs:
        v = _load_f32(b, ins[0], ivs, x_element)
        if zp_at is not None:
            v = b.sub(v, _load_f32(b, ins[2], zp_at(ivs), x_element))
        scale = _to_f32(b, b.load(ins[1], scale_at(ivs)), False)
        r = b.mul(v, scale)
        if isinstance(out, Float64Type):
            r = b.insert(arith.ExtFOp(r, out)).results[0]
        elif not isinstance(out, Float32Type):
            r = b.insert(arith.TruncFOp(r, cast(AnyFloat, out))).results[0]
        b.store(r, y, ivs)
    return [y]

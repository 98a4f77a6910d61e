"""ONNX importers: QuantizeLinear and DequantizeLinear as plain tensor ops; the integer
and QLinear ops (MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv) as qnn ops; and
the QOperator ops onnxruntime's quantizer writes in its com.microsoft domain
(`MICROSOFT_OPS`): QGemm, QLinearAdd, QLinearMul, QLinearConcat and the pools as qnn ops,
the rest (QLinearLeakyRelu, QLinearSigmoid) as their float op between a dequantize and a
quantize, which is what onnxruntime computes (its lookup tables hold exactly that)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import IntegerType, Signedness

from infer.dialects import graph as G
from infer.dialects import qnn as Q
from infer.frontend.onnx_ops.builder import (
    OpBuilder,
    OpFn,
    Unsupported,
    Value,
    built_from_other_ops,
    dims,
    element,
    element_type,
)
from infer.frontend.onnx_ops.nn import conv_window, pool_window

_VERSIONS = (10, 13, 19, 21, 23, 24, 25, 28)


def quantize_linear(b: OpBuilder, x: Value, y_scale: Value, y_zero_point: Value | None = None,
                    *, axis: int | None = None, saturate: int | None = None,
                    block_size: int | None = None, output_dtype: int | None = None,
                    precision: int | None = None) -> Value:
    """y's type is the zero point's, else output_dtype's, else uint8 (`saturate` concerns
    float8 results only)."""
    if precision and element_type(precision) != element(x):
        raise Unsupported("a division precision other than x's type is not supported")
    if y_zero_point is not None:
        to = element(y_zero_point)
        if output_dtype and element_type(output_dtype) != to:
            raise Unsupported("output_dtype differs from the zero point's type")
    else:
        to = (element_type(output_dtype) if output_dtype
              else IntegerType(8, Signedness.UNSIGNED))
    if to not in G.QUANTIZED_RANGES and to not in G.QUANTIZED_FLOATS:
        raise Unsupported(f"quantizing to {to} is not supported")
    return b.emit1(G.QuantizeLinearOp, x, y_scale, y_zero_point, axis=axis,
                   block_size=block_size, to=to, saturate=None if saturate in (None, 1)
                   else saturate)


def dequantize_linear(b: OpBuilder, x: Value, x_scale: Value,
                      x_zero_point: Value | None = None, *, axis: int | None = None,
                      block_size: int | None = None, output_dtype: int | None = None
                      ) -> Value:
    to = element_type(output_dtype) if output_dtype else None
    if (element(x) not in G.QUANTIZED_RANGES and element(x) not in G.QUANTIZED_FLOATS
            and element(x) != IntegerType(32)):
        raise Unsupported(f"dequantizing {element(x)} is not supported")
    return b.emit1(G.DequantizeLinearOp, x, x_scale, x_zero_point, axis=axis,
                   block_size=block_size, to=None if to == element(x_scale) else to)


def _zero_point(b: OpBuilder, zp: Value | None, of: Value) -> Value:
    """The zero point, or 0 of `of`'s type where the node omits it."""
    if element(of) not in Q.EIGHT_BIT:
        raise Unsupported(f"{element(of)} operands are not supported (8-bit integers are)")
    return zp if zp is not None else b.const(np.zeros((), G.numpy_dtype(element(of))))


def matmul_integer(b: OpBuilder, a: Value, c: Value, a_zero_point: Value | None = None,
                   b_zero_point: Value | None = None) -> Value:
    return b.emit1(Q.MatMulOp, a, c, _zero_point(b, a_zero_point, a),
                   _zero_point(b, b_zero_point, c))


@built_from_other_ops
def qlinear_matmul(b: OpBuilder, a: Value, a_scale: Value, a_zero_point: Value, c: Value,
                   b_scale: Value, b_zero_point: Value, y_scale: Value, y_zero_point: Value
                   ) -> Value:
    """The int32 product, requantized per column of b."""
    acc = matmul_integer(b, a, c, a_zero_point, b_zero_point)
    return b.emit1(Q.RequantizeOp, acc, b.emit1(G.MulOp, a_scale, b_scale), y_scale,
                   y_zero_point, axis=-1)


def conv_integer(b: OpBuilder, x: Value, w: Value, x_zero_point: Value | None = None,
                 w_zero_point: Value | None = None, *, auto_pad: str = "NOTSET",
                 dilations: list[int] | None = None, group: int | None = None,
                 kernel_shape: list[int] | None = None, pads: list[int] | None = None,
                 strides: list[int] | None = None) -> Value:
    return b.emit1(Q.ConvOp, x, w, _zero_point(b, x_zero_point, x),
                   _zero_point(b, w_zero_point, w), group=group,
                   **conv_window(x, w, auto_pad, dilations, kernel_shape, pads, strides))


@built_from_other_ops
def qlinear_conv(b: OpBuilder, x: Value, x_scale: Value, x_zero_point: Value, w: Value,
                 w_scale: Value, w_zero_point: Value, y_scale: Value, y_zero_point: Value,
                 bias: Value | None = None, *, auto_pad: str = "NOTSET",
                 dilations: list[int] | None = None, group: int | None = None,
                 kernel_shape: list[int] | None = None, pads: list[int] | None = None,
                 strides: list[int] | None = None) -> Value:
    """The int32 convolution plus the int32 bias, requantized per output channel."""
    acc = conv_integer(b, x, w, x_zero_point, w_zero_point, auto_pad=auto_pad,
                       dilations=dilations, group=group, kernel_shape=kernel_shape,
                       pads=pads, strides=strides)
    if bias is not None:
        per_channel = b.ints([-1] + [1] * (len(dims(x)) - 2))
        acc = b.emit1(G.AddOp, acc, b.emit1(G.ReshapeOp, bias, per_channel))
    return b.emit1(Q.RequantizeOp, acc, b.emit1(G.MulOp, x_scale, w_scale), y_scale,
                   y_zero_point, axis=1)


@built_from_other_ops
def qgemm(b: OpBuilder, a: Value, a_scale: Value, a_zero_point: Value, c: Value,
          b_scale: Value, b_zero_point: Value, bias: Value | None = None,
          y_scale: Value | None = None, y_zero_point: Value | None = None, *,
          alpha: float = 1.0, transA: int = 0, transB: int = 0) -> Value:
    """alpha * (a - a_zp) @ (b - b_zp) + bias, with a's and b's scales: requantized to y
    when y_scale is given, else the f32 value. The scale is alpha * a_scale * b_scale
    (per column of b or per tensor), multiplied in that order as onnxruntime does."""
    if (y_scale is None) != (y_zero_point is None):
        raise Unsupported("y_scale without y_zero_point (or the reverse)")
    if transA:
        a = b.emit1(G.TransposeOp, a, perm=[1, 0])
    if transB:
        c = b.emit1(G.TransposeOp, c, perm=[1, 0])
    acc = matmul_integer(b, a, c, a_zero_point, b_zero_point)
    if bias is not None:
        acc = b.emit1(G.AddOp, acc, bias)
    scale = a_scale
    if alpha != 1.0:
        scale = b.emit1(G.MulOp, b.const(np.array(alpha, np.float32)), a_scale)
    scale = b.emit1(G.MulOp, scale, b_scale)
    if y_scale is None:
        return b.emit1(G.MulOp, b.emit1(G.CastOp, acc, to=element(a_scale)), scale)
    return b.emit1(Q.RequantizeOp, acc, scale, y_scale, y_zero_point, axis=-1)


def _binary(cls: type[Q.AddOp] | type[Q.MulOp]) -> OpFn:
    def binary(b: OpBuilder, a: Value, a_scale: Value, a_zero_point: Value | None, c: Value,
               b_scale: Value, b_zero_point: Value | None, y_scale: Value,
               y_zero_point: Value | None = None) -> Value:
        return b.emit1(cls, a, a_scale, _zero_point(b, a_zero_point, a), c, b_scale,
                       _zero_point(b, b_zero_point, c), y_scale,
                       _zero_point(b, y_zero_point, a))
    return binary


def _requantized_float_op(b: OpBuilder, x: Value, x_scale: Value, x_zero_point: Value | None,
                          y_scale: Value, y_zero_point: Value | None,
                          float_op: Callable[[Value], Value]) -> Value:
    """quantize(float_op(dequantize(x))) to y's scale and zero point (x's type where the
    node omits y's zero point)."""
    x_zero_point = _zero_point(b, x_zero_point, x)
    real = b.emit1(G.DequantizeLinearOp, x, x_scale, x_zero_point)
    y_zero_point = _zero_point(b, y_zero_point, x)
    return b.emit1(G.QuantizeLinearOp, float_op(real), y_scale, y_zero_point,
                   to=element(y_zero_point))


def _nchw(channels_last: int) -> None:
    if channels_last:
        raise Unsupported("channels_last=1 (NHWC) is not supported")


def qlinear_average_pool(b: OpBuilder, x: Value, x_scale: Value, x_zero_point: Value | None,
                         y_scale: Value, y_zero_point: Value | None = None, *,
                         kernel_shape: list[int], auto_pad: str = "NOTSET",
                         ceil_mode: int | None = None, channels_last: int = 0,
                         count_include_pad: int | None = None, pads: list[int] | None = None,
                         strides: list[int] | None = None) -> Value:
    _nchw(channels_last)
    window = pool_window(x, auto_pad, ceil_mode, None, kernel_shape, pads, strides)
    return b.emit1(Q.AvgPoolOp, x, x_scale, _zero_point(b, x_zero_point, x), y_scale,
                   _zero_point(b, y_zero_point, x), count_include_pad=count_include_pad,
                   **window)


def qlinear_global_average_pool(b: OpBuilder, x: Value, x_scale: Value,
                                x_zero_point: Value | None, y_scale: Value,
                                y_zero_point: Value | None = None, *,
                                channels_last: int = 0) -> Value:
    _nchw(channels_last)
    return b.emit1(Q.GlobalAvgPoolOp, x, x_scale, _zero_point(b, x_zero_point, x), y_scale,
                   _zero_point(b, y_zero_point, x))


@built_from_other_ops
def qlinear_leaky_relu(b: OpBuilder, x: Value, x_scale: Value, x_zero_point: Value | None,
                       y_scale: Value, y_zero_point: Value | None = None, *,
                       alpha: float = 0.01) -> Value:
    return _requantized_float_op(b, x, x_scale, x_zero_point, y_scale, y_zero_point,
                                 lambda v: b.emit1(G.LeakyReluOp, v, alpha=alpha))


@built_from_other_ops
def qlinear_sigmoid(b: OpBuilder, x: Value, x_scale: Value, x_zero_point: Value | None,
                    y_scale: Value, y_zero_point: Value | None = None) -> Value:
    return _requantized_float_op(b, x, x_scale, x_zero_point, y_scale, y_zero_point,
                                 lambda v: b.emit1(G.SigmoidOp, v))


def qlinear_concat(b: OpBuilder, y_scale: Value, y_zero_point: Value, *inputs: Value | None,
                   axis: int) -> Value:
    """qnn.concat of the (x, x_scale, x_zero_point) triples, y's parameters last."""
    if len(inputs) % 3 or any(v is None for v in inputs[::3]):
        raise Unsupported("inputs must be (x, x_scale, x_zero_point) triples")
    triples = [(x, scale, _zero_point(b, zp, x))  # type: ignore[arg-type]
               for x, scale, zp in zip(inputs[::3], inputs[1::3], inputs[2::3], strict=True)]
    return b.emit1(Q.ConcatOp, *[v for t in triples for v in t], y_scale, y_zero_point,
                   axis=axis)


OPS: dict[str, dict[int, OpFn]] = {
    "QuantizeLinear": dict.fromkeys(_VERSIONS, quantize_linear),
    "DequantizeLinear": dict.fromkeys(_VERSIONS, dequantize_linear),
    "MatMulInteger": {10: matmul_integer},
    "ConvInteger": {10: conv_integer},
    "QLinearMatMul": dict.fromkeys((10, 21), qlinear_matmul),
    "QLinearConv": {10: qlinear_conv},
}

# onnxruntime's com.microsoft ops (all at version 1 of that domain)
MICROSOFT_DOMAIN = "com.microsoft"
MICROSOFT_OPS: dict[str, OpFn] = {
    "QGemm": qgemm,
    "QLinearAdd": _binary(Q.AddOp),
    "QLinearMul": _binary(Q.MulOp),
    "QLinearConcat": qlinear_concat,
    "QLinearAveragePool": qlinear_average_pool,
    "QLinearGlobalAveragePool": qlinear_global_average_pool,
    "QLinearLeakyRelu": qlinear_leaky_relu,
    "QLinearSigmoid": qlinear_sigmoid,
}

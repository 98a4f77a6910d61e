"""ONNX importers: QuantizeLinear and DequantizeLinear as plain tensor ops."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, Signedness

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import OpBuilder, OpFn, Unsupported, Value, element
from infer.frontend.onnx_ops.elementwise import element_type

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


OPS: dict[str, dict[int, OpFn]] = {
    "QuantizeLinear": dict.fromkeys(_VERSIONS, quantize_linear),
    "DequantizeLinear": dict.fromkeys(_VERSIONS, dequantize_linear),
}

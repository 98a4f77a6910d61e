"""Linear quantization as plain tensor ops: QuantizeLinear and DequantizeLinear.

    quantize:   y = saturate(round_half_even(x / scale) + zero_point)
    dequantize: y = (x - zero_point) * scale

`scale` and the optional `zero_point` are per tensor (one element), per axis (1-D along
`axis`) or blocked (x's rank, `axis`'s dim split in blocks of `block_size`). The integer
arithmetic that consumes these is the qnn dialect's; here they are exact conversions.
"""

from __future__ import annotations

from typing import ClassVar

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.irdl import (
    AnyAttr,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.dims import Dim
from infer.dialects.graph.base import TRAITS, GraphOp, normalize_axis
from infer.dialects.graph.types import int_attr, is_float, numpy_dtype

# the integer types a quantized tensor may have, with their ranges
QUANTIZED_RANGES = {
    IntegerType(8): (-128, 127),
    IntegerType(8, Signedness.UNSIGNED): (0, 255),
    IntegerType(16): (-32768, 32767),
    IntegerType(16, Signedness.UNSIGNED): (0, 65535),
    IntegerType(4): (-8, 7),
    IntegerType(4, Signedness.UNSIGNED): (0, 15),
    IntegerType(2): (-2, 1),
    IntegerType(2, Signedness.UNSIGNED): (0, 3),
}
# the float types a quantized tensor may have: x / scale rounded to them (plus the zero
# point for f4E2M1; ONNX's reference ignores a float8 zero point, which must be 0)
QUANTIZED_FLOATS = (Float8E4M3FNType(), Float8E4M3FNUZType(), Float8E5M2Type(),
                    Float8E5M2FNUZType(), Float4E2M1FNType())



def quantized(x: np.ndarray, scale: np.ndarray, zero_point: np.ndarray | None, lo: int,
              hi: int) -> np.ndarray:
    """clamp(round_half_even(x / scale) + zero_point, lo, hi) as whole floats, NaN giving
    lo: x / scale in x's type, the parameters broadcast against x (the integer quantize's
    formula, which qnn.quantize and qnn.concat compute too)."""
    q = np.rint(x / scale)
    if zero_point is not None:
        q = q + zero_point.astype(np.float64)
    return np.clip(np.where(np.isnan(q), lo, q), lo, hi)


def dequantized(x: np.ndarray, scale: np.ndarray, zero_point: np.ndarray | None
                ) -> np.ndarray:
    """(x - zero_point) * scale in f32, the parameters broadcast against x (what
    qnn.dequantize and qnn.concat compute too)."""
    dx = x.astype(np.float32)
    if zero_point is not None:
        dx = dx - zero_point.astype(np.float32)
    return dx * scale.astype(np.float32)


class _LinearQuantOp(GraphOp):
    """What both ops share: the scale's and zero point's layout against x."""

    x = operand_def(TensorType)
    scale = operand_def(TensorType)
    zero_point = var_operand_def(TensorType)
    y = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(1))
    block_size = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def layout(cls, props, x: list[Dim], param: list[Dim], what: str, check: bool = True
               ) -> tuple[str, int]:
        """("tensor" | "axis" | "block", the normalized axis) for a scale or zero point of
        dims `param`; raises ValueError when they do not fit x (and with `check`, states
        the dims' relations, checked at run time where dynamic)."""
        require = D.require if check else (lambda *_: None)
        block = cls.prop(props, "block_size")
        if D.product(param) == 1 and len(param) <= 1 and not block:
            return "tensor", 0
        axis = normalize_axis(cls.prop(props, "axis"), len(x), "axis")
        if not block:
            if len(param) != 1:
                raise ValueError(f"{what} must be a scalar or 1-D without block_size")
            require(D.EQUAL, param[0], x[axis], f"{what}'s length and x's axis dim")
            return "axis", axis
        if block < 0 or len(param) != len(x):
            raise ValueError(f"blocked {what} must have x's rank and block_size > 0")
        for i, (p, d) in enumerate(zip(param, x, strict=True)):
            want = D.ceil_div(d, block) if i == axis else d
            require(D.EQUAL, p, want, f"{what}'s dim {i} and x's (blocks)")
        return "block", axis

    @classmethod
    def output_dims(cls, props, dims, consts):
        for param, what in zip(dims[1:], ("scale", "zero_point"), strict=False):
            cls.layout(props, dims[0], param, what)
        return [list(dims[0])]

    def expanded(self, value: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        """A scale or zero point broadcast to x's shape (blocks repeated)."""
        kind, axis = self.layout(self.properties, list(shape), list(value.shape), "param")
        if kind == "tensor":
            return value.reshape(())
        if kind == "axis":
            return value.reshape([-1 if i == axis else 1 for i in range(len(shape))])
        block = self.block_size.value.data
        return np.repeat(value, block, axis=axis).take(range(shape[axis]), axis=axis)


@irdl_op_definition
class QuantizeLinearOp(_LinearQuantOp):
    """y = clamp(round_half_even(x / scale) + zero_point) in y's integer type (NaN gives the
    type's minimum, as ONNX's reference). Half-precision x / scale is divided in f32 as
    onnxruntime does (ONNX's reference rounds the quotient to half first)."""

    name = "graph.quantize_linear"
    ONNX_OP: ClassVar[str | None] = "QuantizeLinear"
    to = prop_def(AnyAttr())
    # a float8 y: whether a quotient past its range saturates (else Inf or NaN)
    saturate = prop_def(IntegerAttr, default_value=int_attr(1))

    @classmethod
    def check(cls, props, types):
        x, scale = types[0], types[1]
        to = props.get("to")
        if not is_float(x.element_type) or x.element_type != scale.element_type:
            raise VerifyException("'graph.quantize_linear' x and scale must be one float type")
        if to not in QUANTIZED_RANGES and to not in QUANTIZED_FLOATS:
            raise VerifyException(f"'graph.quantize_linear' cannot quantize to {to}")
        if len(types) > 2 and types[2].element_type != to:
            raise VerifyException("'graph.quantize_linear' zero_point must have y's type")

    @classmethod
    def output_elements(cls, props, elements):
        return [props["to"]]

    def numpy(self, x: np.ndarray, scale: np.ndarray, zero_point: np.ndarray | None = None
              ) -> np.ndarray:
        if x.dtype.itemsize < 4:  # half precision divides in f32, as onnxruntime
            x, scale = x.astype(np.float32), scale.astype(np.float32)
        if self.to in QUANTIZED_FLOATS:
            y = (x / self.expanded(scale, x.shape)).astype(np.float32)
            dtype = numpy_dtype(self.to)
            if self.to == Float4E2M1FNType() and zero_point is not None:
                y = y + self.expanded(zero_point, x.shape).astype(np.float32)
            elif self.saturate.value.data:
                info = ml_dtypes.finfo(dtype)
                y = np.clip(y, float(info.min), float(info.max))
            return y.astype(dtype)
        zp = None if zero_point is None else self.expanded(zero_point, x.shape)
        q = quantized(x, self.expanded(scale, x.shape), zp, *QUANTIZED_RANGES[self.to])
        return q.astype(numpy_dtype(self.to))


@irdl_op_definition
class DequantizeLinearOp(_LinearQuantOp):
    """y = (x - zero_point) * scale, computed in f32 and rounded once to y's float type
    (scale's, or `to`)."""

    name = "graph.dequantize_linear"
    ONNX_OP: ClassVar[str | None] = "DequantizeLinear"
    to = opt_prop_def(AnyAttr())

    @classmethod
    def check(cls, props, types):
        x, scale = types[0], types[1]
        if x.element_type not in QUANTIZED_FLOATS and (
                not isinstance(x.element_type, IntegerType) or x.element_type == IntegerType(1)):
            raise VerifyException("'graph.dequantize_linear' x must be an integer or float8 "
                                  "tensor")
        if not is_float(scale.element_type):
            raise VerifyException("'graph.dequantize_linear' scale must be a float tensor")
        to = props.get("to")
        if to is not None and not is_float(to):
            raise VerifyException(f"'graph.dequantize_linear' cannot dequantize to {to}")
        if len(types) > 2 and types[2].element_type != x.element_type:
            raise VerifyException("'graph.dequantize_linear' zero_point must have x's type")

    @classmethod
    def output_elements(cls, props, elements):
        return [props.get("to") or elements[1]]

    def numpy(self, x: np.ndarray, scale: np.ndarray, zero_point: np.ndarray | None = None
              ) -> np.ndarray:
        zp = None if zero_point is None else self.expanded(zero_point, x.shape)
        return dequantized(x, self.expanded(scale, x.shape), zp)


__all__ = ["QUANTIZED_RANGES", "QUANTIZED_FLOATS", "DequantizeLinearOp", "QuantizeLinearOp",
           "dequantized", "quantized"]

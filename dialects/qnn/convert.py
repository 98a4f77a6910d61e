"""qnn's conversions between reals and quantized values: qnn.quantize, qnn.dequantize and
qnn.concat, which requantizes each input to the result's scale and zero point.

    qnn.quantize    saturate(round_half_even(x / scale) + zero_point), f32 x to the zero
                    point's 8-bit type (NaN gives the type's minimum)
    qnn.dequantize  (x - zero_point) * scale in f32, x 8-bit or int32 (whose zero point
                    is 0)
    qnn.concat      concat(r_i) along `axis`, r_i = x_i where its scale and zero point
                    are the result's (and its type too), else
                    qnn.quantize(qnn.dequantize(x_i, x_scale_i, x_zero_point_i),
                                 y_scale, y_zero_point)

The formulas are graph.quantize_linear's and graph.dequantize_linear's (their numpy forms
are one function each, `graph.quantized` and `graph.dequantized`); qnn.concat is what
onnxruntime's QLinearConcat computes (its lookup tables hold Q(DQ(x)), and an input in
the result's parameters is copied). The scales are f32 and positive (checked where they
are constants); qnn.quantize's and qnn.dequantize's scale and zero point are each per
tensor (one element) or 1-D along `axis`, qnn.concat's per tensor.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, TensorType, f32, i32
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects import graph as G
from infer.dialects.graph.base import TRAITS, GraphOp, normalize_axis
from infer.dialects.qnn.base import (
    CANONICALIZE,
    EIGHT_BIT,
    along_axis,
    check_per,
    check_positive,
    check_quantized,
    check_zero_point,
)


def _f32_scale(cls: type[GraphOp], t: TensorType, what: str) -> None:
    if t.element_type != f32:
        raise VerifyException(f"'{cls.name}': {what} must be f32, got {t}")
    if t.get_num_dims() > 1:
        raise VerifyException(f"'{cls.name}': {what} must be a scalar or 1-D, got {t}")


def _per_tensor(dims: list[D.Dim], what: str) -> None:
    if D.product(dims) != 1 or len(dims) > 1:
        raise ValueError(f"{what} must have one element (per tensor), got dims {dims}")


class _ConvertOp(GraphOp):
    """What qnn.quantize and qnn.dequantize share: x, an f32 scale and a zero point, each
    per tensor or 1-D along `axis` of x."""

    EXPANDED_BY: ClassVar[str] = CANONICALIZE
    x = operand_def(TensorType)
    scale = operand_def(TensorType)
    zero_point = operand_def(TensorType)
    y = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=G.int_attr(1))
    traits = TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        for k, what in ((1, "scale"), (2, "zero_point")):
            if dims[k] and dims[k][0] != 1:  # along the axis: it must be one of x's
                axis = normalize_axis(cls.prop(props, "axis"), len(x), "axis")
                check_per(dims[k], x[axis], f"{what} (one per tensor or along axis {axis})")
        check_positive(consts[1], "scale")
        return [list(x)]

    def parameters(self, x: np.ndarray, scale: np.ndarray, zero_point: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
        """The scale and zero point broadcast against x."""
        axis = self.axis.value.data
        return along_axis(scale, axis, x.ndim), along_axis(zero_point, axis, x.ndim)


@irdl_op_definition
class QuantizeOp(_ConvertOp):
    """saturate(round_half_even(x / scale) + zero_point): f32 x to the zero point's 8-bit
    type, graph.quantize_linear's formula."""

    name = "qnn.quantize"
    ONNX_OP: ClassVar[str | None] = None  # made by qnn-fold-qdq of a QuantizeLinear

    @classmethod
    def check(cls, props, types):
        x, scale, zp = types
        if x.element_type != f32:
            raise VerifyException(f"'{cls.name}': x must be f32, got {x}")
        _f32_scale(cls, scale, "scale")
        check_quantized(cls, zp, "zero_point")
        if zp.get_num_dims() > 1:
            raise VerifyException(f"'{cls.name}': zero_point must be a scalar or 1-D, "
                                  f"got {zp}")

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[2]]

    def numpy(self, x: np.ndarray, scale: np.ndarray, zero_point: np.ndarray) -> np.ndarray:
        lo, hi = G.QUANTIZED_RANGES[self.y.type.element_type]  # type: ignore[attr-defined]
        return G.quantized(x, *self.parameters(x, scale, zero_point), lo, hi)


@irdl_op_definition
class DequantizeOp(_ConvertOp):
    """(x - zero_point) * scale in f32: x 8-bit, or int32 with zero point 0 (a bias),
    graph.dequantize_linear's formula."""

    name = "qnn.dequantize"
    ONNX_OP: ClassVar[str | None] = None  # made by qnn-fold-qdq of a DequantizeLinear

    @classmethod
    def check(cls, props, types):
        x, scale, zp = types
        if x.element_type not in (*EIGHT_BIT, i32):
            raise VerifyException(f"'{cls.name}': x must be 8-bit integers or int32, got {x}")
        _f32_scale(cls, scale, "scale")
        check_zero_point(cls, zp, x, "zero_point")

    @classmethod
    def output_dims(cls, props, dims, consts):
        zp = consts[2]
        if zp is not None and zp.dtype == np.int32 and np.any(zp != 0):
            raise ValueError(f"an int32 x's zero_point must be 0, got {zp.tolist()}")
        return super().output_dims(props, dims, consts)

    @classmethod
    def output_elements(cls, props, elements):
        return [f32]

    def numpy(self, x: np.ndarray, scale: np.ndarray, zero_point: np.ndarray) -> np.ndarray:
        return G.dequantized(x, *self.parameters(x, scale, zero_point))


@irdl_op_definition
class ConcatOp(GraphOp):
    """concat along `axis` of 8-bit inputs, each given as (x, x_scale, x_zero_point), in
    the result's scale and zero point (the last two operands): an input in them is
    copied, any other requantized, qnn.quantize(qnn.dequantize(x)). Every scale is f32
    and every parameter per tensor; the result has y_zero_point's type (QLinearConcat)."""

    name = "qnn.concat"
    ONNX_OP: ClassVar[str | None] = "QLinearConcat"
    EXPANDED_BY: ClassVar[str] = CANONICALIZE
    inputs = var_operand_def(TensorType)
    y_scale = operand_def(TensorType)
    y_zero_point = operand_def(TensorType)
    y = result_def(TensorType)
    axis = prop_def(IntegerAttr)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        ins, sy, zy = types[:-2], types[-2], types[-1]
        if not ins or len(ins) % 3:
            raise VerifyException(f"'{cls.name}': the inputs must be (x, x_scale, "
                                  f"x_zero_point) triples, got {len(ins)} operands before "
                                  f"y_scale and y_zero_point")
        for i in range(0, len(ins), 3):
            x, s, z = ins[i:i + 3]
            check_quantized(cls, x, f"input {i // 3}")
            _f32_scale(cls, s, f"the scale of input {i // 3}")
            check_zero_point(cls, z, x, f"the zero point of input {i // 3}")
        _f32_scale(cls, sy, "y_scale")
        check_quantized(cls, zy, "y_zero_point")

    @classmethod
    def output_dims(cls, props, dims, consts):
        ins = dims[:-2]
        for i in range(0, len(ins), 3):
            _per_tensor(ins[i + 1], f"the scale of input {i // 3}")
            _per_tensor(ins[i + 2], f"the zero point of input {i // 3}")
            check_positive(consts[i + 1], f"the scale of input {i // 3}")
        _per_tensor(dims[-2], "y_scale")
        _per_tensor(dims[-1], "y_zero_point")
        check_positive(consts[-2], "y_scale")
        return G.ConcatOp.output_dims(props, ins[::3], consts[:-2:3])

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[-1]]

    def numpy(self, *operands: np.ndarray) -> np.ndarray:
        sy, zy = operands[-2].reshape(()), operands[-1].reshape(())
        lo, hi = G.QUANTIZED_RANGES[self.y.type.element_type]  # type: ignore[attr-defined]
        parts = []
        for i in range(0, len(operands) - 2, 3):
            x, s, z = operands[i], operands[i + 1].reshape(()), operands[i + 2].reshape(())
            if x.dtype == zy.dtype and s == sy and z == zy:
                parts.append(x)
            else:
                parts.append(G.quantized(G.dequantized(x, s, z), sy, zy, lo, hi))
        return np.concatenate([p.astype(zy.dtype) for p in parts], axis=self.axis.value.data)


__all__ = ["ConcatOp", "DequantizeOp", "QuantizeOp"]

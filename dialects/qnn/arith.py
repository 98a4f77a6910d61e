"""qnn's arithmetic: the int32 products (qnn.matmul, qnn.conv), qnn.requantize, and the
ops computing on dequantized values and requantizing the result (qnn.add, qnn.mul, the
pools). Each op's formula is in the package's docstring and its own."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType, i32
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects import graph as G
from infer.dialects.graph.base import TRAITS, GraphOp, normalize_axis
from infer.dialects.graph.numpy_semantics import conv_nchw, pool_nchw
from infer.dialects.qnn.base import (
    CANONICALIZE,
    along_axis,
    check_per,
    check_positive,
    check_quantized,
    check_zero_point,
    minus,
)


class _ProductOp(GraphOp):
    """What qnn.matmul and qnn.conv share: two 8-bit operands, then their zero points of
    their types; an int32 result; rewritten by qnn-canonicalize."""

    EXPANDED_BY: ClassVar[str] = CANONICALIZE

    @classmethod
    def check(cls, props, types):
        names = [name for name, _ in cls.get_irdl_definition().operands]
        for k in range(2):
            check_quantized(cls, types[k], names[k])
            check_zero_point(cls, types[k + 2], types[k], names[k + 2])

    @classmethod
    def output_elements(cls, props, elements):
        return [i32]


@irdl_op_definition
class MatMulOp(_ProductOp):
    """(a - a_zero_point) @ (b - b_zero_point) in int32, numpy.matmul's broadcasting."""

    name = "qnn.matmul"
    ONNX_OP: ClassVar[str | None] = "MatMulInteger"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    a_zero_point = operand_def(TensorType)
    b_zero_point = operand_def(TensorType)
    y = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        a, b, a_zp, b_zp = dims
        out = G.MatMulOp.output_dims(props, [a, b], consts[:2])
        check_per(a_zp, a[-2] if len(a) > 1 else 1, "a_zero_point (one per row of a)")
        check_per(b_zp, b[-1] if len(b) > 1 else 1, "b_zero_point (one per column of b)")
        return out

    def numpy(self, a: np.ndarray, b: np.ndarray, a_zp: np.ndarray, b_zp: np.ndarray
              ) -> np.ndarray:
        rows = a_zp.reshape(-1, 1) if a.ndim > 1 and a_zp.ndim == 1 else a_zp
        return np.matmul(minus(a, rows), minus(b, b_zp))


@irdl_op_definition
class ConvOp(_ProductOp):
    """conv(x - x_zero_point, w - w_zero_point) in int32: graph.conv's layout (NCHW),
    window properties and groups; w_zero_point per tensor or per output channel."""

    name = "qnn.conv"
    ONNX_OP: ClassVar[str | None] = "ConvInteger"
    x = operand_def(TensorType)
    w = operand_def(TensorType)
    x_zero_point = operand_def(TensorType)
    w_zero_point = operand_def(TensorType)
    y = result_def(TensorType)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    dilations = opt_prop_def(DenseArrayBase)
    group = prop_def(IntegerAttr, default_value=G.int_attr(1))
    traits = TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, w, x_zp, w_zp = dims
        out = G.ConvOp._conv_dims(props, [x, w])
        check_per(x_zp, 1, "x_zero_point (one per tensor)")
        check_per(w_zp, w[0], "w_zero_point (one per output channel)")
        return out

    def numpy(self, x: np.ndarray, w: np.ndarray, x_zp: np.ndarray, w_zp: np.ndarray
              ) -> np.ndarray:
        per_channel = w_zp.reshape(-1, *([1] * (w.ndim - 1)))
        return conv_nchw(self, [minus(x, x_zp), minus(w, per_channel)])  # type: ignore[arg-type]


@irdl_op_definition
class RequantizeOp(GraphOp):
    """saturate(round_half_even(x * (input_scale / output_scale)) + output_zero_point):
    int32 x to the zero point's 8-bit type. The multiplier is computed in the scales' type
    and applied in f32, as onnxruntime's requantization does; a 1-D scale is along
    `axis` of x."""

    name = "qnn.requantize"
    ONNX_OP: ClassVar[str | None] = None  # made for QLinearMatMul and QLinearConv
    EXPANDED_BY: ClassVar[str] = CANONICALIZE
    x = operand_def(TensorType)
    input_scale = operand_def(TensorType)
    output_scale = operand_def(TensorType)
    output_zero_point = operand_def(TensorType)
    y = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=G.int_attr(1))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        x, in_scale, out_scale, zp = types
        if x.element_type != i32:
            raise VerifyException(f"'{cls.name}': x must be int32, got {x}")
        for t, what in ((in_scale, "input_scale"), (out_scale, "output_scale")):
            if not G.is_float(t.element_type) or t.element_type != in_scale.element_type:
                raise VerifyException(f"'{cls.name}': the scales must be floats of one "
                                      f"type, got {in_scale} and {out_scale}")
            if t.get_num_dims() > 1:
                raise VerifyException(f"'{cls.name}': {what} must be a scalar or 1-D, "
                                      f"got {t}")
        check_quantized(cls, zp, "output_zero_point")
        if zp.get_num_dims() > 1:
            raise VerifyException(f"'{cls.name}': output_zero_point must be a scalar or "
                                  f"1-D, got {zp}")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        for k, what in ((1, "input_scale"), (2, "output_scale"), (3, "output_zero_point")):
            if dims[k] and dims[k][0] != 1:  # along the axis: it must be one of x's
                axis = normalize_axis(cls.prop(props, "axis"), max(len(x), 1), "axis")
                check_per(dims[k], x[axis] if x else 1, f"{what} (one per tensor or along axis "
                     f"{axis})")
        check_positive(consts[1], "input_scale")
        check_positive(consts[2], "output_scale")
        return [list(x)]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[3]]

    def numpy(self, x: np.ndarray, in_scale: np.ndarray, out_scale: np.ndarray,
              zp: np.ndarray) -> np.ndarray:
        lo, hi = G.QUANTIZED_RANGES[self.y.type.element_type]  # type: ignore[attr-defined]
        axis = self.axis.value.data
        multiplier = along_axis((in_scale / out_scale).astype(np.float32), axis, x.ndim)
        v = np.rint(x.astype(np.float32) * multiplier) + along_axis(zp, axis, x.ndim).astype(
            np.float32)
        return np.clip(v, lo, hi)


class _QuantizedBinaryOp(GraphOp):
    """What qnn.add and qnn.mul share: two 8-bit operands broadcast as numpy does, each
    with its scale and zero point, then the result's; every scale and zero point is per
    tensor (one element). The result has y_zero_point's type."""

    EXPANDED_BY: ClassVar[str] = CANONICALIZE
    a = operand_def(TensorType)
    a_scale = operand_def(TensorType)
    a_zero_point = operand_def(TensorType)
    b = operand_def(TensorType)
    b_scale = operand_def(TensorType)
    b_zero_point = operand_def(TensorType)
    y_scale = operand_def(TensorType)
    y_zero_point = operand_def(TensorType)
    y = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        a, sa, za, b, sb, zb, sy, zy = types
        for q, zp, what in ((a, za, "a"), (b, zb, "b")):
            check_quantized(cls, q, what)
            check_zero_point(cls, zp, q, f"{what}_zero_point")
        check_quantized(cls, zy, "y_zero_point")
        if not G.is_float(sa.element_type) or sb.element_type != sa.element_type or (
                sy.element_type != sa.element_type):
            raise VerifyException(f"'{cls.name}': the scales must be floats of one type, "
                                  f"got {sa}, {sb} and {sy}")

    @classmethod
    def output_dims(cls, props, dims, consts):
        names = [name for name, _ in cls.get_irdl_definition().operands]
        for k in (1, 2, 4, 5, 6, 7):
            if D.product(dims[k]) != 1 or len(dims[k]) > 1:
                raise ValueError(f"{names[k]} must have one element (per tensor), got "
                                 f"dims {dims[k]}")
        for k in (1, 4, 6):
            check_positive(consts[k], names[k])
        return [D.broadcast([dims[0], dims[3]])]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[7]]

    def saturated(self, v: np.ndarray, zp: np.ndarray) -> np.ndarray:
        lo, hi = G.QUANTIZED_RANGES[self.y.type.element_type]  # type: ignore[attr-defined]
        return np.clip(np.rint(v) + np.float32(zp.reshape(())), lo, hi)


@irdl_op_definition
class AddOp(_QuantizedBinaryOp):
    """saturate(round_half_even((a_scale * (a - a_zero_point) + b_scale * (b -
    b_zero_point)) / y_scale) + y_zero_point), in f32 (QLinearAdd's reference form)."""

    name = "qnn.add"
    ONNX_OP: ClassVar[str | None] = "QLinearAdd"

    def numpy(self, a: np.ndarray, sa: np.ndarray, za: np.ndarray, b: np.ndarray,
              sb: np.ndarray, zb: np.ndarray, sy: np.ndarray, zy: np.ndarray) -> np.ndarray:
        real_a = np.float32(sa.reshape(())) * minus(a, za.reshape(())).astype(np.float32)
        real_b = np.float32(sb.reshape(())) * minus(b, zb.reshape(())).astype(np.float32)
        return self.saturated((real_a + real_b) / np.float32(sy.reshape(())), zy)


@irdl_op_definition
class MulOp(_QuantizedBinaryOp):
    """The int32 product (a - a_zero_point) * (b - b_zero_point) times a_scale * b_scale
    / y_scale (in f32), plus y_zero_point, rounded: QLinearMul as onnxruntime computes it
    (the zero point added before rounding, which differs from rounding first on halves)."""

    name = "qnn.mul"
    ONNX_OP: ClassVar[str | None] = "QLinearMul"

    def numpy(self, a: np.ndarray, sa: np.ndarray, za: np.ndarray, b: np.ndarray,
              sb: np.ndarray, zb: np.ndarray, sy: np.ndarray, zy: np.ndarray) -> np.ndarray:
        product = minus(a, za.reshape(())) * minus(b, zb.reshape(()))
        multiplier = np.float32(sa.reshape(())) * np.float32(sb.reshape(()))
        multiplier = multiplier / np.float32(sy.reshape(()))
        lo, hi = G.QUANTIZED_RANGES[self.y.type.element_type]  # type: ignore[attr-defined]
        v = product.astype(np.float32) * multiplier + np.float32(zy.reshape(()))
        return np.clip(np.rint(v), lo, hi)


class _QuantizedPoolOp(GraphOp):
    """What qnn.avg_pool and qnn.global_avg_pool share: an 8-bit NCHW x with its scale
    and zero point, then the result's, each per tensor; the result has y_zero_point's
    type."""

    EXPANDED_BY: ClassVar[str] = CANONICALIZE
    x = operand_def(TensorType)
    x_scale = operand_def(TensorType)
    x_zero_point = operand_def(TensorType)
    y_scale = operand_def(TensorType)
    y_zero_point = operand_def(TensorType)
    y = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        x, sx, zx, sy, zy = types
        check_quantized(cls, x, "x")
        check_zero_point(cls, zx, x, "x_zero_point")
        check_quantized(cls, zy, "y_zero_point")
        if not G.is_float(sx.element_type) or sy.element_type != sx.element_type:
            raise VerifyException(f"'{cls.name}': the scales must be floats of one type, "
                                  f"got {sx} and {sy}")
        if x.get_num_dims() < 3:
            raise VerifyException(f"'{cls.name}': x must have rank >= 3 (N, C, spatial "
                                  f"dims), got {x}")

    @classmethod
    def check_parameters(cls, dims, consts) -> None:
        names = [name for name, _ in cls.get_irdl_definition().operands]
        for k in range(1, 5):
            if D.product(dims[k]) != 1 or len(dims[k]) > 1:
                raise ValueError(f"{names[k]} must have one element (per tensor), got "
                                 f"dims {dims[k]}")
        check_positive(consts[1], "x_scale")
        check_positive(consts[3], "y_scale")

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[4]]

    def saturated(self, v: np.ndarray) -> np.ndarray:
        lo, hi = G.QUANTIZED_RANGES[self.y.type.element_type]  # type: ignore[attr-defined]
        return np.clip(np.rint(v), lo, hi)


@irdl_op_definition
class GlobalAvgPoolOp(_QuantizedPoolOp):
    """The int32 sum of x - x_zero_point over each channel's window (every dim after N
    and C), requantized by x_scale / (y_scale * count) as QLinearGlobalAveragePool
    (onnxruntime's integer sum and f32 multiplier). The spatial dims are static (the
    count is part of the multiplier)."""

    name = "qnn.global_avg_pool"
    ONNX_OP: ClassVar[str | None] = "QLinearGlobalAveragePool"

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if not all(isinstance(d, int) for d in x[2:]):
            raise ValueError(f"the spatial dims must be static (their count scales the "
                             f"result), got {D.format_shape(x)}")
        cls.check_parameters(dims, consts)
        return [[x[0], x[1], *([1] * (len(x) - 2))]]

    def numpy(self, x: np.ndarray, sx: np.ndarray, zx: np.ndarray, sy: np.ndarray,
              zy: np.ndarray) -> np.ndarray:
        axes = tuple(range(2, x.ndim))
        total = minus(x, zx.reshape(())).sum(axis=axes, keepdims=True, dtype=np.int32)
        count = np.float32(int(np.prod(x.shape[2:])))
        multiplier = np.float32(sx.reshape(())) / (np.float32(sy.reshape(())) * count)
        return self.saturated(np.rint(total.astype(np.float32) * multiplier)
                              + np.float32(zy.reshape(())))


@irdl_op_definition
class AvgPoolOp(_QuantizedPoolOp):
    """round_half_even(average_pool(x_scale * (x - x_zero_point)) / y_scale
    + y_zero_point), saturated, in f32: graph.average_pool's window properties. The
    zero point is added before rounding, as QLinearAveragePool does (the spec's
    QuantizeLinear rounds first: the two differ on halves)."""

    name = "qnn.avg_pool"
    ONNX_OP: ClassVar[str | None] = "QLinearAveragePool"
    kernel_shape = prop_def(DenseArrayBase)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    dilations = opt_prop_def(DenseArrayBase)
    ceil_mode = prop_def(IntegerAttr, default_value=G.int_attr(0))
    count_include_pad = prop_def(IntegerAttr, default_value=G.int_attr(0))

    @classmethod
    def output_dims(cls, props, dims, consts):
        cls.check_parameters(dims, consts)
        return G.AveragePoolOp.output_dims(props, dims[:1], consts[:1])

    def numpy(self, x: np.ndarray, sx: np.ndarray, zx: np.ndarray, sy: np.ndarray,
              zy: np.ndarray) -> np.ndarray:
        real = np.float32(sx.reshape(())) * minus(x, zx.reshape(())).astype(np.float32)
        average = pool_nchw(self, real, False).astype(np.float32)  # type: ignore[arg-type]
        return self.saturated(average / np.float32(sy.reshape(()))
                              + np.float32(zy.reshape(())))


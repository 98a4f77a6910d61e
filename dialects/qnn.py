"""The `qnn` dialect: quantized ops beside the float ops of `graph` (TVM's QNN).

A quantized tensor holds 8-bit integers q standing for the reals (q - zero_point) * scale.
The ops keep the integers, zero points and scales apart, so each states what it computes:

    qnn.matmul      (a - a_zero_point) @ (b - b_zero_point), in int32        MatMulInteger
    qnn.conv        conv(x - x_zero_point, w - w_zero_point), in int32       ConvInteger
    qnn.requantize  saturate(round_half_even(x * input_scale / output_scale)
                             + output_zero_point), x int32, the result 8-bit
    qnn.add         saturate(round_half_even((a_scale * (a - a_zero_point)
                             + b_scale * (b - b_zero_point)) / y_scale) + y_zero_point)
    qnn.mul         saturate(round_half_even((a - a_zero_point) * (b - b_zero_point)
                             * (a_scale * b_scale / y_scale) + y_zero_point))
    qnn.global_avg_pool
                    qnn.requantize(sum over H, W... of (x - x_zero_point),
                                   x_scale, y_scale * count, y_zero_point)
    qnn.avg_pool    saturate(round_half_even(average_pool(x_scale * (x - x_zero_point))
                             / y_scale + y_zero_point))

QLinearMatMul and QLinearConv are qnn.matmul / qnn.conv (plus the int32 bias), then
qnn.requantize with input_scale = a_scale * b_scale. Zero points are operands, a
constant 0 where the model gives none: per tensor (one element) or 1-D, per row of a and
column of b for qnn.matmul, per output channel of w for qnn.conv; qnn.add and qnn.mul
and the pools (QLinearAdd, QLinearMul, QLinearAveragePool, QLinearGlobalAveragePool) take
every scale and zero point per tensor. Scales are floats of one
type, per tensor or 1-D along qnn.requantize's `axis`, and must be positive (checked
where they are constants). `qnn-canonicalize` (lowering/qnn_canonicalize.py) rewrites
every op into graph ops on int32 and f32, except a requantized conv or matmul by constant
weights, which becomes one of the two ops the integer kernels compute:

    qnn.conv_requant    clamp(round_half_even(f32(conv(x, w) + bias) * multiplier)
                        + y_zero_point, lo, hi), x padded with x_zero_point
    qnn.matmul_requant  the same with x @ w

w holds w - w_zero_point and the bias the zero points' terms; `qnn-legalize` packs w for
the target's kernel form (`kernel`, `lanes`); lowering/graph_ops/qnn_int8.py lowers them.

The syntax is graph's (dialects/graph/__init__.py):

    %y = qnn.matmul %a, %b, %a_zp, %b_zp : (tensor<2x4xui8>, tensor<4x3xui8>, tensor<ui8>,
         tensor<ui8>) -> tensor<2x3xi32>
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    f32,
    i32,
)
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects import graph as G
from infer.dialects.graph.base import TRAITS, GraphOp, normalize_axis
from infer.dialects.graph.evaluate import conv_nchw, pool_nchw

EIGHT_BIT = (IntegerType(8), IntegerType(8, Signedness.UNSIGNED))
# The pass that rewrites every qnn op into graph ops before the lowering.
CANONICALIZE = "qnn-canonicalize"


def _quantized(cls: type[GraphOp], t: TensorType, what: str) -> None:
    if t.element_type not in EIGHT_BIT:
        raise VerifyException(f"'{cls.name}': {what} must be 8-bit integers, got {t}")


def _zero_point(cls: type[GraphOp], zp: TensorType, of: TensorType, what: str) -> None:
    if zp.element_type != of.element_type:
        raise VerifyException(f"'{cls.name}': {what} must be {of.element_type} like its "
                              f"operand, got {zp}")
    if zp.get_num_dims() > 1:
        raise VerifyException(f"'{cls.name}': {what} must be a scalar or 1-D, got {zp}")


def _per(length: list[D.Dim], dim: D.Dim, what: str) -> None:
    """A 1-D zero point or scale has one element, or one per `dim`."""
    if length:
        if isinstance(length[0], int) and isinstance(dim, int) and length[0] not in (1, dim):
            raise ValueError(f"{what} has {length[0]} elements, not 1"
                             + (f" or {dim}" if dim != 1 else ""))
        D.require(D.BROADCAST_TO, length[0], dim, what)


def _positive(value: np.ndarray | None, what: str) -> None:
    if value is not None and not bool(np.all(np.asarray(value, np.float64) > 0)):
        raise ValueError(f"{what} must be positive, got {np.asarray(value).tolist()}")


def _minus(q: np.ndarray, zero_point: np.ndarray) -> np.ndarray:
    return q.astype(np.int32) - zero_point.astype(np.int32)


class _ProductOp(GraphOp):
    """What qnn.matmul and qnn.conv share: two 8-bit operands, then their zero points of
    their types; an int32 result; rewritten by qnn-canonicalize."""

    EXPANDED_BY: ClassVar[str] = CANONICALIZE

    @classmethod
    def check(cls, props, types):
        names = [name for name, _ in cls.get_irdl_definition().operands]
        for k in range(2):
            _quantized(cls, types[k], names[k])
            _zero_point(cls, types[k + 2], types[k], names[k + 2])

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
        _per(a_zp, a[-2] if len(a) > 1 else 1, "a_zero_point (one per row of a)")
        _per(b_zp, b[-1] if len(b) > 1 else 1, "b_zero_point (one per column of b)")
        return out

    def numpy(self, a: np.ndarray, b: np.ndarray, a_zp: np.ndarray, b_zp: np.ndarray
              ) -> np.ndarray:
        rows = a_zp.reshape(-1, 1) if a.ndim > 1 and a_zp.ndim == 1 else a_zp
        return np.matmul(_minus(a, rows), _minus(b, b_zp))


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
        _per(x_zp, 1, "x_zero_point (one per tensor)")
        _per(w_zp, w[0], "w_zero_point (one per output channel)")
        return out

    def numpy(self, x: np.ndarray, w: np.ndarray, x_zp: np.ndarray, w_zp: np.ndarray
              ) -> np.ndarray:
        per_channel = w_zp.reshape(-1, *([1] * (w.ndim - 1)))
        return conv_nchw(self, [_minus(x, x_zp), _minus(w, per_channel)])  # type: ignore[arg-type]


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
        _quantized(cls, zp, "output_zero_point")
        if zp.get_num_dims() > 1:
            raise VerifyException(f"'{cls.name}': output_zero_point must be a scalar or "
                                  f"1-D, got {zp}")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        for k, what in ((1, "input_scale"), (2, "output_scale"), (3, "output_zero_point")):
            if dims[k] and dims[k][0] != 1:  # along the axis: it must be one of x's
                axis = normalize_axis(cls.prop(props, "axis"), max(len(x), 1), "axis")
                _per(dims[k], x[axis] if x else 1, f"{what} (one per tensor or along axis "
                     f"{axis})")
        _positive(consts[1], "input_scale")
        _positive(consts[2], "output_scale")
        return [list(x)]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[3]]

    def numpy(self, x: np.ndarray, in_scale: np.ndarray, out_scale: np.ndarray,
              zp: np.ndarray) -> np.ndarray:
        lo, hi = G.QUANTIZED_RANGES[self.y.type.element_type]  # type: ignore[attr-defined]
        def shaped(v: np.ndarray) -> np.ndarray:
            if v.ndim != 1 or v.size == 1:
                return v.reshape(())
            along = [1] * x.ndim
            along[normalize_axis(self.axis.value.data, x.ndim, "axis")] = -1
            return v.reshape(along)
        multiplier = shaped((in_scale / out_scale).astype(np.float32))
        v = np.rint(x.astype(np.float32) * multiplier) + shaped(zp).astype(np.float32)
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
            _quantized(cls, q, what)
            _zero_point(cls, zp, q, f"{what}_zero_point")
        _quantized(cls, zy, "y_zero_point")
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
            _positive(consts[k], names[k])
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
        real_a = np.float32(sa.reshape(())) * _minus(a, za.reshape(())).astype(np.float32)
        real_b = np.float32(sb.reshape(())) * _minus(b, zb.reshape(())).astype(np.float32)
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
        product = _minus(a, za.reshape(())) * _minus(b, zb.reshape(()))
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
        _quantized(cls, x, "x")
        _zero_point(cls, zx, x, "x_zero_point")
        _quantized(cls, zy, "y_zero_point")
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
        _positive(consts[1], "x_scale")
        _positive(consts[3], "y_scale")

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
        total = _minus(x, zx.reshape(())).sum(axis=axes, keepdims=True, dtype=np.int32)
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
        real = np.float32(sx.reshape(())) * _minus(x, zx.reshape(())).astype(np.float32)
        average = pool_nchw(self, real, False).astype(np.float32)  # type: ignore[arg-type]
        return self.saturated(average / np.float32(sy.reshape(()))
                              + np.float32(zy.reshape(())))


# The integer kernel forms qnn-legalize picks (the lowering's `kernel` property):
#   vnni   four u8 x s8 products summed into each i32 lane (vpdpbusd): x as u8 (s8 x is
#          x + 128, the bias less 128 * sum(w)), w in s8
#   pairs  two i16 x i16 products summed into each i32 lane (vpmaddwd): x and w widened
#          to i16, so no product saturates (vpmaddubsw's u8 x s8 pairs would)
KERNELS = {"vnni": 4, "pairs": 2}  # form -> 8/16-bit values per i32 lane
LANES = (4, 8, 16)  # i32 lanes of a vector register: SSE, AVX2, AVX-512


def packed_words(k: int, kernel: str) -> int:
    """i32 words holding k values of one row in `kernel`'s form (zeros pad the last)."""
    return -(-k // KERNELS[kernel])


class _RequantizedProductOp(GraphOp):
    """What qnn.conv_requant and qnn.matmul_requant share (see each): an 8-bit x, integer
    weights w, an int32 bias, an f32 multiplier per output channel (or one), the result's
    8-bit zero point (a scalar whose type the result has), and as properties x's zero
    point, the clamp [lo, hi] and, once qnn-legalize has packed w, the kernel form."""

    x = operand_def(TensorType)
    w = operand_def(TensorType)
    bias = operand_def(TensorType)
    multiplier = operand_def(TensorType)
    y_zero_point = operand_def(TensorType)
    y = result_def(TensorType)
    x_zero_point = prop_def(IntegerAttr)
    lo = prop_def(IntegerAttr)
    hi = prop_def(IntegerAttr)
    kernel = opt_prop_def(StringAttr)
    lanes = opt_prop_def(IntegerAttr)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        x, w, bias, mult, zp = types
        _quantized(cls, x, "x")
        _quantized(cls, zp, "y_zero_point")
        if zp.get_num_dims() != 0:
            raise VerifyException(f"'{cls.name}': y_zero_point must be a scalar, got {zp}")
        kernel = props.get("kernel")
        want = IntegerType(16) if kernel is None else i32
        if w.element_type != want:
            raise VerifyException(f"'{cls.name}': w must be {want} "
                                  f"({'packed' if kernel else 'before qnn-legalize'}), got {w}")
        if kernel is not None and (kernel.data not in KERNELS or "lanes" not in props
                                   or props["lanes"].value.data not in LANES):
            raise VerifyException(f"'{cls.name}': kernel must be one of {sorted(KERNELS)} "
                                  f"with lanes one of {LANES}")
        if bias.element_type != i32 or bias.get_num_dims() != 1:
            raise VerifyException(f"'{cls.name}': bias must be 1-D int32, got {bias}")
        if mult.element_type != f32 or mult.get_num_dims() != 1:
            raise VerifyException(f"'{cls.name}': multiplier must be 1-D f32, got {mult}")
        lo, hi = G.QUANTIZED_RANGES[zp.element_type]
        clamp = (props["lo"].value.data, props["hi"].value.data)
        if not lo <= clamp[0] <= clamp[1] <= hi:
            raise VerifyException(f"'{cls.name}': the clamp {list(clamp)} must lie in "
                                  f"[{lo}, {hi}]")

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[4]]

    def x_offset(self) -> int:
        """What the kernel adds to x: 128 where the vnni form reads s8 x as u8."""
        signed = self.x.type.element_type == IntegerType(8)  # type: ignore[attr-defined]
        return 128 if signed and self.kernel is not None and self.kernel.data == "vnni" else 0

    def requantized(self, acc: np.ndarray, mult: np.ndarray, zp: np.ndarray) -> np.ndarray:
        """clamp(round_half_even(f32(acc) * multiplier) + y_zero_point, lo, hi)."""
        v = np.rint(acc.astype(np.int32).astype(np.float32) * mult)
        return np.clip(v + np.float32(zp), self.lo.value.data, self.hi.value.data)

    def unpacked(self, w: np.ndarray, k: int) -> np.ndarray:
        """Rows of k weights from packed i32 rows [..., words]: the inverse of
        qnn-legalize's packing."""
        if self.kernel is None:
            return w.astype(np.int64)
        per = KERNELS[self.kernel.data]
        values = w.view(np.int8 if per == 4 else np.int16)
        return values.reshape(*w.shape[:-1], -1)[..., :k].astype(np.int64)


def channels_inner(channels: int, kernel: str, strides: list[int]) -> bool:
    """Whether a packed conv's k runs over (tap, channel), channels innermost, so that a
    word holds channels of one tap (what the kernel reading x in place needs: unit
    strides, whole words of channels), rather than over (channel, tap)."""
    return all(v == 1 for v in strides) and channels % KERNELS[kernel] == 0


def conv_words(channels: int, taps: int, kernel: str, strides: list[int]) -> int:
    """i32 words of one output channel's weights packed in `kernel`'s form."""
    if channels_inner(channels, kernel, strides):
        return taps * channels // KERNELS[kernel]
    return packed_words(channels * taps, kernel)


@irdl_op_definition
class ConvRequantOp(_RequantizedProductOp):
    """clamp(round_half_even(f32(acc) * multiplier) + y_zero_point, lo, hi) with
    acc = sum over each window of x * w + bias in int32, x padded with x_zero_point (so a
    bias that folds -x_zero_point * sum(w) gives conv(x - x_zero_point, w) + b exactly).
    w is [M, C/group, *kernel_shape] in i16 (qnn-canonicalize's w - w_zero_point); packed
    by qnn-legalize, [M, words] in i32, the row's C/group * prod(kernel) values in
    `kernel`'s form, k over (channel, tap), or (tap, channel) where `channels_inner`.
    bias and multiplier are [M] (multiplier may be [1])."""

    name = "qnn.conv_requant"
    ONNX_OP: ClassVar[str | None] = None  # made by qnn-canonicalize
    kernel_shape = prop_def(DenseArrayBase)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    dilations = opt_prop_def(DenseArrayBase)
    group = prop_def(IntegerAttr, default_value=G.int_attr(1))

    def channels_inner(self) -> bool:
        """Whether packed w's k runs over (tap, channel) (see `channels_inner`)."""
        assert self.kernel is not None
        cg = self.x.type.get_shape()[1] // self.group.value.data  # type: ignore[attr-defined]
        strides = list(self.strides.get_values()) if self.strides else [1]
        return channels_inner(cg, self.kernel.data, strides)  # type: ignore[arg-type]

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, w, bias, mult = dims[:4]
        kernel = list(cls.prop(props, "kernel_shape"))
        group = cls.prop(props, "group")
        cg = x[1] // group if isinstance(x[1], int) else x[1]
        if isinstance(x[1], int) and x[1] % group:
            raise ValueError(f"input channels {x[1]} not divisible by group {group}")
        expect = 2 if "kernel" in props else 2 + len(kernel)
        if len(w) != expect:
            raise ValueError(f"w {D.format_shape(w)} must have rank {expect}")
        if "kernel" in props:
            words = conv_words(int(cg), int(np.prod(kernel)), props["kernel"].data,
                               cls.prop(props, "strides") or [1] * len(kernel))
            if w[1] != words:
                raise ValueError(f"w {D.format_shape(w)} must hold {words} words a row")
        elif w[2:] != kernel:
            raise ValueError(f"w {D.format_shape(w)} must have the kernel {kernel}")
        out = G.ConvOp._conv_dims(props, [x, [w[0], cg, *kernel]])
        if bias != [w[0]] or mult not in ([1], [w[0]]):
            raise ValueError(f"bias {D.format_shape(bias)} and multiplier "
                             f"{D.format_shape(mult)} must be [{w[0]}] (multiplier: or [1])")
        return out

    def numpy(self, x: np.ndarray, w: np.ndarray, bias: np.ndarray, mult: np.ndarray,
              zp: np.ndarray) -> np.ndarray:
        kernel = list(self.kernel_shape.get_values())
        cg = x.shape[1] // self.group.value.data
        taps = int(np.prod(kernel))
        if self.kernel is not None and self.channels_inner():
            words = self.unpacked(w, w.shape[1] * KERNELS[self.kernel.data])
            w = words.reshape(w.shape[0], *kernel, -1)[..., :cg]
            w = np.moveaxis(w, -1, 1)
        else:
            w = self.unpacked(w, cg * taps).reshape(w.shape[0], cg, *kernel)
        zx = self.x_zero_point.value.data + self.x_offset()
        x = x.astype(np.int64) + self.x_offset()
        acc = conv_nchw(self, [x - zx, w]).astype(np.int64)  # type: ignore[arg-type]
        shape = (-1, *([1] * (x.ndim - 2)))
        acc = acc + (zx * w.reshape(w.shape[0], -1).sum(1) + bias).reshape(shape)
        return self.requantized(acc, mult.reshape(shape), zp)


@irdl_op_definition
class MatMulRequantOp(_RequantizedProductOp):
    """clamp(round_half_even(f32(x @ w + bias) * multiplier) + y_zero_point, lo, hi), the
    product in int32: x [..., M, K], w [K, N] in i16 (w - w_zero_point); packed by
    qnn-legalize, panels [P, words, lanes] in i32 (column j in panel j // lanes, the
    column's K values in `kernel`'s form), bias and multiplier then [P * lanes] (zeros
    past N). Before, bias is [N] and the multiplier [N] or [1]."""

    name = "qnn.matmul_requant"
    ONNX_OP: ClassVar[str | None] = None  # made by qnn-canonicalize
    n = prop_def(IntegerAttr)

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, w, bias, mult = dims[:4]
        n = cls.prop(props, "n")
        if len(x) < 2:
            raise ValueError(f"x {D.format_shape(x)} must have rank >= 2")
        if "kernel" in props:
            lanes = props["lanes"].value.data
            k = x[-1]
            if len(w) != 3 or w[2] != lanes or w[0] != -(-n // lanes) or (
                    isinstance(k, int) and w[1] != packed_words(k, props["kernel"].data)):
                raise ValueError(f"w {D.format_shape(w)} must be panels [P, words, {lanes}] "
                                 f"of {n} columns")
            width = w[0] * lanes
            if bias != [width] or mult != [width]:
                raise ValueError(f"bias and multiplier must be [{width}]")
        else:
            if len(w) != 2 or w[1] != n or (isinstance(x[-1], int) and w[0] != x[-1]):
                raise ValueError(f"w {D.format_shape(w)} must be [K, {n}]")
            if bias != [n] or mult not in ([1], [n]):
                raise ValueError(f"bias {D.format_shape(bias)} and multiplier "
                                 f"{D.format_shape(mult)} must be [{n}] (multiplier: or [1])")
        return [[*x[:-1], n]]

    def numpy(self, x: np.ndarray, w: np.ndarray, bias: np.ndarray, mult: np.ndarray,
              zp: np.ndarray) -> np.ndarray:
        n, k = self.n.value.data, x.shape[-1]
        if self.kernel is not None:  # panels [P, words, L] -> [K, N]
            w = self.unpacked(np.ascontiguousarray(w.transpose(0, 2, 1)), k)
            w = w.transpose(1, 0, 2).reshape(k, -1)[:, :n]
        acc = (x.astype(np.int64) + self.x_offset()) @ w.astype(np.int64)
        return self.requantized(acc + bias[:n], mult[:n] if mult.size > 1 else mult, zp)


QNN = Dialect("qnn", [MatMulOp, ConvOp, RequantizeOp, AddOp, MulOp, GlobalAvgPoolOp,
                      AvgPoolOp, ConvRequantOp, MatMulRequantOp])

__all__ = ["CANONICALIZE", "EIGHT_BIT", "KERNELS", "LANES", "QNN", "AddOp", "AvgPoolOp",
           "ConvOp", "ConvRequantOp", "GlobalAvgPoolOp", "MatMulOp", "MatMulRequantOp", "MulOp",
           "RequantizeOp", "channels_inner", "conv_words", "packed_words"]

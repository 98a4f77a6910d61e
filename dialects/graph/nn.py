"""Neural-network ops: convolution, pooling and normalization (NCHW)."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar, cast

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    f32,
    i32,
)
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.dims import Dim
from infer.dialects.graph.base import (
    TRAITS,
    GraphOp,
    check_broadcasts_to,
    normalize_axis,
    same_element_type,
    spatial_attrs,
    tile_sizes,
    window_out,
)
from infer.dialects.graph.elementwise import apply_activation, check_activation
from infer.dialects.graph.numpy_semantics import conv_nchw, pool_nchw, work
from infer.dialects.graph.types import float_attr, int_attr, is_float


class ConvLikeOp(GraphOp, ABC):
    """Operands and properties shared by graph.conv and graph.conv_nchwc: X, W, then
    optionally the bias B [M] and, after it, a summand Z of Y's shape (a residual Add fused
    by the graph optimizer; B is then present, zero if need be);
    Y = activation(conv(X, W) + B + Z)."""

    X = operand_def(TensorType)
    W = operand_def(TensorType)
    B = var_operand_def(TensorType)
    Y = result_def(TensorType)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    dilations = opt_prop_def(DenseArrayBase)
    group = prop_def(IntegerAttr, default_value=int_attr(1))
    activation = opt_prop_def(StringAttr)
    activation_params = opt_prop_def(DenseArrayBase)
    traits = TRAITS
    FLOAT_ONLY: ClassVar[bool] = True
    F16_WEIGHT: ClassVar[int | None] = 1

    @classmethod
    def check(cls, props, types):
        same_element_type(cls, types)
        check_activation(cls, props)
        if len(types) > 4:
            raise VerifyException(f"'{cls.name}' takes at most a bias and a summand")


# A pointwise conv's register tile: accumulator vectors and their f32 lanes, the
# discardable attribute `pointwise_tile = array<i64: accumulators, lanes>` that
# select-conv-tile writes; AVX2's where absent (12 of its 16 registers, 8 lanes).
POINTWISE_TILE_ATTR = "pointwise_tile"
DEFAULT_POINTWISE_TILE = (12, 8)


@irdl_op_definition
class ConvOp(ConvLikeOp):
    """N-D convolution, NCHW layout; pads are [begin..., end...] (auto_pad resolved).

    Y = activation(conv(X, W) + B + Z), B and Z optional (see ConvLikeOp). A pointwise
    conv (`is_pointwise`) runs as small GEMMs with register tiles of `pointwise_tile`.
    """

    name = "graph.conv"
    ONNX_OP: ClassVar[str | None] = "Conv"
    FLOAT_ONLY: ClassVar[bool] = False  # floats, and int32 (qnn.conv's canonical form)

    def is_pointwise(self) -> bool:
        """A 1x1 kernel at unit strides without pads: a GEMM over the flattened plane."""
        kernel = self.W.type.get_shape()[2:]  # type: ignore[attr-defined]
        rank = len(kernel)
        return (all(k == 1 for k in kernel)
                and all(v == 1 for v in (self.strides.get_values() if self.strides else []))
                and not any(self.pads.get_values() if self.pads else [0] * 2 * rank))

    def pointwise_tile(self) -> tuple[int, int]:
        """(accumulators, lanes) of the pointwise kernel's register tile: the attribute,
        else DEFAULT_POINTWISE_TILE."""
        return tile_sizes(self, POINTWISE_TILE_ATTR, DEFAULT_POINTWISE_TILE,
                          "accumulators, lanes")

    @classmethod
    def check(cls, props, types):
        if not (is_float(types[0].element_type) or types[0].element_type == i32):
            raise VerifyException(f"'{cls.name}' expects a floating-point or int32 tensor, "
                                  f"got {types[0]}")
        super().check(props, types)

    @classmethod
    def output_dims(cls, props, dims, consts):
        out = cls._conv_dims(props, dims[:3])
        check_summand(dims, out[0])
        return out

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        return apply_activation(self, conv_nchw(self, x))

    @classmethod
    def _conv_dims(cls, props, dims):
        x, w = dims[0], dims[1]
        if len(x) < 3 or len(w) != len(x):
            raise ValueError(
                f"X {D.format_shape(x)} and W {D.format_shape(w)} must have one rank >= 3"
            )
        n = len(x) - 2
        kernel = w[2:]
        if not all(isinstance(k, int) for k in kernel):
            raise ValueError("kernel dims must be static")
        g = cls.prop(props, "group")
        if g < 1:
            raise ValueError(f"group must be >= 1, got {g}")
        c_in, m = x[1], w[0]
        if isinstance(m, int) and m % g:
            raise ValueError(f"output channels {m} not divisible by group {g}")
        if isinstance(c_in, int) and isinstance(w[1], int) and c_in != w[1] * g:
            raise ValueError(f"input channels {c_in} != {w[1]} x group {g}")
        D.require(D.EQUAL, c_in, w[1] * g, "input channels and W's x group")
        if len(dims) == 3 and (len(dims[2]) != 1 or
                               (isinstance(dims[2][0], int) and isinstance(m, int)
                                and dims[2][0] != m)):
            raise ValueError(f"bias {D.format_shape(dims[2])} must be [{m}]")
        if len(dims) == 3:
            D.require(D.EQUAL, dims[2][0], m, "bias and output channels")
        strides, dilations, pads = spatial_attrs(props, n, cast(list[int], kernel))
        spatial = [
            window_out(x[2 + i], cast(int, kernel[i]), strides[i], dilations[i], pads[i],
                       pads[n + i])
            for i in range(n)
        ]
        return [[x[0], m, *spatial]]


class PoolOp(GraphOp, ABC):
    X = operand_def(TensorType)
    Y = result_def(TensorType)
    kernel_shape = prop_def(DenseArrayBase)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    dilations = opt_prop_def(DenseArrayBase)
    ceil_mode = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS
    FLOAT_ONLY: ClassVar[bool] = True

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(x) < 3:
            raise ValueError(f"input {D.format_shape(x)} must have rank >= 3")
        n = len(x) - 2
        kernel = cls.prop(props, "kernel_shape")
        strides, dilations, pads = spatial_attrs(props, n, kernel)
        ceil = bool(cls.prop(props, "ceil_mode"))
        spatial = [
            window_out(x[2 + i], kernel[i], strides[i], dilations[i], pads[i], pads[n + i], ceil)
            for i in range(n)
        ]
        return [[x[0], x[1], *spatial]]

    def pooled(self, x: np.ndarray, is_max: bool) -> np.ndarray:
        """The max or average pool of NCHW x by this op's window (its ceil mode too)."""
        return pool_nchw(self, x, is_max, bool(self.ceil_mode.value.data))


@irdl_op_definition
class MaxPoolOp(PoolOp):
    name = "graph.max_pool"
    ONNX_OP: ClassVar[str | None] = "MaxPool"
    FLOAT_ONLY: ClassVar[bool] = False  # and 8-bit integers, as ONNX allows

    @classmethod
    def check(cls, props, types):
        super().check(props, types)
        _max_pool_element(cls, types[0])

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return self.pooled(x, True)


def _max_pool_element(cls: type[GraphOp], t: TensorType) -> None:
    e = t.element_type
    if not (is_float(e) or e in (IntegerType(8), IntegerType(8, Signedness.UNSIGNED))):
        raise VerifyException(f"'{cls.name}' expects a float or 8-bit integer tensor, got {t}")


@irdl_op_definition
class MaxPoolWithIndicesOp(PoolOp):
    """MaxPool whose Indices output is used: each max's flat index into the input (over
    all its dims, the spatial ones in row-major order, or column-major with
    `storage_order` 1); the first of equal maxima, or the first NaN, wins."""

    name = "graph.max_pool_with_indices"
    ONNX_OP: ClassVar[str | None] = None  # imported from a MaxPool with two outputs
    FOLDABLE: ClassVar[bool] = False
    FLOAT_ONLY: ClassVar[bool] = False
    Y = result_def(TensorType)
    indices = result_def(TensorType)
    storage_order = prop_def(IntegerAttr, default_value=int_attr(0))

    @classmethod
    def check(cls, props, types):
        super().check(props, types)
        _max_pool_element(cls, types[0])

    @classmethod
    def output_dims(cls, props, dims, consts):
        (y,) = super().output_dims(props, dims, consts)
        return [y, list(y)]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[0], IntegerType(64)]


@irdl_op_definition
class AveragePoolOp(PoolOp):
    name = "graph.average_pool"
    ONNX_OP: ClassVar[str | None] = "AveragePool"
    count_include_pad = prop_def(IntegerAttr, default_value=int_attr(0))

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return self.pooled(x, False)


class GlobalPoolOp(GraphOp, ABC):
    X = operand_def(TensorType)
    Y = result_def(TensorType)
    traits = TRAITS
    FLOAT_ONLY: ClassVar[bool] = True

    @classmethod
    def check(cls, props, types):
        if len(types[0].get_shape()) < 3:
            raise VerifyException(f"'{cls.name}' expects a float tensor of rank >= 3")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        return [[x[0], x[1], *([1] * (len(x) - 2))]]


@irdl_op_definition
class GlobalAveragePoolOp(GlobalPoolOp):
    name = "graph.global_average_pool"
    ONNX_OP: ClassVar[str | None] = "GlobalAveragePool"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.mean(x, axis=tuple(range(2, x.ndim)), keepdims=True)


@irdl_op_definition
class GlobalMaxPoolOp(GlobalPoolOp):
    name = "graph.global_max_pool"
    ONNX_OP: ClassVar[str | None] = "GlobalMaxPool"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.max(x, axis=tuple(range(2, x.ndim)), keepdims=True)


def check_summand(dims: list[list[Dim]], out: list[Dim]) -> None:
    """A conv's optional 4th operand Z is added to Y: it must have Y's dims."""
    z = dims[3] if len(dims) == 4 else out
    if len(z) != len(out) or any(
        isinstance(a, int) and isinstance(b, int) and a != b for a, b in zip(z, out, strict=False)
    ):
        raise ValueError(
            f"summand {D.format_shape(dims[3])} must have the output's shape "
            f"{D.format_shape(out)}"
        )
    for a, b in zip(z, out, strict=True):
        D.require(D.EQUAL, a, b, "summand and output dims")


@irdl_op_definition
class BatchNormalizationOp(GraphOp):
    """Inference form: Y = (X - mean) / sqrt(var + epsilon) * scale + B, per channel."""

    name = "graph.batch_normalization"
    X = operand_def(TensorType)
    scale = operand_def(TensorType)
    B = operand_def(TensorType)
    mean = operand_def(TensorType)
    var = operand_def(TensorType)
    Y = result_def(TensorType)
    epsilon = prop_def(FloatAttr, default_value=float_attr(1e-5))
    traits = TRAITS
    ONNX_OP: ClassVar[str | None] = "BatchNormalization"
    FLOAT_ONLY: ClassVar[bool] = True

    @classmethod
    def check(cls, props, types):
        same_element_type(cls, types)

    def affine(self, scale: np.ndarray, bias: np.ndarray, mean: np.ndarray, var: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
        """(a, b) of the per-channel affine map Y = X * a + b that the op is: a = scale /
        sqrt(var + epsilon), b = B - mean * a (what the lowering computes per channel, and
        the fusions fold into a conv or a blocked multiply-add), in the inputs' dtype."""
        a = scale / np.sqrt(var + self.epsilon.value.data)
        return a, bias - mean * a

    def numpy(self, x: np.ndarray, *params: np.ndarray) -> np.ndarray:
        shape = (1, -1) + (1,) * (x.ndim - 2)
        a, b = self.affine(*(p.reshape(shape) for p in params))
        return x * a + b

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(x) < 2:
            raise ValueError(f"input {D.format_shape(x)} must have rank >= 2")
        for p in dims[1:]:
            if len(p) != 1 or (isinstance(p[0], int) and isinstance(x[1], int) and p[0] != x[1]):
                raise ValueError(f"parameter {D.format_shape(p)} must be [{x[1]}]")
            D.require(D.EQUAL, p[0], x[1], "parameter and input channels")
        return [list(x)]


@irdl_op_definition
class LRNOp(GraphOp):
    name = "graph.lrn"
    X = operand_def(TensorType)
    Y = result_def(TensorType)
    size = prop_def(IntegerAttr)
    alpha = prop_def(FloatAttr, default_value=float_attr(1e-4))
    beta = prop_def(FloatAttr, default_value=float_attr(0.75))
    bias = prop_def(FloatAttr, default_value=float_attr(1.0))
    traits = TRAITS
    ONNX_OP: ClassVar[str | None] = "LRN"
    FLOAT_ONLY: ClassVar[bool] = True

    @classmethod
    def check(cls, props, types):
        if len(types[0].get_shape()) < 3:
            raise VerifyException("'graph.lrn' expects a float tensor of rank >= 3")
        if cls.prop(props, "size") < 1:
            raise VerifyException("'graph.lrn' size must be >= 1")

    def numpy(self, x: np.ndarray) -> np.ndarray:
        """y = x / (bias + alpha / size * sum of x^2 over the channel window)^beta; the
        window [c - (size-1)//2, c + ceil((size-1)/2)] is clipped to the channels."""
        data = work(x)
        size = self.size.value.data
        before = (size - 1) // 2
        widths = [(0, 0), (before, size - 1 - before)] + [(0, 0)] * (data.ndim - 2)
        sq = np.pad(data * data, widths)
        window_sum = np.sum(sliding_window_view(sq, size, axis=1), axis=-1)
        base = self.bias.value.data + self.alpha.value.data / size * window_sum
        return data * base ** -self.beta.value.data


@irdl_op_definition
class LayerNormalizationOp(GraphOp):
    """Y = (X - mean) / sqrt(var + epsilon) * Scale + B, mean and var over axes axis.. .

    ONNX LayerNormalization; Scale and the optional B broadcast to X's shape. With
    `statistics` set it also returns ONNX's Mean and InvStdDev (X's shape with the
    normalized dims 1, in f32: the float32 stash type).
    """

    name = "graph.layer_normalization"
    X = operand_def(TensorType)
    Scale = operand_def(TensorType)
    B = var_operand_def(TensorType)
    Y = result_def(TensorType)
    stats = var_result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(-1))
    epsilon = prop_def(FloatAttr, default_value=float_attr(1e-5))
    statistics = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS
    ONNX_OP: ClassVar[str | None] = "LayerNormalization"
    FLOAT_ONLY: ClassVar[bool] = True
    FOLDABLE: ClassVar[bool] = False

    @classmethod
    def check(cls, props, types):
        same_element_type(cls, types)
        if len(types) > 3:
            raise VerifyException("'graph.layer_normalization' takes at most one bias")
        if cls.prop(props, "statistics") and types[0].element_type != f32:
            raise VerifyException(
                "'graph.layer_normalization' returns its statistics for f32 inputs only")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        axis = normalize_axis(cls.prop(props, "axis"), len(x), "axis")
        for p, what in zip(dims[1:], ("Scale", "B"), strict=False):
            check_broadcasts_to(p, x, what)
        if not cls.prop(props, "statistics"):
            return [list(x)]
        reduced = [*x[:axis], *([1] * (len(x) - axis))]
        return [list(x), reduced, list(reduced)]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[0], f32, f32] if cls.prop(props, "statistics") else [elements[0]]


__all__ = [
    "ConvLikeOp",
    "ConvOp",
    "DEFAULT_POINTWISE_TILE",
    "POINTWISE_TILE_ATTR",
    "PoolOp",
    "MaxPoolOp",
    "MaxPoolWithIndicesOp",
    "AveragePoolOp",
    "GlobalPoolOp",
    "GlobalAveragePoolOp",
    "GlobalMaxPoolOp",
    "check_summand",
    "BatchNormalizationOp",
    "LRNOp",
    "LayerNormalizationOp",
]

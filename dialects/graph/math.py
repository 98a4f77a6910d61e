"""Linear algebra (MatMul, Gemm, fused attention), Softmax and the reductions."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
)
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.graph.base import (
    TRAITS,
    GraphOp,
    check_broadcasts_to,
    const_ints,
    normalize_axis,
    same_element_type,
)
from infer.dialects.graph.elementwise import check_activation
from infer.dialects.graph.types import float_attr, int_attr


@irdl_op_definition
class MatMulOp(GraphOp):
    """numpy.matmul: batch dims broadcast, 1-D operands promoted and the dim dropped."""

    name = "graph.matmul"
    ONNX_OP: ClassVar[str | None] = "MatMul"
    FLOAT_ONLY: ClassVar[bool] = True
    A = operand_def(TensorType)
    B = operand_def(TensorType)
    Y = result_def(TensorType)
    activation = opt_prop_def(StringAttr)
    activation_params = opt_prop_def(DenseArrayBase)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        same_element_type(cls, types)
        check_activation(cls, props)

    @classmethod
    def output_dims(cls, props, dims, consts):
        a, b = dims
        if not a or not b:
            raise ValueError("operands must have rank >= 1")
        a2 = [1, *a] if len(a) == 1 else list(a)
        b2 = [*b, 1] if len(b) == 1 else list(b)
        k_a, k_b = a2[-1], b2[-2]
        if isinstance(k_a, int) and isinstance(k_b, int) and k_a != k_b:
            raise ValueError(
                f"contraction dims differ: {D.format_shape(a)} x {D.format_shape(b)}"
            )
        D.require(D.EQUAL, k_a, k_b, "inner dims")
        batch = D.broadcast([a2[:-2], b2[:-2]])
        out = [*batch, a2[-2], b2[-1]]
        if len(a) == 1:
            out.pop(-2)
        if len(b) == 1:
            out.pop(-1)
        return [out]


@irdl_op_definition
class GemmOp(GraphOp):
    """Y = alpha * A' @ B' + beta * C, with A' = A^T if transA, C broadcast to (M, N)."""

    name = "graph.gemm"
    ONNX_OP: ClassVar[str | None] = "Gemm"
    FLOAT_ONLY: ClassVar[bool] = True
    A = operand_def(TensorType)
    B = operand_def(TensorType)
    C = var_operand_def(TensorType)
    Y = result_def(TensorType)
    alpha = prop_def(FloatAttr, default_value=float_attr(1.0))
    beta = prop_def(FloatAttr, default_value=float_attr(1.0))
    transA = prop_def(IntegerAttr, default_value=int_attr(0))
    transB = prop_def(IntegerAttr, default_value=int_attr(0))
    activation = opt_prop_def(StringAttr)
    activation_params = opt_prop_def(DenseArrayBase)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        same_element_type(cls, types)
        check_activation(cls, props)
        if len(types) > 3:
            raise VerifyException("'graph.gemm' takes at most one bias")

    @classmethod
    def output_dims(cls, props, dims, consts):
        a, b = dims[0], dims[1]
        if len(a) != 2 or len(b) != 2:
            raise ValueError(f"A and B must be 2-D, got {D.format_shape(a)}, {D.format_shape(b)}")
        m, k = (a[1], a[0]) if cls.prop(props, "transA") else (a[0], a[1])
        k2, n = (b[1], b[0]) if cls.prop(props, "transB") else (b[0], b[1])
        if isinstance(k, int) and isinstance(k2, int) and k != k2:
            raise ValueError(f"contraction dims differ: {k} and {k2}")
        D.require(D.EQUAL, k, k2, "inner dims")
        if len(dims) == 3:
            D.broadcast([[m, n], dims[2]])
            if len(dims[2]) > 2:
                raise ValueError("C must be broadcastable to (M, N)")
        return [[m, n]]


@irdl_op_definition
class AttentionOp(GraphOp):
    """Y = softmax(scale * Q @ K^T + mask, axis=-1) @ V: scaled dot-product attention.

    Q is [..., M, D]; K is [..., N, D], or K^T [..., D, N] when `k_transposed` = 1; V is
    [..., N, Dv]; batch dims broadcast as in MatMul; the optional additive mask broadcasts
    to the scores [..., M, N]. Y is [..., M, Dv].
    """

    name = "graph.attention"
    ONNX_OP: ClassVar[str | None] = None  # made by transformer fusion
    FLOAT_ONLY: ClassVar[bool] = True
    FOLDABLE: ClassVar[bool] = False
    Q = operand_def(TensorType)
    K = operand_def(TensorType)
    V = operand_def(TensorType)
    mask = var_operand_def(TensorType)
    Y = result_def(TensorType)
    scale = prop_def(FloatAttr, default_value=float_attr(1.0))
    k_transposed = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        same_element_type(cls, types)
        if len(types) > 4:
            raise VerifyException("'graph.attention' takes at most one mask")

    @classmethod
    def output_dims(cls, props, dims, consts):
        q, k, v = dims[:3]
        if min(len(q), len(k), len(v)) < 2:
            raise ValueError("Q, K and V must have rank >= 2")
        n, d = (k[-1], k[-2]) if cls.prop(props, "k_transposed") else (k[-2], k[-1])
        for a, c, what in ((q[-1], d, "Q and K depths"), (n, v[-2], "K and V lengths")):
            D.require(D.EQUAL, a, c, what)
        batch = D.broadcast([q[:-2], k[:-2], v[:-2]])
        if len(dims) == 4:
            check_broadcasts_to(dims[3], [*batch, q[-2], n], "mask")
        return [[*batch, q[-2], v[-1]]]


class AxisSoftmaxOp(GraphOp, ABC):
    input = operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(-1))
    traits = TRAITS
    FLOAT_ONLY: ClassVar[bool] = True

    @classmethod
    def check(cls, props, types):
        rank = len(types[0].get_shape())
        try:
            normalize_axis(cls.prop(props, "axis"), rank, "axis")
        except ValueError as e:
            raise VerifyException(f"'{cls.name}': {e}") from e


@irdl_op_definition
class SoftmaxOp(AxisSoftmaxOp):
    name = "graph.softmax"
    ONNX_OP: ClassVar[str | None] = "Softmax"


@irdl_op_definition
class LogSoftmaxOp(AxisSoftmaxOp):
    name = "graph.log_softmax"
    ONNX_OP: ClassVar[str | None] = "LogSoftmax"


class ReduceOp(GraphOp, ABC):
    """Reduction over `axes` (an optional 1-D i64 operand; none means all axes)."""

    data = operand_def(TensorType)
    axes = var_operand_def(TensorType)
    reduced = result_def(TensorType)
    keepdims = prop_def(IntegerAttr, default_value=int_attr(1))
    noop_with_empty_axes = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def reduced_axes(cls, props, rank: int, consts: list[np.ndarray | None]) -> list[int]:
        if len(consts) < 2:
            return [] if cls.prop(props, "noop_with_empty_axes") else list(range(rank))
        axes = const_ints(consts, 1)
        if axes is None:
            raise ValueError("axes must be a constant")
        if not axes and not cls.prop(props, "noop_with_empty_axes"):
            return list(range(rank))
        return sorted({normalize_axis(a, rank, "axis") for a in axes})

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        axes = cls.reduced_axes(props, len(x), consts)
        keep = cls.prop(props, "keepdims")
        return [[1 if i in axes else d for i, d in enumerate(x) if keep or i not in axes]]


@irdl_op_definition
class ReduceMeanOp(ReduceOp):
    name = "graph.reduce_mean"
    ONNX_OP: ClassVar[str | None] = "ReduceMean"


@irdl_op_definition
class ReduceSumOp(ReduceOp):
    name = "graph.reduce_sum"
    ONNX_OP: ClassVar[str | None] = "ReduceSum"


@irdl_op_definition
class ReduceMaxOp(ReduceOp):
    name = "graph.reduce_max"
    ONNX_OP: ClassVar[str | None] = "ReduceMax"


@irdl_op_definition
class ReduceMinOp(ReduceOp):
    name = "graph.reduce_min"
    ONNX_OP: ClassVar[str | None] = "ReduceMin"


__all__ = [
    "MatMulOp",
    "GemmOp",
    "AttentionOp",
    "AxisSoftmaxOp",
    "SoftmaxOp",
    "LogSoftmaxOp",
    "ReduceOp",
    "ReduceMeanOp",
    "ReduceSumOp",
    "ReduceMaxOp",
    "ReduceMinOp",
]

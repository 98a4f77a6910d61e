"""Linear algebra (MatMul, Gemm, fused attention), Softmax and the reductions."""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    i64,
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
from infer.dialects.dims import DYN, Dim
from infer.dialects.graph.base import (
    TRAITS,
    GraphOp,
    check_broadcasts_to,
    const_ints,
    normalize_axis,
    same_element_type,
)
from infer.dialects.graph.constant import constant_value
from infer.dialects.graph.elementwise import apply_activation, check_activation
from infer.dialects.graph.types import float_attr, int_attr


@irdl_op_definition
class MatMulOp(GraphOp):
    """numpy.matmul: batch dims broadcast, 1-D operands promoted and the dim dropped."""

    name = "graph.matmul"
    ONNX_OP: ClassVar[str | None] = "MatMul"
    FLOAT_ONLY: ClassVar[bool] = True
    F16_WEIGHT: ClassVar[int | None] = 1
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

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return apply_activation(self, np.matmul(a, b))


@irdl_op_definition
class GemmOp(GraphOp):
    """Y = alpha * A' @ B' + beta * C, with A' = A^T if transA, C broadcast to (M, N)."""

    name = "graph.gemm"
    ONNX_OP: ClassVar[str | None] = "Gemm"
    FLOAT_ONLY: ClassVar[bool] = True
    F16_WEIGHT: ClassVar[int | None] = 1
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

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        a = x[0].T if self.transA.value.data else x[0]
        b = x[1].T if self.transB.value.data else x[1]
        y = self.alpha.value.data * (a @ b)
        if len(x) > 2:
            y = y + self.beta.value.data * x[2]
        return apply_activation(self, y)


# The register tile (rows, vectors) and cache blocks (MC, KC, NC) of a packed matmul's
# kernel: discardable attributes written by pack-matmul and select-gemm-blocking for the
# target, read by its lowering; and the sizes of an op without them (6 x 2: AVX2's 16
# registers; blocks for a 32 KiB L1 and 512 KiB L2).
GEMM_TILE_ATTR = "tile"
GEMM_BLOCK_ATTR = "block"
DEFAULT_GEMM_TILE = (6, 2)
DEFAULT_GEMM_BLOCK = (126, 256, 4096)


@irdl_op_definition
class PackPanelsOp(GraphOp):
    """B [..., K, N] (or [..., N, K] with `transposed` = 1) -> panels [..., P, K, width]:
    column j of B at [..., j // width, :, j % width], the last panel zero-padded
    (P = ceil(N / width), N static). The right operand of graph.matmul_packed, packed at
    run time when it is computed."""

    name = "graph.pack_panels"
    ONNX_OP: ClassVar[str | None] = None  # made by pack-matmul
    B = operand_def(TensorType)
    Y = result_def(TensorType)
    width = prop_def(IntegerAttr)
    transposed = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        b = dims[0]
        width = cls.prop(props, "width")
        if len(b) < 2 or width < 1:
            raise ValueError(f"needs B of rank >= 2 and width >= 1, got {D.format_shape(b)}")
        k, n = (b[-1], b[-2]) if cls.prop(props, "transposed") else (b[-2], b[-1])
        if not isinstance(n, int):
            raise ValueError(f"the columns N of B {D.format_shape(b)} must be static")
        return [[*b[:-2], -(-n // width), k, width]]

    def numpy(self, b: np.ndarray) -> np.ndarray:
        b = np.swapaxes(b, -1, -2) if self.transposed.value.data else b
        return pack_matmul_weights(b, self.width.value.data)


@irdl_op_definition
class MatMulPackedOp(GraphOp):
    """Y = act(A @ B + bias) with B packed in panels: graph.matmul / graph.gemm as
    pack-matmul lays them out for the register-blocked kernel.

    A is [..., M, K]; Bp is [..., P, K, NR] (graph.pack_panels' layout: column j of B is
    Bp[..., j // NR, :, j % NR], the last panel zero-padded, P = ceil(N / NR)); batch dims
    broadcast as in MatMul. The optional bias is [P * NR], zero-padded too. `n` is N.
    Y is [..., M, N].
    """

    name = "graph.matmul_packed"
    ONNX_OP: ClassVar[str | None] = None  # made by pack-matmul
    FLOAT_ONLY: ClassVar[bool] = True
    F16_WEIGHT: ClassVar[int | None] = 1
    A = operand_def(TensorType)
    B = operand_def(TensorType)
    bias = var_operand_def(TensorType)
    Y = result_def(TensorType)
    n = prop_def(IntegerAttr)
    activation = opt_prop_def(StringAttr)
    activation_params = opt_prop_def(DenseArrayBase)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        same_element_type(cls, types)
        check_activation(cls, props)
        if len(types) > 3:
            raise VerifyException("'graph.matmul_packed' takes at most one bias")

    @classmethod
    def output_dims(cls, props, dims, consts):
        a, b = dims[0], dims[1]
        n = cls.prop(props, "n")
        if len(a) < 2 or len(b) < 3 or not all(isinstance(d, int) for d in (b[-3], b[-1])):
            raise ValueError(f"A {D.format_shape(a)} and B {D.format_shape(b)} are not "
                             "[..., M, K] and panels [..., P, K, NR] (P, NR static)")
        panels, k, width = b[-3:]
        if not (panels - 1) * width < n <= panels * width:
            raise ValueError(f"{panels} panels of {width} columns do not hold N = {n}")
        D.require(D.EQUAL, a[-1], k, "inner dims")
        if len(dims) == 3 and dims[2] != [panels * width]:
            raise ValueError(f"bias {D.format_shape(dims[2])} must be [{panels * width}]")
        return [[*D.broadcast([a[:-2], b[:-3]]), a[-2], n]]

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        y = np.matmul(x[0], unpack_matmul_weights(x[1], self.n.value.data))
        if len(x) > 2:
            y = y + x[2][: y.shape[-1]]
        return apply_activation(self, y)

    def verify_(self) -> None:
        super().verify_()
        self.register_tile()
        self.cache_blocks()

    def _sizes(self, name: str, default: tuple[int, ...]) -> tuple[int, ...]:
        attr = self.attributes.get(name)
        if attr is None:
            return default
        values = attr.get_values() if isinstance(attr, DenseArrayBase) else ()
        if len(values) != len(default) or not all(isinstance(v, int) and v >= 1
                                                  for v in values):
            raise VerifyException(f"'{self.name}' {name} must be array<i64> of "
                                  f"{len(default)} positive sizes, got {attr}")
        return tuple(int(v) for v in values)

    def register_tile(self) -> tuple[int, int]:
        """(rows, vectors) of the kernel's register tile: `tile`, else the default."""
        rows, vectors = self._sizes(GEMM_TILE_ATTR, DEFAULT_GEMM_TILE)
        return rows, vectors

    def cache_blocks(self) -> tuple[int, int, int]:
        """(MC, KC, NC) of the cache blocking: `block`, else the default."""
        mc, kc, nc = self._sizes(GEMM_BLOCK_ATTR, DEFAULT_GEMM_BLOCK)
        return mc, kc, nc


def pack_matmul_weights(b: np.ndarray, width: int) -> np.ndarray:
    """B [..., K, N] -> panels [..., ceil(N / width), K, width], the last one zero-padded
    (graph.pack_panels' layout)."""
    *batch, k, n = b.shape
    panels = -(-n // width)
    padded = np.zeros((*batch, k, panels * width), dtype=b.dtype)
    padded[..., :n] = b
    out = padded.reshape(*batch, k, panels, width)
    return np.ascontiguousarray(np.swapaxes(out, -3, -2))


def unpack_matmul_weights(bp: np.ndarray, n: int) -> np.ndarray:
    """Panels [..., P, K, NR] -> B [..., K, N] (the inverse of pack_matmul_weights)."""
    *batch, panels, k, width = bp.shape
    b = np.ascontiguousarray(np.swapaxes(bp, -3, -2)).reshape(*batch, k, panels * width)
    return b[..., :n]


@irdl_op_definition
class DetOp(GraphOp):
    """The determinant of each square matrix of X's last two dims ([*, M, M] -> [*])."""

    name = "graph.det"
    ONNX_OP: ClassVar[str | None] = "Det"
    FLOAT_ONLY: ClassVar[bool] = True
    X = operand_def(TensorType)
    Y = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(x) < 2:
            raise ValueError(f"input {D.format_shape(x)} must have rank >= 2")
        D.require(D.EQUAL, x[-2], x[-1], "the matrices' dims")
        return [list(x[:-2])]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.linalg.det(x)


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

    def softmax(self, x: np.ndarray) -> np.ndarray:
        """exp(x) / sum(exp(x)) along the axis, x shifted by its max first."""
        axis = self.axis.value.data
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)


@irdl_op_definition
class SoftmaxOp(AxisSoftmaxOp):
    name = "graph.softmax"
    ONNX_OP: ClassVar[str | None] = "Softmax"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return self.softmax(x)


@irdl_op_definition
class LogSoftmaxOp(AxisSoftmaxOp):
    name = "graph.log_softmax"
    ONNX_OP: ClassVar[str | None] = "LogSoftmax"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.log(self.softmax(x))


def _lse(x: np.ndarray, axis: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """log(sum(exp(x))) computed as m + log(sum(exp(x - m))), m the finite max (else 0)."""
    m = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0)
    y = m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))
    return y if keepdims else np.squeeze(y, axis)


class ReduceOp(GraphOp, ABC):
    """Reduction over `axes` (an optional 1-D i64 operand; none means all axes).

    Axes computed at run time are supported when their count is static: each dim of the
    result is then decided at run time (with keepdims = 1 it is 1 or the input's; with
    keepdims = 0 the rank drops by the count, each axis named once, checked at run time).
    """

    data = operand_def(TensorType)
    axes = var_operand_def(TensorType)
    reduced = result_def(TensorType)
    keepdims = prop_def(IntegerAttr, default_value=int_attr(1))
    noop_with_empty_axes = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS
    # numpy's form over a tuple of axes, on the input's element type
    NUMPY: ClassVar[Callable[..., np.ndarray]]

    @classmethod
    def reduced_axes(cls, props, rank: int, consts: list[np.ndarray | None],
                     n_axes: Dim = 1) -> list[int] | None:
        """The sorted reduced axes; None when they are computed at run time (an axes
        operand of `n_axes` entries, not a constant; none at all means empty)."""
        if len(consts) < 2:
            return [] if cls.prop(props, "noop_with_empty_axes") else list(range(rank))
        axes = const_ints(consts, 1)
        if axes is None and n_axes != 0:
            return None
        if not axes and not cls.prop(props, "noop_with_empty_axes"):
            return list(range(rank))
        return sorted({normalize_axis(a, rank, "axis") for a in axes or []})

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        keep = cls.prop(props, "keepdims")
        axes = cls.reduced_axes(props, len(x), consts, dims[1][0] if len(dims) > 1 else 1)
        if axes is None:
            if keep:
                return [[1 if d == 1 else DYN for d in x]]
            n = dims[1][0]
            if not isinstance(n, int) or n > len(x):
                raise ValueError("axes computed at run time need a static count, at most "
                                 "the input's rank")
            return [[DYN] * (len(x) - n)]
        return [[1 if i in axes else d for i, d in enumerate(x) if keep or i not in axes]]

    def numpy(self, x: np.ndarray, axes: np.ndarray | None = None) -> np.ndarray:
        if axes is None and self.axes:  # the constant axes, when given the data alone
            axes = constant_value(self.axes[0])
        consts = [x] if axes is None else [x, axes]
        reduced = self.reduced_axes(self.properties, x.ndim, consts)
        assert reduced is not None
        if not reduced:
            return x
        keep = bool(self.keepdims.value.data)
        return np.asarray(type(self).NUMPY(x, axis=tuple(reduced), keepdims=keep)).astype(x.dtype)


@irdl_op_definition
class ReduceMeanOp(ReduceOp):
    name = "graph.reduce_mean"
    ONNX_OP: ClassVar[str | None] = "ReduceMean"
    NUMPY: ClassVar[Callable[..., np.ndarray]] = staticmethod(np.mean)


@irdl_op_definition
class ReduceSumOp(ReduceOp):
    name = "graph.reduce_sum"
    ONNX_OP: ClassVar[str | None] = "ReduceSum"
    NUMPY: ClassVar[Callable[..., np.ndarray]] = staticmethod(np.sum)


@irdl_op_definition
class ReduceMaxOp(ReduceOp):
    name = "graph.reduce_max"
    ONNX_OP: ClassVar[str | None] = "ReduceMax"
    NUMPY: ClassVar[Callable[..., np.ndarray]] = staticmethod(np.max)


@irdl_op_definition
class ReduceMinOp(ReduceOp):
    name = "graph.reduce_min"
    ONNX_OP: ClassVar[str | None] = "ReduceMin"
    NUMPY: ClassVar[Callable[..., np.ndarray]] = staticmethod(np.min)


@irdl_op_definition
class ReduceProdOp(ReduceOp):
    name = "graph.reduce_prod"
    ONNX_OP: ClassVar[str | None] = "ReduceProd"
    NUMPY: ClassVar[Callable[..., np.ndarray]] = staticmethod(np.prod)


@irdl_op_definition
class ReduceL1Op(ReduceOp):
    name = "graph.reduce_l1"
    ONNX_OP: ClassVar[str | None] = "ReduceL1"

    NUMPY: ClassVar[Callable[..., np.ndarray]] = staticmethod(
        lambda x, **kw: np.sum(np.abs(x), **kw))


@irdl_op_definition
class ReduceSumSquareOp(ReduceOp):
    name = "graph.reduce_sum_square"
    ONNX_OP: ClassVar[str | None] = "ReduceSumSquare"

    NUMPY: ClassVar[Callable[..., np.ndarray]] = staticmethod(
        lambda x, **kw: np.sum(x * x, **kw))


@irdl_op_definition
class ReduceL2Op(ReduceOp):
    name = "graph.reduce_l2"
    ONNX_OP: ClassVar[str | None] = "ReduceL2"
    FLOAT_ONLY: ClassVar[bool] = True

    NUMPY: ClassVar[Callable[..., np.ndarray]] = staticmethod(
        lambda x, **kw: np.sqrt(np.sum(x * x, **kw)))


@irdl_op_definition
class ReduceLogSumOp(ReduceOp):
    name = "graph.reduce_log_sum"
    ONNX_OP: ClassVar[str | None] = "ReduceLogSum"
    FLOAT_ONLY: ClassVar[bool] = True

    NUMPY: ClassVar[Callable[..., np.ndarray]] = staticmethod(
        lambda x, **kw: np.log(np.sum(x, **kw)))


@irdl_op_definition
class ReduceLogSumExpOp(ReduceOp):
    name = "graph.reduce_log_sum_exp"
    ONNX_OP: ClassVar[str | None] = "ReduceLogSumExp"
    FLOAT_ONLY: ClassVar[bool] = True
    NUMPY: ClassVar[Callable[..., np.ndarray]] = staticmethod(_lse)


class ArgReduceOp(GraphOp, ABC):
    """The int64 index of the max (min) along `axis`: the first one, or the last with
    `select_last_index`. As onnxruntime: a later element wins only if it compares greater
    (less; or equal, for the last), so NaN is never chosen unless it comes first."""

    data = operand_def(TensorType)
    reduced = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(0))
    keepdims = prop_def(IntegerAttr, default_value=int_attr(1))
    select_last_index = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS
    PREDICATE: ClassVar[str]  # how a later element wins: "gt" or "lt"

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        a = normalize_axis(cls.prop(props, "axis"), len(x), "axis")
        # no index to return for an empty dim: refused, or checked at run time
        D.require(D.DIFFERENT, x[a], 0, "the reduced dim")
        keep = cls.prop(props, "keepdims")
        return [[1 if i == a else d for i, d in enumerate(x) if keep or i != a]]

    @classmethod
    def output_elements(cls, props, elements):
        return [i64]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        a = normalize_axis(self.axis.value.data, x.ndim, "axis")
        wins = {"gt": np.greater, "lt": np.less}[self.PREDICATE]
        last = bool(self.select_last_index.value.data)
        rows = np.moveaxis(x, a, 0)
        best, at = rows[0], np.zeros(rows.shape[1:], np.int64)
        for k in range(1, rows.shape[0]):
            take = wins(rows[k], best) | (last & (rows[k] == best))
            best, at = np.where(take, rows[k], best), np.where(take, k, at)
        return np.expand_dims(at, a) if self.keepdims.value.data else at


@irdl_op_definition
class ArgMaxOp(ArgReduceOp):
    name = "graph.arg_max"
    ONNX_OP: ClassVar[str | None] = "ArgMax"
    PREDICATE: ClassVar[str] = "gt"


@irdl_op_definition
class ArgMinOp(ArgReduceOp):
    name = "graph.arg_min"
    ONNX_OP: ClassVar[str | None] = "ArgMin"
    PREDICATE: ClassVar[str] = "lt"


__all__ = [
    "DetOp",
    "MatMulOp",
    "GemmOp",
    "MatMulPackedOp",
    "PackPanelsOp",
    "pack_matmul_weights",
    "GEMM_TILE_ATTR",
    "GEMM_BLOCK_ATTR",
    "DEFAULT_GEMM_TILE",
    "DEFAULT_GEMM_BLOCK",
    "unpack_matmul_weights",
    "AttentionOp",
    "AxisSoftmaxOp",
    "SoftmaxOp",
    "LogSoftmaxOp",
    "ReduceOp",
    "ReduceMeanOp",
    "ReduceSumOp",
    "ReduceMaxOp",
    "ReduceMinOp",
    "ReduceProdOp",
    "ReduceL1Op",
    "ReduceSumSquareOp",
    "ReduceL2Op",
    "ReduceLogSumOp",
    "ReduceLogSumExpOp",
    "ArgReduceOp",
    "ArgMaxOp",
    "ArgMinOp",
]

"""Indexing ops: gathers and scatters by index tensors, one-hot, triangular masks, and
block moves between depth and space.

Index operands are i32 or i64; negative entries count from the end of their dim (the
lowerings check the range at run time). Scalar operands that ONNX allows to be computed
(Trilu's k, OneHot's depth, Tile's repeats) are operands here, read at compile time when
constant and from their buffers otherwise.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr, TensorType
from xdsl.irdl import (
    AnyAttr,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
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
    const_ints,
    normalize_axis,
    symbolic_dims,
)
from infer.dialects.graph.types import int_attr

REDUCTIONS = ("none", "add", "mul", "max", "min")


def _check_indices(cls: type[GraphOp], t: TensorType, what: str = "indices") -> None:
    e = t.element_type
    if not (isinstance(e, IntegerType) and e.width.data in (32, 64)):
        raise VerifyException(f"'{cls.name}' {what} must be i32 or i64")


def _check_reduction(cls: type[GraphOp], props) -> None:
    if cls.prop(props, "reduction") not in REDUCTIONS:
        raise VerifyException(f"'{cls.name}' reduction must be one of {', '.join(REDUCTIONS)}")


def _wrap(indices: np.ndarray, n: int) -> np.ndarray:
    i = indices.astype(np.int64)
    if ((i < -n) | (i >= n)).any():
        raise ValueError(f"index out of range for a dim of size {n}")
    return np.where(i < 0, i + n, i)


def _within(x: list[Dim], idx: list[Dim], axis: int) -> None:
    """indices' dims other than `axis` index data's directly: none may exceed data's."""
    for d, (n, i) in enumerate(zip(x, idx, strict=True)):
        if d != axis:
            D.require(D.AT_LEAST, n, i, f"data's dim {d} (indices' must not exceed it)")


def _combine(reduction: str, old: np.ndarray, new: np.ndarray) -> np.ndarray:
    if reduction == "add":
        return old + new
    if reduction == "mul":
        return old * new
    if reduction == "max":
        return np.maximum(old, new)
    if reduction == "min":
        return np.minimum(old, new)
    return new


@irdl_op_definition
class GatherElementsOp(GraphOp):
    """out[i...] = data[i... with indices[i...] on `axis`]; indices has data's rank."""

    name = "graph.gather_elements"
    ONNX_OP: ClassVar[str | None] = "GatherElements"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        _check_indices(cls, types[1])

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, idx = dims
        if len(x) != len(idx):
            raise ValueError("indices must have the rank of data")
        axis = normalize_axis(cls.prop(props, "axis"), len(x), "axis")
        _within(x, idx, axis)
        return [list(idx)]

    def numpy(self, data: np.ndarray, indices: np.ndarray) -> np.ndarray:
        axis = normalize_axis(self.axis.value.data, data.ndim, "axis")
        return np.take_along_axis(data, _wrap(indices, data.shape[axis]), axis=axis)


class _ScatterElements(GraphOp):
    """A copy of data with data[i... with indices[i...] on `axis`] = updates[i...],
    combined with the old value by `reduction`; duplicates apply in row-major order."""

    @classmethod
    def check(cls, props, types):
        _check_indices(cls, types[1])
        _check_reduction(cls, props)
        if types[0].element_type != types[2].element_type:
            raise VerifyException(f"'{cls.name}' updates must have data's element type")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, idx, upd = dims
        if not len(x) == len(idx) == len(upd):
            raise ValueError("data, indices and updates must have one rank")
        axis = normalize_axis(cls.prop(props, "axis"), len(x), "axis")
        for d, (i, u) in enumerate(zip(idx, upd, strict=True)):
            D.require(D.EQUAL, i, u, f"dim {d} of indices and updates")
        _within(x, idx, axis)
        return [list(x)]

    def numpy(self, data: np.ndarray, indices: np.ndarray, updates: np.ndarray
              ) -> np.ndarray:
        axis = normalize_axis(self.axis.value.data, data.ndim, "axis")  # type: ignore
        reduction = self.reduction.data  # type: ignore[attr-defined]
        idx = _wrap(indices, data.shape[axis])
        out = data.copy()
        for pos in np.ndindex(*idx.shape):
            dst = list(pos)
            dst[axis] = idx[pos]
            t = tuple(dst)
            out[t] = _combine(reduction, out[t], updates[pos])
        return out


@irdl_op_definition
class ScatterElementsOp(_ScatterElements):
    name = "graph.scatter_elements"
    ONNX_OP: ClassVar[str | None] = "ScatterElements"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    updates = operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(0))
    reduction = prop_def(StringAttr, default_value=StringAttr("none"))
    traits = TRAITS


@irdl_op_definition
class ScatterOp(_ScatterElements):
    """ONNX's Scatter (deprecated at opset 11): ScatterElements without a reduction."""

    name = "graph.scatter"
    ONNX_OP: ClassVar[str | None] = "Scatter"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    updates = operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(0))
    reduction = prop_def(StringAttr, default_value=StringAttr("none"))
    traits = TRAITS


@irdl_op_definition
class ScatterNDOp(GraphOp):
    """A copy of data with the slices data[indices[j...]] = updates[j...], combined by
    `reduction`; indices' last dim is the length of each index prefix."""

    name = "graph.scatter_nd"
    ONNX_OP: ClassVar[str | None] = "ScatterND"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    updates = operand_def(TensorType)
    output = result_def(TensorType)
    reduction = prop_def(StringAttr, default_value=StringAttr("none"))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        _check_indices(cls, types[1])
        _check_reduction(cls, props)
        if types[0].element_type != types[2].element_type:
            raise VerifyException(f"'{cls.name}' updates must have data's element type")
        k = types[1].get_shape()[-1] if types[1].get_shape() else None
        if k is None or k < 0:
            raise VerifyException(f"'{cls.name}' indices' last dim must be static")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, idx, upd = dims
        k = idx[-1]
        assert isinstance(k, int)
        if k > len(x) or len(upd) != len(idx) - 1 + len(x) - k:
            raise ValueError("updates must have rank rank(indices) - 1 + rank(data) - k")
        for d, (u, e) in enumerate(zip(upd, [*idx[:-1], *x[k:]], strict=True)):
            D.require(D.EQUAL, u, e, f"updates dim {d} and its indices' / data's")
        return [list(x)]

    def numpy(self, data: np.ndarray, indices: np.ndarray, updates: np.ndarray
              ) -> np.ndarray:
        k = indices.shape[-1]
        idx = np.stack([_wrap(indices[..., j], data.shape[j]) for j in range(k)], -1)
        out = data.copy()
        for pos in np.ndindex(*idx.shape[:-1]):
            t = tuple(idx[pos])
            out[t] = _combine(self.reduction.data, out[t], updates[pos])
        return out


@irdl_op_definition
class GatherNDOp(GraphOp):
    """out[b..., j..., r...] = data[b..., indices[b..., j...], r...]: the first
    `batch_dims` dims are shared, indices' last dim is the length of each index."""

    name = "graph.gather_nd"
    ONNX_OP: ClassVar[str | None] = "GatherND"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    output = result_def(TensorType)
    batch_dims = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        _check_indices(cls, types[1])
        shape = types[1].get_shape()
        if not shape or shape[-1] < 0:
            raise VerifyException(f"'{cls.name}' indices' last dim must be static")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, idx = dims
        nb = cls.prop(props, "batch_dims")
        k = idx[-1]
        assert isinstance(k, int)
        if not 0 <= nb < min(len(x), len(idx)) or nb + k > len(x):
            raise ValueError("batch_dims + indices' last dim must not exceed data's rank")
        for d in range(nb):
            D.require(D.EQUAL, x[d], idx[d], f"batch dim {d} of data and indices")
        return [[*idx[:-1], *x[nb + k:]]]

    def numpy(self, data: np.ndarray, indices: np.ndarray) -> np.ndarray:
        nb = self.batch_dims.value.data
        k = indices.shape[-1]
        out = np.empty(indices.shape[:-1] + data.shape[nb + k:], data.dtype)
        for pos in np.ndindex(*indices.shape[:-1]):
            at = [int(_wrap(indices[pos][j], data.shape[nb + j])) for j in range(k)]
            out[pos] = data[(*pos[:nb], *at)]
        return out


@irdl_op_definition
class TriluOp(GraphOp):
    """The upper (or lower) triangle of the last two dims from diagonal k on, zeros
    elsewhere; k is an optional scalar operand (0 when absent)."""

    name = "graph.trilu"
    ONNX_OP: ClassVar[str | None] = "Trilu"
    input = operand_def(TensorType)
    k = opt_operand_def(TensorType)
    output = result_def(TensorType)
    upper = prop_def(IntegerAttr, default_value=int_attr(1))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if len(types[0].get_shape()) < 2:
            raise VerifyException(f"'{cls.name}' input must have rank 2 or more")
        if len(types) > 1 and types[1].element_type != IntegerType(64):
            raise VerifyException(f"'{cls.name}' k must be an i64 scalar")

    def numpy(self, x: np.ndarray, k: np.ndarray | None = None) -> np.ndarray:
        d = 0 if k is None else int(k.reshape(-1)[0])
        return np.triu(x, d) if self.upper.value.data else np.tril(x, d)


@irdl_op_definition
class OneHotOp(GraphOp):
    """out[..., j on `axis`, ...] = values[1] where j == indices[...] (wrapped) else
    values[0]; depth (a scalar operand) is the new dim, a run-time value unless constant."""

    name = "graph.one_hot"
    ONNX_OP: ClassVar[str | None] = "OneHot"
    indices = operand_def(TensorType)
    depth = operand_def(TensorType)
    values = operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(-1))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if types[2].get_shape() not in ((2,), (-1,)):
            raise VerifyException(f"'{cls.name}' values must have two elements")

    @classmethod
    def output_dims(cls, props, dims, consts):
        idx = dims[0]
        axis = normalize_axis(cls.prop(props, "axis"), len(idx) + 1, "axis")
        # a constant, or a dim of some tensor (`shape.of`: static or not)
        depth, symbolic = const_ints(consts, 1), symbolic_dims(consts, 1)
        d: Dim = depth[0] if depth else symbolic[0] if symbolic else DYN
        if isinstance(d, int) and d < 1:
            raise ValueError(f"depth must be positive, got {d}")
        return [[*idx[:axis], d, *idx[axis:]]]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[2]]

    def numpy(self, indices: np.ndarray, depth: np.ndarray, values: np.ndarray
              ) -> np.ndarray:
        d = int(depth.reshape(-1)[0])
        axis = normalize_axis(self.axis.value.data, indices.ndim + 1, "axis")
        i = indices.astype(np.int64)
        i = np.where(i < 0, i + d, i)
        hot = np.expand_dims(i, axis) == np.arange(d).reshape(
            [d if a == axis else 1 for a in range(indices.ndim + 1)])
        return np.where(hot, values[1], values[0])


@irdl_op_definition
class EyeLikeOp(GraphOp):
    """Ones on diagonal k of a 2-D shape like input's, zeros elsewhere, of element type
    `dtype` (input's when absent)."""

    name = "graph.eye_like"
    ONNX_OP: ClassVar[str | None] = "EyeLike"
    input = operand_def(TensorType)
    output = result_def(TensorType)
    k = prop_def(IntegerAttr, default_value=int_attr(0))
    dtype = opt_prop_def(AnyAttr())
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if len(types[0].get_shape()) != 2:
            raise VerifyException(f"'{cls.name}' input must be 2-D")

    @classmethod
    def output_elements(cls, props, elements):
        return [props.get("dtype") or elements[0]]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.eye(x.shape[0], x.shape[1], self.k.value.data)


def _multiple(d: Dim, k: int, what: str) -> None:
    """d is a multiple of k (checked at run time when d is known only then)."""
    D.require(D.EQUAL, d, d // k * k, f"{what} and their multiple of {k} below")


class _BlockMove(GraphOp):
    """DepthToSpace / SpaceToDepth on NCHW with square blocks of `blocksize`."""

    TO_SPACE: ClassVar[bool]

    @classmethod
    def check(cls, props, types):
        if len(types[0].get_shape()) != 4:
            raise VerifyException(f"'{cls.name}' input must be 4-D (NCHW)")
        if cls.prop(props, "blocksize") < 1:
            raise VerifyException(f"'{cls.name}' blocksize must be positive")
        if cls.prop(props, "mode") not in ("DCR", "CRD"):
            raise VerifyException(f"'{cls.name}' mode must be DCR or CRD")

    @classmethod
    def output_dims(cls, props, dims, consts):
        n, c, h, w = dims[0]
        bs = cls.prop(props, "blocksize")
        if cls.TO_SPACE:
            _multiple(c, bs * bs, "channels")
            return [[n, c // (bs * bs), h * bs, w * bs]]
        _multiple(h, bs, "height")
        _multiple(w, bs, "width")
        return [[n, c * bs * bs, h // bs, w // bs]]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        bs = self.blocksize.value.data  # type: ignore[attr-defined]
        crd = self.mode.data == "CRD"  # type: ignore[attr-defined]
        n, c, h, w = x.shape
        if self.TO_SPACE:
            if crd:
                y = x.reshape(n, c // bs**2, bs, bs, h, w).transpose(0, 1, 4, 2, 5, 3)
            else:
                y = x.reshape(n, bs, bs, c // bs**2, h, w).transpose(0, 3, 4, 1, 5, 2)
            return y.reshape(n, c // bs**2, h * bs, w * bs)
        y = x.reshape(n, c, h // bs, bs, w // bs, bs)
        y = y.transpose(0, 1, 3, 5, 2, 4) if crd else y.transpose(0, 3, 5, 1, 2, 4)
        return y.reshape(n, c * bs * bs, h // bs, w // bs)


@irdl_op_definition
class DepthToSpaceOp(_BlockMove):
    name = "graph.depth_to_space"
    ONNX_OP: ClassVar[str | None] = "DepthToSpace"
    TO_SPACE: ClassVar[bool] = True
    input = operand_def(TensorType)
    output = result_def(TensorType)
    blocksize = prop_def(IntegerAttr)
    mode = prop_def(StringAttr, default_value=StringAttr("DCR"))
    traits = TRAITS


@irdl_op_definition
class SpaceToDepthOp(_BlockMove):
    """The inverse of DepthToSpace (`mode` since opset 28, DCR before)."""

    name = "graph.space_to_depth"
    ONNX_OP: ClassVar[str | None] = "SpaceToDepth"
    TO_SPACE: ClassVar[bool] = False
    input = operand_def(TensorType)
    output = result_def(TensorType)
    blocksize = prop_def(IntegerAttr)
    mode = prop_def(StringAttr, default_value=StringAttr("DCR"))
    traits = TRAITS


@irdl_op_definition
class ReverseSequenceOp(GraphOp):
    """Each batch entry b's first sequence_lens[b] steps along time_axis reversed."""

    name = "graph.reverse_sequence"
    ONNX_OP: ClassVar[str | None] = "ReverseSequence"
    input = operand_def(TensorType)
    sequence_lens = operand_def(TensorType)
    output = result_def(TensorType)
    batch_axis = prop_def(IntegerAttr, default_value=int_attr(1))
    time_axis = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if types[1].element_type != IntegerType(64) or len(types[1].get_shape()) != 1:
            raise VerifyException(f"'{cls.name}' sequence_lens must be a 1-D i64 tensor")
        axes = {cls.prop(props, "batch_axis"), cls.prop(props, "time_axis")}
        if len(types[0].get_shape()) < 2 or axes != {0, 1}:
            raise VerifyException(f"'{cls.name}' batch_axis and time_axis must be 0 and 1")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, lens = dims
        D.require(D.EQUAL, lens[0], x[cls.prop(props, "batch_axis")],
                  "sequence_lens' length and the batch dim")
        return [list(x)]

    def numpy(self, x: np.ndarray, lens: np.ndarray) -> np.ndarray:
        bax, tax = self.batch_axis.value.data, self.time_axis.value.data
        out = x.copy()
        for i, n in enumerate(lens):
            if not 0 <= n <= x.shape[tax]:
                raise ValueError(f"sequence length {n} out of range")
            src = [slice(None)] * x.ndim
            src[bax], src[tax] = i, slice(n - 1, None, -1) if n else slice(0, 0)
            dst = list(src)
            dst[tax] = slice(0, n)
            out[tuple(dst)] = x[tuple(src)]
        return out


@irdl_op_definition
class TileOp(GraphOp):
    """input repeated repeats[d] times along each dim d; repeats is a 1-D i64 operand,
    constant (the dims fold) or read at run time."""

    name = "graph.tile"
    ONNX_OP: ClassVar[str | None] = "Tile"
    input = operand_def(TensorType)
    repeats = operand_def(TensorType)
    output = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if types[1].element_type != IntegerType(64) or len(types[1].get_shape()) != 1:
            raise VerifyException(f"'{cls.name}' repeats must be a 1-D i64 tensor")
        n = types[1].get_shape()[0]
        if n not in (-1, len(types[0].get_shape())):
            raise VerifyException(f"'{cls.name}' repeats must have one entry per dim")

    @classmethod
    def output_dims(cls, props, dims, consts):
        reps = const_ints(consts, 1)
        if reps is None:
            return [[DYN] * len(dims[0])]
        if any(r < 0 for r in reps):
            raise ValueError(f"negative repeats {reps}")
        return [[d * r for d, r in zip(dims[0], reps, strict=True)]]

    def numpy(self, x: np.ndarray, repeats: np.ndarray) -> np.ndarray:
        return np.tile(x, [int(r) for r in repeats])


@irdl_op_definition
class NonZeroOp(GraphOp):
    """The indices of the non-zero elements of X (NaN counts), one column each in
    row-major order: an i64 [rank, count] tensor whose count is known at run time."""

    name = "graph.non_zero"
    ONNX_OP: ClassVar[str | None] = "NonZero"
    FOLDABLE: ClassVar[bool] = False  # its size is the data's: the type keeps it dynamic
    x = operand_def(TensorType)
    output = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if not types[0].get_shape():
            raise VerifyException(f"'{cls.name}' input must have rank 1 or more")

    @classmethod
    def output_dims(cls, props, dims, consts):
        return [[len(dims[0]), DYN]]

    @classmethod
    def output_elements(cls, props, elements):
        return [IntegerType(64)]


@irdl_op_definition
class CompressOp(GraphOp):
    """The slices of input along `axis` (of input flattened when absent) whose entry in
    the 1-D bool condition is true; the selected count is known at run time."""

    name = "graph.compress"
    ONNX_OP: ClassVar[str | None] = "Compress"
    FOLDABLE: ClassVar[bool] = False  # its size is the data's: the type keeps it dynamic
    input = operand_def(TensorType)
    condition = operand_def(TensorType)
    output = result_def(TensorType)
    axis = opt_prop_def(IntegerAttr)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if types[1].element_type != IntegerType(1) or len(types[1].get_shape()) != 1:
            raise VerifyException(f"'{cls.name}' condition must be a 1-D bool tensor")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, (n,) = dims
        axis = cls.prop(props, "axis")
        if axis is None:
            D.require(D.AT_LEAST, D.product(x), n, "input's element count and condition's")
            return [[DYN]]
        axis = normalize_axis(axis, len(x), "axis")
        D.require(D.AT_LEAST, x[axis], n, "input's dim on axis and condition's length")
        return [[*x[:axis], DYN, *x[axis + 1:]]]


@irdl_op_definition
class TensorScatterOp(GraphOp):
    """A KV-cache update: a copy of `past` with, for each index before `axis` (batch b
    first), update's entries along `axis` written from position write_indices[b] (0 without
    them) on; mode "circular" wraps positions modulo past's dim there, "linear" requires
    them to fit (checked at run time)."""

    name = "graph.tensor_scatter"
    ONNX_OP: ClassVar[str | None] = "TensorScatter"
    past = operand_def(TensorType)
    update = operand_def(TensorType)
    write_indices = var_operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(-2))
    mode = prop_def(StringAttr, default_value=StringAttr("linear"))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        past, update = types[0], types[1]
        if past.element_type != update.element_type:
            raise VerifyException("'graph.tensor_scatter' past and update differ in type")
        if len(past.get_shape()) != len(update.get_shape()):
            raise VerifyException("'graph.tensor_scatter' past and update differ in rank")
        if cls.prop(props, "mode") not in ("linear", "circular"):
            raise VerifyException("'graph.tensor_scatter' mode must be linear or circular")
        for t in types[2:]:
            if t.element_type != IntegerType(64) or len(t.get_shape()) != 1:
                raise VerifyException("'graph.tensor_scatter' write_indices must be 1-D i64")

    @classmethod
    def sequence_axis(cls, props, rank: int) -> int:
        axis = normalize_axis(cls.prop(props, "axis"), rank, "axis")
        if axis == 0:
            raise ValueError("axis must not be 0, the batch dim")
        return axis

    @classmethod
    def output_dims(cls, props, dims, consts):
        past, update = dims[0], dims[1]
        axis = cls.sequence_axis(props, len(past))
        for i, (p, u) in enumerate(zip(past, update, strict=True)):
            if i != axis:
                D.require(D.EQUAL, u, p, f"update's and past's dim {i}")
        D.require(D.AT_LEAST, past[axis], update[axis], "past's sequence dim vs update's")
        if len(dims) > 2:
            D.require(D.EQUAL, dims[2][0], past[0], "write_indices' length and the batch")
        return [list(past)]

    def numpy(self, past: np.ndarray, update: np.ndarray,
              write_indices: np.ndarray | None = None) -> np.ndarray:
        axis = self.sequence_axis(self.properties, past.ndim)
        n, m = past.shape[axis], update.shape[axis]
        starts = np.zeros(past.shape[0], np.int64) if write_indices is None else write_indices
        out = past.copy()
        for b, start in enumerate(starts):
            pos = start + np.arange(m)
            if self.mode.data == "circular":
                pos %= n
            elif m and not 0 <= start <= n - m:
                raise ValueError(f"write index {start} of batch {b} leaves no room for {m}")
            out[b].swapaxes(0, axis - 1)[pos] = update[b].swapaxes(0, axis - 1)
        return out


__all__ = [
    "REDUCTIONS",
    "CompressOp",
    "NonZeroOp",
    "DepthToSpaceOp",
    "EyeLikeOp",
    "GatherElementsOp",
    "GatherNDOp",
    "OneHotOp",
    "ReverseSequenceOp",
    "ScatterElementsOp",
    "ScatterNDOp",
    "ScatterOp",
    "SpaceToDepthOp",
    "TensorScatterOp",
    "TileOp",
    "TriluOp",
]

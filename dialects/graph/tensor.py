"""Tensor ops: constants of a shape, ranges, reshapes, indexing, concatenation and padding."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar, cast

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    f32,
    i64,
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
from infer.dialects.dims import DYN, Dim
from infer.dialects.graph.base import (
    TRAITS,
    GraphOp,
    SymbolicShape,
    const_ints,
    normalize_axis,
    symbolic_dims,
)
from infer.dialects.graph.numpy_semantics import result_shape, to_result_shape
from infer.dialects.graph.types import int_attr, numpy_dtype


@irdl_op_definition
class ConstantOfShapeOp(GraphOp):
    name = "graph.constant_of_shape"
    ONNX_OP: ClassVar[str | None] = "ConstantOfShape"
    input = operand_def(TensorType)
    output = result_def(TensorType)
    value = opt_prop_def(DenseIntOrFPElementsAttr)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if types[0].element_type != i64:
            raise VerifyException("'graph.constant_of_shape' shape must be an i64 tensor")
        v = props.get("value")
        if v is not None and len(cast(DenseIntOrFPElementsAttr, v)) != 1:
            raise VerifyException("'graph.constant_of_shape' value must have one element")

    @classmethod
    def output_dims(cls, props, dims, consts):
        if len(dims[0]) != 1:
            raise ValueError("shape operand must be 1-D")
        shape = const_ints(consts, 0)
        symbolic = symbolic_dims(consts, 0)
        if symbolic is not None:
            return [symbolic]
        if shape is None:
            n = dims[0][0]
            if not isinstance(n, int):
                raise ValueError("shape operand of unknown length")
            return [[DYN] * n]
        if any(d < 0 for d in shape):
            raise ValueError(f"negative dim in shape {shape}")
        return [shape]

    @classmethod
    def output_elements(cls, props, elements):
        v = props.get("value")
        return [cast(DenseIntOrFPElementsAttr, v).get_element_type() if v else f32]

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        attr = self.properties.get("value")
        if attr is None:
            return np.zeros(result_shape(self, x), np.float32)
        attr = cast(DenseIntOrFPElementsAttr, attr)
        dtype = numpy_dtype(attr.get_element_type())
        return np.full(result_shape(self, x), np.frombuffer(attr.data.data, dtype=dtype)[0])


def range_length(start: Dim, limit: Dim, delta: Dim) -> Dim:
    """ONNX Range's element count max(ceil((limit - start) / delta), 0) on integer dims
    (ints, DYN, or the lowering's run-time values). A delta known only at run time uses
    ceil(a / d) = -floor(-a / d), which holds for either sign of d."""
    if isinstance(delta, int):
        if delta == 0:
            raise ValueError("delta must not be zero")
        n = D.ceil_div(limit - start, delta) if delta > 0 else D.ceil_div(start - limit, -delta)
    else:
        n = 0 - ((start - limit) // delta)
    return max(n, 0) if isinstance(n, int) else n.max(0)


def float_range_length(start: np.generic, limit: np.generic, delta: np.generic) -> int:
    """Range's element count for float scalars, as onnxruntime computes it: limit - start
    in the element type, divided by delta in double precision."""
    q = np.ceil(float(limit - start) / float(delta)) if delta != 0 else np.nan
    if not np.isfinite(q):
        raise ValueError(f"range({start}, {limit}, {delta}) has no finite length")
    return max(int(q), 0)


@irdl_op_definition
class RangeOp(GraphOp):
    """y[i] = start + i * delta for i < max(ceil((limit - start) / delta), 0).

    start, limit, delta: scalars (rank 0, or one element) of one float or signed integer
    type. The length is static when all three are constants, symbolic when they come from
    a `shape.of` (`SymbolicShape`: DYN in type inference, the map evaluated on run-time
    dims in the lowering), else known at run time only."""

    name = "graph.range"
    ONNX_OP: ClassVar[str | None] = "Range"
    start = operand_def(TensorType)
    limit = operand_def(TensorType)
    delta = operand_def(TensorType)
    output = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        e = types[0].element_type
        if any(t.element_type != e for t in types):
            raise VerifyException("'graph.range' start, limit and delta must have one type")
        if not (isinstance(e, Float32Type | Float64Type) or (
                isinstance(e, IntegerType) and e.width.data in (16, 32, 64)
                and e.signedness.data != Signedness.UNSIGNED)):
            raise VerifyException(f"'graph.range' needs f32, f64, i16, i32 or i64, got {e}")
        if any(t.get_shape() not in ((), (1,)) for t in types):
            raise VerifyException("'graph.range' start, limit and delta must be scalars")

    @classmethod
    def output_dims(cls, props, dims, consts):
        arrays = [c.reshape(-1)[0] if isinstance(c, np.ndarray) else None for c in consts]
        if any(isinstance(a, np.floating) for a in arrays):  # then all are floats
            if arrays[2] is not None and arrays[2] == 0:
                raise ValueError("delta must not be zero")
            if any(a is None for a in arrays):
                return [[DYN]]
            return [[float_range_length(*cast(list[np.generic], arrays))]]
        scalars: list[Dim] = []
        for a, c in zip(arrays, consts, strict=True):
            symbolic = c.dims[0] if isinstance(c, SymbolicShape) else DYN
            scalars.append(int(a) if a is not None else symbolic)
        return [[range_length(*scalars)]]

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        """y[i] = start + i * delta in the element type (as the kernel computes it)."""
        start, _, delta = (v.reshape(-1)[0] for v in x)
        (n,) = result_shape(self, x)
        return start + np.arange(n, dtype=start.dtype) * delta


# ---------------------------------------------------------------------------------------
# Shape manipulation
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class ReshapeOp(GraphOp):
    """Reshape to the 1-D i64 `shape` operand; 0 copies the input dim, -1 is inferred."""

    name = "graph.reshape"
    ONNX_OP: ClassVar[str | None] = "Reshape"
    data = operand_def(TensorType)
    shape = operand_def(TensorType)
    reshaped = result_def(TensorType)
    allowzero = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if types[1].element_type != i64 or len(types[1].get_shape()) != 1:
            raise VerifyException("'graph.reshape' shape must be a 1-D i64 tensor")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        shape: Sequence[Dim] | None = const_ints(consts, 1)
        if shape is None:
            shape = symbolic_dims(consts, 1)
        if shape is None:
            n = dims[1][0]
            if not isinstance(n, int):
                raise ValueError("shape operand of unknown length")
            return [[DYN] * n]
        return [reshape_dims(x, shape, bool(cls.prop(props, "allowzero")))]

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        return to_result_shape(self, x)


def reshape_dims(x: Sequence[Dim], shape: Sequence[Dim], allowzero: bool = False) -> list[Dim]:
    """Output dims of Reshape(x, shape) following ONNX's 0 / -1 rules.

    Non-int entries of `shape` are sizes given as dims of some tensor (never -1; taken as
    they are: only a zero-sized tensor would make one 0)."""
    if shape.count(-1) > 1:
        raise ValueError(f"shape {list(shape)} has more than one -1")
    out: list[Dim] = []
    for i, s in enumerate(shape):
        if not isinstance(s, int):
            out.append(s)
        elif s == 0 and not allowzero:
            if i >= len(x):
                raise ValueError(f"shape {list(shape)} copies dim {i} of a rank-{len(x)} input")
            out.append(x[i])
        elif s < -1:
            raise ValueError(f"invalid dim {s} in shape {list(shape)}")
        else:
            out.append(s)
    if -1 in shape:
        j = list(shape).index(-1)
        # Dims copied by 0 cancel out of both products, so [N, 3, 4] -> [0, -1] is [N, 12].
        copied = {i for i, s in enumerate(shape) if isinstance(s, int) and s == 0 and not allowzero}
        known = D.product([d for i, d in enumerate(out) if i != j and i not in copied])
        total = D.product([d for i, d in enumerate(x) if i not in copied])
        if isinstance(known, int) and isinstance(total, int):
            if known == 0 or total % known:
                raise ValueError(f"cannot reshape {D.format_shape(x)} to {list(shape)}")
        D.require(D.AT_LEAST, known, 1, "element count of the other dims")  # divided by next
        out[j] = total // known
        D.require(D.EQUAL, total, out[j] * known, "element counts")
    else:
        total, new = D.product(x), D.product(out)
        if isinstance(total, int) and isinstance(new, int) and total != new:
            raise ValueError(f"cannot reshape {D.format_shape(x)} to {list(shape)}")
        D.require(D.EQUAL, total, new, "element counts")
    return out


@irdl_op_definition
class FlattenOp(GraphOp):
    name = "graph.flatten"
    ONNX_OP: ClassVar[str | None] = "Flatten"
    input = operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(1))
    traits = TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        axis = cls.prop(props, "axis")
        if not -len(x) <= axis <= len(x):
            raise ValueError(f"axis {axis} is out of range for rank {len(x)}")
        axis = axis + len(x) if axis < 0 else axis
        return [[D.product(x[:axis]), D.product(x[axis:])]]

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        return to_result_shape(self, x)


@irdl_op_definition
class TransposeOp(GraphOp):
    name = "graph.transpose"
    ONNX_OP: ClassVar[str | None] = "Transpose"
    data = operand_def(TensorType)
    transposed = result_def(TensorType)
    perm = opt_prop_def(DenseArrayBase)
    traits = TRAITS

    @classmethod
    def permutation(cls, props, rank: int) -> list[int]:
        perm = cls.prop(props, "perm")
        return list(reversed(range(rank))) if perm is None else perm

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        perm = cls.permutation(props, len(x))
        if sorted(perm) != list(range(len(x))):
            raise ValueError(f"perm {perm} is not a permutation of {len(x)} axes")
        return [[x[p] for p in perm]]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.transpose(x, self.permutation(self.properties, x.ndim))


@irdl_op_definition
class ChannelShuffleOp(GraphOp):
    """y[:, i*g + j] = x[:, j*(C/g) + i]: channels seen as [g, C/g], transposed (ShuffleNet).

    What Reshape(N, g, C/g, ...) → Transpose(0, 2, 1, ...) → Reshape(N, C, ...) computes."""

    name = "graph.channel_shuffle"
    ONNX_OP: ClassVar[str | None] = None  # made by shape fusion
    FOLDABLE: ClassVar[bool] = False
    input = operand_def(TensorType)
    output = result_def(TensorType)
    groups = prop_def(IntegerAttr)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if cls.prop(props, "groups") < 1:
            raise VerifyException("'graph.channel_shuffle' groups must be >= 1")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        g = cls.prop(props, "groups")
        if len(x) < 2:
            raise ValueError(f"input of rank {len(x)} has no channel dim")
        if isinstance(x[1], int) and x[1] % g:
            raise ValueError(f"{x[1]} channels do not split into {g} groups")
        return [list(x)]


@irdl_op_definition
class ShapeOp(GraphOp):
    name = "graph.shape"
    ONNX_OP: ClassVar[str | None] = "Shape"
    data = operand_def(TensorType)
    shape = result_def(TensorType)
    start = prop_def(IntegerAttr, default_value=int_attr(0))
    end = opt_prop_def(IntegerAttr)
    traits = TRAITS

    @classmethod
    def bounds(cls, props, rank: int) -> tuple[int, int]:
        start = cls.prop(props, "start")
        end = cls.prop(props, "end")
        end = rank if end is None else end
        start = min(max(start + rank if start < 0 else start, 0), rank)
        end = min(max(end + rank if end < 0 else end, 0), rank)
        return start, max(start, end)

    @classmethod
    def output_dims(cls, props, dims, consts):
        start, end = cls.bounds(props, len(dims[0]))
        return [[end - start]]

    @classmethod
    def output_elements(cls, props, elements):
        return [i64]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        start, end = self.bounds(self.properties, x.ndim)
        return np.array(x.shape[start:end], dtype=np.int64)


@irdl_op_definition
class SizeOp(GraphOp):
    """The element count of `data`, as a 0-d int64 tensor."""

    name = "graph.size"
    ONNX_OP: ClassVar[str | None] = "Size"
    data = operand_def(TensorType)
    size = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        return [[]]

    @classmethod
    def output_elements(cls, props, elements):
        return [i64]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.array(x.size, dtype=np.int64)


@irdl_op_definition
class GatherOp(GraphOp):
    name = "graph.gather"
    ONNX_OP: ClassVar[str | None] = "Gather"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        e = types[1].element_type
        if not (isinstance(e, IntegerType) and e.width.data in (32, 64)):
            raise VerifyException("'graph.gather' indices must be i32 or i64")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, idx = dims
        axis = normalize_axis(cls.prop(props, "axis"), len(x), "axis")
        return [[*x[:axis], *idx, *x[axis + 1 :]]]

    def numpy(self, data: np.ndarray, indices: np.ndarray) -> np.ndarray:
        return np.take(data, indices.astype(np.int64), axis=self.axis.value.data)


@irdl_op_definition
class SliceOp(GraphOp):
    """data[starts:ends:steps] along `axes`: four 1-D integer operands, constants (the
    result's dims fold) or values computed at run time (the lowering reads them)."""

    name = "graph.slice"
    ONNX_OP: ClassVar[str | None] = "Slice"
    data = operand_def(TensorType)
    starts = operand_def(TensorType)
    ends = operand_def(TensorType)
    axes = operand_def(TensorType)
    steps = operand_def(TensorType)
    output = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        for t in types[1:]:
            if len(t.get_shape()) != 1 or t.element_type not in (i64, IntegerType(32)):
                raise VerifyException("'graph.slice' starts/ends/axes/steps must be 1-D ints")

    @classmethod
    def normalized(cls, x: Sequence[Dim], consts) -> list[tuple[int, int, int, int]] | None:
        """(axis, start, end, step) per sliced axis, clamped, or None when not constant."""
        vals = [const_ints(consts, i) for i in range(1, 5)]
        if any(v is None for v in vals):
            return None
        starts, ends, axes, steps = cast(list[list[int]], vals)
        if not len(starts) == len(ends) == len(axes) == len(steps):
            raise ValueError("starts, ends, axes and steps differ in length")
        out = []
        for s, e, a, st in zip(starts, ends, axes, steps, strict=True):
            a = normalize_axis(a, len(x), "axis")
            if st == 0:
                raise ValueError("slice step must not be 0")
            out.append((a, s, e, st))
        return out

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = list(dims[0])
        spec = cls.normalized(x, consts)
        if spec is None:
            # Bounds computed at run time (PyTorch's chunk: ends = (C + 1) / 2 from Shape):
            # the sliced axes are dynamic (all of them when the axes are too) unless shape
            # fusion makes the bounds constants.
            axes = const_ints(consts, 3)
            if axes is None:
                return [[DYN] * len(x)]
            sliced = {normalize_axis(a, len(x), "axis") for a in axes}
            return [[DYN if i in sliced else d for i, d in enumerate(x)]]
        for a, s, e, st in spec:
            n = x[a]
            if not isinstance(n, int):
                x[a] = DYN  # clamping to the run-time size decides; the lowering computes it
                continue
            x[a] = len(range(*slice(s, e, st).indices(n)))
        return [x]

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        consts: list[np.ndarray | None] = list(x)
        spec = self.normalized(list(x[0].shape), consts) or []
        index = [slice(None)] * x[0].ndim
        for axis, start, end, step in spec:
            # Python's slice clamps as ONNX does (its indices() would not round-trip: a
            # stop of -1 there means before the first element, in a slice the last one)
            index[axis] = slice(start, end, step)
        return x[0][tuple(index)]


@irdl_op_definition
class ConcatOp(GraphOp):
    name = "graph.concat"
    ONNX_OP: ClassVar[str | None] = "Concat"
    inputs = var_operand_def(TensorType)
    concat_result = result_def(TensorType)
    axis = prop_def(IntegerAttr)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if not types:
            raise VerifyException("'graph.concat' needs at least one input")
        if any(t.element_type != types[0].element_type for t in types):
            raise VerifyException("'graph.concat' inputs have different element types")

    @classmethod
    def output_dims(cls, props, dims, consts):
        rank = len(dims[0])
        axis = normalize_axis(cls.prop(props, "axis"), rank, "axis")
        out = list(dims[0])
        total: Dim = 0
        for s in dims:
            if len(s) != rank:
                raise ValueError("inputs have different ranks")
            for i, d in enumerate(s):
                if i != axis and isinstance(d, int) and isinstance(out[i], int) and d != out[i]:
                    raise ValueError(f"inputs differ in dim {i}: {out[i]} and {d}")
                if i != axis:
                    D.require(D.EQUAL, out[i], d, f"dims {i}")
                if i != axis and not isinstance(out[i], int):
                    out[i] = d
            total = total + s[axis]
        out[axis] = total
        return [out]

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        return np.concatenate(x, axis=self.axis.value.data)


def _axes_count(axes: Sequence[Dim]) -> int:
    """The number of entries of a 1-D axes operand, which must be static."""
    (n,) = axes
    if not isinstance(n, int):
        raise ValueError("axes computed at run time must have a static length")
    return n


class AxesOp(GraphOp, ABC):
    data = operand_def(TensorType)
    axes = var_operand_def(TensorType)
    output = result_def(TensorType)
    traits = TRAITS


@irdl_op_definition
class UnsqueezeOp(AxesOp):
    name = "graph.unsqueeze"
    ONNX_OP: ClassVar[str | None] = "Unsqueeze"

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(dims) < 2:
            raise ValueError("needs its axes as an operand")
        axes = const_ints(consts, 1)
        if axes is None:  # read at run time: so are the dims (the rank needs their count)
            return [[DYN] * (len(x) + _axes_count(dims[1]))]
        rank = len(x) + len(axes)
        norm = sorted(normalize_axis(a, rank, "axis") for a in axes)
        if len(set(norm)) != len(norm):
            raise ValueError(f"repeated axis in {axes}")
        out: list[Dim] = []
        it = iter(x)
        for i in range(rank):
            out.append(1 if i in norm else next(it))
        return [out]

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        return to_result_shape(self, x)


@irdl_op_definition
class SqueezeOp(AxesOp):
    name = "graph.squeeze"
    ONNX_OP: ClassVar[str | None] = "Squeeze"

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(dims) < 2:  # every dim that is 1; one known only at run time is kept,
            for i, d in enumerate(x):  # so it must not be 1 then
                if not isinstance(d, int):
                    D.require(D.DIFFERENT, d, 1, f"dim {i} (a Squeeze without axes keeps "
                              "the dims known only at run time)")
            return [[d for d in x if d != 1]]
        axes = const_ints(consts, 1)
        if axes is None:  # read at run time: so are the dims (the rank needs their count)
            return [[DYN] * (len(x) - _axes_count(dims[1]))]
        norm = {normalize_axis(a, len(x), "axis") for a in axes}
        for a in norm:
            if isinstance(x[a], int) and x[a] != 1:
                raise ValueError(f"cannot squeeze axis {a} of size {x[a]}")
            D.require(D.EQUAL, x[a], 1, f"squeezed dim {a} and 1")
        return [[d for i, d in enumerate(x) if i not in norm]]

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        return to_result_shape(self, x)


@irdl_op_definition
class ExpandOp(GraphOp):
    name = "graph.expand"
    ONNX_OP: ClassVar[str | None] = "Expand"
    input = operand_def(TensorType)
    shape = operand_def(TensorType)
    output = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        shape: Sequence[Dim] | None = const_ints(consts, 1)
        if shape is None:
            shape = symbolic_dims(consts, 1)
        if shape is None:  # known at run time only: each entry is dynamic
            n = dims[1][0] if len(dims[1]) == 1 else None
            if not isinstance(n, int):
                raise ValueError("shape must be a 1-D tensor of static length")
            shape = [DYN] * n
        return [D.broadcast([dims[0], shape])]

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        return np.broadcast_to(x[0], result_shape(self, x))


@irdl_op_definition
class SplitOp(GraphOp):
    name = "graph.split"
    ONNX_OP: ClassVar[str | None] = "Split"
    input = operand_def(TensorType)
    split = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(0))
    num_outputs = prop_def(IntegerAttr)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if cls.prop(props, "num_outputs") < 1:
            raise VerifyException("'graph.split' num_outputs must be >= 1")

    @classmethod
    def sizes(cls, props, x: Sequence[Dim], consts) -> list[Dim]:
        axis = normalize_axis(cls.prop(props, "axis"), len(x), "axis")
        n = cls.prop(props, "num_outputs")
        split = const_ints(consts, 1)
        if split is None and len(consts) > 1:
            return [DYN] * n  # sizes known only at run time
        if split is not None:
            if len(split) != n:
                raise ValueError(f"split has {len(split)} sizes for {n} outputs")
            if min(split) < 0 or (isinstance(x[axis], int) and sum(split) != x[axis]):
                raise ValueError(f"split sizes {split} do not add up to dim {x[axis]}")
            D.require(D.EQUAL, sum(split), x[axis], "split sizes' sum and the split dim")
            return list(split)
        d = x[axis]
        part = D.ceil_div(d, n)
        last = d - part * (n - 1)
        D.require(D.AT_LEAST, last, 0, "the last part's size")
        return [part] * (n - 1) + [last]

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        axis = normalize_axis(cls.prop(props, "axis"), len(x), "axis")
        return [[s if i == axis else d for i, d in enumerate(x)]
                for s in cls.sizes(props, x, consts)]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[0]] * cls.prop(props, "num_outputs")

    def numpy(self, *x: np.ndarray) -> list[np.ndarray]:
        consts: list[np.ndarray | None] = list(x)
        sizes = cast(list[int], self.sizes(self.properties, list(x[0].shape), consts))
        return np.split(x[0], np.cumsum(sizes)[:-1], axis=self.axis.value.data)


@irdl_op_definition
class PadOp(GraphOp):
    """Pad `data` by the 1-D i64 `pads` ([begin..., end...] per axis, or per entry of the
    optional `axes`; negative crops); mode "constant" fills with the scalar
    `constant_value`. Pads and axes may be computed at run time: the dims then are too."""

    name = "graph.pad"
    ONNX_OP: ClassVar[str | None] = "Pad"
    FOLDABLE: ClassVar[bool] = False
    data = operand_def(TensorType)
    pads = operand_def(TensorType)
    constant_value = operand_def(TensorType)
    axes = var_operand_def(TensorType)
    output = result_def(TensorType)
    mode = prop_def(StringAttr, default_value=StringAttr("constant"))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        for t, what in zip(types[1:4:2], ("pads", "axes"), strict=False):
            if t.element_type != i64 or len(t.get_shape()) != 1:
                raise VerifyException(f"'graph.pad' {what} must be a 1-D i64 tensor")
        if types[2].get_shape() not in ((), (1,)) or types[2].element_type != types[0].element_type:
            raise VerifyException("'graph.pad' constant_value must be a scalar of data's type")
        if cls.prop(props, "mode") not in ("constant", "reflect", "edge", "wrap"):
            raise VerifyException("'graph.pad' mode must be constant, reflect, edge or wrap")
        if len(types) > 4:
            raise VerifyException("'graph.pad' takes at most one axes operand")
        (n,) = types[1].get_shape()
        want = 2 * (types[3].get_shape()[0] if len(types) > 3 else len(types[0].get_shape()))
        if n >= 0 and want >= 0 and n != want:
            raise VerifyException(f"'graph.pad' pads has {n} values, expected {want}")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        pads = const_ints(consts, 1)
        if pads is None or len(dims) > 3:  # sizes known at run time only
            return [[DYN] * len(x)]
        out = [d + (pads[i] + pads[len(x) + i]) for i, d in enumerate(x)]
        if any(isinstance(d, int) and d < 0 for d in out):
            raise ValueError(f"pads {pads} crop {D.format_shape(x)} below size 0")
        mode = cls.prop(props, "mode")
        for i, (d, o) in enumerate(zip(x, out, strict=True)):
            D.require(D.AT_LEAST, o, 0, f"padded dim {i}")
            begin, end = pads[i], pads[len(x) + i]
            kept = d - max(0, -begin) - max(0, -end)  # negative pads crop first
            need = cls.needed(mode, max(begin, end))
            D.require(D.AT_LEAST, kept, need, f"dim {i} padded by {mode}")
        return [out]

    @staticmethod
    def needed(mode: str, widest: int) -> int:
        """The least input dim a mode reads when it pads a side by `widest`: edge copies
        a border element, reflect mirrors without it, wrap repeats the dim."""
        if widest <= 0:
            return 0
        return {"edge": 1, "wrap": 1, "reflect": widest + 1}.get(mode, 0)


__all__ = [
    "ConstantOfShapeOp",
    "range_length",
    "float_range_length",
    "RangeOp",
    "ReshapeOp",
    "reshape_dims",
    "FlattenOp",
    "TransposeOp",
    "ChannelShuffleOp",
    "ShapeOp",
    "SizeOp",
    "GatherOp",
    "SliceOp",
    "ConcatOp",
    "AxesOp",
    "UnsqueezeOp",
    "SqueezeOp",
    "ExpandOp",
    "SplitOp",
    "PadOp",
]

"""ONNX operators as `graph` ops: one function per ONNX op (and per opset variant).

Each function takes an `OpBuilder` (where the ops go), the node's inputs as SSA values
(None for an omitted optional input) and its attributes as keyword arguments (a keyword
without default is a required attribute). An attribute that the graph op has too defaults
to None and is passed on only when the node sets it: the op's definition holds the
default, which is ONNX's (where an older opset's default differs, as Softmax-1's axis,
the variant states it). Attributes used here only keep the spec's default. It returns
the values of the node's outputs, in order; returning fewer than the node uses is an
"output not supported" error (Dropout's mask, MaxPool's Indices, BatchNormalization's
training outputs).

`OPS` maps an op type to its variants keyed by the ONNX version (`since_version`) from
which each applies: attributes that later became inputs (Unsqueeze's axes, Slice's
starts, Clip's min/max, ...) are turned into constant operands here, so the graph dialect
only knows the newest form.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float64Type,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    f32,
    i64,
)
from xdsl.ir import Attribute, Block, SSAValue

from infer.dialects import graph as G
from infer.dialects.dims import Dim

Value = SSAValue
OpFn = Callable[..., "Value | Sequence[Value]"]


class NodeError(Exception):
    """A reason a node cannot be imported; the importer adds which node it is."""


class Unsupported(NodeError):
    """The node is valid ONNX that the importer does not handle."""


# ---------------------------------------------------------------------------------------
# Builder
# ---------------------------------------------------------------------------------------


def _prop(value: object) -> Attribute:
    if isinstance(value, Attribute):
        return value
    if isinstance(value, bool | int | np.integer):
        return G.int_attr(int(value))
    if isinstance(value, float | np.floating):
        return G.float_attr(float(value))
    if isinstance(value, str):
        return StringAttr(value)
    if isinstance(value, list | tuple):
        return G.ints_attr([int(v) for v in value])
    raise TypeError(f"cannot make a property of {value!r}")


class OpBuilder:
    """Appends graph ops for one ONNX node to the function body."""

    def __init__(self, block: Block, num_outputs: int, used: Sequence[bool]):
        self.block = block
        self.num_outputs = num_outputs  # outputs the node declares
        self.used = list(used)  # per output: consumed by a node or a graph output

    def emit(
        self, cls: type[G.GraphOp], *operands: Value | None, **props: object
    ) -> list[Value]:
        """Append `cls(operands)` (None operands dropped, None props omitted); its results."""
        attrs = {k: _prop(v) for k, v in props.items() if v is not None}
        op = cls.make([o for o in operands if o is not None], attrs)
        self.block.add_op(op)
        return list(op.results)

    def emit1(self, cls: type[G.GraphOp], *operands: Value | None, **props: object) -> Value:
        return self.emit(cls, *operands, **props)[0]

    def const(self, array: np.ndarray) -> Value:
        op = G.ConstantOp(np.asarray(array))
        self.block.add_op(op)
        return op.output

    def ints(self, values: Sequence[int]) -> Value:
        """A 1-D i64 constant (axes, shapes, starts...)."""
        return self.const(np.asarray(list(values), dtype=np.int64))


def dims(v: Value) -> list[Dim]:
    return G.dims_of(v.type)


def element(v: Value) -> Attribute:
    return cast(TensorType, v.type).element_type


def const_ints(v: Value | None, what: str) -> list[int] | None:
    """The integers of a constant operand, None when absent; Unsupported when not constant."""
    if v is None:
        return None
    arr = G.constant_value(v)
    if arr is None:
        raise Unsupported(f"{what} must be a constant")
    return [int(x) for x in arr.reshape(-1)]


def _axis(axis: int, rank: int) -> int:
    if not -rank <= axis < max(rank, 1):
        raise NodeError(f"axis {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


# ---------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------


def constant(
    b: OpBuilder,
    *,
    value: np.ndarray | None = None,
    sparse_value: object = None,
    value_float: float | None = None,
    value_floats: list[float] | None = None,
    value_int: int | None = None,
    value_ints: list[int] | None = None,
    value_string: str | None = None,
    value_strings: list[str] | None = None,
) -> Value:
    if sparse_value is not None or value_string is not None or value_strings is not None:
        raise Unsupported("sparse and string constants are not supported")
    if value is not None:
        return b.const(value)
    if value_float is not None:
        return b.const(np.array(value_float, dtype=np.float32))
    if value_floats is not None:
        return b.const(np.array(value_floats, dtype=np.float32))
    if value_int is not None:
        return b.const(np.array(value_int, dtype=np.int64))
    if value_ints is not None:
        return b.const(np.array(value_ints, dtype=np.int64))
    raise NodeError("Constant has no value attribute")


def constant_of_shape(b: OpBuilder, input: Value, *, value: np.ndarray | None = None) -> Value:
    fill = np.zeros(1, np.float32) if value is None else np.asarray(value).reshape(1)
    return b.emit1(G.ConstantOfShapeOp, input, value=G.dense_from_numpy(fill))


# ---------------------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------------------


def _unary(cls: type[G.GraphOp]) -> OpFn:
    def unary(b: OpBuilder, x: Value) -> Value:
        return b.emit1(cls, x)

    unary.__name__ = cls.name.removeprefix("graph.")
    return unary


def _binary(cls: type[G.GraphOp]) -> OpFn:
    def binary(b: OpBuilder, a: Value, c: Value) -> Value:
        if element(a) != element(c):
            raise NodeError(
                f"operands have different element types: {element(a)} and {element(c)}"
            )
        return b.emit1(cls, a, c)

    binary.__name__ = cls.name.removeprefix("graph.")
    return binary


def _variadic(cls: type[G.GraphOp]) -> OpFn:
    def variadic(b: OpBuilder, *inputs: Value | None) -> Value:
        return b.emit1(cls, *inputs)

    variadic.__name__ = cls.name.removeprefix("graph.")
    return variadic


def identity(b: OpBuilder, input: Value) -> Value:
    return b.emit1(G.IdentityOp, input)


def leaky_relu(b: OpBuilder, x: Value, *, alpha: float | None = None) -> Value:
    return b.emit1(G.LeakyReluOp, x, alpha=alpha)


def hard_sigmoid(b: OpBuilder, x: Value, *, alpha: float | None = None,
                 beta: float | None = None) -> Value:
    return b.emit1(G.HardSigmoidOp, x, alpha=alpha, beta=beta)


def gelu(b: OpBuilder, x: Value, *, approximate: str | None = None) -> Value:
    if approximate not in (None, "none", "tanh"):
        raise NodeError(f"approximate must be 'none' or 'tanh', got '{approximate}'")
    return b.emit1(G.GeluOp, x, approximate=approximate)


def pow_(b: OpBuilder, x: Value, y: Value) -> Value:
    # Since opset 12 the exponent may have another type; the result has the base's type.
    if element(y) != element(x):
        y = b.emit1(G.CastOp, y, to=element(x))
    return b.emit1(G.PowOp, x, y)


def _clip_bound(b: OpBuilder, x: Value, bound: float | None, upper: bool) -> Value:
    """A scalar constant of x's dtype; a missing bound is the dtype's +-inf (max/min)."""
    dtype = G.numpy_dtype(element(x))
    if bound is None:
        if dtype.kind == "f":
            bound = np.inf if upper else -np.inf
        else:
            info = np.iinfo(dtype)
            bound = info.max if upper else info.min
    return b.const(np.array(bound, dtype=dtype))


def clip_v6(
    b: OpBuilder, input: Value, *, min: float | None = None, max: float | None = None
) -> Value:
    return b.emit1(
        G.ClipOp, input, _clip_bound(b, input, min, False), _clip_bound(b, input, max, True)
    )


def clip(b: OpBuilder, input: Value, min: Value | None = None, max: Value | None = None) -> Value:
    lo = _clip_bound(b, input, None, False) if min is None else min
    hi = _clip_bound(b, input, None, True) if max is None else max
    return b.emit1(G.ClipOp, input, lo, hi)


# ONNX TensorProto.DataType -> builtin element type (bf16 only where xDSL has it).
ONNX_ELEMENT_TYPES: dict[int, Attribute] = {
    1: f32,
    2: IntegerType(8, Signedness.UNSIGNED),
    3: IntegerType(8),
    4: IntegerType(16, Signedness.UNSIGNED),
    5: IntegerType(16),
    6: IntegerType(32),
    7: i64,
    9: IntegerType(1),
    10: Float16Type(),
    11: Float64Type(),
    12: IntegerType(32, Signedness.UNSIGNED),
    13: IntegerType(64, Signedness.UNSIGNED),
    16: BFloat16Type(),
}


def element_type(onnx_dtype: int) -> Attribute:
    if onnx_dtype not in ONNX_ELEMENT_TYPES:
        import onnx

        name = onnx.TensorProto.DataType.Name(onnx_dtype) if onnx_dtype else "UNDEFINED"
        raise Unsupported(f"element type {name} is not supported")
    return ONNX_ELEMENT_TYPES[onnx_dtype]


def cast_(
    b: OpBuilder, input: Value, *, to: int, saturate: int = 1, round_mode: str = "up"
) -> Value:
    return b.emit1(G.CastOp, input, to=element_type(to))


def where(b: OpBuilder, condition: Value, x: Value, y: Value) -> Value:
    if element(x) != element(y):
        raise NodeError(f"X and Y have different element types: {element(x)} and {element(y)}")
    return b.emit1(G.WhereOp, condition, x, y)


def dropout_v7(b: OpBuilder, data: Value, *, ratio: float = 0.5) -> Value:
    return b.emit1(G.DropoutOp, data)


def dropout(
    b: OpBuilder,
    data: Value,
    ratio: Value | None = None,
    training_mode: Value | None = None,
    *,
    seed: int | None = None,
) -> Value:
    if training_mode is not None:
        mode = G.constant_value(training_mode)
        if mode is None or mode.any():
            raise Unsupported("training mode is not supported (training_mode must be false)")
    return b.emit1(G.DropoutOp, data)


# ---------------------------------------------------------------------------------------
# Linear algebra, convolution, pooling, normalization
# ---------------------------------------------------------------------------------------


def matmul(b: OpBuilder, a: Value, c: Value) -> Value:
    return b.emit1(G.MatMulOp, a, c)


def gemm(
    b: OpBuilder,
    a: Value,
    c: Value,
    bias: Value | None = None,
    *,
    alpha: float | None = None,
    beta: float | None = None,
    transA: int | None = None,
    transB: int | None = None,
) -> Value:
    return b.emit1(G.GemmOp, a, c, bias, alpha=alpha, beta=beta, transA=transA, transB=transB)


def _window_pads(
    auto_pad: str,
    x: Sequence[Dim],
    kernel: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    pads: Sequence[int] | None,
) -> list[int] | None:
    """Explicit [begin..., end...] pads: auto_pad resolved against static spatial dims."""
    n = len(kernel)
    if auto_pad == "NOTSET":
        return list(pads) if pads is not None else None
    if auto_pad == "VALID":
        return [0] * (2 * n)
    if auto_pad not in ("SAME_UPPER", "SAME_LOWER"):
        raise NodeError(f"invalid auto_pad '{auto_pad}'")
    spatial = x[2:]
    if not all(isinstance(d, int) for d in spatial):
        raise Unsupported(f"auto_pad {auto_pad} needs static spatial dims")
    begin, end = [], []
    for size, k, s, d in zip(cast(list[int], spatial), kernel, strides, dilations, strict=True):
        out = -(-size // s)
        total = max(0, (out - 1) * s + (k - 1) * d + 1 - size)
        small = total // 2
        # SAME_UPPER puts the odd pad at the end, SAME_LOWER at the beginning.
        lo = small if auto_pad == "SAME_UPPER" else total - small
        begin.append(lo)
        end.append(total - lo)
    return begin + end


def _nontrivial(values: Sequence[int] | None, trivial: int) -> list[int] | None:
    """Omit an attribute that only repeats its default (all ones / all zeros)."""
    if values is None or all(v == trivial for v in values):
        return None
    return list(values)


def conv(
    b: OpBuilder,
    x: Value,
    w: Value,
    bias: Value | None = None,
    *,
    auto_pad: str = "NOTSET",
    dilations: list[int] | None = None,
    group: int | None = None,
    kernel_shape: list[int] | None = None,
    pads: list[int] | None = None,
    strides: list[int] | None = None,
) -> Value:
    kernel = dims(w)[2:]
    if not all(isinstance(k, int) for k in kernel):
        raise Unsupported("the kernel's spatial dims must be static")
    if kernel_shape is not None and list(kernel_shape) != kernel:
        raise NodeError(f"kernel_shape {list(kernel_shape)} differs from W's dims {kernel}")
    n = len(kernel)
    strides = strides or [1] * n
    dilations = dilations or [1] * n
    pads = _window_pads(auto_pad, dims(x), cast(list[int], kernel), strides, dilations, pads)
    return b.emit1(
        G.ConvOp,
        x,
        w,
        bias,
        strides=_nontrivial(strides, 1),
        pads=_nontrivial(pads, 0),
        dilations=_nontrivial(dilations, 1),
        group=group,
    )


def _pool(
    b: OpBuilder,
    cls: type[G.GraphOp],
    x: Value,
    auto_pad: str,
    ceil_mode: int | None,
    dilations: list[int] | None,
    kernel_shape: list[int],
    pads: list[int] | None,
    strides: list[int] | None,
    **extra: object,
) -> Value:
    n = len(kernel_shape)
    strides = strides or [1] * n
    dilations = dilations or [1] * n
    pads = _window_pads(auto_pad, dims(x), kernel_shape, strides, dilations, pads)
    return b.emit1(
        cls,
        x,
        kernel_shape=kernel_shape,
        strides=_nontrivial(strides, 1),
        pads=_nontrivial(pads, 0),
        dilations=_nontrivial(dilations, 1),
        ceil_mode=ceil_mode,
        **extra,
    )


def max_pool(
    b: OpBuilder,
    x: Value,
    *,
    kernel_shape: list[int],
    auto_pad: str = "NOTSET",
    ceil_mode: int | None = None,
    dilations: list[int] | None = None,
    pads: list[int] | None = None,
    storage_order: int = 0,
    strides: list[int] | None = None,
) -> Value:
    return _pool(b, G.MaxPoolOp, x, auto_pad, ceil_mode, dilations, kernel_shape, pads, strides)


def average_pool(
    b: OpBuilder,
    x: Value,
    *,
    kernel_shape: list[int],
    auto_pad: str = "NOTSET",
    ceil_mode: int | None = None,
    count_include_pad: int | None = None,
    dilations: list[int] | None = None,
    pads: list[int] | None = None,
    strides: list[int] | None = None,
) -> Value:
    return _pool(
        b, G.AveragePoolOp, x, auto_pad, ceil_mode, dilations, kernel_shape, pads, strides,
        count_include_pad=count_include_pad,
    )


def batch_normalization(
    b: OpBuilder,
    x: Value,
    scale: Value,
    bias: Value,
    mean: Value,
    var: Value,
    *,
    epsilon: float | None = None,
    momentum: float = 0.9,
    spatial: int = 1,
    training_mode: int = 0,
) -> Value:
    if training_mode:
        raise Unsupported("training mode is not supported")
    if not spatial:
        raise Unsupported("spatial=0 (per-activation statistics) is not supported")
    return b.emit1(G.BatchNormalizationOp, x, scale, bias, mean, var, epsilon=epsilon)


def lrn(
    b: OpBuilder,
    x: Value,
    *,
    size: int,
    alpha: float | None = None,
    beta: float | None = None,
    bias: float | None = None,
) -> Value:
    return b.emit1(G.LRNOp, x, size=size, alpha=alpha, beta=beta, bias=bias)


def layer_normalization(
    b: OpBuilder,
    x: Value,
    scale: Value,
    bias: Value | None = None,
    *,
    axis: int | None = None,
    epsilon: float | None = None,
    stash_type: int = 1,
) -> Value:
    if stash_type != 1:
        raise Unsupported("stash_type other than 1 (float32 statistics) is not supported")
    if axis is not None:
        _axis(axis, len(dims(x)))
    return b.emit1(G.LayerNormalizationOp, x, scale, bias, axis=axis, epsilon=epsilon)


def _softmax_coerced(b: OpBuilder, cls: type[G.GraphOp], x: Value, axis: int) -> Value:
    """Softmax before opset 13: over the input coerced to 2-D at `axis` (Flatten-like)."""
    x_dims = dims(x)
    axis = _axis(axis, len(x_dims))
    if all(d == 1 for d in x_dims[axis + 1 :]):
        return b.emit1(cls, x, axis=axis)  # unit trailing dims: the same as the new form
    flat = b.emit1(G.FlattenOp, x, axis=axis)
    y = b.emit1(cls, flat, axis=-1)
    if sum(not isinstance(d, int) for d in x_dims) <= 1:
        shape = b.ints([d if isinstance(d, int) else -1 for d in x_dims])
    else:
        shape = b.emit1(G.ShapeOp, x)
    return b.emit1(G.ReshapeOp, y, shape)


def softmax_v1(b: OpBuilder, input: Value, *, axis: int = 1) -> Value:
    return _softmax_coerced(b, G.SoftmaxOp, input, axis)


def softmax(b: OpBuilder, input: Value, *, axis: int | None = None) -> Value:
    return b.emit1(G.SoftmaxOp, input, axis=axis)


def log_softmax_v1(b: OpBuilder, input: Value, *, axis: int = 1) -> Value:
    return _softmax_coerced(b, G.LogSoftmaxOp, input, axis)


def log_softmax(b: OpBuilder, input: Value, *, axis: int | None = None) -> Value:
    return b.emit1(G.LogSoftmaxOp, input, axis=axis)


def _reduce_attr(cls: type[G.GraphOp]) -> OpFn:
    """Reductions whose axes are an attribute (ReduceSum < 13, the others < 18)."""

    def reduce(b: OpBuilder, data: Value, *, axes: list[int] | None = None,
               keepdims: int | None = None) -> Value:
        return b.emit1(cls, data, None if axes is None else b.ints(axes), keepdims=keepdims)

    reduce.__name__ = cls.name.removeprefix("graph.") + "_v1"
    return reduce


def _reduce_input(cls: type[G.GraphOp]) -> OpFn:
    def reduce(b: OpBuilder, data: Value, axes: Value | None = None, *,
               keepdims: int | None = None, noop_with_empty_axes: int | None = None) -> Value:
        return b.emit1(cls, data, axes, keepdims=keepdims,
                       noop_with_empty_axes=noop_with_empty_axes)

    reduce.__name__ = cls.name.removeprefix("graph.")
    return reduce


# ---------------------------------------------------------------------------------------
# Shape manipulation
# ---------------------------------------------------------------------------------------


def reshape(b: OpBuilder, data: Value, shape: Value, *, allowzero: int | None = None) -> Value:
    return b.emit1(G.ReshapeOp, data, shape, allowzero=allowzero)


def flatten(b: OpBuilder, input: Value, *, axis: int | None = None) -> Value:
    return b.emit1(G.FlattenOp, input, axis=axis)


def transpose(b: OpBuilder, data: Value, *, perm: list[int] | None = None) -> Value:
    return b.emit1(G.TransposeOp, data, perm=perm)


def shape(b: OpBuilder, data: Value, *, start: int | None = None, end: int | None = None
          ) -> Value:
    return b.emit1(G.ShapeOp, data, start=start, end=end)


def gather(b: OpBuilder, data: Value, indices: Value, *, axis: int | None = None) -> Value:
    return b.emit1(G.GatherOp, data, indices, axis=axis)


def concat(b: OpBuilder, *inputs: Value | None, axis: int) -> Value:
    return b.emit1(G.ConcatOp, *inputs, axis=axis)


def expand(b: OpBuilder, input: Value, shape: Value) -> Value:
    return b.emit1(G.ExpandOp, input, shape)


def range_(b: OpBuilder, start: Value, limit: Value, delta: Value, *, stash_type: int = 1
           ) -> Value:
    # stash_type (opset 27) only applies to float16/bfloat16, which graph.range rejects.
    return b.emit1(G.RangeOp, start, limit, delta)


def slice_v1(
    b: OpBuilder,
    data: Value,
    *,
    starts: list[int],
    ends: list[int],
    axes: list[int] | None = None,
) -> Value:
    axes = list(range(len(starts))) if axes is None else axes
    return b.emit1(
        G.SliceOp, data, b.ints(starts), b.ints(ends), b.ints(axes), b.ints([1] * len(starts))
    )


def slice_(
    b: OpBuilder,
    data: Value,
    starts: Value,
    ends: Value,
    axes: Value | None = None,
    steps: Value | None = None,
) -> Value:
    n = dims(starts)[0] if len(dims(starts)) == 1 else None
    if not isinstance(n, int):
        raise NodeError("starts must be a 1-D tensor of static length")
    axes = b.ints(range(n)) if axes is None else axes
    steps = b.ints([1] * n) if steps is None else steps
    return b.emit1(G.SliceOp, data, starts, ends, axes, steps)


def unsqueeze_v1(b: OpBuilder, data: Value, *, axes: list[int]) -> Value:
    return b.emit1(G.UnsqueezeOp, data, b.ints(axes))


def unsqueeze(b: OpBuilder, data: Value, axes: Value) -> Value:
    return b.emit1(G.UnsqueezeOp, data, axes)


def squeeze_v1(b: OpBuilder, data: Value, *, axes: list[int] | None = None) -> Value:
    return b.emit1(G.SqueezeOp, data, None if axes is None else b.ints(axes))


def squeeze(b: OpBuilder, data: Value, axes: Value | None = None) -> Value:
    return b.emit1(G.SqueezeOp, data, axes)


def split_v2(
    b: OpBuilder, input: Value, *, axis: int | None = None, split: list[int] | None = None
) -> list[Value]:
    sizes = None if split is None else b.ints(split)
    return b.emit(G.SplitOp, input, sizes, axis=axis, num_outputs=b.num_outputs)


def split_v13(b: OpBuilder, input: Value, split: Value | None = None, *,
              axis: int | None = None) -> list[Value]:
    return b.emit(G.SplitOp, input, split, axis=axis, num_outputs=b.num_outputs)


def split(
    b: OpBuilder,
    input: Value,
    split: Value | None = None,
    *,
    axis: int | None = None,
    num_outputs: int | None = None,
) -> list[Value]:
    if num_outputs is not None and num_outputs != b.num_outputs:
        raise NodeError(f"num_outputs is {num_outputs} but the node has {b.num_outputs} outputs")
    return b.emit(G.SplitOp, input, split, axis=axis, num_outputs=b.num_outputs)


def _pad(b: OpBuilder, data: Value, pads: list[int], value: float, axes: list[int] | None,
         mode: str | None) -> Value:
    """Pads over all axes ([begin..., end...]) and a scalar fill of data's type."""
    rank = len(dims(data))
    if axes is not None:  # opset 18: pads only for `axes`; the others get 0
        full = [0] * (2 * rank)
        for i, a in enumerate(axes):
            a = _axis(a, rank)
            full[a], full[rank + a] = pads[i], pads[len(axes) + i]
        pads = full
    if len(pads) != 2 * rank:
        raise NodeError(f"pads has {len(pads)} values for rank {rank}")
    fill = b.const(np.array(value, dtype=G.numpy_dtype(element(data))))
    return b.emit1(G.PadOp, data, b.ints(pads), fill, mode=mode)


def pad_v2(b: OpBuilder, data: Value, *, pads: list[int], mode: str | None = None,
           value: float = 0.0) -> Value:
    return _pad(b, data, pads, value, None, mode)


def pad(
    b: OpBuilder,
    data: Value,
    pads: Value,
    constant_value: Value | None = None,
    axes: Value | None = None,
    *,
    mode: str | None = None,
) -> Value:
    pad_values = cast(list[int], const_ints(pads, "pads"))
    value = 0.0
    if constant_value is not None:
        v = G.constant_value(constant_value)
        if v is None:
            raise Unsupported("constant_value must be a constant")
        value = v.reshape(-1)[0].item() if v.size else 0.0
    return _pad(b, data, pad_values, value, const_ints(axes, "axes"), mode)


# ---------------------------------------------------------------------------------------
# The table: op type -> {since_version: function}
# ---------------------------------------------------------------------------------------

OPS: dict[str, dict[int, OpFn]] = {
    "Constant": {1: constant},
    "ConstantOfShape": {9: constant_of_shape},
    "Relu": {1: _unary(G.ReluOp)},
    "Sigmoid": {1: _unary(G.SigmoidOp)},
    "Tanh": {1: _unary(G.TanhOp)},
    "Exp": {1: _unary(G.ExpOp)},
    "Log": {1: _unary(G.LogOp)},
    "Sqrt": {1: _unary(G.SqrtOp)},
    "Erf": {9: _unary(G.ErfOp)},
    "Reciprocal": {1: _unary(G.ReciprocalOp)},
    "Softsign": {1: _unary(G.SoftsignOp)},
    "Floor": {1: _unary(G.FloorOp)},
    "Ceil": {1: _unary(G.CeilOp)},
    "Neg": {1: _unary(G.NegOp)},
    "Abs": {1: _unary(G.AbsOp)},
    "Identity": {1: identity},
    "Dropout": {7: dropout_v7, 12: dropout},
    "LeakyRelu": {1: leaky_relu},
    "HardSigmoid": {1: hard_sigmoid},
    "HardSwish": {14: _unary(G.HardSwishOp)},
    "Gelu": {20: gelu},
    "Clip": {6: clip_v6, 11: clip},
    "Cast": {6: cast_},
    "Add": {7: _binary(G.AddOp)},
    "Sub": {7: _binary(G.SubOp)},
    "Mul": {7: _binary(G.MulOp)},
    "Div": {7: _binary(G.DivOp)},
    "Pow": {7: pow_},
    "Equal": {7: _binary(G.EqualOp)},
    "Less": {7: _binary(G.LessOp)},
    "Greater": {7: _binary(G.GreaterOp)},
    "Where": {9: where},
    "Sum": {6: _variadic(G.SumOp)},
    "Max": {6: _variadic(G.MaxOp)},
    "Min": {6: _variadic(G.MinOp)},
    "Mean": {6: _variadic(G.MeanOp)},
    "MatMul": {1: matmul},
    "Gemm": {7: gemm},
    "Conv": {1: conv},
    "MaxPool": {1: max_pool},
    "AveragePool": {7: average_pool},
    "GlobalAveragePool": {1: _unary(G.GlobalAveragePoolOp)},
    "GlobalMaxPool": {1: _unary(G.GlobalMaxPoolOp)},
    "BatchNormalization": {7: batch_normalization},
    "LRN": {1: lrn},
    "LayerNormalization": {17: layer_normalization},
    "Softmax": {1: softmax_v1, 13: softmax},
    "LogSoftmax": {1: log_softmax_v1, 13: log_softmax},
    "ReduceMean": {1: _reduce_attr(G.ReduceMeanOp), 18: _reduce_input(G.ReduceMeanOp)},
    "ReduceSum": {1: _reduce_attr(G.ReduceSumOp), 13: _reduce_input(G.ReduceSumOp)},
    "ReduceMax": {1: _reduce_attr(G.ReduceMaxOp), 18: _reduce_input(G.ReduceMaxOp)},
    "ReduceMin": {1: _reduce_attr(G.ReduceMinOp), 18: _reduce_input(G.ReduceMinOp)},
    "Reshape": {5: reshape},
    "Flatten": {1: flatten},
    "Transpose": {1: transpose},
    "Shape": {1: shape},
    "Gather": {1: gather},
    "Slice": {1: slice_v1, 10: slice_},
    "Concat": {4: concat},
    "Unsqueeze": {1: unsqueeze_v1, 13: unsqueeze},
    "Squeeze": {1: squeeze_v1, 13: squeeze},
    "Expand": {8: expand},
    "Range": {11: range_},
    "Split": {2: split_v2, 13: split_v13, 18: split},
    "Pad": {2: pad_v2, 11: pad},
}

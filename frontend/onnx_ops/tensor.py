"""ONNX constants and shape manipulation operators."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto
from xdsl.dialects.builtin import BFloat16Type, Float16Type, f32, f64

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import (
    NodeError,
    OpBuilder,
    OpFn,
    Unsupported,
    Value,
    _axis,
    dims,
    element,
    element_type,
)

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


def size(b: OpBuilder, data: Value) -> Value:
    return b.emit1(G.SizeOp, data)


def gather(b: OpBuilder, data: Value, indices: Value, *, axis: int | None = None) -> Value:
    return b.emit1(G.GatherOp, data, indices, axis=axis)


def concat(b: OpBuilder, *inputs: Value | None, axis: int) -> Value:
    return b.emit1(G.ConcatOp, *inputs, axis=axis)


def expand(b: OpBuilder, input: Value, shape: Value) -> Value:
    return b.emit1(G.ExpandOp, input, shape)


def range_(b: OpBuilder, start: Value, limit: Value, delta: Value, *, stash_type: int = 1
           ) -> Value:
    """float16 and bfloat16 (opset 27) are computed in `stash_type` (float or double), each
    value then rounded, as ONNX's reference computes them."""
    e = element(start)
    if not isinstance(e, Float16Type | BFloat16Type):
        return b.emit1(G.RangeOp, start, limit, delta)
    wide = {TensorProto.FLOAT: f32, TensorProto.DOUBLE: f64}.get(stash_type)
    if wide is None:
        raise NodeError(f"stash_type {stash_type} is not float (1) or double (11)")
    values = b.emit1(G.RangeOp, *(b.emit1(G.CastOp, v, to=wide) for v in (start, limit, delta)))
    return b.emit1(G.CastOp, values, to=e)


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
    """Without axes, a dim known only at run time is kept, and checked there not to be 1
    (graph.squeeze's shape function)."""
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


def pad_v2(b: OpBuilder, data: Value, *, pads: list[int], mode: str | None = None,
           value: float = 0.0) -> Value:
    if len(pads) != 2 * len(dims(data)):
        raise NodeError(f"pads has {len(pads)} values for rank {len(dims(data))}")
    fill = b.const(np.array(value, dtype=G.numpy_dtype(element(data))))
    return b.emit1(G.PadOp, data, b.ints(pads), fill, mode=mode)


def pad(
    b: OpBuilder,
    data: Value,
    pads: Value,
    constant_value: Value | None = None,
    axes: Value | None = None,
    *,
    mode: str | None = None,
) -> Value:
    """Pads, the fill and opset 18's axes may be run-time values; constant axes are
    folded into pads over every dim."""
    rank = len(dims(data))
    if constant_value is None:
        constant_value = b.const(np.zeros((), G.numpy_dtype(element(data))))
    axis_values = G.constant_value(axes) if axes is not None else None
    pad_values = G.constant_value(pads)
    if axis_values is not None and pad_values is not None:
        full = [0] * (2 * rank)
        k = len(axis_values)
        if len(pad_values) != 2 * k:
            raise NodeError(f"pads has {len(pad_values)} values for {k} axes")
        for i, a in enumerate(int(v) for v in axis_values.reshape(-1)):
            a = _axis(a, rank)
            full[a], full[rank + a] = int(pad_values[i]), int(pad_values[k + i])
        pads, axes = b.ints(full), None
    return b.emit1(G.PadOp, data, pads, constant_value, axes, mode=mode)


def bit_cast(b: OpBuilder, input: Value, *, to: int) -> Value:
    dst = element_type(to)
    for t in (element(input), dst):
        if isinstance(t, BFloat16Type | Float16Type):  # widen-half would change the bits
            raise Unsupported(f"half-precision element type {t} is not supported")
    if G.numpy_dtype(element(input)).itemsize != G.numpy_dtype(dst).itemsize:
        raise NodeError(f"'to' ({dst}) and the input ({element(input)}) differ in width")
    return b.emit1(G.BitCastOp, input, to=dst)


OPS: dict[str, dict[int, OpFn]] = {
    "BitCast": {26: bit_cast},
    "Constant": {1: constant},
    "ConstantOfShape": {9: constant_of_shape},
    "Reshape": {5: reshape},
    "Flatten": {1: flatten},
    "Transpose": {1: transpose},
    "Shape": {1: shape},
    "Size": {1: size},
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

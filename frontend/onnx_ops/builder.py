"""What the ONNX op importers share: the builder of graph ops, the errors, operand helpers."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import cast

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
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
from infer.dialects.graph.evaluate import can_evaluate, evaluate

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

    def __init__(self, block: Block, num_outputs: int, used: Sequence[bool],
                 run_counter: Callable[[], Value] | None = None):
        self.block = block
        self.num_outputs = num_outputs  # outputs the node declares
        self.used = list(used)  # per output: consumed by a node or a graph output
        # the hidden input numbering the runs (random ops draw from it), made on first use
        self.run_counter = run_counter

    def emit(
        self, cls: type[G.GraphOp], *operands: Value | None, **props: object
    ) -> list[Value]:
        """Append `cls(operands)` (None operands dropped, None props omitted); its results."""
        attrs = {k: _prop(v) for k, v in props.items() if v is not None}
        op = cls.make([o for o in operands if o is not None], attrs)
        folded = _fold_shape_arithmetic(op)
        if folded is not None:
            op.erase()  # never inserted: drop its uses of the operands
            return [self.const(v) for v in folded]
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


# Shape arithmetic folds as it is imported: exporters and ONNX's function bodies compute
# shapes from constants and static dims (Shape -> Slice -> Concat -> Reshape), and the op
# that takes such a shape needs its value to type its result. Only small integer results
# fold here; the constant-folding pass does the rest at the optimization levels that ask.
MAX_IMPORT_FOLDED = 64


def _fold_shape_arithmetic(op: G.GraphOp) -> list[np.ndarray] | None:
    """The values of `op`'s results when they are small integer tensors computed from
    constants (or, for Shape and Size, from static dims), else None."""
    for r in op.results:
        t = r.type
        if not (isinstance(t, TensorType) and isinstance(t.element_type, IntegerType)
                and all(d >= 0 for d in t.get_shape())
                and math.prod(t.get_shape()) <= MAX_IMPORT_FOLDED):
            return None
    if isinstance(op, G.ShapeOp | G.SizeOp):
        t = cast(TensorType, op.operands[0].type)
        if any(d < 0 for d in t.get_shape()):
            return None
        # a zero-stride view: the shape without the data
        values = [np.broadcast_to(np.zeros((), G.numpy_dtype(t.element_type)), t.get_shape())]
    else:
        values = [G.constant_value(v) for v in op.operands]
    if not can_evaluate(op) or any(v is None for v in values):
        return None
    try:
        return evaluate(op, cast(list[np.ndarray], values))
    except (ValueError, ZeroDivisionError, FloatingPointError):
        return None  # left to the kernel and its run-time checks


def built_from_other_ops(fn: OpFn) -> OpFn:
    """Mark an importer that builds its ONNX op from the graph ops of other ONNX ops
    (Upsample as Resize, InstanceNormalization from LayerNormalization): no graph op of
    its own names the ONNX op."""
    fn.built_from_other_ops = True  # type: ignore[attr-defined]
    return fn


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


def _unary(cls: type[G.GraphOp]) -> OpFn:
    def unary(b: OpBuilder, x: Value) -> Value:
        return b.emit1(cls, x)

    unary.__name__ = cls.name.removeprefix("graph.")
    return unary


# ONNX TensorProto.DataType -> builtin element type.
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
    17: Float8E4M3FNType(),
    18: Float8E4M3FNUZType(),
    19: Float8E5M2Type(),
    20: Float8E5M2FNUZType(),
    21: IntegerType(4, Signedness.UNSIGNED),
    22: IntegerType(4),
    23: Float4E2M1FNType(),
    24: Float8E8M0FNUType(),
    25: IntegerType(2, Signedness.UNSIGNED),
    26: IntegerType(2),
}


def element_type(onnx_dtype: int) -> Attribute:
    if onnx_dtype not in ONNX_ELEMENT_TYPES:
        import onnx

        name = onnx.TensorProto.DataType.Name(onnx_dtype) if onnx_dtype else "UNDEFINED"
        raise Unsupported(f"element type {name} is not supported")
    return ONNX_ELEMENT_TYPES[onnx_dtype]

"""Numpy semantics of graph ops: `evaluate(op, inputs) -> outputs`.

Elementwise ops carry their numpy form as their `numpy` method (dialects/graph/
elementwise.py); the larger evaluators are here, one entry per op class in `EVALUATORS`.

Used by constant folding, and usable as a reference interpreter in tests. Results are cast
to the op's declared element type and shape, so a folded constant has exactly the type of
the value it replaces (float32 math stays float32, as in the compiled kernels).

Convolutions and pools (NCHW and blocked NCHWc) are evaluated by the helpers of
`numpy_semantics`; their fused activation and summand are applied as in the kernels. Ops
marked `FOLDABLE = False` (attention, pad, ...) have neither and are never folded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation

from infer.dialects import graph as G
from infer.dialects.graph.numpy_semantics import (
    result_shape,
    to_result_shape,
)

Result = np.ndarray | list[np.ndarray]
Evaluator = Callable[[Operation, list[np.ndarray]], Result]


def _transpose(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    return np.transpose(x[0], G.TransposeOp.permutation(op.properties, x[0].ndim))


def _shape(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    start, end = G.ShapeOp.bounds(op.properties, x[0].ndim)
    return np.array(x[0].shape[start:end], dtype=np.int64)


def _gather(op: G.GatherOp, x: list[np.ndarray]) -> np.ndarray:
    return np.take(x[0], x[1].astype(np.int64), axis=op.axis.value.data)


def _slice(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    consts: list[np.ndarray | None] = list(x)
    spec = G.SliceOp.normalized(list(x[0].shape), consts) or []
    index = [slice(None)] * x[0].ndim
    for axis, start, end, step in spec:
        index[axis] = slice(*slice(start, end, step).indices(x[0].shape[axis]))
    return x[0][tuple(index)]


def _split(op: G.SplitOp, x: list[np.ndarray]) -> list[np.ndarray]:
    consts: list[np.ndarray | None] = list(x)
    sizes = cast(list[int], G.SplitOp.sizes(op.properties, list(x[0].shape), consts))
    return np.split(x[0], np.cumsum(sizes)[:-1], axis=op.axis.value.data)


def _constant_of_shape(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    attr = op.properties.get("value")
    if attr is None:
        return np.zeros(result_shape(op, x), np.float32)
    attr = cast(DenseIntOrFPElementsAttr, attr)
    dtype = G.numpy_dtype(attr.get_element_type())
    return np.full(result_shape(op, x), np.frombuffer(attr.data.data, dtype=dtype)[0])


def _range(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    """y[i] = start + i * delta in the element type (as the kernel computes it)."""
    start, _, delta = (v.reshape(-1)[0] for v in x)
    (n,) = result_shape(op, x)
    return start + np.arange(n, dtype=start.dtype) * delta


EVALUATORS: dict[type[Operation], Evaluator] = {
    G.ConstantOfShapeOp: _constant_of_shape,
    G.RangeOp: _range,
    G.ReshapeOp: to_result_shape,
    G.FlattenOp: to_result_shape,
    G.SqueezeOp: to_result_shape,
    G.UnsqueezeOp: to_result_shape,
    G.TransposeOp: _transpose,
    G.ShapeOp: _shape,
    G.GatherOp: _gather,
    G.SliceOp: _slice,
    G.ConcatOp: lambda op, x: np.concatenate(x, axis=op.axis.value.data),
    G.ExpandOp: lambda op, x: np.broadcast_to(x[0], result_shape(op, x)),
    G.SplitOp: _split,
}


def evaluator_of(cls: type[Operation]) -> Evaluator | None:
    """The registered evaluator of `cls`, else its `numpy` form (elementwise ops)."""
    if cls in EVALUATORS:
        return EVALUATORS[cls]
    if callable(getattr(cls, "numpy", None)):
        return lambda op, x: op.numpy(*x)  # type: ignore[attr-defined]
    return None


def can_evaluate(op: Operation) -> bool:
    return evaluator_of(type(op)) is not None


def evaluate(op: Operation, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The values of `op`'s results for operand values `inputs`.

    Each result is cast to its declared element type; raises KeyError for an op without
    numpy semantics and ValueError when a result does not fit its declared type.
    """
    evaluator = evaluator_of(type(op))
    if evaluator is None:
        raise KeyError(f"'{op.name}' has no numpy semantics")
    raw = evaluator(op, inputs)
    outs = raw if isinstance(raw, list) else [raw]
    results = []
    for res, value in zip(op.results, outs, strict=True):
        t = res.type
        assert isinstance(t, TensorType)
        value = np.asarray(value).astype(G.numpy_dtype(t.element_type), copy=False)
        declared = t.get_shape()
        if len(declared) != value.ndim or any(
            d not in (value.shape[i], DYNAMIC_INDEX) for i, d in enumerate(declared)
        ):
            raise ValueError(f"'{op.name}' evaluated to shape {value.shape}, declared {t}")
        results.append(value)
    return results

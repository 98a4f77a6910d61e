"""Numpy semantics of graph ops: `evaluate(op, inputs) -> outputs`.

Each op that has numpy semantics carries them as its `numpy(self, *operands)` method, in
the op's own module (a multi-result op returns a list); the helpers several ops share
(convolution, pooling, result shapes) are in `numpy_semantics`. Ops marked
`FOLDABLE = False` (attention, pad, ...) have none and are never folded.

Used by constant folding, and usable as a reference interpreter in tests. Results are cast
to the op's declared element type and shape, so a folded constant has exactly the type of
the value it replaces (float32 math stays float32, as in the compiled kernels).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Operation

from infer.dialects.graph.types import numpy_dtype

Result = np.ndarray | list[np.ndarray]
Evaluator = Callable[[Operation, list[np.ndarray]], Result]


def evaluator_of(cls: type[Operation]) -> Evaluator | None:
    """The numpy semantics of `cls` (its `numpy` method) as a function of an op and its
    operand values, or None."""
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
        value = np.asarray(value).astype(numpy_dtype(t.element_type), copy=False)
        declared = t.get_shape()
        if len(declared) != value.ndim or any(
            d not in (value.shape[i], DYNAMIC_INDEX) for i, d in enumerate(declared)
        ):
            raise ValueError(f"'{op.name}' evaluated to shape {value.shape}, declared {t}")
        results.append(value)
    return results

"""Numpy semantics of graph ops: `evaluate(op, inputs) -> outputs`, one entry per op class.

Used by constant folding, and usable as a reference interpreter in tests. Results are cast
to the op's declared element type and shape, so a folded constant has exactly the type of
the value it replaces (float32 math stays float32, as in the compiled kernels).

Ops without an entry here (conv, pools, LRN, ...) are never folded; they are rarely fed by
constants only, and their numpy forms would be slow.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import cast

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation

from infer.dialects import graph as G

Result = np.ndarray | list[np.ndarray]
Evaluator = Callable[[Operation, list[np.ndarray]], Result]


def _props(op: Operation):
    return op.properties


def _float(op: Operation, name: str, default: float) -> float:
    return G.get_float(_props(op), name, default)


def _int(op: Operation, name: str, default: int) -> int:
    return G.get_int(_props(op), name, default)


def _ints(x: np.ndarray) -> list[int]:
    return [int(v) for v in np.asarray(x).reshape(-1)]


_erf = np.vectorize(math.erf, otypes=[np.float64])


def _int_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C-style integer division (truncates toward zero), as the kernels' divsi does."""
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def _div(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    a, b = x
    if a.dtype.kind in "iu":
        return _int_div(a, b)
    return a / b


def _gelu(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    v = x[0].astype(np.float64)
    if G.get_str(_props(op), "approximate", "none") == "tanh":
        return 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v**3)))
    return 0.5 * v * (1 + _erf(v / math.sqrt(2)))


def _hard_sigmoid(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    alpha, beta = _float(op, "alpha", 0.2), _float(op, "beta", 0.5)
    return np.clip(alpha * x[0] + beta, 0, 1)


def _gemm(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    a = x[0].T if _int(op, "transA", 0) else x[0]
    b = x[1].T if _int(op, "transB", 0) else x[1]
    y = _float(op, "alpha", 1.0) * (a @ b)
    if len(x) > 2:
        y = y + _float(op, "beta", 1.0) * x[2]
    return y


def _batch_norm(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    data, scale, bias, mean, var = x
    shape = (1, -1) + (1,) * (data.ndim - 2)
    eps = _float(op, "epsilon", 1e-5)
    inv = scale.reshape(shape) / np.sqrt(var.reshape(shape) + eps)
    return (data - mean.reshape(shape)) * inv + bias.reshape(shape)


def _softmax(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    axis = _int(op, "axis", -1)
    e = np.exp(x[0] - np.max(x[0], axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _log_softmax(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    return np.log(_softmax(op, x))


def _reduce(fn: Callable[..., np.ndarray]) -> Evaluator:
    def ev(op: Operation, x: list[np.ndarray]) -> np.ndarray:
        consts: list[np.ndarray | None] = list(x)
        axes = G.ReduceOp.reduced_axes(_props(op), x[0].ndim, consts)
        keep = bool(_int(op, "keepdims", 1))
        if not axes:
            return x[0]
        return fn(x[0], axis=tuple(axes), keepdims=keep)

    return ev


def _transpose(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    return np.transpose(x[0], G.TransposeOp.permutation(_props(op), x[0].ndim))


def _shape(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    start, end = G.ShapeOp.bounds(_props(op), x[0].ndim)
    return np.array(x[0].shape[start:end], dtype=np.int64)


def _gather(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    return np.take(x[0], x[1].astype(np.int64), axis=_int(op, "axis", 0))


def _slice(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    consts: list[np.ndarray | None] = list(x)
    spec = G.SliceOp.normalized(list(x[0].shape), consts) or []
    index = [slice(None)] * x[0].ndim
    for axis, start, end, step in spec:
        index[axis] = slice(*slice(start, end, step).indices(x[0].shape[axis]))
    return x[0][tuple(index)]


def _split(op: Operation, x: list[np.ndarray]) -> list[np.ndarray]:
    consts: list[np.ndarray | None] = list(x)
    sizes = cast(list[int], G.SplitOp.sizes(op.properties, list(x[0].shape), consts))
    return np.split(x[0], np.cumsum(sizes)[:-1], axis=_int(op, "axis", 0))


def _shape_of(op: Operation, x: list[np.ndarray]) -> list[int]:
    """The result shape for these operand values (the declared type may be dynamic)."""
    dims = [list(v.shape) for v in x]
    consts: list[np.ndarray | None] = list(x)
    return cast(list[int], type(op).output_dims(op.properties, dims, consts)[0])  # type: ignore[attr-defined]


def _to_result_shape(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    """Reshape, Flatten, Squeeze, Unsqueeze: the same data in the op's result shape."""
    return x[0].reshape(_shape_of(op, x))


def _same(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    return x[0]


def _constant_of_shape(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    attr = op.properties.get("value")
    if attr is None:
        return np.zeros(_shape_of(op, x), np.float32)
    attr = cast(DenseIntOrFPElementsAttr, attr)
    dtype = G.numpy_dtype(attr.get_element_type())
    return np.full(_shape_of(op, x), np.frombuffer(attr.data.data, dtype=dtype)[0])


def _unary(fn: Callable[[np.ndarray], np.ndarray]) -> Evaluator:
    return lambda op, x: fn(x[0])


def _binary(fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Evaluator:
    return lambda op, x: fn(x[0], x[1])


def _variadic(fn: Callable[[Sequence[np.ndarray]], np.ndarray]) -> Evaluator:
    return lambda op, x: fn(np.broadcast_arrays(*x))


EVALUATORS: dict[type[Operation], Evaluator] = {
    G.ConstantOfShapeOp: _constant_of_shape,
    G.ReluOp: _unary(lambda v: np.maximum(v, 0)),
    G.SigmoidOp: _unary(lambda v: 1 / (1 + np.exp(-v))),
    G.TanhOp: _unary(np.tanh),
    G.ExpOp: _unary(np.exp),
    G.LogOp: _unary(np.log),
    G.SqrtOp: _unary(np.sqrt),
    G.ErfOp: _unary(_erf),
    G.ReciprocalOp: _unary(lambda v: 1 / v),
    G.FloorOp: _unary(np.floor),
    G.CeilOp: _unary(np.ceil),
    G.NegOp: _unary(np.negative),
    G.AbsOp: _unary(np.abs),
    G.IdentityOp: _same,
    G.DropoutOp: _same,
    G.LeakyReluOp: lambda op, x: np.where(x[0] >= 0, x[0], _float(op, "alpha", 0.01) * x[0]),
    G.HardSigmoidOp: _hard_sigmoid,
    G.HardSwishOp: lambda op, x: x[0] * np.clip(x[0] / 6 + 0.5, 0, 1),
    G.GeluOp: _gelu,
    G.ClipOp: lambda op, x: np.minimum(np.maximum(x[0], x[1].reshape(())), x[2].reshape(())),
    G.CastOp: lambda op, x: x[0],  # the cast to the result type happens in `evaluate`
    G.AddOp: _binary(np.add),
    G.SubOp: _binary(np.subtract),
    G.MulOp: _binary(np.multiply),
    G.DivOp: _div,
    G.PowOp: _binary(np.power),
    G.EqualOp: _binary(np.equal),
    G.LessOp: _binary(np.less),
    G.GreaterOp: _binary(np.greater),
    G.WhereOp: lambda op, x: np.where(x[0], x[1], x[2]),
    G.SumOp: _variadic(lambda xs: np.sum(xs, axis=0)),
    G.MaxOp: _variadic(lambda xs: np.max(xs, axis=0)),
    G.MinOp: _variadic(lambda xs: np.min(xs, axis=0)),
    G.MeanOp: _variadic(lambda xs: np.mean(xs, axis=0)),
    G.MatMulOp: _binary(np.matmul),
    G.GemmOp: _gemm,
    G.BatchNormalizationOp: _batch_norm,
    G.SoftmaxOp: _softmax,
    G.LogSoftmaxOp: _log_softmax,
    G.ReduceMeanOp: _reduce(np.mean),
    G.ReduceSumOp: _reduce(np.sum),
    G.ReduceMaxOp: _reduce(np.max),
    G.ReduceMinOp: _reduce(np.min),
    G.ReshapeOp: _to_result_shape,
    G.FlattenOp: _to_result_shape,
    G.SqueezeOp: _to_result_shape,
    G.UnsqueezeOp: _to_result_shape,
    G.TransposeOp: _transpose,
    G.ShapeOp: _shape,
    G.GatherOp: _gather,
    G.SliceOp: _slice,
    G.ConcatOp: lambda op, x: np.concatenate(x, axis=_int(op, "axis", 0)),
    G.ExpandOp: lambda op, x: np.broadcast_to(x[0], _shape_of(op, x)),
    G.SplitOp: _split,
}


def can_evaluate(op: Operation) -> bool:
    return type(op) in EVALUATORS


def evaluate(op: Operation, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The values of `op`'s results for operand values `inputs`.

    Each result is cast to its declared element type; raises KeyError for an op without
    numpy semantics here and ValueError when a result does not fit its declared type.
    """
    raw = EVALUATORS[type(op)](op, inputs)
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

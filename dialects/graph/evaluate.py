"""Numpy semantics of graph ops: `evaluate(op, inputs) -> outputs`.

Elementwise ops carry their numpy form as their `numpy` method (dialects/graph/
elementwise.py); the larger evaluators are here, one entry per op class in `EVALUATORS`.

Used by constant folding, and usable as a reference interpreter in tests. Results are cast
to the op's declared element type and shape, so a folded constant has exactly the type of
the value it replaces (float32 math stays float32, as in the compiled kernels).

Convolutions and pools (NCHW and blocked NCHWc) are evaluated im2col-style: a strided
`sliding_window_view` of the padded input gives every window without copying, and the
conv is one `einsum` (BLAS) over it; there are no Python loops over pixels. Their fused
activation and summand are applied as in the kernels. Ops marked `FOLDABLE = False`
(attention, pad, ...) have neither and are never folded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation

from infer.dialects import graph as G

Result = np.ndarray | list[np.ndarray]
Evaluator = Callable[[Operation, list[np.ndarray]], Result]


def _epilogue(op: Operation, v: np.ndarray) -> np.ndarray:
    """The activation fused into a conv / gemm / matmul, if any: the numpy form of the op
    that computes it alone (`G.ACTIVATIONS`), its operand params (Clip's bounds) as
    scalars of v's dtype."""
    act = G.activation_of(op.properties)
    if act is None:
        return v
    name, params = act
    activation = G.ACTIVATIONS[name]
    bounds = [np.array(p, dtype=v.dtype) for p in activation.operand_params(params)]
    return activation.instance(params).numpy(v, *bounds)  # type: ignore[attr-defined]


def _matmul(op: G.MatMulOp, x: list[np.ndarray]) -> np.ndarray:
    return _epilogue(op, np.matmul(x[0], x[1]))


def _gemm(op: G.GemmOp, x: list[np.ndarray]) -> np.ndarray:
    a = x[0].T if op.transA.value.data else x[0]
    b = x[1].T if op.transB.value.data else x[1]
    y = op.alpha.value.data * (a @ b)
    if len(x) > 2:
        y = y + op.beta.value.data * x[2]
    return _epilogue(op, y)


def _matmul_packed(op: G.MatMulPackedOp, x: list[np.ndarray]) -> np.ndarray:
    y = np.matmul(x[0], G.unpack_matmul_weights(x[1], op.n.value.data))
    if len(x) > 2:
        y = y + x[2][: y.shape[-1]]
    return _epilogue(op, y)


# -- convolution and pooling --------------------------------------------------------------


def _work(x: np.ndarray) -> np.ndarray:
    """At least float32 (numpy's float16 math is slow and rounds each step)."""
    return x.astype(np.promote_types(x.dtype, np.float32), copy=False)


def _window_outputs(op: Operation, shape: Sequence[int], kernel: Sequence[int]) -> list[int]:
    """The output spatial sizes of a conv / pool over NCHW input of `shape`."""
    n = len(kernel)
    strides, dilations, pads = G.spatial_attrs(op.properties, n, kernel)
    ceil = isinstance(op, G.PoolOp) and bool(op.ceil_mode.value.data)
    return [
        cast(int, G.window_out(shape[2 + i], kernel[i], strides[i], dilations[i], pads[i],
                               pads[n + i], ceil))
        for i in range(n)
    ]


def _windows(
    x: np.ndarray, op: Operation, kernel: Sequence[int], out: Sequence[int], fill: float
) -> np.ndarray:
    """Every window of `op` (strides, pads, dilations) over x [N, C, *sp]: a strided view
    [N, C, *out, *kernel] of the input padded with `fill`.

    The end padding is grown where ceil mode lets the last window pass it; such taps are
    `fill` too (the kernels skip them).
    """
    n = len(kernel)
    strides, dilations, pads = G.spatial_attrs(op.properties, n, kernel)
    spans = [d * (k - 1) + 1 for k, d in zip(kernel, dilations, strict=True)]
    widths = [(0, 0), (0, 0)] + [
        (pads[i], max(pads[n + i], (out[i] - 1) * strides[i] + spans[i] - pads[i] - x.shape[2 + i]))
        for i in range(n)
    ]
    padded = np.pad(x, widths, constant_values=fill)
    view = sliding_window_view(padded, spans, axis=tuple(range(2, 2 + n)))
    at_outputs = tuple(slice(0, (o - 1) * s + 1, s) for o, s in zip(out, strides, strict=True))
    taps = tuple(slice(None, None, d) for d in dilations)
    return view[(slice(None), slice(None), *at_outputs, *taps)]


def conv_nchw(op: G.ConvLikeOp, x: list[np.ndarray]) -> np.ndarray:
    """activation(conv(X, W) + B + Z) on NCHW X [N, C, *sp] and W [M, C/group, *k]."""
    data, w = _work(x[0]), _work(x[1])
    n = data.ndim - 2
    kernel = list(w.shape[2:])
    out = _window_outputs(op, data.shape, kernel)
    g = op.group.value.data
    win = _windows(data, op, kernel, out, 0.0)  # [N, C, *out, *k]
    batch, c = win.shape[:2]
    win = win.reshape(batch, g, c // g, *win.shape[2:])  # splits the C axis: still a view
    wg = w.reshape(g, w.shape[0] // g, *w.shape[1:])
    sp, ks = "defh"[:n], "pqrs"[:n]  # einsum letters of the output dims and kernel taps
    y = np.einsum(f"ngc{sp}{ks},gmc{ks}->ngm{sp}", win, wg, optimize=True)
    y = y.reshape(batch, w.shape[0], *out)
    if len(x) > 2:
        y = y + x[2].reshape(-1, *([1] * n))
    if len(x) > 3:
        y = y + x[3]
    return _epilogue(op, y)


def pool_nchw(op: G.PoolOp, x: np.ndarray, is_max: bool) -> np.ndarray:
    """Max / average pool of x [N, C, *sp], as the kernels compute it: padding never
    wins a max; the average divides by the taps inside the input, or with
    count_include_pad inside the padded input (not the ceil-mode overhang)."""
    data = _work(x)
    kernel = list(op.kernel_shape.get_values())
    n = len(kernel)
    out = _window_outputs(op, data.shape, kernel)
    axes = tuple(range(2 + n, 2 + 2 * n))
    if is_max:
        return np.max(_windows(data, op, kernel, out, -np.inf), axis=axes)
    total = np.sum(_windows(data, op, kernel, out, 0.0), axis=axes)
    strides, dilations, pads = G.spatial_attrs(op.properties, n, kernel)
    include_pad = bool(cast(G.AveragePoolOp, op).count_include_pad.value.data)
    count = np.ones((), dtype=total.dtype)
    for i in range(n):  # the count is a product of per-dim counts (a separable window)
        size = data.shape[2 + i]
        lo, hi = (-pads[i], size + pads[n + i]) if include_pad else (0, size)
        starts = np.arange(out[i]) * strides[i] - pads[i]
        pos = starts[:, None] + np.arange(kernel[i]) * dilations[i]  # [out, taps]
        per_dim = np.sum((pos >= lo) & (pos < hi), axis=1)
        count = np.multiply.outer(count, per_dim)
    return total / count


def _global_pool(fn: Callable[..., np.ndarray]) -> Evaluator:
    return lambda op, x: fn(x[0], axis=tuple(range(2, x[0].ndim)), keepdims=True)


def _lrn(op: G.LRNOp, x: list[np.ndarray]) -> np.ndarray:
    """y = x / (bias + alpha / size * sum of x^2 over the channel window)^beta; the
    window [c - (size-1)//2, c + ceil((size-1)/2)] is clipped to the channels."""
    data = _work(x[0])
    size = op.size.value.data
    before = (size - 1) // 2
    widths = [(0, 0), (before, size - 1 - before)] + [(0, 0)] * (data.ndim - 2)
    sq = np.pad(data * data, widths)
    window_sum = np.sum(sliding_window_view(sq, size, axis=1), axis=-1)
    base = op.bias.value.data + op.alpha.value.data / size * window_sum
    return data * base ** -op.beta.value.data


# Blocked (NCHWc) ops: converted to NCHW, evaluated as above, and blocked back.


def _conv_nchwc(op: G.ConvNchwcOp, x: list[np.ndarray]) -> np.ndarray:
    block = x[1].shape[-1]
    # X of rank W's - 2 is already NCHW (the image stem's form).
    data = x[0] if x[0].ndim == x[1].ndim - 2 else G.from_blocked(x[0])
    plain = [data, G.unpack_conv_weights(x[1]), *x[2:3]]
    if len(x) > 3:
        plain.append(G.from_blocked(x[3]))
    return G.to_blocked(conv_nchw(op, plain), block)


def _pool_nchwc(is_max: bool) -> Evaluator:
    def ev(op: G.PoolNchwcOp, x: list[np.ndarray]) -> np.ndarray:
        y = pool_nchw(op, G.from_blocked(x[0]), is_max)
        return G.to_blocked(y, x[0].shape[-1])

    return ev


def _batch_norm(op: G.BatchNormalizationOp, x: list[np.ndarray]) -> np.ndarray:
    data, *params = x
    shape = (1, -1) + (1,) * (data.ndim - 2)
    a, b = op.affine(*(p.reshape(shape) for p in params))
    return data * a + b


def _softmax(op: G.AxisSoftmaxOp, x: list[np.ndarray]) -> np.ndarray:
    axis = op.axis.value.data
    e = np.exp(x[0] - np.max(x[0], axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _log_softmax(op: G.LogSoftmaxOp, x: list[np.ndarray]) -> np.ndarray:
    return np.log(_softmax(op, x))


def _reduce(fn: Callable[..., np.ndarray]) -> Evaluator:
    def ev(op: G.ReduceOp, x: list[np.ndarray]) -> np.ndarray:
        consts: list[np.ndarray | None] = list(x)
        axes = G.ReduceOp.reduced_axes(op.properties, x[0].ndim, consts)
        keep = bool(op.keepdims.value.data)
        if not axes:
            return x[0]
        return fn(x[0], axis=tuple(axes), keepdims=keep)

    return ev


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


def _shape_of(op: Operation, x: list[np.ndarray]) -> list[int]:
    """The result shape for these operand values (the declared type may be dynamic)."""
    dims = [list(v.shape) for v in x]
    consts: list[np.ndarray | None] = list(x)
    return cast(list[int], type(op).output_dims(op.properties, dims, consts)[0])  # type: ignore[attr-defined]


def _to_result_shape(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    """Reshape, Flatten, Squeeze, Unsqueeze: the same data in the op's result shape."""
    return x[0].reshape(_shape_of(op, x))


def _constant_of_shape(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    attr = op.properties.get("value")
    if attr is None:
        return np.zeros(_shape_of(op, x), np.float32)
    attr = cast(DenseIntOrFPElementsAttr, attr)
    dtype = G.numpy_dtype(attr.get_element_type())
    return np.full(_shape_of(op, x), np.frombuffer(attr.data.data, dtype=dtype)[0])


def _range(op: Operation, x: list[np.ndarray]) -> np.ndarray:
    """y[i] = start + i * delta in the element type (as the kernel computes it)."""
    start, _, delta = (v.reshape(-1)[0] for v in x)
    (n,) = _shape_of(op, x)
    return start + np.arange(n, dtype=start.dtype) * delta


EVALUATORS: dict[type[Operation], Evaluator] = {
    G.ConstantOfShapeOp: _constant_of_shape,
    G.RangeOp: _range,
    G.MatMulOp: _matmul,
    G.GemmOp: _gemm,
    G.MatMulPackedOp: _matmul_packed,
    G.ConvOp: conv_nchw,
    G.MaxPoolOp: lambda op, x: pool_nchw(op, x[0], True),
    G.AveragePoolOp: lambda op, x: pool_nchw(op, x[0], False),
    G.GlobalMaxPoolOp: _global_pool(np.max),
    G.GlobalAveragePoolOp: _global_pool(np.mean),
    G.LRNOp: _lrn,
    G.ToNchwcOp: lambda op, x: G.to_blocked(x[0], op.block.value.data),
    G.FromNchwcOp: lambda op, x: G.from_blocked(x[0]),
    G.ConvNchwcOp: _conv_nchwc,
    G.MaxPoolNchwcOp: _pool_nchwc(True),
    G.AveragePoolNchwcOp: _pool_nchwc(False),
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
    G.ConcatOp: lambda op, x: np.concatenate(x, axis=op.axis.value.data),
    G.ExpandOp: lambda op, x: np.broadcast_to(x[0], _shape_of(op, x)),
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

"""ONNX convolution, pooling and normalization operators."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
from xdsl.dialects.builtin import f32

from infer.dialects import graph as G
from infer.dialects.dims import Dim
from infer.frontend.onnx_ops.builder import (
    NodeError,
    OpBuilder,
    OpFn,
    Unsupported,
    Value,
    _axis,
    _unary,
    built_from_other_ops,
    dims,
    element,
)


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
    return b.emit1(G.ConvOp, x, w, bias, group=group, **conv_window(
        x, w, auto_pad, dilations, kernel_shape, pads, strides))


def conv_window(x: Value, w: Value, auto_pad: str, dilations: list[int] | None,
                kernel_shape: list[int] | None, pads: list[int] | None,
                strides: list[int] | None) -> dict[str, list[int] | None]:
    """A convolution's window properties (strides, pads with auto_pad resolved,
    dilations; None where trivial) from the ONNX node's attributes."""
    kernel = dims(w)[2:]
    if not all(isinstance(k, int) for k in kernel):
        raise Unsupported("the kernel's spatial dims must be static")
    if kernel_shape is not None and list(kernel_shape) != kernel:
        raise NodeError(f"kernel_shape {list(kernel_shape)} differs from W's dims {kernel}")
    n = len(kernel)
    strides = strides or [1] * n
    dilations = dilations or [1] * n
    pads = _window_pads(auto_pad, dims(x), cast(list[int], kernel), strides, dilations, pads)
    return {"strides": _nontrivial(strides, 1), "pads": _nontrivial(pads, 0),
            "dilations": _nontrivial(dilations, 1)}


def pool_window(x: Value, auto_pad: str, ceil_mode: int | None, dilations: list[int] | None,
                kernel_shape: list[int], pads: list[int] | None, strides: list[int] | None
                ) -> dict[str, object]:
    """A pool's window properties, auto_pad resolved into pads."""
    n = len(kernel_shape)
    strides = strides or [1] * n
    dilations = dilations or [1] * n
    pads = _window_pads(auto_pad, dims(x), kernel_shape, strides, dilations, pads)
    return {"kernel_shape": kernel_shape, "strides": _nontrivial(strides, 1),
            "pads": _nontrivial(pads, 0), "dilations": _nontrivial(dilations, 1),
            "ceil_mode": ceil_mode}


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
    window = pool_window(x, auto_pad, ceil_mode, dilations, kernel_shape, pads, strides)
    return b.emit1(cls, x, **window, **extra)


def max_pool(
    b: OpBuilder,
    x: Value,
    *,
    kernel_shape: list[int],
    auto_pad: str = "NOTSET",
    ceil_mode: int | None = None,
    dilations: list[int] | None = None,
    pads: list[int] | None = None,
    storage_order: int | None = None,
    strides: list[int] | None = None,
) -> Value | list[Value]:
    if len(b.used) < 2 or not b.used[1]:  # no Indices, or ones nothing reads
        return _pool(b, G.MaxPoolOp, x, auto_pad, ceil_mode, dilations, kernel_shape, pads,
                     strides)
    y = _pool(b, G.MaxPoolWithIndicesOp, x, auto_pad, ceil_mode, dilations, kernel_shape,
              pads, strides, storage_order=storage_order)
    return [y, y.owner.results[1]]


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
) -> Value | list[Value]:
    if not spatial:
        raise Unsupported("spatial=0 (per-activation statistics) is not supported")
    if training_mode:
        return _batch_normalization_training(b, x, scale, bias, mean, var, epsilon, momentum)
    return b.emit1(G.BatchNormalizationOp, x, scale, bias, mean, var, epsilon=epsilon)


def batch_normalization_before_opset_7(
    b: OpBuilder, x: Value, scale: Value, bias: Value, mean: Value, var: Value, *,
    epsilon: float | None = None, is_test: int = 0, momentum: float = 0.9, spatial: int = 1,
    consumed_inputs: list[int] | None = None,
) -> Value | list[Value]:
    """BatchNormalization of opsets 1 and 6: `is_test` says inference, the only form taken."""
    del consumed_inputs
    if not is_test:
        raise Unsupported("is_test=0 (statistics of the batch, in training) is not supported")
    return batch_normalization(b, x, scale, bias, mean, var, epsilon=epsilon,
                               momentum=momentum, spatial=spatial)


def _batch_normalization_training(b: OpBuilder, x: Value, scale: Value, bias: Value,
                                  mean: Value, var: Value, epsilon: float | None,
                                  momentum: float) -> list[Value]:
    """Training mode (opset 14+) normalizes by the batch's statistics (the biased
    variance) and returns the running ones: stat * momentum + batch stat * (1 - momentum)."""
    axes = b.ints([a for a in range(len(dims(x))) if a != 1])
    centered = b.emit1(G.SubOp, x, b.emit1(G.ReduceMeanOp, x, axes, keepdims=1))
    batch_mean = b.emit1(G.ReduceMeanOp, x, axes, keepdims=0)
    batch_var = b.emit1(G.ReduceMeanOp, b.emit1(G.MulOp, centered, centered), axes, keepdims=0)
    y = b.emit1(G.BatchNormalizationOp, x, scale, bias, batch_mean, batch_var, epsilon=epsilon)
    dtype = G.numpy_dtype(element(x))
    keep, take = b.const(np.array(momentum, dtype)), b.const(np.array(1 - momentum, dtype))

    def running(stat: Value, batch: Value) -> Value:
        return b.emit1(G.AddOp, b.emit1(G.MulOp, stat, keep), b.emit1(G.MulOp, batch, take))

    return [y, running(mean, batch_mean), running(var, batch_var)]


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
) -> Value | list[Value]:
    if stash_type != 1:
        raise Unsupported("stash_type other than 1 (float32 statistics) is not supported")
    if axis is not None:
        _axis(axis, len(dims(x)))
    statistics = any(b.used[1:])  # Mean or InvStdDev read
    if statistics and element(x) != f32:
        raise Unsupported("Mean and InvStdDev outputs of a non-float32 X are not supported")
    results = b.emit(G.LayerNormalizationOp, x, scale, bias, axis=axis, epsilon=epsilon,
                     statistics=1 if statistics else None)
    return results[: b.num_outputs]


@built_from_other_ops
def instance_normalization(b: OpBuilder, x: Value, scale: Value, bias: Value, *,
                           epsilon: float = 1e-5) -> Value:
    """LayerNormalization over the spatial dims of each (n, c), then the per-channel
    scale and bias: one normalization kernel and a fused elementwise epilogue."""
    rank = len(dims(x))
    if rank < 3:
        raise NodeError(f"input of rank {rank}: InstanceNormalization needs N, C and a "
                        "spatial dim")
    ones = b.const(np.ones(1, G.numpy_dtype(element(x))))
    y = b.emit1(G.LayerNormalizationOp, x, ones, axis=2, epsilon=epsilon)
    per_channel = b.ints([-1, *([1] * (rank - 2))])  # [C] -> [C, 1, ...]
    s = b.emit1(G.ReshapeOp, scale, per_channel)
    c = b.emit1(G.ReshapeOp, bias, per_channel)
    return b.emit1(G.AddOp, b.emit1(G.MulOp, y, s), c)


OPS: dict[str, dict[int, OpFn]] = {
    "Conv": {1: conv},
    "MaxPool": {1: max_pool},
    "AveragePool": {1: average_pool},  # opset 7 added count_include_pad, default 0
    "GlobalAveragePool": {1: _unary(G.GlobalAveragePoolOp)},
    "GlobalMaxPool": {1: _unary(G.GlobalMaxPoolOp)},
    "BatchNormalization": {1: batch_normalization_before_opset_7, 7: batch_normalization},
    "LRN": {1: lrn},
    "LayerNormalization": {17: layer_normalization},
    "InstanceNormalization": {6: instance_normalization},
}

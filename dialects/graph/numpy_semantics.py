"""Numpy helpers that the `numpy` methods of several ops share: convolution and pooling
over NCHW tensors (graph.conv, the pools, their blocked forms, and qnn's integer conv and
average pool) and the result shape of a reshape-like op.

This module imports no op class, so that every op module may import it.

Convolutions and pools are evaluated im2col-style: a strided `sliding_window_view` of the
padded input gives every window without copying, and the conv is one `einsum` (BLAS)
over it; there are no Python loops over pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.ir import Operation

from infer.dialects.graph.base import spatial_attrs, window_out


def work(x: np.ndarray) -> np.ndarray:
    """At least float32 (numpy's float16 math is slow and rounds each step)."""
    return x.astype(np.promote_types(x.dtype, np.float32), copy=False)


def window_outputs(op: Operation, shape: Sequence[int], kernel: Sequence[int],
                   ceil: bool = False) -> list[int]:
    """The output spatial sizes of a conv / pool over NCHW input of `shape` (`ceil`: a
    pool's ceil mode)."""
    n = len(kernel)
    strides, dilations, pads = spatial_attrs(op.properties, n, kernel)
    return [
        cast(int, window_out(shape[2 + i], kernel[i], strides[i], dilations[i], pads[i],
                             pads[n + i], ceil))
        for i in range(n)
    ]


def windows(
    x: np.ndarray, op: Operation, kernel: Sequence[int], out: Sequence[int], fill: float
) -> np.ndarray:
    """Every window of `op` (strides, pads, dilations) over x [N, C, *sp]: a strided view
    [N, C, *out, *kernel] of the input padded with `fill`.

    The end padding is grown where ceil mode lets the last window pass it; such taps are
    `fill` too (the kernels skip them).
    """
    n = len(kernel)
    strides, dilations, pads = spatial_attrs(op.properties, n, kernel)
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


def conv_nchw(op: Operation, x: Sequence[np.ndarray]) -> np.ndarray:
    """conv(X, W) + B + Z on NCHW X [N, C, *sp] and W [M, C/group, *k], for an op with a
    conv's properties (strides, pads, dilations, group); a fused activation is the
    caller's to apply."""
    data, w = work(x[0]), work(x[1])
    n = data.ndim - 2
    kernel = list(w.shape[2:])
    out = window_outputs(op, data.shape, kernel)
    g = op.group.value.data  # type: ignore[attr-defined]
    win = windows(data, op, kernel, out, 0.0)  # [N, C, *out, *k]
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
    return y


def pool_nchw(op: Operation, x: np.ndarray, is_max: bool, ceil: bool = False) -> np.ndarray:
    """Max / average pool of x [N, C, *sp], as the kernels compute it: padding never
    wins a max; the average divides by the taps inside the input, or with
    count_include_pad inside the padded input (not the ceil-mode overhang). `op` has a
    pool's properties (kernel_shape, strides, pads, dilations, and count_include_pad for
    an average); `ceil` is its ceil mode."""
    data = work(x)
    kernel = list(op.kernel_shape.get_values())  # type: ignore[attr-defined]
    n = len(kernel)
    out = window_outputs(op, data.shape, kernel, ceil)
    axes = tuple(range(2 + n, 2 + 2 * n))
    if is_max:
        return np.max(windows(data, op, kernel, out, -np.inf), axis=axes)
    total = np.sum(windows(data, op, kernel, out, 0.0), axis=axes)
    strides, dilations, pads = spatial_attrs(op.properties, n, kernel)
    include_pad = bool(op.count_include_pad.value.data)  # type: ignore[attr-defined]
    count = np.ones((), dtype=total.dtype)
    for i in range(n):  # the count is a product of per-dim counts (a separable window)
        size = data.shape[2 + i]
        lo, hi = (-pads[i], size + pads[n + i]) if include_pad else (0, size)
        starts = np.arange(out[i]) * strides[i] - pads[i]
        pos = starts[:, None] + np.arange(kernel[i]) * dilations[i]  # [out, taps]
        per_dim = np.sum((pos >= lo) & (pos < hi), axis=1)
        count = np.multiply.outer(count, per_dim)
    return total / count


def result_shape(op: Operation, x: Sequence[np.ndarray]) -> list[int]:
    """The shape of `op`'s result for these operand values, from its shape function (the
    declared type may be dynamic)."""
    dims = [list(v.shape) for v in x]
    consts: list[np.ndarray | None] = list(x)
    return cast(list[int], type(op).output_dims(op.properties, dims, consts)[0])  # type: ignore[attr-defined]


def to_result_shape(op: Operation, x: Sequence[np.ndarray]) -> np.ndarray:
    """Reshape, Flatten, Squeeze, Unsqueeze: the same data in the op's result shape."""
    return x[0].reshape(result_shape(op, x))

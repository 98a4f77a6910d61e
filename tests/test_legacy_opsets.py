"""Ops of opsets before 7, which onnxruntime no longer runs: the binary ops' `broadcast`
and `axis`, PRelu's per-channel slope, BatchNormalization's `is_test`. Compared with
numpy, the semantics ONNX's operator changelog gives them."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper

import infer

from .helpers import make_model

F = TP.FLOAT
RNG = np.random.default_rng(0)


def _run(node, inputs, out_shape, feeds):
    model = make_model([node], inputs, [("y", F, out_shape)], opset=6)
    return infer.compile(model).run(feeds)["y"]


@pytest.mark.parametrize(("axis", "b_shape", "numpy_shape"), [
    (1, [3], [1, 3, 1, 1]),       # aligned at axis 1: one value per channel
    (2, [4, 5], [1, 1, 4, 5]),
    (None, [5], [5]),             # no axis: the trailing dims, as numpy
    (-3, [3, 4], [1, 3, 4, 1]),
])
def test_add_broadcast_at_axis(axis, b_shape, numpy_shape) -> None:
    attrs = {"broadcast": 1} if axis is None else {"broadcast": 1, "axis": axis}
    node = helper.make_node("Add", ["a", "b"], ["y"], **attrs)
    a = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    b = RNG.standard_normal(b_shape).astype(np.float32)
    y = _run(node, [("a", F, [2, 3, 4, 5]), ("b", F, b_shape)], [2, 3, 4, 5], {"a": a, "b": b})
    np.testing.assert_array_equal(y, a + b.reshape(numpy_shape))


def test_binary_without_broadcast_needs_one_shape() -> None:
    node = helper.make_node("Mul", ["a", "b"], ["y"], name="m")
    model = make_model([node], [("a", F, [2, 3]), ("b", F, [3])], [("y", F, [2, 3])], opset=6)
    with pytest.raises(infer.InvalidModelError, match=r"'Mul' \(node 'm', opset 6\): operands "
                       r"of shapes \[2, 3\] and \[3\] differ and broadcast is 0"):
        infer.compile(model)


def test_prelu_slope_per_channel() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    slope = np.array([0.1, 0.2, 0.3], np.float32)
    node = helper.make_node("PRelu", ["x", "s"], ["y"])
    y = _run(node, [("x", F, [2, 3, 4]), ("s", F, [3])], [2, 3, 4], {"x": x, "s": slope})
    np.testing.assert_array_equal(y, np.where(x < 0, x * slope[:, None], x))


def test_batch_normalization_in_training_is_refused() -> None:
    node = helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], is_test=0,
                            name="bn")
    model = make_model([node], [("x", F, [1, 2, 3]), *((n, F, [2]) for n in "sbmv")],
                       [("y", F, [1, 2, 3])], opset=6)
    with pytest.raises(infer.UnsupportedError, match=r"is_test=0 \(statistics of the batch"):
        infer.compile(model)

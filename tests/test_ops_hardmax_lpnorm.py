"""Hardmax (OneHot of ArgMax, over the input coerced to 2-D before opset 13) and
LpNormalization (x / ||x||_p, 0 where the norm is 0), imported as other ops, against
onnxruntime and ONNX's reference on dynamic shapes."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper
from onnx.reference import ReferenceEvaluator

import infer

from .helpers import check_against_onnxruntime, make_model

R = np.random.default_rng(0)


def _model(op: str, opset: int, **attrs: object):
    node = helper.make_node(op, ["x"], ["y"], **attrs)
    shape = ["a", 3, "c"]
    return make_model([node], [("x", TP.FLOAT, shape)], [("y", TP.FLOAT, shape)],
                      opset=opset)


@pytest.mark.parametrize(("opset", "axis"), [(1, 1), (11, 0), (11, 2), (13, -1), (13, 1)])
def test_hardmax(opset: int, axis: int) -> None:
    x = R.standard_normal((2, 3, 4)).astype(np.float32)
    x[0, 1, :2] = 5.0  # ties: the first wins
    model = _model("Hardmax", opset, axis=axis)
    check_against_onnxruntime(model, [{"x": x}, {"x": R.standard_normal((5, 3, 1)).astype(
        np.float32)}])


@pytest.mark.parametrize(("p", "axis"), [(2, -1), (1, 1), (2, 0)])
def test_lp_normalization(p: int, axis: int) -> None:
    model = _model("LpNormalization", 1, axis=axis, p=p)
    check_against_onnxruntime(model, {"x": R.standard_normal((2, 3, 5)).astype(np.float32)})


def test_lp_normalization_of_zeros_is_zero() -> None:
    model = _model("LpNormalization", 22, axis=-1, p=2)
    x = np.zeros((2, 3, 4), np.float32)
    x[1, 2] = [3, 4, 0, 0]
    got = infer.compile(model).run({"x": x})["y"]
    (want,) = ReferenceEvaluator(model).run(None, {"x": x})
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert not np.isnan(got).any()

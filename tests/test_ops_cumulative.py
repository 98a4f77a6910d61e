"""CumSum against onnxruntime and CumProd against ONNX's reference: the axis a constant
or a run-time input (negative too), exclusive / reverse, integer and float types, several
shapes from one compile, and an axis past the rank refused at run time."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper
from onnx.reference import ReferenceEvaluator

import infer

from .helpers import check_against_onnxruntime, make_model

R = np.random.default_rng(0)


def _model(op: str, elem: int, axis: int | None, opset: int, **attrs: int):
    node = helper.make_node(op, ["x", "axis"], ["y"], **attrs)
    shape = ["a", "b", 3]
    inputs = [("x", elem, shape)]
    inits = []
    if axis is None:
        inputs.append(("axis", TP.INT64, []))
    else:
        inits = [helper.make_tensor("axis", TP.INT32, [], [axis])]
    return make_model([node], inputs, [("y", elem, shape)], inits, opset=opset)


@pytest.mark.parametrize("exclusive", [0, 1])
@pytest.mark.parametrize("reverse", [0, 1])
def test_cumsum_run_time_axis(exclusive: int, reverse: int) -> None:
    model = _model("CumSum", TP.FLOAT, None, 14, exclusive=exclusive, reverse=reverse)
    feeds = [{"x": R.standard_normal((2, 4, 3)).astype(np.float32), "axis": np.array(a)}
             for a in (0, 1, 2, -1, -3)]
    check_against_onnxruntime(model, feeds)


@pytest.mark.parametrize(("elem", "dtype"), [(TP.INT32, np.int32), (TP.INT64, np.int64),
                                             (TP.DOUBLE, np.float64)])
def test_cumsum_constant_axis(elem: int, dtype: type) -> None:
    model = _model("CumSum", elem, -2, 11, reverse=1)
    check_against_onnxruntime(model, {"x": (R.standard_normal((3, 5, 3)) * 9).astype(dtype)})


@pytest.mark.parametrize(("axis", "exclusive", "reverse"), [(None, 0, 0), (1, 1, 0),
                                                            (None, 1, 1), (0, 0, 1)])
def test_cumprod_against_reference(axis: int | None, exclusive: int, reverse: int) -> None:
    model = _model("CumProd", TP.FLOAT, axis, 26, exclusive=exclusive, reverse=reverse)
    compiled = infer.compile(model)
    for shape, a in (((2, 4, 3), 1), ((1, 6, 3), -1)):
        feeds = {"x": R.uniform(0.5, 1.5, shape).astype(np.float32)}
        if axis is None:
            feeds["axis"] = np.array(a, np.int64)
        (want,) = ReferenceEvaluator(model).run(None, feeds)
        np.testing.assert_allclose(compiled.run(feeds)["y"], want, rtol=1e-5)


def test_axis_past_the_rank_is_refused_at_run_time() -> None:
    compiled = infer.compile(_model("CumSum", TP.FLOAT, None, 14))
    with pytest.raises(infer.ShapeError, match="axis"):
        compiled.run({"x": np.ones((2, 2, 3), np.float32), "axis": np.array(3)})
    with pytest.raises(infer.ShapeError, match="axis"):
        compiled.run({"x": np.ones((2, 2, 3), np.float32), "axis": np.array(-4)})

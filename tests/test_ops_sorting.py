"""TopK end to end against onnxruntime: k a run-time input (the result's size is then
known only at run time) or a constant, ties and NaN in ONNX's order, dynamic shapes from
one compile, and a k past the axis refused at run time."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper

import infer
from infer.dialects import graph as G
from infer.dialects.graph.evaluate import evaluate
from infer.frontend.onnx_import import import_model

from .helpers import check_against_onnxruntime, make_model

R = np.random.default_rng(0)
TIES = np.array([[3, 1, 3, 2, 1, 3], [0, 0, 0, 0, 0, 0], [5, 4, 4, 5, 2, 2]], np.float32)


def _top_k_model(elem: int, axis: int = -1, largest: int = 1, k_const: int | None = None,
                 shape: tuple = ("a", "b"), opset: int = 11):
    attrs = {"axis": axis} if opset < 11 else {"axis": axis, "largest": largest}
    inits = []
    inputs = [("x", elem, list(shape))]
    if k_const is None:
        inputs.append(("k", TP.INT64, [1]))
    else:
        inits = [helper.make_tensor("k", TP.INT64, [1], [k_const])]
    node = helper.make_node("TopK", ["x", "k"], ["v", "i"], **attrs)
    out = [f"o{d}" for d in range(len(shape))]
    return make_model([node], inputs, [("v", elem, out), ("i", TP.INT64, out)], inits,
                      opset=opset)


@pytest.mark.parametrize("largest", [1, 0])
@pytest.mark.parametrize("opt_level", [0, 3])
def test_run_time_k_on_dynamic_shapes(largest: int, opt_level: int) -> None:
    model = _top_k_model(TP.FLOAT, axis=1, largest=largest)
    feeds = [{"x": TIES, "k": np.array([3], np.int64)},
             {"x": R.standard_normal((2, 9)).astype(np.float32), "k": np.array([9], np.int64)},
             {"x": R.standard_normal((4, 5)).astype(np.float32), "k": np.array([0], np.int64)},
             {"x": R.standard_normal((1, 7)).astype(np.float32), "k": np.array([1], np.int64)}]
    check_against_onnxruntime(model, feeds, opt_level=opt_level)


@pytest.mark.parametrize(("elem", "dtype"), [(TP.INT32, np.int32), (TP.INT64, np.int64),
                                             (TP.DOUBLE, np.float64), (TP.FLOAT16, np.float16)])
def test_element_types_and_constant_k(elem: int, dtype: type) -> None:
    model = _top_k_model(elem, axis=0, k_const=2, shape=(5, 3))
    x = (R.standard_normal((5, 3)) * 4).astype(dtype)
    x[1, 0] = x[3, 0]  # a tie: the lower index first
    check_against_onnxruntime(model, {"x": x})


@pytest.mark.parametrize("largest", [1, 0])
def test_large_constant_k_over_long_rows(largest: int) -> None:
    """k past the selection passes' limit: the row's order by a stable sort."""
    model = _top_k_model(TP.FLOAT, axis=0, largest=largest, k_const=40, shape=(300, 3))
    x = R.integers(-20, 20, (300, 3)).astype(np.float32)  # many ties: by index
    x[7, 1] = np.nan
    check_against_onnxruntime(model, {"x": x})


def test_opset_1_k_attribute() -> None:
    node = helper.make_node("TopK", ["x"], ["v", "i"], k=2, axis=0)
    model = make_model([node], [("x", TP.FLOAT, [4, 3])], [("v", TP.FLOAT, [2, 3]),
                                                          ("i", TP.INT64, [2, 3])], opset=1)
    check_against_onnxruntime(model, {"x": R.standard_normal((4, 3)).astype(np.float32)})


@pytest.mark.parametrize("largest", [1, 0])
def test_nan_orders_above_every_number(largest: int) -> None:
    """ONNX's reference (numpy's sort) puts NaN above every number, equal NaNs by index."""
    x = np.array([[1.0, np.nan, -np.inf, 2.0, np.nan, np.inf, 0.0]], np.float32)
    got = infer.compile(_top_k_model(TP.FLOAT, largest=largest)).run(
        {"x": x, "k": np.array([7], np.int64)})
    order = [1, 4, 5, 3, 0, 6, 2] if largest else [2, 6, 0, 3, 5, 1, 4]
    np.testing.assert_array_equal(got["i"], [order])
    np.testing.assert_array_equal(got["v"], x[:, order])


def test_k_past_the_axis_is_refused_at_run_time() -> None:
    compiled = infer.compile(_top_k_model(TP.FLOAT))
    with pytest.raises(infer.ShapeError, match="TopK"):
        compiled.run({"x": TIES, "k": np.array([7], np.int64)})
    with pytest.raises(infer.ShapeError):
        compiled.run({"x": TIES, "k": np.array([-1], np.int64)})


def test_constant_k_past_the_axis_is_refused_at_compile_time() -> None:
    with pytest.raises(infer.InvalidModelError, match="k = 4"):
        infer.compile(_top_k_model(TP.FLOAT, axis=0, k_const=4, shape=(3, 2)))


def test_numpy_form_matches_the_compiled_op() -> None:
    module = import_model(_top_k_model(TP.FLOAT, axis=1, k_const=4, shape=(3, 6)))
    op = next(o for o in module.walk() if isinstance(o, G.TopKOp))
    values, indices = evaluate(op, [TIES, np.array([4], np.int64)])
    got = infer.compile(_top_k_model(TP.FLOAT, axis=1, k_const=4, shape=(3, 6))).run(
        {"x": TIES})
    np.testing.assert_array_equal(values, got["v"])
    np.testing.assert_array_equal(indices, got["i"])


def _unique_model(elem: int, rank: int, axis: int | None = None, sorted_: int = 1,
                  outputs: int = 4):
    attrs = {"sorted": sorted_} if axis is None else {"sorted": sorted_, "axis": axis}
    names = ["y", "first", "inverse", "counts"][:outputs]
    node = helper.make_node("Unique", ["x"], names, **attrs)
    y_rank = 1 if axis is None else rank
    outs = [("y", elem, [f"y{d}" for d in range(y_rank)])] + [
        (name, TP.INT64, ["u"]) for name in names[1:]]
    return make_model([node], [("x", elem, [f"d{d}" for d in range(rank)])], outs,
                      opset=11)


@pytest.mark.parametrize("sorted_", [1, 0])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_unique_against_onnxruntime(axis: int | None, sorted_: int) -> None:
    """One compile, several sizes: the number of distinct items is known at run time."""
    model = _unique_model(TP.INT64, 2, axis, sorted_)
    feeds = [{"x": R.integers(0, 3, (4, 3)).astype(np.int64)},
             {"x": R.integers(-2, 2, (6, 2)).astype(np.int64)},
             {"x": np.array([[7, 7], [7, 7]], np.int64)}]
    check_against_onnxruntime(model, feeds)


@pytest.mark.parametrize("sorted_", [1, 0])
def test_unique_of_many_items(sorted_: int) -> None:
    """Long runs of equal items and rows: the sort's merges across many widths."""
    check_against_onnxruntime(_unique_model(TP.INT64, 1, sorted_=sorted_),
                              {"x": R.integers(-50, 50, 3001).astype(np.int64)})
    check_against_onnxruntime(_unique_model(TP.FLOAT, 2, axis=0, sorted_=sorted_),
                              {"x": R.integers(0, 3, (700, 2)).astype(np.float32)})


def test_unique_floats_and_fewer_outputs() -> None:
    check_against_onnxruntime(_unique_model(TP.FLOAT, 1, outputs=2),
                              {"x": np.array([2.5, -1, 2.5, 0, -1, 3], np.float32)})
    check_against_onnxruntime(_unique_model(TP.DOUBLE, 3, axis=2, sorted_=0, outputs=3),
                              {"x": R.integers(0, 2, (2, 2, 5)).astype(np.float64)})


def test_unique_nan_and_signed_zero_as_numpy() -> None:
    """NaNs are one value above every number, -0 equals 0 (numpy's np.unique, which
    ONNX's reference uses)."""
    x = np.array([np.nan, 1, -0.0, np.nan, 0.0, -np.inf, 1], np.float32)
    got = infer.compile(_unique_model(TP.FLOAT, 1)).run({"x": x})
    y, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                          return_counts=True)
    np.testing.assert_array_equal(got["y"], y)
    np.testing.assert_array_equal(got["first"], first)
    np.testing.assert_array_equal(got["inverse"], inverse)
    np.testing.assert_array_equal(got["counts"], counts)


def test_unique_of_nothing() -> None:
    got = infer.compile(_unique_model(TP.INT32, 2, axis=1)).run(
        {"x": np.zeros((3, 0), np.int32)})
    assert got["y"].shape == (3, 0) and got["counts"].shape == (0,)

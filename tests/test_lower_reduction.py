"""Numerics of the reduction and softmax lowerings against onnxruntime."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper

import infer
from infer.errors import ShapeError

from .helpers import check_against_onnxruntime, make_model, node_model

RNG = np.random.default_rng(0)



def f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


REDUCE_OPS = ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"]
AXES = [None, [0], [-1], [1], [0, 2], [1, 2], [0, 1, 2]]


def reduce_model(op: str, axes: list[int] | None, keepdims: int, shape, elem=TP.FLOAT,
                 opset: int = 17) -> onnx.ModelProto:  # fmt: skip
    """Axes as an attribute before opset 18 (13 for ReduceSum), as an input after."""
    attrs: dict[str, object] = {"keepdims": keepdims}
    inits = {}
    axes_as_input = opset >= (13 if op == "ReduceSum" else 18)
    if axes is not None:
        if axes_as_input:
            inits["axes"] = np.array(axes, np.int64)
        else:
            attrs["axes"] = axes
    return node_model(op, [("x", elem, shape)], attrs, inits, opset)


@pytest.mark.parametrize("op", REDUCE_OPS)
@pytest.mark.parametrize("axes", AXES)
@pytest.mark.parametrize("keepdims", [1, 0])
def test_reduce_f32(op, axes, keepdims):
    m = reduce_model(op, axes, keepdims, [3, 4, 5])
    check_against_onnxruntime(m, {"x": f32(3, 4, 5)})


@pytest.mark.parametrize("op", REDUCE_OPS)
def test_reduce_opset18_axes_input(op):
    m = reduce_model(op, [-2], 1, [2, 3, 4], opset=18)
    check_against_onnxruntime(m, {"x": f32(2, 3, 4)})


@pytest.mark.parametrize("op", REDUCE_OPS)
@pytest.mark.parametrize("axes", [[1], [2], [1, 2]])
def test_reduce_dynamic_batch(op, axes):
    m = reduce_model(op, axes, 1, ["N", 3, "W"])
    check_against_onnxruntime(m, [{"x": f32(n, 3, w)} for n, w in ((1, 4), (3, 7))])


def test_reduce_dynamic_reduced_dim_mean():
    """The count of a mean over a dynamic dim is read at run time."""
    m = reduce_model("ReduceMean", [0], 0, ["N", 3])
    check_against_onnxruntime(m, [{"x": f32(n, 3)} for n in (1, 5)])


@pytest.mark.parametrize("op", ["ReduceSum", "ReduceMax", "ReduceMin"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
@pytest.mark.parametrize("axes", [[1], [-1]])
def test_reduce_int(op, dtype, axes):
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    m = reduce_model(op, axes, 0, [3, 4, 5], elem)
    check_against_onnxruntime(m, {"x": RNG.integers(-1000, 1000, (3, 4, 5)).astype(dtype)})


@pytest.mark.parametrize("op", ["ReduceMax", "ReduceMin"])
def test_reduce_int8(op):
    m = reduce_model(op, [1], 1, [3, 4], TP.INT8, opset=18)
    check_against_onnxruntime(m, {"x": RNG.integers(-128, 128, (3, 4)).astype(np.int8)})


def test_reduce_sum_noop_with_empty_axes():
    m = node_model("ReduceSum", [("x", TP.FLOAT, [3, 4])], {"noop_with_empty_axes": 1})
    check_against_onnxruntime(m, {"x": f32(3, 4)})


def test_reduce_sum_empty_axes_reduces_all():
    m = node_model("ReduceSum", [("x", TP.FLOAT, [3, 4])], inits={"axes": np.zeros(0, np.int64)})
    check_against_onnxruntime(m, {"x": f32(3, 4)})


# -- softmax ------------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax"])
@pytest.mark.parametrize("axis", [-1, 0, 1, 2])
def test_softmax_axes(op, axis):
    m = node_model(op, [("x", TP.FLOAT, [3, 4, 5])], {"axis": axis})
    check_against_onnxruntime(m, {"x": f32(3, 4, 5) * 4})


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax"])
def test_softmax_dynamic_batch(op):
    m = node_model(op, [("x", TP.FLOAT, ["N", 10])])
    check_against_onnxruntime(m, [{"x": f32(n, 10)} for n in (1, 4)])


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax"])
def test_softmax_large_logits_are_stable(op):
    x = np.array([[1000.0, 1001.0, 999.0], [-1000.0, -1e4, -999.0]], np.float32)
    m = node_model(op, [("x", TP.FLOAT, [2, 3])])
    check_against_onnxruntime(m, {"x": x})


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax"])
@pytest.mark.parametrize("axis", [1, -2])
def test_softmax_opset11_coerces_to_2d(op, axis):
    """Before opset 13 the input is flattened to 2-D at `axis`."""
    m = node_model(op, [("x", TP.FLOAT, [2, 3, 4])], {"axis": axis}, opset=11)
    check_against_onnxruntime(m, {"x": f32(2, 3, 4)})


def test_softmax_f64():
    m = node_model("Softmax", [("x", TP.DOUBLE, [2, 7])])
    check_against_onnxruntime(m, {"x": RNG.standard_normal((2, 7))}, rtol=1e-10, atol=1e-12)


def _runtime_axes_model(op: str, rank: int, keepdims: int) -> onnx.ModelProto:
    """`op` over x of `rank` dims and two axes fed as a graph input."""
    node = helper.make_node(op, ["x", "axes"], ["y"], keepdims=keepdims)
    out_rank = rank if keepdims else rank - 2
    return make_model([node], [("x", TP.FLOAT, [f"x{i}" for i in range(rank)]),
                               ("axes", TP.INT64, [2])],
                      [("y", TP.FLOAT, [f"y{i}" for i in range(out_rank)])], opset=18)


@pytest.mark.slow
@pytest.mark.parametrize("op", ["ReduceSum", "ReduceMax", "ReduceLogSumExp", "ReduceL2"])
@pytest.mark.parametrize("keepdims", [0, 1])
def test_reduce_runtime_axes(op, keepdims):
    """Axes fed at run time: one compile reduces over whichever dims they name, and the
    result's dims (dropped without keepdims) are computed at run time."""
    m = _runtime_axes_model(op, 3, keepdims)
    x = f32(3, 4, 5)
    check_against_onnxruntime(m, [{"x": x, "axes": np.array(a, np.int64)}
                                  for a in ([0, 2], [-1, 1], [2, 0])])


def test_reduce_runtime_axes_errors():
    """Axes naming a dim twice or out of range are an error at run time, not a bad read."""
    m = _runtime_axes_model("ReduceSum", 2, 0)
    compiled = infer.compile(m)
    with pytest.raises(infer.ShapeError, match="naming dim 1"):
        compiled.run({"x": f32(3, 4), "axes": np.array([1, -1], np.int64)})
    with pytest.raises(infer.ShapeError, match="axes entry 1"):
        compiled.run({"x": f32(3, 4), "axes": np.array([0, 2], np.int64)})


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
def test_arg_reduce_of_an_empty_dynamic_dim_is_refused_at_run_time(op: str) -> None:
    """No index to return when the reduced dim is 0 at run time: a shape error, not a read
    of x[..., 0] past the end of an empty buffer."""
    model = make_model([helper.make_node(op, ["x"], ["y"], axis=1)],
                       [("x", TP.FLOAT, [2, "k"])], [("y", TP.INT64, [2, 1])])
    compiled = infer.compile(model)
    x = np.array([[1, 5, 2], [7, 0, 9]], np.float32)
    np.testing.assert_array_equal(compiled.run({"x": x})["y"],
                                  (np.argmax if op == "ArgMax" else np.argmin)(x, 1)[:, None])
    with pytest.raises(ShapeError, match="the reduced dim is 0"):
        compiled.run({"x": np.zeros((2, 0), np.float32)})

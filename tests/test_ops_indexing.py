"""The indexing ops end to end against onnxruntime: each case a one-node model whose
operands are graph inputs (run-time values: indices, Trilu's k, OneHot's depth, Tile's
repeats) or constants (folded to static shapes), compiled and run, and the op's numpy form
(constant folding's) checked too. Index values out of range fail a run-time check."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper
from onnx.helper import np_dtype_to_tensor_dtype
from onnx.reference import ReferenceEvaluator

import infer
from infer.dialects.graph.evaluate import evaluate
from infer.frontend.onnx_import import import_model

from .helpers import check_against_onnxruntime, make_model, node_model, run_onnxruntime

R = np.random.default_rng(0)
X = R.standard_normal((3, 4)).astype(np.float32)
X4 = R.standard_normal((2, 8, 2, 3)).astype(np.float32)
IDX = np.array([[0, -1, 2, 1], [3, 0, -4, 2], [1, 1, 1, 1]], np.int64)  # negatives wrap
DUP = np.array([[1, 1, 1, 1], [0, 2, 2, 0], [1, 1, 1, 1]], np.int32)  # repeated targets
ND = np.array([[[0, 1], [2, -1]], [[1, 3], [-3, 0]]], np.int64)


def _i64(*v: int) -> np.ndarray:
    return np.array(v, np.int64)


# (op, graph inputs, attributes, constant inputs, opset)
CASES = [
    ("GatherElements", {"x": X, "i": IDX}, {"axis": 1}, {}, 13),
    ("GatherElements", {"x": X.T.copy(), "i": IDX.T[:3].copy()}, {}, {}, 11),
    ("GatherElements", {"x": X > 0, "i": IDX}, {"axis": -1}, {}, 13),
    ("ScatterElements", {"x": X, "i": DUP, "u": X + 1}, {"axis": 1}, {}, 11),
    ("ScatterElements", {"x": X, "i": DUP, "u": X * 2}, {"axis": 1, "reduction": "add"}, {},
     16),
    ("ScatterElements", {"x": X, "i": DUP[:2], "u": X[:2]}, {"axis": 0, "reduction": "mul"},
     {}, 18),
    ("ScatterElements", {"x": (X * 9).astype(np.int32), "i": DUP, "u": (X * 7).astype(
        np.int32)}, {"axis": 1, "reduction": "max"}, {}, 18),
    ("ScatterElements", {"x": (X * 50 + 100).astype(np.uint8), "i": DUP, "u": (
        X * 40 + 90).astype(np.uint8)}, {"axis": 1, "reduction": "min"}, {}, 18),
    ("Scatter", {"x": X, "i": IDX, "u": X + 1}, {"axis": 1}, {}, 9),
    ("ScatterND", {"x": X, "i": _i64(1, -1, 1).reshape(3, 1), "u": X}, {}, {}, 11),
    ("ScatterND", {"x": X, "i": ND[0], "u": _i64(5, 6).astype(np.float32)},
     {"reduction": "add"}, {}, 16),
    ("ScatterND", {"x": X, "i": _i64(0, 0, 2).reshape(3, 1), "u": X},
     {"reduction": "min"}, {}, 18),
    ("GatherND", {"x": X, "i": ND}, {}, {}, 11),
    ("GatherND", {"x": X4[:, :, 0], "i": _i64(3, -1, 0, 2).reshape(2, 2, 1)},
     {"batch_dims": 1}, {}, 12),
    ("Trilu", {"x": X}, {}, {}, 14),
    ("Trilu", {"x": X4, "k": np.array(-1, np.int64)}, {"upper": 0}, {}, 14),
    ("Trilu", {"x": X}, {"upper": 1}, {"k": np.array(2, np.int64)}, 14),
    ("OneHot", {"i": IDX, "d": np.array(5.0, np.float32), "v": np.array([-1, 3], np.int32)},
     {"axis": 1}, {}, 11),
    ("OneHot", {"i": IDX.astype(np.float32), "v": np.array([0, 1], np.float32)}, {},
     {"d": np.array([4], np.float32)}, 9),
    ("EyeLike", {"x": X}, {"k": 1}, {}, 9),
    ("EyeLike", {"x": X.T.copy()}, {"k": -2, "dtype": TP.INT32}, {}, 22),
    ("DepthToSpace", {"x": X4}, {"blocksize": 2}, {}, 13),
    ("DepthToSpace", {"x": X4}, {"blocksize": 2, "mode": "CRD"}, {}, 13),
    ("SpaceToDepth", {"x": X4.reshape(2, 2, 4, 6)}, {"blocksize": 2}, {}, 13),
    ("ReverseSequence", {"x": X, "n": _i64(4, 0, 2)}, {"batch_axis": 0, "time_axis": 1},
     {}, 10),
    ("ReverseSequence", {"x": X4[0].copy(), "n": _i64(5, 8)}, {}, {}, 10),
    ("Tile", {"x": X, "r": _i64(2, 0)}, {}, {}, 13),
    ("Tile", {"x": X4}, {}, {"r": _i64(1, 2, 1, 3)}, 13),
    ("TensorScatter", {"x": X4, "u": X4[:, :3] + 1, "w": _i64(5, 0)}, {"axis": 1}, {}, 24),
    ("TensorScatter", {"x": X4, "u": X4[:, :, :, :2] * 2, "w": _i64(2, 7)},
     {"axis": -1, "mode": "circular"}, {}, 24),
    ("TensorScatter", {"x": X4, "u": X4[:, :, :1] - 1}, {}, {}, 24),
]


def _model(op: str, inputs: dict[str, np.ndarray], attrs: dict[str, object],
           inits: dict[str, np.ndarray], opset: int):
    names = [*inputs, *inits]
    order = {"Trilu": ["x", "k"], "OneHot": ["i", "d", "v"], "Tile": ["x", "r"]}.get(op)
    specs = [(n, np_dtype_to_tensor_dtype(a.dtype), a.shape) for n, a in inputs.items()]
    return node_model(op, specs, attrs, inits, opset=opset,
                      node_inputs=[n for n in order if n in names] if order else names)


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_indexing_op(case) -> None:
    op, inputs, attrs, inits, opset = case
    model = _model(op, inputs, attrs, inits, opset)
    check_against_onnxruntime(model, inputs, rtol=0, atol=0)

    module = import_model(model)
    (node,) = [o for o in module.walk() if getattr(type(o), "ONNX_OP", None) == op]
    values = {**inputs, **inits}
    names = [n for n in model.graph.node[0].input]
    (expected,) = run_onnxruntime(model, inputs)
    (folded,) = evaluate(node, [values[n] for n in names])
    np.testing.assert_array_equal(folded, expected)


@pytest.mark.parametrize("op, inputs, attrs, message", [
    ("GatherElements", {"x": X, "i": IDX * 2}, {"axis": 1},
     "index 4 out of range for a dim of size 4"),
    ("ScatterND", {"x": X, "i": _i64(0, 9).reshape(1, 2), "u": X[0, :1]}, {},
     "index 9 out of range for a dim of size 4"),
    ("GatherND", {"x": X, "i": _i64(-4, 0).reshape(1, 2)}, {}, "index -4 out of range"),
    ("ReverseSequence", {"x": X, "n": _i64(1, 5, 0)}, {"batch_axis": 0, "time_axis": 1},
     "index 5 out of range"),
    ("Tile", {"x": X, "r": _i64(1, -2)}, {}, "shape entry 1 -2"),
    ("TensorScatter", {"x": X4, "u": X4[:, :3], "w": _i64(5, 6)}, {"axis": 1},
     "index 6 out of range for a dim of size 6"),
])
def test_values_out_of_range_fail_at_run_time(op, inputs, attrs, message) -> None:
    opset = {"ReverseSequence": 10, "TensorScatter": 24}.get(op, 18)
    compiled = infer.compile(_model(op, inputs, attrs, {}, opset))
    with pytest.raises(infer.ShapeError, match=message):
        compiled.run(inputs)


def test_one_hot_depth_read_at_run_time() -> None:
    """The result's dim is the depth fed, one compiled model for several."""
    v = np.array([0, 1], np.float32)
    model = _model("OneHot", {"i": IDX, "d": _i64(3), "v": v}, {"axis": 0}, {}, 11)
    compiled = infer.compile(model)
    for depth in (1, 3, 6):
        feeds = {"i": IDX, "d": _i64(depth), "v": v}
        (ours,) = compiled.run(feeds).values()
        np.testing.assert_array_equal(ours, run_onnxruntime(model, feeds)[0])
    with pytest.raises(infer.ShapeError, match="depth"):
        compiled.run({"i": IDX, "d": _i64(0), "v": v})


@pytest.mark.parametrize("op, attrs, feeds", [
    ("NonZero", {}, [{"x": np.array([[0, np.nan, -0.0], [2, 0, 1]], np.float32)},
                     {"x": np.zeros((2, 3), np.float32)}]),
    ("NonZero", {}, [{"x": np.array([[[True, False], [False, True]]])}]),
    ("Compress", {"axis": 1}, [{"x": X, "c": np.array([True, False, True])},
                               {"x": X, "c": np.zeros(3, bool)}]),
    ("Compress", {}, [{"x": X, "c": np.array([False, True, True, False, True])}]),
])
def test_sizes_from_data(op, attrs, feeds) -> None:
    """The result's size is counted at run time; one compiled model, several sizes."""
    model = _model(op, feeds[0], attrs, {}, 13)
    check_against_onnxruntime(model, feeds, rtol=0, atol=0)


def test_block_move_of_run_time_dims_checks_divisibility() -> None:
    """Channels known only at run time must be a multiple of blocksize^2."""
    model = make_model([helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2)],
                       [("x", TP.FLOAT, [1, "c", 2, 2])], [("y", TP.FLOAT, [1, "d", 4, 4])])
    compiled = infer.compile(model)
    x = R.standard_normal((1, 8, 2, 2)).astype(np.float32)
    np.testing.assert_array_equal(compiled.run({"x": x})["y"], run_onnxruntime(model, {"x": x})[0])
    with pytest.raises(infer.ShapeError, match="channels and their multiple of 4 below"):
        compiled.run({"x": x[:, :6]})


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.float16, np.uint64])
def test_one_hot_indices_of_any_numeric_type(dtype) -> None:
    """Against ONNX's reference (onnxruntime lacks these types): unsigned indices are
    never negative, floats truncate, out-of-range ones give off values."""
    i = np.array([[0, 200, 3], [5, 1, 250]]) if dtype in (np.uint8, np.uint64) else \
        np.array([[0, -2, 3], [5, 1, -7]])
    feeds = {"i": i.astype(dtype), "d": np.array(6, np.uint16), "v": np.array([-2, 7], np.int32)}
    model = _model("OneHot", feeds, {"axis": 1}, {}, 11)
    np.testing.assert_array_equal(infer.compile(model).run(feeds)["y"],
                                  ReferenceEvaluator(model).run(None, feeds)[0])


@pytest.mark.parametrize("reduction", ["add", "mul", "max", "min"])
def test_scatter_reductions_of_bools(reduction) -> None:
    """Bools combine as numpy's do (add and max are or, mul and min are and), checked
    against ONNX's reference: onnxruntime has no bool scatter reductions."""
    feeds = {"x": X > 0, "i": DUP, "u": X < 0.5}
    model = _model("ScatterElements", feeds, {"axis": 1, "reduction": reduction}, {}, 18)
    np.testing.assert_array_equal(infer.compile(model).run(feeds)["y"],
                                  ReferenceEvaluator(model).run(None, feeds)[0])


def test_tensor_scatter_circular_negative_start_wraps_as_reference() -> None:
    """onnxruntime rejects a negative write index; ONNX's reference wraps it (floor
    modulo), and so does the compiled op, at two cache sizes from one compile."""
    m = make_model([helper.make_node("TensorScatter", ["x", "u", "w"], ["y"],
                                     mode="circular")],
                   [("x", TP.FLOAT, [2, "S", 3]), ("u", TP.FLOAT, [2, 2, 3]),
                    ("w", TP.INT64, [2])], [("y", TP.FLOAT, [2, "S", 3])], opset=24)
    compiled = infer.compile(m)
    for s in (3, 5):
        feeds = {"x": R.standard_normal((2, s, 3)).astype(np.float32),
                 "u": R.standard_normal((2, 2, 3)).astype(np.float32), "w": _i64(-1, 4)}
        (want,) = ReferenceEvaluator(m).run(None, feeds)
        np.testing.assert_array_equal(compiled.run(feeds)["y"], want)

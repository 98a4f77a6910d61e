"""Numerics of the shape-op lowerings (views and copies) against onnxruntime."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer.context import make_context
from infer.frontend.onnx_import import import_model
from infer.pipeline import graph_optimize_passes, run_passes
from infer.transforms.graph_optimize import op_counts

from .helpers import check_against_onnxruntime, node_model

RNG = np.random.default_rng(0)




def f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def i64s(*values: int) -> np.ndarray:
    return np.array(values, dtype=np.int64)


# -- views --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape, target",
    [((2, 3, 4), (4, 6)), ((2, 3, 4), (-1,)), ((2, 3, 4), (0, -1)), ((6,), (1, 2, 3, 1))],
)
def test_reshape_static(shape, target):
    m = node_model("Reshape", [("x", TP.FLOAT, shape)], inits={"s": i64s(*target)})
    check_against_onnxruntime(m, {"x": f32(*shape)})


def test_reshape_dynamic_batch():
    m = node_model("Reshape", [("x", TP.FLOAT, ["N", 3, 4])], inits={"s": i64s(0, -1)})
    check_against_onnxruntime(m, [{"x": f32(n, 3, 4)} for n in (1, 3)])


def test_reshape_runtime_shape():
    m = node_model("Reshape", [("x", TP.FLOAT, [2, 6]), ("s", TP.INT64, [3])])
    feeds = [{"x": f32(2, 6), "s": i64s(*s)} for s in ((3, -1, 2), (0, 3, 2), (12, 1, 1))]
    check_against_onnxruntime(m, feeds)


def test_reshape_allowzero():
    m = node_model("Reshape", [("x", TP.FLOAT, [0, 3])], {"allowzero": 1},
                   inits={"s": i64s(3, 0)}, opset=14)  # fmt: skip
    check_against_onnxruntime(m, {"x": np.zeros((0, 3), np.float32)})


def test_reshape_allowzero_runtime_shape_of_empty_tensor():
    """A run-time shape with a 0 entry and no -1: nothing is divided by its zero count."""
    m = node_model("Reshape", [("x", TP.FLOAT, ["N", 3, 4]), ("s", TP.INT64, [3])],
                   {"allowzero": 1}, opset=14)
    check_against_onnxruntime(m, [{"x": np.zeros((0, 3, 4), np.float32), "s": i64s(3, 4, 0)},
                                  {"x": f32(2, 3, 4), "s": i64s(4, -1, 2)}])


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.bool_])
def test_reshape_int_and_bool(dtype):
    x = RNG.integers(-5, 5, (2, 3)).astype(dtype)
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    m = node_model("Reshape", [("x", elem, [2, 3])], inits={"s": i64s(3, 2)})
    check_against_onnxruntime(m, {"x": x})


@pytest.mark.parametrize("axis", [0, 1, 2, -1, 3])
def test_flatten(axis):
    m = node_model("Flatten", [("x", TP.FLOAT, ["N", 3, 4])], {"axis": axis})
    check_against_onnxruntime(m, [{"x": f32(n, 3, 4)} for n in (2, 5)])


def test_squeeze():
    m = node_model("Squeeze", [("x", TP.FLOAT, [1, "N", 1, 3])], inits={"a": i64s(0, -2)})
    check_against_onnxruntime(m, [{"x": f32(1, n, 1, 3)} for n in (1, 4)])


def _axes_model(op: str, x_shape: list[int | str], out_rank: int) -> onnx.ModelProto:
    """Squeeze or Unsqueeze with its axes a run-time input (output dims unknown to ONNX)."""
    graph = helper.make_graph(
        [helper.make_node(op, ["x", "axes"], ["y"])], op,
        [helper.make_tensor_value_info("x", TP.FLOAT, x_shape),
         helper.make_tensor_value_info("axes", TP.INT64, [len(x_shape) - out_rank]
                                       if op == "Squeeze" else [out_rank - len(x_shape)])],
        [helper.make_tensor_value_info("y", TP.FLOAT, [f"d{i}" for i in range(out_rank)])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_squeeze_and_unsqueeze_runtime_axes():
    """Axes read at run time: the result's dims are computed, and bad axes refused."""
    x = f32(2, 1, 3)
    unsq = infer.compile(_axes_model("Unsqueeze", ["A", "B", "C"], 5))
    for axes in ([0, 4], [-1, 1], [3, 2]):
        np.testing.assert_array_equal(unsq.run({"x": x, "axes": i64s(*axes)})["y"],
                                      np.expand_dims(x, axes))
    check_against_onnxruntime(_axes_model("Unsqueeze", ["A", "B", "C"], 5),
                              {"x": x, "axes": i64s(-1, 1)})
    sq = infer.compile(_axes_model("Squeeze", ["A", "B", "C"], 2))
    np.testing.assert_array_equal(sq.run({"x": x, "axes": i64s(-2)})["y"], x.reshape(2, 3))
    with pytest.raises(infer.ShapeError, match="squeezed dim 0 and 1"):
        sq.run({"x": x, "axes": i64s(0)})
    with pytest.raises(infer.ShapeError, match="naming dim 1"):
        unsq.run({"x": x, "axes": i64s(1, -4)})
    with pytest.raises(infer.ShapeError, match="axes entry 0"):
        sq.run({"x": x, "axes": i64s(3)})


def test_squeeze_all_unit_dims():
    m = node_model("Squeeze", [("x", TP.FLOAT, [1, 4, 1, 3])])
    check_against_onnxruntime(m, {"x": f32(1, 4, 1, 3)})


def test_squeeze_all_unit_dims_of_a_run_time_shape():
    """Without axes, a dim known only at run time is kept (the result's rank is fixed when
    compiling) and checked there not to be 1, where onnxruntime would drop it."""
    graph = helper.make_graph(
        [helper.make_node("Squeeze", ["x"], ["y"], name="sq")], "squeeze",
        [helper.make_tensor_value_info("x", TP.FLOAT, [1, "N", 3])],
        [helper.make_tensor_value_info("y", TP.FLOAT, ["a", "b"])])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    compiled = check_against_onnxruntime(m, [{"x": f32(1, n, 3)} for n in (2, 5)])
    with pytest.raises(infer.ShapeError, match=r"Squeeze node 'sq': dim 1 \(a Squeeze "
                       r"without axes keeps the dims known only at run time\) is 1"):
        compiled.run({"x": f32(1, 1, 3)})


def test_unsqueeze():
    m = node_model("Unsqueeze", [("x", TP.FLOAT, ["N", 3])], inits={"a": i64s(0, -1, 2)})
    check_against_onnxruntime(m, [{"x": f32(n, 3)} for n in (1, 2)])


def test_view_of_intermediate_then_consumer():
    """Reshape of a computed buffer, used twice: the buffer outlives its view's uses."""
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Reshape", ["r", "s"], ["v"]),
        helper.make_node("Neg", ["v"], ["y0"]),
        helper.make_node("Abs", ["r"], ["y1"]),
        helper.make_node("Flatten", ["r"], ["y2"]),
    ]
    graph = helper.make_graph(
        nodes, "views", [helper.make_tensor_value_info("x", TP.FLOAT, ["N", 2, 3])],
        [helper.make_tensor_value_info(n, TP.UNDEFINED, None) for n in ("y0", "y1", "y2")],
        [numpy_helper.from_array(i64s(-1, 6), "s")],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    check_against_onnxruntime(model, [{"x": f32(n, 2, 3)} for n in (1, 3)])


# -- copies -------------------------------------------------------------------------------


@pytest.mark.parametrize("perm", [None, (0, 2, 1), (2, 0, 1), (1, 2, 0)])
def test_transpose(perm):
    attrs = {} if perm is None else {"perm": list(perm)}
    m = node_model("Transpose", [("x", TP.FLOAT, [2, 3, 4])], attrs)
    check_against_onnxruntime(m, {"x": f32(2, 3, 4)})


def test_transpose_dynamic_int64():
    m = node_model("Transpose", [("x", TP.INT64, ["N", 3, 2, 5])], {"perm": [0, 2, 3, 1]})
    feeds = [{"x": RNG.integers(-100, 100, (n, 3, 2, 5))} for n in (1, 2)]
    check_against_onnxruntime(m, feeds)


@pytest.mark.parametrize("attrs", [{}, {"start": 1}, {"end": -1}, {"start": -2, "end": 10}])
def test_shape(attrs):
    m = node_model("Shape", [("x", TP.FLOAT, ["N", 3, 4])], attrs, opset=15)
    check_against_onnxruntime(m, [{"x": f32(n, 3, 4)} for n in (1, 7)])


def test_size_of_dynamic_and_empty_tensors():
    m = node_model("Size", [("x", TP.FLOAT, ["N", 3, "W"])])
    check_against_onnxruntime(m, [{"x": f32(n, 3, w)} for n, w in ((1, 4), (7, 2), (0, 5))])


def test_shape_arithmetic_folds_at_import():
    """An expanded function's shape computation (Shape -> Size -> Neg -> ConstantOfShape ->
    Concat) folds to constants as it is imported, so the Reshape it feeds is typed."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Size", ["s"], ["rank"]),
        helper.make_node("Unsqueeze", ["rank", "zero"], ["rank1"]),
        helper.make_node("ConstantOfShape", ["rank1"], ["ones"],
                         value=helper.make_tensor("v", TP.INT64, [1], [1])),
        helper.make_node("Reshape", ["x", "ones"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TP.FLOAT, [1, 1, 1])],
        [helper.make_tensor_value_info("y", TP.FLOAT, [1, 1, 1])],
        [helper.make_tensor("zero", TP.INT64, [1], [0])])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    text = str(import_model(m))
    assert "graph.size" not in text and "graph.constant_of_shape" not in text
    assert "tensor<3xi64>) -> tensor<1x1x1xf32>" in text
    check_against_onnxruntime(m, {"x": f32(1, 1, 1)})


@pytest.mark.parametrize(
    "axis, indices",
    [(0, [[0, -1], [2, 1]]), (1, [3, -4, 0]), (-1, 2), (2, [[-1]])],
)
def test_gather(axis, indices):
    x = f32(3, 4, 5)
    idx = np.array(indices, dtype=np.int64)
    m = node_model("Gather", [("x", TP.FLOAT, [3, 4, 5])], {"axis": axis}, inits={"i": idx})
    check_against_onnxruntime(m, {"x": x})


def test_gather_runtime_int32_indices():
    m = node_model("Gather", [("x", TP.INT64, ["N", 4]), ("i", TP.INT32, [3])], {"axis": 1})
    feeds = [{"x": RNG.integers(-9, 9, (n, 4)), "i": np.array([-1, 0, 2], np.int32)}
             for n in (2, 3)]  # fmt: skip
    check_against_onnxruntime(m, feeds)


SLICES = [
    # starts, ends, axes, steps
    ([1], [3], [1], [1]),
    ([0, 1], [2, 100], [0, 2], [1, 2]),  # end clamped
    ([-1], [-100], [1], [-1]),  # reversed, end clamped to -1
    ([3, -2], [0, -5], [1, 2], [-2, -1]),
    ([-3], [9223372036854775807], [-1], [1]),
    ([9223372036854775807], [-9223372036854775807], [0], [-1]),  # whole axis reversed
    ([5], [1], [1], [1]),  # empty
]


@pytest.mark.parametrize("starts, ends, axes, steps", SLICES)
def test_slice(starts, ends, axes, steps):
    inits = {"s": i64s(*starts), "e": i64s(*ends), "a": i64s(*axes), "t": i64s(*steps)}
    m = node_model("Slice", [("x", TP.FLOAT, [3, 4, 5])], inits=inits)
    check_against_onnxruntime(m, {"x": f32(3, 4, 5)})


def test_slice_default_axes_and_steps():
    m = node_model("Slice", [("x", TP.INT32, [4, 6])], inits={"s": i64s(1, -4), "e": i64s(3, 5)})
    check_against_onnxruntime(m, {"x": RNG.integers(-9, 9, (4, 6)).astype(np.int32)})


@pytest.mark.parametrize(
    "starts, ends, steps",
    [([1], [3], [1]), ([-2], [100], [1]), ([-1], [-100], [-1]), ([10], [-3], [-2])],
)
def test_slice_dynamic_dim(starts, ends, steps):
    inits = {"s": i64s(*starts), "e": i64s(*ends), "a": i64s(0), "t": i64s(*steps)}
    m = node_model("Slice", [("x", TP.FLOAT, ["N", 3])], inits=inits)
    check_against_onnxruntime(m, [{"x": f32(n, 3)} for n in (3, 5, 12)])


def test_slice_dynamic_dim_shorter_than_end():
    inits = {"s": i64s(1), "e": i64s(3), "a": i64s(0), "t": i64s(1)}
    m = node_model("Slice", [("x", TP.FLOAT, ["N", 3])], inits=inits)
    check_against_onnxruntime(m, {"x": f32(1, 3)})


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat(axis):
    shapes = [[2, 3, 4], [2, 3, 4], [2, 3, 4]]
    for s, k in zip(shapes, (1, 2, 3), strict=True):
        s[axis] = k
    inputs = [(f"x{i}", TP.FLOAT, s) for i, s in enumerate(shapes)]
    m = node_model("Concat", inputs, {"axis": axis})
    check_against_onnxruntime(m, {f"x{i}": f32(*s) for i, s in enumerate(shapes)})


def test_concat_dynamic_batch_int64():
    m = node_model("Concat", [("a", TP.INT64, ["N", 2]), ("b", TP.INT64, ["M", 2])], {"axis": 0})
    feeds = [{"a": RNG.integers(0, 9, (n, 2)), "b": RNG.integers(0, 9, (k, 2))}
             for n, k in ((1, 3), (4, 2))]  # fmt: skip
    check_against_onnxruntime(m, feeds)


def test_concat_with_constant():
    m = node_model("Concat", [("a", TP.FLOAT, ["N", 2])], {"axis": 1},
                   inits={"c": np.ones((1, 3), np.float32)})  # fmt: skip
    check_against_onnxruntime(m, {"a": f32(1, 2)})


@pytest.mark.parametrize(
    "in_shape, shape",
    [((3, 1), (2, 3, 4)), ((1,), (2, 3)), ((2, 1, 3), (1, 4, 1)), ((4,), (1,))],
)
def test_expand(in_shape, shape):
    m = node_model("Expand", [("x", TP.FLOAT, in_shape)], inits={"s": i64s(*shape)})
    check_against_onnxruntime(m, {"x": f32(*in_shape)})


def test_expand_dynamic_dims_that_may_be_one():
    """x's dynamic dims face static output dims: each may be 1 (broadcast) or equal."""
    m = node_model("Expand", [("x", TP.FLOAT, ["A", 1, "C"])], inits={"s": i64s(2, 3, 1, 4)})
    check_against_onnxruntime(m, [{"x": f32(a, 1, c)} for a, c in ((1, 1), (3, 4), (1, 4))])


def test_expand_bool():
    m = node_model("Expand", [("x", TP.BOOL, [1, 3])], inits={"s": i64s(2, 1)})
    check_against_onnxruntime(m, {"x": np.array([[True, False, True]])})


def test_split_sizes():
    m = node_model("Split", [("x", TP.FLOAT, ["N", 6])], {"axis": 1},
                   inits={"s": i64s(1, 3, 2)}, n_out=3, opset=13)  # fmt: skip
    check_against_onnxruntime(m, [{"x": f32(n, 6)} for n in (1, 3)])


@pytest.mark.parametrize("n, size", [(2, 6), (3, 7)])
def test_split_num_outputs(n, size):
    m = node_model("Split", [("x", TP.FLOAT, [size, 2])], {"num_outputs": n}, n_out=n, opset=18)
    check_against_onnxruntime(m, {"x": f32(size, 2)})


def test_split_equal_opset11():
    m = node_model("Split", [("x", TP.INT32, [2, 6])], {"axis": -1}, n_out=3, opset=11)
    check_against_onnxruntime(m, {"x": RNG.integers(-9, 9, (2, 6)).astype(np.int32)})


@pytest.mark.parametrize(
    "value",
    [None, np.array([1.5], np.float32), np.array([-7], np.int64), np.array([True]),
     np.array([3], np.int32), (np.array([200], np.uint8))],
)  # fmt: skip
def test_constant_of_shape(value):
    attrs = {} if value is None else {"value": numpy_helper.from_array(value)}
    m = node_model("ConstantOfShape", [], attrs, inits={"s": i64s(2, 3)})
    check_against_onnxruntime(m, {})


def test_constant_of_shape_runtime_shape():
    m = node_model("ConstantOfShape", [("s", TP.INT64, [2])],
                   {"value": numpy_helper.from_array(np.array([2.5], np.float32))})  # fmt: skip
    check_against_onnxruntime(m, [{"s": i64s(2, 3)}, {"s": i64s(1, 0)}])


# -- range --------------------------------------------------------------------------------

# (start, limit, delta): ascending, descending (negative delta), empty (limit == start, or
# on the wrong side of start), one element, a length that is not a multiple of delta.
RANGES = [(0, 10, 3), (10, 1, -3), (5, 5, 1), (5, 1, 1), (-4, 7, 2), (3, 4, 5), (-2, -9, -1)]
FLOAT_RANGES = [(0.5, 3.7, 0.3), (1.0, -2.0, -0.75), (0.0, 1.0, 0.1), (2.0, 2.0, 0.5),
                (2.0, 1.0, 0.5)]
RANGE_TYPES = [np.int64, np.int32, np.int16, np.float32, np.float64]


def range_cases(dtype) -> list[tuple[float, float, float]]:
    return RANGES + (FLOAT_RANGES if np.dtype(dtype).kind == "f" else [])


def range_scalars(dtype, case) -> dict[str, np.ndarray]:
    return {n: np.array(v, dtype) for n, v in zip(("s", "l", "d"), case, strict=True)}


@pytest.mark.parametrize("dtype", RANGE_TYPES)
def test_range_runtime_scalars(dtype):
    """Start, limit, delta as model inputs: the length is computed at run time."""
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    m = node_model("Range", [(n, elem, []) for n in ("s", "l", "d")], opset=11)
    check_against_onnxruntime(m, [range_scalars(dtype, c) for c in range_cases(dtype)])


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float32])
@pytest.mark.parametrize("level", [0, 1])
def test_range_constant_scalars(dtype, level):
    """Constant scalars: a static length; an integer range is shape arithmetic, folded into
    a constant as it is imported, a float one is folded from level 1 on."""
    for case in range_cases(dtype):
        m = node_model("Range", [], inits=range_scalars(dtype, case))
        module = import_model(m)
        run_passes(module, make_context(), graph_optimize_passes(level))
        kept = level == 0 and dtype == np.float32
        assert op_counts(module)["graph.range"] == (1 if kept else 0), case
        check_against_onnxruntime(m, {}, opt_level=level)


def test_range_mixed_constant_and_runtime_scalars():
    m = node_model("Range", [("l", TP.INT64, [])], inits={"s": np.array(7), "d": np.array(-2)},
                   node_inputs=["s", "l", "d"])  # fmt: skip
    check_against_onnxruntime(m, [{"l": np.array(v, np.int64)} for v in (0, 7, 8, -3)])


def test_range_zero_delta_at_run_time_is_empty():
    """ONNX rejects delta 0 (onnxruntime raises); the kernel returns an empty range rather
    than dividing by zero."""
    for dtype, elem in ((np.int64, TP.INT64), (np.float32, TP.FLOAT)):
        m = node_model("Range", [(n, elem, []) for n in ("s", "l", "d")])
        (y,) = infer.compile(m).run(range_scalars(dtype, (1, 5, 0))).values()
        assert y.shape == (0,) and y.dtype == dtype


@pytest.mark.parametrize("dtype", [np.float16, "bfloat16"])
@pytest.mark.parametrize("stash_type", [TP.FLOAT, TP.DOUBLE])
def test_range_of_half_floats_in_the_stash_type(dtype, stash_type):
    """float16/bfloat16 (opset 27; onnxruntime has no kernel): computed in `stash_type`,
    each value rounded, equal to ONNX's reference."""
    from onnx.reference import ReferenceEvaluator

    np_dtype = np.dtype(ml_dtypes.bfloat16 if dtype == "bfloat16" else dtype)
    elem = helper.np_dtype_to_tensor_dtype(np_dtype)
    m = node_model("Range", [(n, elem, []) for n in ("s", "l", "d")],
                   {"stash_type": stash_type}, opset=27)
    compiled = infer.compile(m)
    for case in ((0.1, 7.3, 0.37), (-3.3, 2.0, 0.011), (5, -5, -0.7)):
        feeds = {n: np.array(v, np_dtype) for n, v in zip("sld", case, strict=True)}
        (ours,) = compiled.run(feeds).values()
        (ref,) = ReferenceEvaluator(m).run(None, feeds)
        assert ours.dtype == np_dtype
        np.testing.assert_array_equal(ours.astype(np.float64), ref.astype(np.float64))


# -- slices with bounds computed at run time ---------------------------------------------


def _runtime_slice_model() -> onnx.ModelProto:
    """Slice whose starts, ends, axes and steps are all graph inputs."""
    ins = [helper.make_tensor_value_info("x", TP.FLOAT, ["A", "B", "C"])]
    ins += [helper.make_tensor_value_info(n, TP.INT64, [2]) for n in ("st", "en", "ax", "sp")]
    node = helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"], name="sl")
    out = helper.make_tensor_value_info("y", TP.FLOAT, ["P", "Q", "R"])
    return helper.make_model(helper.make_graph([node], "g", ins, [out]),
                             opset_imports=[helper.make_opsetid("", 17)])


def test_slice_bounds_axes_and_steps_at_run_time() -> None:
    """Negative, out-of-range and huge bounds, negative axes and steps of both signs, fed
    at run time to one compiled model, sliced as ONNX's reference (numpy's slicing) does.
    (onnxruntime 1.32 differs on an INT64_MAX end with a negative step, which it takes as
    the far end; ONNX clamps it to the last element: nothing is sliced.)"""
    model = _runtime_slice_model()
    compiled = infer.compile(model, verbose=False)
    rng = np.random.default_rng(3)
    big = 2**63 - 1
    x = f32(4, 5, 6)
    for _ in range(40):
        axes = rng.choice([-3, -2, -1, 0, 1, 2], size=2, replace=False)
        if len({a % 3 for a in axes}) < 2:
            continue
        bounds = [-big, -7, -3, -1, 0, 1, 2, 4, 7, big]
        feeds = {"x": x, "st": rng.choice(bounds, 2), "en": rng.choice(bounds, 2),
                 "ax": axes.astype(np.int64), "sp": rng.choice([-3, -2, -1, 1, 2, 3], 2)}
        index = [slice(None)] * 3
        rows = (feeds[k].tolist() for k in ("st", "en", "ax", "sp"))
        for st, en, ax, sp in zip(*rows, strict=True):
            index[ax % 3] = slice(st, en, sp)
        want = x[tuple(index)]
        got = compiled.run(feeds)["y"]
        assert got.shape == want.shape, feeds
        np.testing.assert_array_equal(got, want)


def test_slice_refuses_bad_run_time_axes_and_steps() -> None:
    compiled = infer.compile(_runtime_slice_model(), verbose=False)
    feeds = {"x": f32(4, 5, 6), "st": i64s(0, 0), "en": i64s(2, 2)}
    with pytest.raises(infer.ShapeError, match="axes entry 1 3 is out of range for rank 3"):
        compiled.run({**feeds, "ax": i64s(0, 3), "sp": i64s(1, 1)})
    with pytest.raises(infer.ShapeError, match="steps entry 0 0 is 0"):
        compiled.run({**feeds, "ax": i64s(0, 1), "sp": i64s(0, 1)})


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_chunk_bounds_from_shape_at_every_level(level: int) -> None:
    """PyTorch's chunk: ends = (C + 1) / 2 from Shape, with a dynamic batch."""
    one, two, zero = (numpy_helper.from_array(i64s(v), n) for v, n in
                      ((1, "one"), (2, "two"), (0, "zero")))
    nodes = [helper.make_node("Shape", ["x"], ["s"]),
             helper.make_node("Gather", ["s", "one"], ["c"], axis=0),
             helper.make_node("Add", ["c", "one"], ["c1"]),
             helper.make_node("Div", ["c1", "two"], ["h"]),
             helper.make_node("Slice", ["x", "zero", "h", "one"], ["y"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TP.FLOAT, ["N", "C", 4])],
                          [helper.make_tensor_value_info("y", TP.FLOAT, ["N", "H", 4])],
                          [one, two, zero])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    compiled = infer.compile(model, opt_level=level, verbose=False)
    for shape in [(2, 5, 4), (1, 8, 4)]:
        x = f32(*shape)
        np.testing.assert_array_equal(compiled.run({"x": x})["y"], x[:, : (shape[1] + 1) // 2])


@pytest.mark.slow
def test_onnx_slice_cases() -> None:
    """ONNX's Slice node cases (their bounds, axes and steps are graph inputs). ONNX
    collects its cases once per process, filtered by the first call's op type: ask for
    all of them and filter here."""
    import warnings

    from onnx.backend.test.case.node import collect_testcases

    import infer.backend

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = [c for c in collect_testcases(None) if c.name.startswith("test_slice")]
    assert len(cases) == 8
    for case in cases:
        rep = infer.backend.prepare(case.model)
        for inputs, outputs in case.data_sets:
            for got, want in zip(rep.run(inputs), outputs, strict=True):
                assert got.shape == want.shape, case.name
                np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-7, err_msg=case.name)


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "wrap"])
def test_pad_runtime_pads(mode):
    """Pads read at run time (crops too): the output dims are computed when the model runs."""
    m = node_model("Pad", [("x", TP.FLOAT, ["N", 3, "W"]), ("pads", TP.INT64, [6])],
                   {"mode": mode}, opset=19)
    cases = [(2, 4, [0, 1, 2, 1, 0, 1]), (2, 5, [1, 0, -1, 0, 2, 3]), (3, 1, [0] * 6)]
    check_against_onnxruntime(m, [{"x": f32(n, 3, w), "pads": np.array(p, np.int64)}
                                  for n, w, p in cases])


def _pad_model(inputs: list[tuple[str, int, list[int]]], node_inputs: list[str],
               mode: str = "constant") -> onnx.ModelProto:
    """Pad with run-time axes, whose output dims ONNX's shape inference leaves unknown."""
    graph = helper.make_graph(
        [helper.make_node("Pad", node_inputs, ["y"], mode=mode)], "pad",
        [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info("y", TP.FLOAT, ["a", "b", "c"][: len(inputs[0][2])])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


def test_pad_runtime_axes_and_fill():
    m = _pad_model([("x", TP.FLOAT, [2, 3, 4]), ("pads", TP.INT64, [4]),
                    ("value", TP.FLOAT, []), ("axes", TP.INT64, [2])],
                   ["x", "pads", "value", "axes"])
    feeds = [{"x": f32(2, 3, 4), "pads": np.array(p, np.int64), "value": np.array(v, np.float32),
              "axes": np.array(a, np.int64)}
             for p, v, a in (([0, 3, 1, 4], 1.5, [0, -1]), ([2, -1, 0, 1], -2.0, [-2, 2]))]
    check_against_onnxruntime(m, feeds)


def test_pad_runtime_pads_checked():
    """Run-time pads and axes that would read outside x are refused before the kernel runs."""
    m = _pad_model([("x", TP.FLOAT, [2, 3]), ("pads", TP.INT64, [2]), ("axes", TP.INT64, [1])],
                   ["x", "pads", "", "axes"], mode="reflect")
    c = infer.compile(m)
    x = f32(2, 3)
    np.testing.assert_array_equal(
        c.run({"x": x, "pads": np.array([2, 1], np.int64), "axes": np.array([1], np.int64)})["y"],
        np.pad(x, [(0, 0), (2, 1)], mode="reflect"))
    with pytest.raises(infer.ShapeError, match="dim 1 padded by reflect"):
        c.run({"x": x, "pads": np.array([3, 0], np.int64), "axes": np.array([1], np.int64)})
    with pytest.raises(infer.ShapeError, match="axes entry 0"):
        c.run({"x": x, "pads": np.array([1, 0], np.int64), "axes": np.array([2], np.int64)})

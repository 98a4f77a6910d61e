"""Numerics of the elementwise lowerings (broadcasting, dtypes, Cast) against onnxruntime."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper

from .helpers import check_against_onnxruntime, make_model, node_model

RNG = np.random.default_rng(0)




def elem(dtype: type | np.dtype) -> int:
    return helper.np_dtype_to_tensor_dtype(np.dtype(dtype))


def data(shape: Sequence[int], dtype: type | np.dtype = np.float32) -> np.ndarray:
    """Random data of `dtype`: normal floats, small ints (non-negative when unsigned)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return np.asarray(RNG.standard_normal(shape), dtype)
    if dtype.kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    lo = 0 if dtype.kind == "u" else -50
    return RNG.integers(lo, 100, shape).astype(dtype)


# -- unary --------------------------------------------------------------------------------

UNARY_FLOAT = [
    ("Relu", {}), ("Sigmoid", {}), ("Tanh", {}), ("Exp", {}), ("Erf", {}), ("Floor", {}),
    ("Ceil", {}), ("Neg", {}), ("Abs", {}), ("Identity", {}), ("Reciprocal", {}),
    ("LeakyRelu", {"alpha": 0.3}), ("LeakyRelu", {}), ("HardSigmoid", {"alpha": 0.3, "beta": 0.4}),
    ("HardSwish", {}),
]  # fmt: skip


@pytest.mark.parametrize("op, attrs", UNARY_FLOAT)
def test_unary_float(op, attrs):
    m = node_model(op, [("x", TP.FLOAT, [3, 17])], attrs)
    check_against_onnxruntime(m, {"x": data([3, 17]) * 3})


@pytest.mark.parametrize("op", ["Log", "Sqrt"])
def test_unary_positive(op):
    m = node_model(op, [("x", TP.FLOAT, [2, 9])])
    check_against_onnxruntime(m, {"x": np.abs(data([2, 9])) * 5 + 0.01})


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu(approximate):
    m = node_model("Gelu", [("x", TP.FLOAT, [4, 8])], {"approximate": approximate}, opset=20)
    check_against_onnxruntime(m, {"x": data([4, 8]) * 3})


def test_dropout_inference():
    m = node_model("Dropout", [("x", TP.FLOAT, ["N", 5])], opset=13)
    check_against_onnxruntime(m, [{"x": data([n, 5])} for n in (1, 3)])


def test_dropout_inference_mask():
    """The mask of inference Dropout is all true, at the run-time shape of x."""
    m = node_model("Dropout", [("x", TP.FLOAT, ["N", 5])], opset=13, n_out=2)
    check_against_onnxruntime(m, [{"x": data([n, 5])} for n in (1, 3)])


def test_unary_f64():
    m = node_model("Sigmoid", [("x", TP.DOUBLE, [5])])
    check_against_onnxruntime(m, {"x": data([5], np.float64)}, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize(
    "op, dtype",
    [("Relu", np.int32), ("Relu", np.int8), ("Neg", np.int32), ("Neg", np.int64),
     ("Neg", np.int8), ("Abs", np.int32), ("Abs", np.int8), ("Abs", np.int64),
     ("Abs", np.uint8), ("Identity", np.int64),
     ("Identity", np.bool_)],
)  # fmt: skip
def test_unary_int(op, dtype):
    m = node_model(op, [("x", elem(dtype), [4, 6])])
    check_against_onnxruntime(m, {"x": data([4, 6], dtype)})


@pytest.mark.parametrize(
    "dtype, lo, hi",
    [(np.float32, -0.5, 0.7), (np.int32, -10, 20), (np.int64, 0, 5), (np.int8, -3, 3),
     (np.uint8, 10, 200)],
)  # fmt: skip
def test_clip(dtype, lo, hi):
    bounds = {"lo": np.array(lo, dtype), "hi": np.array(hi, dtype)}
    m = node_model("Clip", [("x", elem(dtype), [3, 7])], inits=bounds)
    x = data([3, 7], dtype) if dtype != np.uint8 else RNG.integers(0, 256, (3, 7)).astype(dtype)
    check_against_onnxruntime(m, {"x": x})


@pytest.mark.parametrize("which", ["min", "max"])
def test_clip_one_bound(which):
    bound = {"b": np.array(0.25, np.float32)}
    names = ["x", "b"] if which == "min" else ["x", "", "b"]
    m = node_model("Clip", [("x", TP.FLOAT, [2, 5])], inits=bound, node_inputs=names)
    check_against_onnxruntime(m, {"x": data([2, 5])})


def test_clip_opset10_attributes():
    m = node_model("Clip", [("x", TP.FLOAT, [2, 5])], {"min": -0.2, "max": 0.3}, opset=10)
    check_against_onnxruntime(m, {"x": data([2, 5])})


# -- binary -------------------------------------------------------------------------------

BINARY = ["Add", "Sub", "Mul", "Div"]
BROADCAST = [
    ([3, 4, 5], [3, 4, 5]),
    ([3, 1, 5], [4, 1]),  # both operands broadcast
    ([4, 1], [3, 1, 5]),  # the other direction
    ([2, 3], []),  # a scalar operand
    ([], [2, 3]),
    ([1], [2, 3]),
]


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize("a_shape, b_shape", BROADCAST)
def test_binary_broadcast(op, a_shape, b_shape):
    m = node_model(op, [("a", TP.FLOAT, a_shape), ("b", TP.FLOAT, b_shape)])
    b = data(b_shape)
    if op == "Div":
        b = np.where(np.abs(b) < 0.1, 1.0, b).astype(np.float32)
    check_against_onnxruntime(m, {"a": data(a_shape), "b": b})


@pytest.mark.parametrize("op", BINARY)
def test_binary_dynamic_batch(op):
    m = node_model(op, [("a", TP.FLOAT, ["N", 4]), ("b", TP.FLOAT, [4])])
    feeds = [{"a": data([n, 4]), "b": data([4]) + 3} for n in (1, 5)]
    check_against_onnxruntime(m, feeds)


def test_binary_dynamic_both():
    m = node_model("Mul", [("a", TP.FLOAT, ["N", 1, "W"]), ("b", TP.FLOAT, [3, "W"])])
    feeds = [{"a": data([n, 1, w]), "b": data([3, w])} for n, w in ((1, 2), (4, 7))]
    check_against_onnxruntime(m, feeds)


# Dims symbolic on both sides (distinct names, so nothing proves them equal): at run time
# either side may be 1, or both equal. The output dim is their run-time max.
DYN_PAIRS = [
    ([3, 5], [1, 5]),  # one side 1 on the leading dim
    ([3, 1], [1, 5]),  # each side broadcasts one dim
    ([1, 1], [4, 6]),
    ([3, 5], [3, 5]),  # equal
    ([2, 3, 5], [3, 1]),  # different ranks
]


@pytest.mark.parametrize("op", ["Add", "Mul"])
def test_binary_dynamic_vs_dynamic(op):
    m = node_model(op, [("a", TP.FLOAT, ["A0", "A1"]), ("b", TP.FLOAT, ["B0", "B1"])])
    check_against_onnxruntime(m, [{"a": data(a), "b": data(b)} for a, b in DYN_PAIRS[:4]])
    m = node_model(op, [("a", TP.FLOAT, ["A0", "A1", "A2"]), ("b", TP.FLOAT, ["B0", "B1"])])
    a, b = DYN_PAIRS[4]
    check_against_onnxruntime(m, {"a": data(a), "b": data(b)})


def test_fused_chain_dynamic_vs_dynamic():
    """Relu is computed in the Mul's loop nest: its operand broadcasts to the Mul's output."""
    x, y = helper.make_node("Relu", ["a"], ["r"]), helper.make_node("Mul", ["r", "b"], ["y"])
    m = make_model(
        [x, y],
        [("a", TP.FLOAT, ["A0", "A1"]), ("b", TP.FLOAT, ["B0", "B1"])],
        [("y", TP.FLOAT, ["Y0", "Y1"])],
    )
    check_against_onnxruntime(m, [{"a": data(a), "b": data(b)} for a, b in DYN_PAIRS[:4]])


def test_where_dynamic_vs_dynamic():
    inputs = [("c", TP.BOOL, ["C0", "C1"]), ("a", TP.FLOAT, ["A0", "A1"]),
              ("b", TP.FLOAT, ["B0"])]  # fmt: skip
    m = node_model("Where", inputs)
    shapes = [([1, 5], [3, 1], [5]), ([3, 5], [3, 5], [1]), ([3, 1], [1, 1], [4]),
              ([2, 4], [2, 4], [4])]  # fmt: skip
    feeds = [{"c": data(c, np.bool_), "a": data(a), "b": data(b)} for c, a, b in shapes]
    check_against_onnxruntime(m, feeds)


def test_variadic_max_dynamic_vs_dynamic():
    inputs = [("x0", TP.FLOAT, ["A0", "A1"]), ("x1", TP.FLOAT, ["B0", "B1"]),
              ("x2", TP.FLOAT, ["C1"])]  # fmt: skip
    m = node_model("Max", inputs)
    shapes = [([1, 5], [3, 1], [5]), ([3, 5], [3, 5], [1]), ([3, 1], [1, 1], [4]),
              ([2, 4], [2, 4], [4])]  # fmt: skip
    check_against_onnxruntime(m, [{f"x{i}": data(s) for i, s in enumerate(ss)} for ss in shapes])


def test_matmul_batch_dynamic_vs_dynamic():
    inputs = [("a", TP.FLOAT, ["A0", "A1", 3, 4]), ("b", TP.FLOAT, ["B0", "B1", 4, 5])]
    m = node_model("MatMul", inputs)
    batches = [((1, 2), (3, 2)), ((3, 1), (1, 2)), ((2, 2), (2, 2)), ((1, 1), (2, 3))]
    feeds = [{"a": data([*ab, 3, 4]), "b": data([*bb, 4, 5])} for ab, bb in batches]
    check_against_onnxruntime(m, feeds)
    # a 3-D operand against a 4-D one, both batch dims dynamic
    m = node_model("MatMul", [("a", TP.FLOAT, ["A0", 3, 4]), ("b", TP.FLOAT, ["B0", "B1", 4, 5])])
    sizes = ((1, 3), (3, 1), (3, 3))
    feeds = [{"a": data([a0, 3, 4]), "b": data([2, b1, 4, 5])} for a0, b1 in sizes]
    check_against_onnxruntime(m, feeds)


def test_binary_with_constant():
    m = node_model("Add", [("a", TP.FLOAT, [2, 3])], inits={"c": data([3])})
    check_against_onnxruntime(m, {"a": data([2, 3])})


@pytest.mark.parametrize("op", BINARY)
def test_binary_scalar_constant(op):
    m = node_model(op, [("a", TP.FLOAT, ["N", 3])], inits={"c": np.array(2.5, np.float32)})
    check_against_onnxruntime(m, [{"a": data([n, 3])} for n in (1, 2)])


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize(
    "dtype",
    [np.int32, np.int64, np.uint8],
)
def test_binary_int(op, dtype):
    m = node_model(op, [("a", elem(dtype), [3, 4]), ("b", elem(dtype), [4])])
    b = data([4], dtype)
    if op == "Div":
        b = np.where(b == 0, 7, b).astype(dtype)
    check_against_onnxruntime(m, {"a": data([3, 4], dtype), "b": b})


def test_div_int_truncates_toward_zero():
    m = node_model("Div", [("a", TP.INT32, [4]), ("b", TP.INT32, [4])])
    a, b = np.array([7, -7, 7, -7], np.int32), np.array([2, 2, -2, -2], np.int32)
    check_against_onnxruntime(m, {"a": a, "b": b})


def test_pow():
    m = node_model("Pow", [("a", TP.FLOAT, [3, 4]), ("b", TP.FLOAT, [4])])
    feeds = {"a": np.abs(data([3, 4])) + 0.1, "b": np.array([0.5, 2, -1, 3], np.float32)}
    check_against_onnxruntime(m, feeds)


@pytest.mark.parametrize("base, exponent", [(np.int32, np.int32), (np.int64, np.int64),
                                            (np.int32, np.float32), (np.int64, np.float32)])
def test_pow_integer_base(base, exponent):
    """Raised in f64 and truncated, as onnxruntime: 4 ** 0.5 = 2, 2 ** -1 = 0."""
    m = node_model("Pow", [("a", elem(base), [6]), ("b", elem(exponent), [6])], opset=15)
    feeds = {"a": np.array([4, -3, 2, 7, 0, -2], base),
             "b": np.array([0.5, 3, -1, 2, 0, 5] if exponent == np.float32 else [2, 3, -1, 2, 0, 5],
                           exponent)}
    check_against_onnxruntime(m, feeds)


# -- comparisons and where ----------------------------------------------------------------


@pytest.mark.parametrize("op", ["Equal", "Less", "Greater"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64])
def test_compare(op, dtype):
    m = node_model(op, [("a", elem(dtype), [3, 4]), ("b", elem(dtype), [3, 1])])
    a, b = (RNG.integers(0, 3, s).astype(dtype) for s in ((3, 4), (3, 1)))  # equal values occur
    check_against_onnxruntime(m, {"a": a, "b": b})


def test_equal_bool():
    m = node_model("Equal", [("a", TP.BOOL, [6]), ("b", TP.BOOL, [6])])
    check_against_onnxruntime(m, {"a": data([6], np.bool_), "b": data([6], np.bool_)})


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_where(dtype):
    inputs = [("c", TP.BOOL, [3, 1]), ("a", elem(dtype), [4]), ("b", elem(dtype), [2, 3, 4])]
    m = node_model("Where", inputs)
    feeds = {"c": data([3, 1], np.bool_), "a": data([4], dtype), "b": data([2, 3, 4], dtype)}
    check_against_onnxruntime(m, feeds)


# -- variadic -----------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["Sum", "Max", "Min", "Mean"])
@pytest.mark.parametrize("shapes", [[[3, 4]], [[3, 4], [4]], [[2, 1, 4], [3, 1], [4]]])
def test_variadic(op, shapes):
    inputs = [(f"x{i}", TP.FLOAT, s) for i, s in enumerate(shapes)]
    m = node_model(op, inputs)
    check_against_onnxruntime(m, {f"x{i}": data(s) for i, s in enumerate(shapes)})


@pytest.mark.parametrize("op", ["Max", "Min"])  # onnxruntime has no int32 Sum
def test_variadic_int32(op):
    m = node_model(op, [("a", TP.INT32, [2, 5]), ("b", TP.INT32, [5])])
    check_against_onnxruntime(m, {"a": data([2, 5], np.int32), "b": data([5], np.int32)})


# -- cast ---------------------------------------------------------------------------------

CAST_TYPES = [np.float32, np.float64, np.int32, np.int64, np.int8, np.uint8, np.bool_]


def cast_input(src: np.dtype, dst: np.dtype) -> np.ndarray:
    """Values whose conversion is defined in C++ too (no negative float -> unsigned)."""
    if src.kind == "f":
        lo = 0 if dst.kind == "u" else -100
        x = RNG.uniform(lo, 100, (3, 5)).astype(src)
        x[0, :2] = 0  # zeros, for bool
        x[1, 0] = -0.75 if lo < 0 else 0.75  # truncation toward zero
        return x
    if src.kind == "b":
        return data([3, 5], np.bool_)
    lo = 0 if src.kind == "u" else -128
    hi = 256 if src.kind == "u" else 128
    x = RNG.integers(lo, hi, (3, 5)).astype(src)
    x[0, :2] = 0
    return x


@pytest.mark.parametrize(
    "src, dst",
    [
        (s, d)
        for s in CAST_TYPES for d in CAST_TYPES if s is not d
    ],
)  # fmt: skip
def test_cast(src, dst):
    src, dst = np.dtype(src), np.dtype(dst)
    m = node_model("Cast", [("x", elem(src), [3, 5])], {"to": elem(dst)})
    check_against_onnxruntime(m, {"x": cast_input(src, dst)})


def test_cast_wide_ints_truncate():
    m = node_model("Cast", [("x", TP.INT64, [4])], {"to": TP.INT8})
    check_against_onnxruntime(m, {"x": np.array([300, -129, 2**40 + 5, -1], np.int64)})


def test_broadcast_of_zero_size_dims():
    """1 and 0 broadcast to 0: an empty operand gives an empty result, nothing is read."""
    m = node_model("Mul", [("a", TP.FLOAT, [2, 0, 4]), ("b", TP.FLOAT, [1, 1, 4])])
    check_against_onnxruntime(m, {"a": np.zeros((2, 0, 4), np.float32), "b": data([1, 1, 4])})


def test_broadcast_of_zero_size_dims_known_at_run_time():
    """Two dynamic dims of 1 and 0 broadcast to 0 (not their max, which would read a row
    of the empty operand), whichever operand is empty, and chained ops too."""
    m = node_model("Add", [("a", TP.FLOAT, ["A0", "A1"]), ("b", TP.FLOAT, ["B0", "B1"])])
    pairs = [((1, 3), (0, 3)), ((0, 3), (1, 3)), ((2, 1), (2, 0)), ((1, 1), (0, 0))]
    check_against_onnxruntime(m, [{"a": data(a), "b": data(b)} for a, b in pairs])
    m = node_model("Where", [("c", TP.BOOL, ["C"]), ("a", TP.FLOAT, ["A"]),
                             ("b", TP.FLOAT, ["B"])])
    check_against_onnxruntime(m, [{"c": np.ones(c, bool), "a": data([a]), "b": data([b])}
                                  for c, a, b in ((1, 0, 1), (0, 1, 1), (1, 1, 0))])

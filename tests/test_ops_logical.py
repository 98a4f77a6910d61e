"""The logical, bitwise and integer ops, LessOrEqual / GreaterOrEqual and PRelu: the
compiled kernel and the numpy form (constant folding's) against onnxruntime, the cases
onnxruntime leaves undefined or lacks (integer remainders by 0, signed shifts of opset 28)
against ONNX's definition, and the models they refuse."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper
from onnx.helper import np_dtype_to_tensor_dtype

import infer
from infer.dialects import graph as G
from infer.dialects.graph.evaluate import evaluate
from infer.errors import InferError, ShapeError
from infer.frontend.onnx_import import import_model

from .helpers import check_against_onnxruntime, make_model, run_onnxruntime

A_SHAPE, B_SHAPE = [2, 3, 8], [3, 1]


class Case(NamedTuple):
    op: str
    dtype: type
    attrs: dict[str, object] = {}
    opset: int = 18
    unary: bool = False


def _tp(dtype: type) -> int:
    return np_dtype_to_tensor_dtype(np.dtype(dtype))


def _model(op: str, dtypes: list[type], out: type, attrs: dict[str, object], opset: int,
           shapes: list[list[int]]):
    names = ["a", "b"][: len(dtypes)]
    node = helper.make_node(op, names, ["y"], **attrs)
    out_shape = list(np.broadcast_shapes(*map(tuple, shapes)))
    inputs = [(n, _tp(d), s) for n, d, s in zip(names, dtypes, shapes, strict=True)]
    return make_model([node], inputs, [("y", _tp(out), out_shape)], opset=opset)


def _values(dtype: type, shape: list[int], rng: np.random.Generator, nonzero: bool = False
            ) -> np.ndarray:
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind == "f":
        x = rng.uniform(-6, 6, shape).astype(dt)
        x.flat[:4] = [np.nan, np.inf, -np.inf, -0.0]
        return x
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    x.flat[:4] = [info.min, info.max, 0, 1]
    if nonzero:  # onnxruntime's integer remainder by zero is undefined
        x[x == 0] = 3
    return x


CASES = [
    *(Case(op, bool, opset=7) for op in ("And", "Or", "Xor")),
    Case("Not", bool, unary=True),
    *(Case(op, t) for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor")
      for t in (np.int8, np.uint16, np.int64)),
    Case("BitwiseNot", np.int32, unary=True),
    Case("BitwiseNot", np.uint8, unary=True),
    *(Case("BitShift", t, {"direction": d}) for d in ("LEFT", "RIGHT")
      for t in (np.uint8, np.uint32, np.uint64)),
    *(Case("Mod", t) for t in (np.int8, np.int32, np.uint16, np.int64)),
    *(Case("Mod", t, {"fmod": 1}) for t in (np.int32, np.float32, np.float64, np.float16)),
    *(Case(op, t, opset=16) for op in ("LessOrEqual", "GreaterOrEqual")
      for t in (np.float32, np.float64, np.int16, np.uint32)),
    *(Case("PRelu", t, opset=16) for t in (np.float32, np.float64, np.int32, np.int64)),
]


def _id(c: Case) -> str:
    return f"{c.op}-{np.dtype(c.dtype).name}" + "".join(f"-{k}={v}" for k, v in c.attrs.items())


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_against_onnxruntime(case: Case) -> None:
    rng = np.random.default_rng(0)
    comparison = case.op.endswith("OrEqual")
    out = bool if comparison else case.dtype
    if case.unary:
        model = _model(case.op, [case.dtype], out, case.attrs, case.opset, [A_SHAPE])
        feeds = {"a": _values(case.dtype, A_SHAPE, rng)}
    else:
        # PRelu's slope broadcasts to X only: [3, 1] to [2, 3, 8] (the others both ways)
        b_shape = B_SHAPE if case.op == "PRelu" else [3, 8]
        a_shape = A_SHAPE if case.op == "PRelu" else [2, 1, 8]
        model = _model(case.op, [case.dtype] * 2, out, case.attrs, case.opset,
                       [a_shape, b_shape])
        b = _values(case.dtype, b_shape, rng, nonzero=case.op == "Mod")
        if case.op == "BitShift":  # amounts in [0, width + 2): past the width too
            b = rng.integers(0, np.dtype(case.dtype).itemsize * 8 + 2, b_shape).astype(b.dtype)
        feeds = {"a": _values(case.dtype, a_shape, rng), "b": b}
    (expected,) = run_onnxruntime(model, feeds)

    (op,) = [o for o in import_model(model).walk() if getattr(type(o), "ONNX_OP", 0) == case.op]
    assert isinstance(op, G.GraphOp)
    (folded,) = evaluate(op, list(feeds.values()))
    np.testing.assert_array_equal(folded, expected)  # NaN matches NaN

    check_against_onnxruntime(model, feeds, rtol=0, atol=0)


def _run(model, feeds: dict[str, np.ndarray]) -> np.ndarray:
    """The compiled kernel's result, checked equal to the numpy form's."""
    (op,) = [o for o in import_model(model).walk() if isinstance(o, G.GraphOp)]
    (folded,) = evaluate(op, list(feeds.values()))
    (got,) = infer.compile(model).run(feeds).values()
    np.testing.assert_array_equal(got, folded)
    return got


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16])
@pytest.mark.parametrize("fmod", [0, 1])
def test_integer_remainder_by_zero_and_minus_one(dtype: type, fmod: int) -> None:
    """x % 0 is 0 (numpy's, the reference's) and INT_MIN % -1 is 0: defined, no trap."""
    info = np.iinfo(dtype)
    a = np.array([info.min, info.min, 7, -7, info.max, 0]).clip(info.min).astype(dtype)
    b = np.array([0, -1, 0, -1, 0, 0]).astype(dtype)  # -1 wraps to the max when unsigned
    model = _model("Mod", [dtype] * 2, dtype, {"fmod": fmod}, 28, [[6], [6]])
    got = _run(model, {"a": a, "b": b})
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(got, (np.fmod if fmod else np.mod)(a, b))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_float_floor_remainder(dtype: type) -> None:
    """fmod = 0 on floats (opset 28): the divisor's sign, numpy's special cases."""
    inf, nan = np.inf, np.nan
    a = np.array([-7, 7, 0, -0.0, 5, -5, inf, 3, nan, 3, 1e-3], dtype)
    b = np.array([3, -3, -2, 2, inf, inf, 2, 0, 1, nan, -4], dtype)
    model = _model("Mod", [dtype] * 2, dtype, {}, 28, [[11], [11]])
    got = _run(model, {"a": a, "b": b})
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = np.mod(a, b)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))  # signed zeros


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
@pytest.mark.parametrize("direction", ["LEFT", "RIGHT"])
def test_signed_shift(dtype: type, direction: str) -> None:
    """Opset 28: a right shift is arithmetic; an amount < 0 or >= the width leaves the
    sign fill (-1 for a negative X shifted right, else 0); left shifts wrap."""
    w = np.dtype(dtype).itemsize * 8
    x = np.array([-5, -5, -5, 5, 5, 96, -128, 1], dtype)
    y = np.array([1, w, -1, w + 3, -3, 2, 1, w - 1], dtype)
    model = _model("BitShift", [dtype] * 2, dtype, {"direction": direction}, 28, [[8], [8]])
    got = _run(model, {"a": x, "b": y})
    big = (y < 0) | (y >= w)
    half = 2 ** (w - 1)
    wrapped = np.array([  # two's complement wrap of Python's unbounded shifts
        ((int(v) << int(s) if direction == "LEFT" else int(v) >> int(s)) + half) % (2 * half)
        - half for v, s in zip(x, np.where(big, 0, y), strict=True)], dtype)
    fill = np.where((x < 0) & (direction == "RIGHT"), -1, 0).astype(dtype)
    np.testing.assert_array_equal(got, np.where(big, fill, wrapped))


def test_prelu_nan_and_dynamic_dims() -> None:
    """NaN stays NaN; a run-time batch dim; the slope read per channel."""
    node = helper.make_node("PRelu", ["x", "s"], ["y"])
    model = make_model([node], [("x", TP.FLOAT, ["n", 3, 4]), ("s", TP.FLOAT, [3, 1])],
                       [("y", TP.FLOAT, ["n", 3, 4])], opset=16)
    s = np.array([[0.5], [-2.0], [0.0]], np.float32)
    feeds = [{"x": np.random.default_rng(n).uniform(-3, 3, (n, 3, 4)).astype(np.float32),
              "s": s} for n in (1, 5)]
    feeds[1]["x"].flat[:3] = [np.nan, -np.inf, -0.0]
    check_against_onnxruntime(model, feeds, rtol=0, atol=0)


@pytest.mark.parametrize(
    "op, dtypes, attrs, opset, shapes, reason",
    [
        ("And", [np.int32] * 2, {}, 7, [[4], [4]], "bool"),
        ("BitwiseAnd", [np.bool_] * 2, {}, 18, [[4], [4]], "integer"),
        ("BitShift", [np.uint8] * 2, {"direction": "UP"}, 18, [[4], [4]], "direction"),
        ("Mod", [np.float32] * 2, {}, 13, [[4], [4]], "fmod must be 1"),
        ("PRelu", [np.float32] * 2, {}, 16, [[4], [2, 4]], "slope"),
        ("LessOrEqual", [np.bool_] * 2, {}, 16, [[4], [4]], "numeric"),
        ("Less", [np.bool_] * 2, {}, 13, [[4], [4]], "numeric"),
        ("Greater", [np.bool_] * 2, {}, 13, [[4], [4]], "numeric"),
    ],
)
def test_refused(op: str, dtypes: list[type], attrs: dict[str, object], opset: int,
                 shapes: list[list[int]], reason: str) -> None:
    # not through make_model: its shape inference rejects most of these first
    out = bool if op in ("And", "LessOrEqual", "Less", "Greater") else dtypes[0]
    node = helper.make_node(op, ["a", "b"], ["y"], **attrs)
    graph = helper.make_graph(
        [node], op,
        [helper.make_tensor_value_info(n, _tp(d), s)
         for n, d, s in zip("ab", dtypes, shapes, strict=True)],
        [helper.make_tensor_value_info("y", _tp(out), shapes[-1])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    with pytest.raises(InferError, match=reason):
        infer.compile(model)


def test_prelu_slope_checked_at_run_time() -> None:
    """A run-time slope dim must be 1 or X's: another is an error, never a read past it."""
    node = helper.make_node("PRelu", ["x", "s"], ["y"])
    model = make_model([node], [("x", TP.FLOAT, [2, 3]), ("s", TP.FLOAT, ["c"])],
                       [("y", TP.FLOAT, [2, 3])], opset=16)
    compiled = infer.compile(model)
    x = -np.ones((2, 3), np.float32)
    for s in ([2.0], [1.0, 2.0, 3.0]):
        got = compiled.run({"x": x, "s": np.array(s, np.float32)})["y"]
        np.testing.assert_array_equal(got, np.broadcast_to(-np.array(s, np.float32), (2, 3)))
    for s in ([1.0, 2.0], [1.0, 2.0, 3.0, 4.0]):
        with pytest.raises(ShapeError, match="slope dim"):
            compiled.run({"x": x, "s": np.array(s, np.float32)})


BIT_CASTS = [(np.float32, np.int32), (np.int32, np.float32), (np.float64, np.uint64),
             (np.int64, np.float64), (np.uint16, np.int16), (np.int8, np.uint8),
             (np.bool_, np.uint8), (np.uint8, np.bool_)]


@pytest.mark.parametrize(("src", "dst"), BIT_CASTS, ids=lambda t: np.dtype(t).name)
def test_bit_cast(src, dst):
    """The same bits in another type of the same width; NaN, Inf and -0 included; the
    folded form (numpy's view) agrees with the kernel."""
    if np.dtype(src).kind == "f":
        x = np.array([1.5, -0.0, np.inf, -np.inf, np.nan, 3e-39, -7.25, 1e30], src)
    elif src is np.bool_:
        x = np.array([True, False, True, True, False, False, True, False])
    else:
        x = np.array([0, 1, -1, 7, 100, -100, 2**7 - 1, 3]).astype(src)
    x = x.reshape(2, 4)
    m = make_model([helper.make_node("BitCast", ["x"], ["y"], to=_tp(dst))],
                   [("x", _tp(src), ["N", 4])], [("y", _tp(dst), ["N", 4])], opset=26)
    want = x.view(dst) if dst is not np.bool_ else x != 0
    np.testing.assert_array_equal(_run(m, {"x": x}).view(np.uint8), want.view(np.uint8))

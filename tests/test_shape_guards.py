"""Inputs whose run-time sizes or index values contradict the model: the compiled code
checks them before the op that relies on them and the run raises `ShapeError` naming the
op and the input shapes, as onnxruntime refuses them, instead of reading or writing past
a buffer. Valid inputs of the same models still match onnxruntime."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import infer
from infer.errors import InputError, ShapeError

F32, I64 = TensorProto.FLOAT, TensorProto.INT64


def _model(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
           outputs: list[onnx.ValueInfoProto], inits: list[onnx.TensorProto] = (),
           opset: int = 18) -> onnx.ModelProto:
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def _in(name: str, shape: list, t: int = F32) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, t, shape)


def _rand(*shape: int) -> np.ndarray:
    return np.random.default_rng(0).standard_normal(shape).astype(np.float32)


@dataclass
class Case:
    """A model, feeds it must refuse (with a message naming `op`, or one of `a|b`) and
    feeds it must run."""

    model: onnx.ModelProto
    op: str
    bad: list[dict[str, np.ndarray]]
    good: list[dict[str, np.ndarray]] = field(default_factory=list)


def _binary(op: str) -> onnx.ModelProto:
    return _model([helper.make_node(op, ["a", "b"], ["y"], name="n")],
                  [_in("a", ["A", 3]), _in("b", ["B", 3])], [_in("y", ["Y", 3])])


@cache
def _cases() -> dict[str, Case]:
    """Built on first use (the largest feeds are hundreds of MB)."""
    table = numpy_helper.from_array(_rand(100, 3), "table")
    w8 = numpy_helper.from_array(_rand(8, 4, 3, 3), "w")
    return {
        # rows 2-4 of the result would be read past `a`; 20,000,000 rows segfaulted.
        "add_rows": Case(_binary("Add"), "Add",
                         bad=[{"a": _rand(2, 3), "b": _rand(5, 3)},
                              {"a": _rand(2, 3), "b": _rand(20_000_000, 3)}],
                         good=[{"a": _rand(2, 3), "b": _rand(2, 3)},
                               {"a": _rand(1, 3), "b": _rand(5, 3)}]),
        "matmul_inner": Case(
            _model([helper.make_node("MatMul", ["a", "b"], ["y"], name="mm")],
                   [_in("a", [2, 3]), _in("b", ["K", 5])], [_in("y", [2, 5])]),
            "MatMul", bad=[{"a": _rand(2, 3), "b": _rand(4_000_000, 5)},
                           {"a": _rand(2, 3), "b": _rand(2, 5)}],
            good=[{"a": _rand(2, 3), "b": _rand(3, 5)}]),
        "gather_index": Case(
            _model([helper.make_node("Gather", ["table", "i"], ["y"], name="emb")],
                   [_in("i", ["N"], I64)], [_in("y", ["N", 3])], [table]),
            "Gather", bad=[{"i": np.array([3, v], np.int64)}
                           for v in (1_000_000, 100, 150, -101)],
            good=[{"i": np.array([0, 99, -1, -100], np.int64)}]),
        "conv_bias": Case(
            _model([helper.make_node("Conv", ["x", "w", "bias"], ["y"], name="conv")],
                   [_in("x", [1, 4, 6, 6]), _in("bias", ["M"])], [_in("y", [1, 8, 4, 4])],
                   [w8]),
            "Conv", bad=[{"x": _rand(1, 4, 6, 6), "bias": _rand(5)}],
            good=[{"x": _rand(1, 4, 6, 6), "bias": _rand(8)}]),
        "conv_window": Case(
            _model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv")],
                   [_in("x", ["N", 4, "H", "W"])], [_in("y", ["N", 8, "OH", "OW"])], [w8]),
            "Conv|conv_nchwc",  # blocked at level 3
            bad=[{"x": _rand(1, 4, 2, 6)}], good=[{"x": _rand(2, 4, 3, 5)}]),
        "batchnorm_mean": Case(
            _model([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"],
                                     name="bn")],
                   [_in("x", [1, 6, 2, 2]), _in("s", [6]), _in("b", [6]), _in("m", ["C"]),
                    _in("v", [6])], [_in("y", [1, 6, 2, 2])]),
            "BatchNormalization",
            bad=[{"x": _rand(1, 6, 2, 2), "s": _rand(6), "b": _rand(6), "m": _rand(5),
                  "v": np.ones(6, np.float32)}],
            good=[{"x": _rand(1, 6, 2, 2), "s": _rand(6), "b": _rand(6), "m": _rand(6),
                   "v": np.ones(6, np.float32)}]),
        "concat_dims": Case(
            _model([helper.make_node("Concat", ["a", "b"], ["y"], axis=1, name="cat")],
                   [_in("a", ["A", 3]), _in("b", ["B", 4])], [_in("y", ["A", 7])]),
            "Concat", bad=[{"a": _rand(2, 3), "b": _rand(3, 4)}],
            good=[{"a": _rand(2, 3), "b": _rand(2, 4)}]),
        "reshape_count": Case(
            _model([helper.make_node("Reshape", ["x", "s"], ["y"], name="view")],
                   [_in("x", ["N", 6])], [_in("y", ["M", 4])],
                   [numpy_helper.from_array(np.array([-1, 4], np.int64), "s")]),
            "Reshape", bad=[{"x": _rand(1, 6)}, {"x": _rand(3, 6)}],
            good=[{"x": _rand(2, 6)}]),
        "squeeze_dim": Case(
            _model([helper.make_node("Squeeze", ["x", "axes"], ["y"], name="sq")],
                   [_in("x", [2, "K", 3])], [_in("y", [2, 3])],
                   [numpy_helper.from_array(np.array([1], np.int64), "axes")]),
            "Squeeze", bad=[{"x": _rand(2, 4, 3)}], good=[{"x": _rand(2, 1, 3)}]),
        "split_sizes": Case(
            _model([helper.make_node("Split", ["x", "s"], ["a", "b"], name="sp")],
                   [_in("x", ["N", 2])], [_in("a", ["A", 2]), _in("b", ["B", 2])],
                   [numpy_helper.from_array(np.array([1, 2], np.int64), "s")]),
            "Split", bad=[{"x": _rand(1, 2)}, {"x": _rand(5, 2)}], good=[{"x": _rand(3, 2)}]),
        "split_equal": Case(
            _model([helper.make_node("Split", ["x"], ["a", "b", "c"], num_outputs=3,
                                     name="sp")],
                   [_in("x", ["N", 2])], [_in(o, [o.upper(), 2]) for o in "abc"]),
            "Split", bad=[{"x": _rand(1, 2)}], good=[{"x": _rand(5, 2)}]),
        "pad_reflect": Case(
            _model([helper.make_node("Pad", ["x", "p"], ["y"], mode="reflect", name="pad")],
                   [_in("x", [2, "W"])], [_in("y", [2, "V"])],
                   [numpy_helper.from_array(np.array([0, 2, 0, -1], np.int64), "p")]),
            "Pad", bad=[{"x": _rand(2, 2)}, {"x": _rand(2, 0)}], good=[{"x": _rand(2, 5)}]),
        "split_runtime_sizes": Case(
            _model([helper.make_node("Split", ["x", "s"], ["a", "b"], name="sp")],
                   [_in("x", ["N", 2]), _in("s", [2], I64)],
                   [_in("a", ["A", 2]), _in("b", ["B", 2])]),
            "Split", bad=[{"x": _rand(5, 2), "s": np.array(v, np.int64)}
                          for v in ([1, 1], [-1, 6], [4, 4])],
            good=[{"x": _rand(5, 2), "s": np.array(v, np.int64)}
                  for v in ([2, 3], [0, 5], [5, 0])]),
        "reshape_runtime_shape": Case(
            _model([helper.make_node("Reshape", ["x", "s"], ["y"], name="view")],
                   [_in("x", ["N", 6]), _in("s", [2], I64)], [_in("y", ["A", "B"])]),
            "Reshape", bad=[{"x": _rand(2, 6), "s": np.array(v, np.int64)}
                            for v in ([5, 5], [-2, -6], [-1, -1], [100_000, 100_000], [0, 5])],
            good=[{"x": _rand(2, 6), "s": np.array(v, np.int64)}
                  for v in ([3, 4], [-1, 4], [0, -1])]),
        "constant_of_shape": Case(
            _model([helper.make_node("ConstantOfShape", ["s"], ["y"], name="fill")],
                   [_in("s", [2], I64)], [_in("y", ["A", "B"])]),
            "ConstantOfShape", bad=[{"s": np.array([-1, 4], np.int64)}],
            good=[{"s": np.array([3, 4], np.int64)}, {"s": np.array([0, 4], np.int64)}]),
        "expand_entries": Case(
            _model([helper.make_node("Expand", ["x", "s"], ["y"], name="grow")],
                   [_in("x", ["N", 1]), _in("s", [2], I64)], [_in("y", ["A", "B"])]),
            "Expand", bad=[{"x": _rand(3, 1), "s": np.array(v, np.int64)}
                           for v in ([5, 4], [1, -4])],
            good=[{"x": _rand(3, 1), "s": np.array(v, np.int64)} for v in ([3, 4], [1, 2])]),
    }


NAMES = ["add_rows", "matmul_inner", "gather_index", "conv_bias", "conv_window",
         "batchnorm_mean", "concat_dims", "reshape_count", "squeeze_dim", "split_sizes",
         "split_equal", "split_runtime_sizes", "pad_reflect", "reshape_runtime_shape",
         "constant_of_shape", "expand_entries"]


def test_names_cover_the_cases() -> None:
    assert sorted(NAMES) == sorted(_cases())


@pytest.fixture(scope="module")
def compiled() -> dict[str, infer.CompiledModel]:
    return {name: infer.compile(case.model) for name, case in _cases().items()}


@pytest.mark.parametrize("name", NAMES)
def test_refused_like_onnxruntime(name: str, compiled: dict[str, infer.CompiledModel]) -> None:
    case = _cases()[name]
    sess = ort.InferenceSession(case.model.SerializeToString(),
                                providers=["CPUExecutionProvider"])
    for feeds in case.bad:
        with pytest.raises(Exception):  # noqa: B017,PT011 - onnxruntime's own error types
            sess.run(None, feeds)
        with pytest.raises(ShapeError) as err:
            compiled[name].run(feeds)
        message = str(err.value)
        assert message.startswith(tuple(f"{op} node '" for op in case.op.split("|"))), message
        assert "input shapes (" in message, message
        assert isinstance(err.value, InputError) and isinstance(err.value, ValueError)


@pytest.mark.parametrize("name", NAMES)
def test_valid_inputs_still_match(name: str, compiled: dict[str, infer.CompiledModel]) -> None:
    case = _cases()[name]
    sess = ort.InferenceSession(case.model.SerializeToString(),
                                providers=["CPUExecutionProvider"])
    for feeds in case.good:
        got = compiled[name].run(feeds)
        for want, out in zip(sess.run(None, feeds), sess.get_outputs(), strict=True):
            assert got[out.name].shape == want.shape
            np.testing.assert_allclose(got[out.name], want, rtol=1e-4, atol=1e-5)


def test_messages_name_the_values(compiled: dict[str, infer.CompiledModel]) -> None:
    with pytest.raises(ShapeError, match=r"^Add node 'n': dims do not broadcast: 2 and 5 "
                                         r"\(input shapes \(2, 3\) and \(5, 3\)\)$"):
        compiled["add_rows"].run({"a": _rand(2, 3), "b": _rand(5, 3)})
    with pytest.raises(ShapeError, match=r"^MatMul.*inner dims differ: 3 and 4000000"):
        compiled["matmul_inner"].run({"a": _rand(2, 3), "b": _rand(4_000_000, 5)})
    with pytest.raises(ShapeError, match=r"^Gather.*index -101 out of range for a dim of "
                                         r"size 100 \(input shapes \(100, 3\) and \(2,\)\)$"):
        compiled["gather_index"].run({"i": np.array([3, -101], np.int64)})


def test_many_failing_runs_in_one_process(compiled: dict[str, infer.CompiledModel]) -> None:
    """Failing runs free what they allocated and leave the model usable: a few hundred of
    them, interleaved with valid runs whose results stay right."""
    add = compiled["add_rows"]
    a, b = _rand(2, 3), _rand(2, 3)
    for _ in range(20):
        for name, case in _cases().items():
            for feeds in case.bad:
                with pytest.raises(ShapeError):
                    compiled[name].run(feeds)
        np.testing.assert_array_equal(add.run({"a": a, "b": b})["y"], a + b)

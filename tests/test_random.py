"""The random ops, drawn by the compiled code from a counter-based generator: checked by
their statistics (five standard errors), shapes and types; every run draws anew, and a
seeded op repeats its sequence from one compile to the next."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper

import infer


def _model(nodes: list[onnx.NodeProto], inputs: list[tuple[str, int, list[int | str]]],
           outputs: list[tuple[str, int, list[int | str]]], opset: int = 22) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "r", [helper.make_tensor_value_info(*i) for i in inputs],
                              [helper.make_tensor_value_info(*o) for o in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    onnx.checker.check_model(model)
    return model


def _near(values: np.ndarray, mean: float, std: float) -> None:
    """The sample mean within five standard errors of `mean`, the deviation within 5%."""
    v = values.astype(np.float64).reshape(-1)
    assert abs(v.mean() - mean) < 5 * std / np.sqrt(v.size), (v.mean(), mean)
    assert abs(v.std() - std) < 0.05 * std, (v.std(), std)


def test_uniform_and_normal() -> None:
    nodes = [helper.make_node("RandomUniform", [], ["u"], shape=[50, 80], low=-2.0, high=3.0),
             helper.make_node("RandomNormal", [], ["n"], shape=[4000], mean=1.5, scale=0.5,
                              dtype=TP.DOUBLE)]
    model = _model(nodes, [], [("u", TP.FLOAT, [50, 80]), ("n", TP.DOUBLE, [4000])])
    compiled = infer.compile(model)
    first, second = compiled.run({}), compiled.run({})
    u, n = first["u"], first["n"]
    assert u.dtype == np.float32 and n.dtype == np.float64 and u.shape == (50, 80)
    assert u.min() >= -2.0 and u.max() < 3.0
    _near(u, 0.5, 5 / np.sqrt(12))
    _near(n, 1.5, 0.5)
    assert not np.array_equal(u, second["u"]) and not np.array_equal(n, second["n"])
    assert compiled.input_names == []


@pytest.mark.slow
def test_a_seed_repeats_its_sequence_across_compiles() -> None:
    node = helper.make_node("RandomUniformLike", ["x"], ["u"], seed=7.0)
    model = _model([node], [("x", TP.FLOAT, ["N", 3])], [("u", TP.FLOAT, ["N", 3])])
    x = np.zeros((4, 3), np.float32)
    a, b = infer.compile(model), infer.compile(model)
    runs_a = [a.run({"x": x})["u"] for _ in range(2)]
    runs_b = [b.run({"x": x})["u"] for _ in range(2)]
    np.testing.assert_array_equal(runs_a[0], runs_b[0])
    np.testing.assert_array_equal(runs_a[1], runs_b[1])
    assert not np.array_equal(runs_a[0], runs_a[1])
    assert a.run({"x": np.zeros((0, 3), np.float32)})["u"].shape == (0, 3)
    session = infer.InferenceSession(model.SerializeToString())
    assert [i.name for i in session.get_inputs()] == ["x"]


def test_normal_like_keeps_the_input_type() -> None:
    node = helper.make_node("RandomNormalLike", ["x"], ["n"])
    model = _model([node], [("x", TP.DOUBLE, ["N"])], [("n", TP.DOUBLE, ["N"])])
    n = infer.compile(model).run({"x": np.zeros(5000)})["n"]
    assert n.dtype == np.float64
    _near(n, 0.0, 1.0)


def test_multinomial() -> None:
    """A class of probability ~1 always drawn; four equal classes drawn equally often."""
    node = helper.make_node("Multinomial", ["logits"], ["y"], sample_size=4000)
    model = _model([node], [("logits", TP.FLOAT, [2, 4])], [("y", TP.INT32, [2, 4000])])
    logits = np.array([[0.0, -60.0, -60.0, -60.0], [1.0, 1.0, 1.0, 1.0]], np.float32)
    y = infer.compile(model).run({"logits": logits})["y"]
    assert y.dtype == np.int32 and (y[0] == 0).all()
    counts = np.bincount(y[1], minlength=4) / y.shape[1]
    assert np.abs(counts - 0.25).max() < 5 * np.sqrt(0.25 * 0.75 / y.shape[1])


def test_bernoulli() -> None:
    """1 with probability p, as the specification says."""
    node = helper.make_node("Bernoulli", ["p"], ["y"])
    model = _model([node], [("p", TP.FLOAT, [3, 2000])], [("y", TP.FLOAT, [3, 2000])])
    p = np.repeat(np.array([[0.0], [1.0], [0.3]], np.float32), 2000, axis=1)
    y = infer.compile(model).run({"p": p})["y"]
    assert set(np.unique(y)) <= {0.0, 1.0}
    assert (y[0] == 0).all() and (y[1] == 1).all()
    assert abs(y[2].mean() - 0.3) < 5 * np.sqrt(0.3 * 0.7 / 2000)


@pytest.mark.parametrize("training", [True, False])
def test_dropout_in_training_mode(training: bool) -> None:
    """y = mask * x / (1 - ratio), about `ratio` of the mask false; outside training, x
    and a mask all true."""
    node = helper.make_node("Dropout", ["x", "ratio", "training"], ["y", "mask"])
    model = _model([node], [("x", TP.FLOAT, [40, 100]), ("ratio", TP.FLOAT, []),
                            ("training", TP.BOOL, [])],
                   [("y", TP.FLOAT, [40, 100]), ("mask", TP.BOOL, [40, 100])])
    x = np.random.default_rng(0).standard_normal((40, 100)).astype(np.float32)
    out = infer.compile(model).run({"x": x, "ratio": np.array(0.3, np.float32),
                                    "training": np.array(training)})
    if not training:
        np.testing.assert_array_equal(out["y"], x)
        assert out["mask"].all()
        return
    np.testing.assert_allclose(out["y"], out["mask"] * x / np.float32(0.7), rtol=1e-6)
    dropped = 1 - out["mask"].mean()
    assert abs(dropped - 0.3) < 5 * np.sqrt(0.3 * 0.7 / x.size)

"""Weights held as f16 (`infer.compile(..., weights="f16")`): half the memory, the same
f32 arithmetic on the f16-rounded weights, so onnxruntime running the model with its
weights rounded to f16 is the reference."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer.model_zoo import dummy_inputs, light_model_path, with_random_weights
from infer.runtime import artifact

from .helpers import make_model, run_onnxruntime

RNG = np.random.default_rng(7)


def _w(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _net() -> onnx.ModelProto:
    """Conv + ReLU, depthwise and grouped convs, then a Gemm and a batched MatMul head:
    every kernel that reads an f16 weight, at levels 2 and 3."""
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1], group=16),
        helper.make_node("Conv", ["c2", "w3"], ["c3"], group=4),
        helper.make_node("GlobalAveragePool", ["c3"], ["p"]),
        helper.make_node("Flatten", ["p"], ["f"]),
        helper.make_node("Gemm", ["f", "w4", "b4"], ["g"], transB=1),
        helper.make_node("Reshape", ["g", "shape"], ["g3"]),
        helper.make_node("MatMul", ["g3", "w5"], ["y"]),
    ]
    inits = {"w1": _w(16, 3, 3, 3), "b1": _w(16), "w2": _w(16, 1, 3, 3), "w3": _w(24, 4, 1, 1),
             "w4": _w(40, 24), "b4": _w(40), "shape": np.array([-1, 4, 10], np.int64),
             "w5": _w(10, 12)}
    return make_model(nodes, [("x", TP.FLOAT, ["n", 3, 12, 12])], [("y", TP.FLOAT, ["n", 4, 12])],
                      [numpy_helper.from_array(v, k) for k, v in inits.items()])


def _rounded(model: onnx.ModelProto) -> onnx.ModelProto:
    """`model` with the weights of its convs and matmuls (their input 1) rounded to f16
    and kept f32; biases stay as they are."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    weights = {n.input[1] for n in out.graph.node if n.op_type in ("Conv", "MatMul", "Gemm")}
    for i, t in enumerate(out.graph.initializer):
        if t.data_type == TP.FLOAT and t.name in weights:
            a = numpy_helper.to_array(t).astype(np.float16).astype(np.float32)
            out.graph.initializer[i].CopyFrom(numpy_helper.from_array(a, t.name))
    return out


def _weight_bytes(compiled: infer.CompiledModel) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for w in compiled.compiled.code.weights.values():
        sizes[w.dtype.name] = sizes.get(w.dtype.name, 0) + w.nbytes
    return sizes


@pytest.mark.slow
@pytest.mark.parametrize("level", [2, 3])
def test_f16_weights_compute_in_f32_on_the_rounded_weights(level: int) -> None:
    model = _net()
    half = infer.compile(model, opt_level=level, weights="f16")
    full = infer.compile(model, opt_level=level)
    sizes, full_sizes = _weight_bytes(half), _weight_bytes(full)
    # The convs' and matmuls' weights are f16; biases and shapes stay as they were.
    assert sizes.get("float16", 0) >= 0.9 * full_sizes["float32"] / 2
    assert sum(sizes.values()) < 0.6 * sum(full_sizes.values())
    reference = _rounded(model)
    for n in (1, 3):
        feeds = {"x": RNG.standard_normal((n, 3, 12, 12)).astype(np.float32)}
        (expected,) = run_onnxruntime(reference, feeds)
        got = half.run(feeds)["y"]
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
        # ...and not the f32 model's answer: the weights really are the rounded ones.
        assert not np.array_equal(got, full.run(feeds)["y"])


@pytest.mark.slow
def test_a_light_model_with_f16_weights() -> None:
    model = with_random_weights(onnx.load(light_model_path("squeezenet")), seed=3)
    half = infer.compile(model, weights="f16")
    assert set(_weight_bytes(half)) == {"float16", "float32"}
    feeds = dummy_inputs(model)
    (expected,) = run_onnxruntime(_rounded(model), feeds)
    np.testing.assert_allclose(next(iter(half.run(feeds).values())), expected,
                               rtol=1e-3, atol=1e-4 * np.abs(expected).max())


def test_weights_beyond_f16_stay_f32() -> None:
    w = _w(4, 3) * 1e5  # past f16's 65504
    model = make_model([helper.make_node("MatMul", ["x", "w"], ["y"])],
                       [("x", TP.FLOAT, [2, 4])], [("y", TP.FLOAT, [2, 3])],
                       [numpy_helper.from_array(w, "w")])
    half = infer.compile(model, weights="f16")
    assert "float16" not in _weight_bytes(half)
    feeds = {"x": _w(2, 4)}
    np.testing.assert_allclose(half.run(feeds)["y"], run_onnxruntime(model, feeds)[0],
                               rtol=1e-5)


@pytest.mark.slow
def test_an_f16_compiled_model_saves_and_loads_its_f16_weights(tmp_path: Path) -> None:
    model = _net()
    half, full = tmp_path / "half.infer", tmp_path / "full.infer"
    compiled = infer.compile(model, weights="f16")
    compiled.save(half)
    infer.compile(model).save(full)
    sections = [artifact.read_sections(p.read_bytes()) for p in (half, full)]
    assert len(sections[0]["weights"]) < 0.6 * len(sections[1]["weights"])
    # held and stored as f16, not widened on load
    assert b'"float16","float16"' in sections[0]["weight_index"]
    loaded = infer.load(half)
    assert {w.dtype.name for w in loaded.native.weights().values()} >= {"float16"}
    feeds = {"x": RNG.standard_normal((2, 3, 12, 12)).astype(np.float32)}
    np.testing.assert_array_equal(loaded.run(feeds)["y"], compiled.run(feeds)["y"])


@pytest.mark.slow
def test_f16_weights_are_their_own_cache_entry(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INFER_CACHE_DIR", str(tmp_path))
    model = _net()
    feeds = {"x": RNG.standard_normal((1, 3, 12, 12)).astype(np.float32)}
    full = infer.compile(model).run(feeds)["y"]
    half = infer.compile(model, weights="f16").run(feeds)["y"]
    assert len(list(tmp_path.rglob("*.infer"))) == 2
    np.testing.assert_array_equal(infer.compile(model, weights="f16").run(feeds)["y"], half)
    assert not np.array_equal(full, half)


def test_unknown_weight_storage_is_refused() -> None:
    with pytest.raises(ValueError, match="weights must be one of f32, f16, not 'bf16'"):
        infer.compile(_net(), weights="bf16")

"""`infer.InferenceSession` against onnxruntime's: the same script runs on both and sees the
same names, shapes (dim names included), types, metadata, providers, outputs, profile files
and exceptions; then what the session options do in infer."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer

from .helpers import make_model


def _declared(name: str, dims: list[int | str | None]) -> onnx.ValueInfoProto:
    """A float tensor whose dims are written as given: int as dim_value (negative too), str
    as dim_param ("" and "?" too), None as neither."""
    v = helper.make_tensor_value_info(name, TP.FLOAT, None)
    for d in dims:
        dim = v.type.tensor_type.shape.dim.add()
        if isinstance(d, int):
            dim.dim_value = d
        elif d is not None:
            dim.dim_param = d
    return v


@pytest.fixture(scope="module")
def model() -> onnx.ModelProto:
    """y = relu(x) + b and z = -c, with every kind of dim and some metadata."""
    nodes = [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Add", ["r", "b"], ["y"]),
             helper.make_node("Neg", ["c"], ["z"])]
    x, c = ["batch", 3, "?", "?"], ["", -1, None]
    graph = helper.make_graph(nodes, "session_graph",
                              [_declared("x", x), _declared("b", ["?"]), _declared("c", c)],
                              [_declared("y", x), _declared("z", c)], doc_string="the graph")
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                          producer_name="tests", doc_string="a test model", domain="infer.test")
    m.ir_version = 8
    helper.set_model_props(m, {"author": "infer", "purpose": "session"})
    return m


def _feeds(x: tuple[int, ...], b: int, c: tuple[int, ...]) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(sum(x) + b)
    return {"x": rng.standard_normal(x, np.float32), "b": rng.standard_normal(b, np.float32),
            "c": rng.standard_normal(c, np.float32)}


FEEDS_A = ((2, 3, 4, 5), 5, (2, 3, 4))
FEEDS_B = ((1, 3, 6, 2), 1, (1, 1, 7))  # each "?" its own size, b broadcast


def _script(ns, model: onnx.ModelProto, tmp_path: Path, monkeypatch) -> dict[str, object]:
    """What a user of onnxruntime's API does and sees; `ns` is `onnxruntime` or `infer`."""
    monkeypatch.chdir(tmp_path)
    so = ns.SessionOptions()
    so.enable_profiling = True
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sess = ns.InferenceSession(model.SerializeToString(), so,
                                   providers=["CUDAExecutionProvider", "CPUExecutionProvider"])
    seen: dict[str, object] = {
        "warned about CUDA": any("CUDAExecutionProvider" in str(w.message) for w in caught),
        "inputs": [(i.name, i.shape, i.type) for i in sess.get_inputs()],
        "outputs": [(o.name, o.shape, o.type) for o in sess.get_outputs()],
        "providers": sess.get_providers(),
        "provider options": sess.get_provider_options(),
        "overridable": sess.get_overridable_initializers(),
        "options": sess.get_session_options().enable_profiling,
    }
    meta = sess.get_modelmeta()
    seen["meta"] = (meta.producer_name, meta.graph_name, meta.domain, meta.description,
                    meta.graph_description, meta.version, meta.custom_metadata_map)
    seen["all"] = sess.run(None, _feeds(*FEEDS_A), None)  # run_options positionally
    seen["some"] = sess.run(["z", "y"], _feeds(*FEEDS_B))
    seen["empty list"] = sess.run([], _feeds(*FEEDS_B))
    profile = sess.end_profiling()
    seen["profile name"] = re.fullmatch(
        r"onnxruntime_profile__\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_\d{3}\.json", profile) is not None
    events = json.loads((tmp_path / profile).read_text())
    seen["profiled runs"] = sum(e["name"] == "model_run" for e in events)
    seen["profile events"] = {k for e in events for k in e} >= {"cat", "name", "dur", "ts", "ph"}
    return seen


def test_same_script_same_results(model, tmp_path, monkeypatch) -> None:
    (tmp_path / "ort").mkdir()
    (tmp_path / "infer").mkdir()
    theirs = _script(ort, model, tmp_path / "ort", monkeypatch)
    ours = _script(infer, model, tmp_path / "infer", monkeypatch)
    assert ours["inputs"][0] == ("x", ["batch", 3, "?", "?"], "tensor(float)")
    assert ours["outputs"][1] == ("z", [None, None, None], "tensor(float)")
    for key in theirs:
        if key in ("all", "some", "empty list"):
            assert len(ours[key]) == len(theirs[key]), key
            for a, b in zip(ours[key], theirs[key], strict=True):
                assert a.shape == b.shape and a.dtype == b.dtype, key
                np.testing.assert_allclose(a, b, rtol=1e-6, err_msg=key)
        else:
            assert ours[key] == theirs[key], key


BAD_CALLS = {
    # name: (call, what both raise, what infer raises, infer's message)
    "output_names a str": (lambda s, f: s.run("y", f), TypeError, TypeError,
                           "output_names must be a list of output names or None, got str 'y'"),
    "feeds a list": (lambda s, f: s.run(None, list(f.values())), Exception, TypeError,
                     "input_feed must be a dict of input name to array, got list"),
    "unknown output": (lambda s, f: s.run(["w"], f), Exception, infer.InputError,
                       "unknown output name 'w'; the model's outputs are 'y', 'z'"),
    "missing input": (lambda s, f: s.run(None, {"x": f["x"], "c": f["c"]}), ValueError,
                      infer.InputError, "missing input 'b'"),
    "wrong dtype": (lambda s, f: s.run(None, {**f, "x": f["x"].astype(np.float64)}),
                    Exception, infer.InputError,
                    "input 'x': expected dtype float32, got float64"),
    "wrong rank": (lambda s, f: s.run(None, {**f, "x": f["x"][0]}), Exception,
                   infer.InputError, "input 'x': expected rank 4"),
    "wrong static dim": (lambda s, f: s.run(None, {**f, "x": f["x"][:, :2]}), Exception,
                         infer.InputError, "input 'x': dim 1 must be 3"),
}


@pytest.fixture(scope="module")
def sessions(model):
    return {"onnxruntime": ort.InferenceSession(model.SerializeToString(),
                                                providers=["CPUExecutionProvider"]),
            "infer": infer.InferenceSession(model.SerializeToString())}


@pytest.mark.parametrize("case", sorted(BAD_CALLS))
def test_bad_calls_raise_in_both(sessions, case) -> None:
    call, common, ours, message = BAD_CALLS[case]
    feeds = _feeds(*FEEDS_A)
    with pytest.raises(common):
        call(sessions["onnxruntime"], feeds)
    with pytest.raises(ours) as info:
        call(sessions["infer"], feeds)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_keyword_and_option_errors(model) -> None:
    data = model.SerializeToString()
    with pytest.raises(TypeError, match="unexpected keyword argument 'sess_option'"):
        infer.InferenceSession(data, sess_option=None)
    with pytest.raises(TypeError, match="sess_options must be an infer.SessionOptions or an "
                                        "onnxruntime.SessionOptions, got dict"):
        infer.InferenceSession(data, {"graph_optimization_level": 1})
    with pytest.raises(AttributeError):
        infer.SessionOptions().enable_profilng = True  # a typo is not silently kept
    so = infer.SessionOptions()
    so.graph_optimization_level = 7
    with pytest.raises(ValueError, match="graph_optimization_level must be one of"):
        infer.InferenceSession(data, so)
    with pytest.raises(ValueError, match="'providers' values must be either strings or"):
        infer.InferenceSession(data, providers=[1])


def test_warnings_for_what_infer_does_not_do(model) -> None:
    data = model.SerializeToString()
    so = ort.SessionOptions()  # onnxruntime's own options object is accepted
    so.intra_op_num_threads = 4
    so.enable_mem_pattern = False
    with pytest.warns(UserWarning) as caught:
        sess = infer.InferenceSession(data, so, providers=[("CPUExecutionProvider", {"a": 1})])
    messages = sorted(str(w.message) for w in caught)
    assert messages == ["SessionOptions.enable_mem_pattern has no effect in infer"]
    assert sess.get_provider_options() == {"CPUExecutionProvider": {"a": "1"}}
    assert sess._model.threads == 4  # honoured, not warned about
    so = infer.SessionOptions()
    so.intra_op_num_threads = 1
    so.log_severity_level = 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        infer.InferenceSession(data, so)


def _conv_model() -> onnx.ModelProto:
    w = numpy_helper.from_array(np.full((16, 16, 3, 3), 0.01, np.float32), "w")
    nodes = [helper.make_node("Identity", ["x"], ["i"]),
             helper.make_node("Conv", ["i", "w"], ["y"], pads=[1, 1, 1, 1])]
    return make_model(nodes, [("x", TP.FLOAT, [1, 16, 5, 5])], [("y", TP.FLOAT, [1, 16, 5, 5])],
                      [w])


@pytest.mark.parametrize("ns, level, identity, blocked", [
    (ort, ort.GraphOptimizationLevel.ORT_DISABLE_ALL, True, False),
    (infer, infer.GraphOptimizationLevel.ORT_ENABLE_BASIC, False, False),
    (infer, 2, False, False),
    (ort, None, False, True),  # the default: onnxruntime's ORT_ENABLE_ALL, infer's level 3
])
def test_optimization_level_and_optimized_model_file(
    tmp_path, ns, level, identity, blocked
) -> None:
    """Each onnxruntime level maps to infer's; the optimized graph is written as IR text."""
    model = _conv_model()
    so = ns.SessionOptions()
    if level is not None:
        so.graph_optimization_level = level
    path = tmp_path / "optimized.mlir"
    so.optimized_model_filepath = str(path)
    sess = infer.InferenceSession(model.SerializeToString(), so)
    text = path.read_text()
    assert text.startswith("builtin.module") and "func.func @main" in text
    assert ("graph.identity" in text) == identity
    assert ("graph.conv_nchwc" in text) == blocked
    assert "elided<" in text  # the weight, as infer-opt prints it
    x = np.random.default_rng(1).standard_normal((1, 16, 5, 5)).astype(np.float32)
    ref = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(sess.run(None, {"x": x})[0], ref.run(None, {"x": x})[0],
                               rtol=1e-4, atol=1e-5)


def test_profile_has_compile_stages_and_runs(model, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    so = infer.SessionOptions()
    so.enable_profiling = True
    so.profile_file_prefix = "mine"
    sess = infer.InferenceSession(model.SerializeToString(), so)
    assert sess.get_profiling_start_time_ns() > 0
    for _ in range(3):
        sess.run(None, _feeds(*FEEDS_B))
    path = sess.end_profiling()
    assert path.startswith("mine_") and sess.end_profiling() == ""
    events = json.loads(Path(path).read_text())
    assert [e["name"] for e in events] == [
        "model_loading_array", "session_initialization", "graph_optimize", "lower_to_loops",
        "lower_to_llvm", "llvm_optimize_and_jit", "model_run", "model_run", "model_run"]
    init, stages = events[1], events[2:6]
    assert init["dur"] >= sum(e["dur"] for e in stages) - len(stages)
    assert all(e["ph"] == "X" and e["cat"] == "Session" for e in events)
    assert infer.InferenceSession(model.SerializeToString()).end_profiling() == ""


def _listed_outputs(case: str) -> onnx.ModelProto:
    """A graph listing `y` several times (also consumed by a node), the input `x` as an
    output, or a sequence twice."""
    seq = helper.make_tensor_sequence_value_info("s", TP.FLOAT, None)
    relu, neg = helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Neg", ["y"], ["z"])
    nodes, outputs = {
        "tensor listed thrice": ([relu, neg], ["y", "y", "z", "y"]),
        "input as output": ([relu], ["x", "y", "x"]),
        "sequence listed twice": ([relu, helper.make_node("SequenceConstruct", ["x", "y"],
                                                          ["s"])], [seq, "y", seq]),
    }[case]
    graph = helper.make_graph(
        nodes, "listed", [helper.make_tensor_value_info("x", TP.FLOAT, [2, 3])],
        [o if isinstance(o, onnx.ValueInfoProto)
         else helper.make_tensor_value_info(o, TP.FLOAT, [2, 3]) for o in outputs])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


@pytest.mark.parametrize("case", ["tensor listed thrice", "input as output",
                                  "sequence listed twice"])
def test_every_listed_output_in_order(case: str) -> None:
    """Each graph output as often and where the graph lists it, as onnxruntime returns
    them, from the session and from the ONNX backend."""
    m = _listed_outputs(case)
    x = np.random.default_rng(0).standard_normal((2, 3), np.float32)
    theirs = ort.InferenceSession(m.SerializeToString())
    expected = theirs.run(None, {"x": x})
    ours = infer.InferenceSession(m)
    assert ([o.name for o in ours.get_outputs()]
            == [o.name for o in theirs.get_outputs()])
    names = [o.name for o in theirs.get_outputs()]
    compiled = infer.compile(m)  # its `run` returns a dict: each name once
    assert compiled.output_names == names
    by_name = compiled.run({"x": x})
    for got in (ours.run(None, {"x": x}), ours.run(names, {"x": x}),
                infer.backend.prepare(m).run([x]), [by_name[n] for n in names]):
        assert len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            np.testing.assert_array_equal(np.asarray(g), np.asarray(e))

"""Threads: models whose kernels run on infer's thread pool give onnxruntime's answers, and
the same bits at any thread count (every output element is computed by one thread, in the
same order); one compiled model serves several Python threads at once; the thread count
is set through the API, the session options and artifacts, and changes no code."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer.codegen.host_features import physical_cores
from infer.runtime.threads import resolve_threads

from .helpers import concurrent_run_errors, make_model, run_onnxruntime

R = np.random.default_rng(7)


def _init(name: str, *shape: int, scale: float = 0.1) -> onnx.TensorProto:
    return numpy_helper.from_array((R.standard_normal(shape) * scale).astype(np.float32), name)


def _cnn() -> onnx.ModelProto:
    """Conv (blocked at level 3) + bias + relu, max pool, a grouped conv (NCHW kernel),
    average pool, global average pool, flatten, gemm, softmax."""
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[3, 3], strides=[2, 2],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["p1", "w2"], ["c2"], pads=[1, 1, 1, 1], group=4),
        helper.make_node("AveragePool", ["c2"], ["p2"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("GlobalAveragePool", ["p2"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["logits"], transB=1),
        helper.make_node("Softmax", ["logits"], ["y"], axis=1),
    ]
    inits = [_init("w1", 32, 3, 3, 3), _init("b1", 32), _init("w2", 36, 8, 3, 3),
             _init("wf", 100, 36), _init("bf", 100)]
    return make_model(nodes, [("x", TP.FLOAT, ["N", 3, 64, 64])], [("y", TP.FLOAT, ["N", 100])],
                      inits)


def _matmul() -> onnx.ModelProto:
    """MatMul with constant weights (the packed GEMM at level 3, N not a whole number of
    panels) + Add + Gelu-free activation, then a MatMul of two inputs (no packing)."""
    nodes = [helper.make_node("MatMul", ["a", "w"], ["m"]),
             helper.make_node("Add", ["m", "b"], ["s"]),
             helper.make_node("Tanh", ["s"], ["t"]),
             helper.make_node("MatMul", ["t", "v"], ["y"])]
    return make_model(nodes, [("a", TP.FLOAT, ["B", 96, 200]), ("v", TP.FLOAT, ["B", 301, 40])],
                      [("y", TP.FLOAT, ["B", 96, 40])], [_init("w", 200, 301), _init("b", 301)])


def _reductions() -> onnx.ModelProto:
    nodes = [helper.make_node("ReduceMean", ["x"], ["m"], axes=[-1], keepdims=1),
             helper.make_node("Sub", ["x", "m"], ["d"]),
             helper.make_node("ReduceSumSquare", ["d"], ["s"], axes=[2, 3], keepdims=0),
             helper.make_node("ReduceMax", ["x"], ["mx"], axes=[1], keepdims=0),
             helper.make_node("Softmax", ["x"], ["sm"], axis=2)]
    return make_model(nodes, [("x", TP.FLOAT, [2, 48, 64, 96])],
                      [("s", TP.FLOAT, [2, 48]), ("mx", TP.FLOAT, [2, 64, 96]),
                       ("sm", TP.FLOAT, [2, 48, 64, 96])],
                      opset=13)


def _attention() -> onnx.ModelProto:
    """Scaled dot-product attention as the graph optimizer fuses it (graph.attention)."""
    nodes = [helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]),
             helper.make_node("MatMul", ["q", "kt"], ["qk"]),
             helper.make_node("Mul", ["qk", "scale"], ["s"]),
             helper.make_node("Add", ["s", "mask"], ["sm"]),
             helper.make_node("Softmax", ["sm"], ["p"], axis=-1),
             helper.make_node("MatMul", ["p", "v"], ["y"])]
    shape = [1, 4, "S", 32]
    scale = numpy_helper.from_array(np.array(32 ** -0.5, np.float32), "scale")
    return make_model(nodes, [("q", TP.FLOAT, shape), ("k", TP.FLOAT, shape),
                              ("v", TP.FLOAT, shape), ("mask", TP.FLOAT, ["S", "S"])],
                      [("y", TP.FLOAT, shape)], [scale])


def _feeds(model: onnx.ModelProto, dims: dict[str, int]) -> dict[str, np.ndarray]:
    out = {}
    for i in model.graph.input:
        shape = [d.dim_value or dims[d.dim_param] for d in i.type.tensor_type.shape.dim]
        out[i.name] = R.standard_normal(shape).astype(np.float32)
    return out


MODELS: dict[str, tuple[Callable[[], onnx.ModelProto], dict[str, int]]] = {
    "cnn": (_cnn, {"N": 2}),
    "matmul": (_matmul, {"B": 3}),
    "reductions": (_reductions, {}),
    "attention": (_attention, {"S": 77}),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("level", [2, 3])
def test_two_threads_match_onnxruntime_and_one_thread(name: str, level: int) -> None:
    make, dims = MODELS[name]
    model = make()
    feeds = _feeds(model, dims)
    compiled = infer.compile(model, opt_level=level, threads=2)
    assert compiled.threads == 2 and compiled.native.parallel
    two = compiled.run(feeds)
    for (out, ours), theirs in zip(two.items(), run_onnxruntime(model, feeds), strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5, err_msg=out)
    for threads in (1, 3):
        compiled.threads = threads
        for out, values in compiled.run(feeds).items():
            np.testing.assert_array_equal(values, two[out], err_msg=f"{out} at {threads}")


@pytest.mark.slow
def test_light_model_at_two_threads() -> None:
    """A model-zoo CNN with seeded random weights: onnxruntime's outputs at 2 threads."""
    from infer.model_zoo import dummy_inputs, light_model_path, with_random_weights

    model = with_random_weights(onnx.load(light_model_path("squeezenet")))
    feeds = dummy_inputs(model)
    compiled = infer.compile(model, threads=2)
    (ours,) = compiled.run(feeds).values()
    (theirs,) = run_onnxruntime(model, feeds)
    np.testing.assert_allclose(ours, theirs, rtol=1e-3, atol=1e-5)
    compiled.threads = 1
    np.testing.assert_array_equal(next(iter(compiled.run(feeds).values())), ours)


def test_one_model_from_four_python_threads() -> None:
    """Concurrent runs share no scratch memory: each of 4 Python threads gets, run after
    run, the results of its own inputs, as one thread alone computed them."""
    model = _attention()  # scratch rows, a parallel loop per op
    compiled = infer.compile(model, threads=2)
    feeds = [_feeds(model, {"S": 40 + 9 * i}) for i in range(4)]
    errors = concurrent_run_errors(compiled, feeds, rounds=15)
    assert not errors, errors


def test_native_code_runs_without_the_gil() -> None:
    """While a run is in native code, other Python threads run (the entry is called
    through ctypes' CFUNCTYPE, which releases the GIL)."""
    model = make_model([helper.make_node("MatMul", ["a", "b"], ["y"])],
                       [("a", TP.FLOAT, [512, 512]), ("b", TP.FLOAT, [512, 512])],
                       [("y", TP.FLOAT, [512, 512])])
    compiled = infer.compile(model, opt_level=1, threads=1)  # the naive kernel: slow
    feeds = {"a": np.ones((512, 512), np.float32), "b": np.ones((512, 512), np.float32)}
    compiled.run(feeds)
    started, done = threading.Event(), threading.Event()

    def run() -> None:
        started.set()
        for _ in range(3):
            compiled.run(feeds)
        done.set()

    worker = threading.Thread(target=run)
    worker.start()
    started.wait()
    count = 0
    while not done.is_set():
        count += 1
    worker.join()
    assert count > 100_000  # with the GIL held throughout, a few hundred at most


@pytest.mark.slow
def test_thread_count_api(tmp_path: Path) -> None:
    model = _cnn()
    feeds = _feeds(model, {"N": 1})
    default = infer.compile(model)
    assert default.threads == physical_cores() == resolve_threads(0)
    expected = default.run(feeds)["y"]
    with pytest.raises(ValueError, match="threads must be"):
        infer.compile(model, threads=-1)
    with pytest.raises(ValueError, match="threads must be"):
        default.threads = -2
    default.threads = 3
    assert default.threads == 3 and default.native.threads == 3
    default.threads = None  # back to the default
    assert default.threads == physical_cores()
    # an artifact runs at the count it is loaded with
    path = tmp_path / "m.infer"
    default.save(path)
    loaded = infer.load(path, threads=2)
    assert loaded.threads == 2
    np.testing.assert_array_equal(loaded.run(feeds)["y"], expected)
    # the session: intra_op_num_threads (0: the default), or infer's own keyword
    so = infer.SessionOptions()
    so.intra_op_num_threads = 2
    assert infer.InferenceSession(model.SerializeToString(), so)._model.threads == 2
    sess = infer.InferenceSession(str(path), so, threads=1)
    assert sess._model.threads == 1
    np.testing.assert_array_equal(sess.run(None, feeds)[0], expected)
    so.intra_op_num_threads = 0
    assert infer.InferenceSession(str(path), so)._model.threads == physical_cores()


def test_thread_count_is_not_in_the_cache_key(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from infer import api

    monkeypatch.setenv("INFER_CACHE_DIR", str(tmp_path / "cache"))
    model = _matmul()
    infer.compile(model, threads=1)

    def refuse(*args: object, **kwargs: object) -> None:
        pytest.fail("compiled again for another thread count")

    monkeypatch.setattr(api, "compile_timed", refuse)
    assert infer.compile(model, threads=2).threads == 2
    assert len(list((tmp_path / "cache").glob("*.infer"))) == 1


def test_code_without_parallel_loops_needs_no_thread_count() -> None:
    model = make_model([helper.make_node("Relu", ["x"], ["y"])], [("x", TP.FLOAT, [4])],
                       [("y", TP.FLOAT, [4])])
    compiled = infer.compile(model, threads=4)
    assert not compiled.native.parallel
    assert compiled.threads == 4  # kept, though nothing reads it
    np.testing.assert_array_equal(compiled.run({"x": np.arange(-2, 2, dtype=np.float32)})["y"],
                                  [0, 0, 0, 1])


_TEAM_CHILD = """
import os, sys, numpy as np, onnx, infer
model = onnx.load(sys.argv[1])
compiled = infer.compile(model, threads=1)
feeds = {"x": np.ones((1, 3, 64, 64), np.float32)}
before = len(os.listdir("/proc/self/task"))
compiled.run(feeds)
one = len(os.listdir("/proc/self/task"))
compiled.threads = 2
compiled.run(feeds)
print(before, one, len(os.listdir("/proc/self/task")))
"""


@pytest.mark.slow
def test_one_thread_starts_no_team(tmp_path: Path) -> None:
    """At one thread the outlined loops are called directly: the pool starts no thread
    (in a process of its own, where no loop ran on it before); at two it starts one."""
    path = tmp_path / "cnn.onnx"
    onnx.save(_cnn(), path)
    out = subprocess.run([sys.executable, "-c", _TEAM_CHILD, str(path)], capture_output=True,
                         text=True, check=True, env={**os.environ, "INFER_CACHE_DIR": ""}).stdout
    before, one, two = (int(v) for v in out.split())
    assert one == before and two == before + 1


def _int8_net() -> onnx.ModelProto:
    """A 3x3 conv read in place, a 1x1 conv (packed windows) and a MatMul, each large
    enough to run on several threads, statically quantized by onnxruntime."""
    from onnxruntime.quantization import QuantFormat

    from .quantized_models import _model, _weights, quantized

    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2"], ["c2"]),
             helper.make_node("Reshape", ["c2", "shape"], ["f"]),
             helper.make_node("MatMul", ["f", "w3"], ["y"])]
    shape = numpy_helper.from_array(np.array([1, 96, 28 * 28], np.int64), "shape")
    return quantized(_model(nodes, [1, 32, 28, 28],
                            [*_weights(5, w1=(64, 32, 3, 3), b1=(64,), w2=(96, 64, 1, 1),
                                       w3=(28 * 28, 128)), shape]),
                     QuantFormat.QOperator, per_channel=True)


@pytest.mark.slow
def test_int8_kernels_run_on_threads() -> None:
    """The int8 conv (in place and packed) and matmul kernels' loops run on the pool: the
    same bits at 1, 2 and 3 threads, and regions in a profiled run."""
    from infer.codegen.thread_pool import profiled_regions

    model = _int8_net()
    assert {"QLinearConv", "QLinearMatMul"} <= {n.op_type for n in model.graph.node}
    compiled = infer.compile(model, threads=2)
    feeds = {"x": R.standard_normal((1, 32, 28, 28)).astype(np.float32)}
    two = compiled.run(feeds)["y"]
    for threads in (1, 3):
        compiled.threads = threads
        np.testing.assert_array_equal(compiled.run(feeds)["y"], two)
    compiled.threads = 2
    with profiled_regions() as regions:
        compiled.run(feeds)
    assert len(regions) >= 3, regions

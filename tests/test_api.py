"""The public API: compile/run, InferenceSession, input checks, the ONNX backend."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

import infer

from .helpers import make_model, run_onnxruntime


@pytest.fixture(scope="module")
def add_model():
    node = helper.make_node("Add", ["a", "b"], ["y"])
    return make_model(
        [node],
        [("a", TensorProto.FLOAT, ["N", 4]), ("b", TensorProto.FLOAT, ["N", 4])],
        [("y", TensorProto.FLOAT, ["N", 4])],
    )


@pytest.fixture(scope="module")
def compiled(add_model):
    return infer.compile(add_model)


def test_run_dynamic_batch(compiled) -> None:
    for n in (1, 3, 17):
        a = np.arange(4 * n, dtype=np.float32).reshape(n, 4)
        out = compiled.run({"a": a, "b": 2 * a})
        np.testing.assert_array_equal(out["y"], 3 * a)


def test_session_matches_onnxruntime(add_model) -> None:
    sess = infer.InferenceSession(add_model.SerializeToString())
    assert [i.name for i in sess.get_inputs()] == ["a", "b"]
    assert sess.get_inputs()[0].shape == ["N", 4]
    feeds = {"a": np.ones((2, 4), np.float32), "b": np.full((2, 4), 0.5, np.float32)}
    (ours,) = sess.run(None, feeds)
    (theirs,) = run_onnxruntime(add_model, feeds)
    np.testing.assert_array_equal(ours, theirs)
    assert sess.run(["y"], feeds)[0].shape == (2, 4)


@pytest.mark.parametrize(
    "feeds, message",
    [
        ({"a": np.ones((2, 4), np.float32)}, "missing input 'b'"),
        ({"a": np.ones((2, 4), np.float64), "b": np.ones((2, 4), np.float32)},
         "input 'a': expected dtype float32, got float64"),
        ({"a": np.ones((2, 5), np.float32), "b": np.ones((2, 5), np.float32)},
         "input 'a': dim 1 must be 4"),
        ({"a": np.ones((2, 4, 1), np.float32), "b": np.ones((2, 4), np.float32)},
         "input 'a': expected rank 2"),
        ({"a": np.ones((2, 4), np.float32), "b": np.ones((3, 4), np.float32)},
         "dim 'N' is 2 in input 'a' but 3 in input 'b'"),
        ({"a": np.ones((2, 4), np.float32), "b": np.ones((2, 4), np.float32), "c": 1},
         "unknown input name 'c'"),
    ],
)
def test_input_errors(compiled, feeds, message) -> None:
    with pytest.raises(infer.InputError, match=message):
        compiled.run(feeds)


def test_non_contiguous_input(compiled) -> None:
    a = np.arange(32, dtype=np.float32).reshape(4, 8)[:, ::2]
    out = compiled.run({"a": a, "b": a})
    np.testing.assert_array_equal(out["y"], 2 * a)


def test_backend_runs_node_and_model(add_model) -> None:
    import infer.backend as backend

    assert backend.supports_device("CPU")
    assert not backend.supports_device("CUDA")
    a = np.ones((3, 4), np.float32)
    (y,) = backend.run_model(add_model, [a, a])
    np.testing.assert_array_equal(y, 2 * a)
    node = helper.make_node("Relu", ["x"], ["y"])
    x = np.array([[-1.0, 2.0]], np.float32)
    (y,) = backend.run_node(node, [x])
    np.testing.assert_array_equal(y, np.maximum(x, 0))
    assert backend.is_compatible(add_model)
    bad = helper.make_node("ImageDecoder", ["x"], ["y"])
    assert not backend.is_compatible(make_model(
        [bad], [("x", TensorProto.UINT8, [20])], [("y", TensorProto.UINT8, [2, 2, 3])], opset=20
    ))
    assert not backend.is_compatible(add_model, "CUDA")
    # LayerNormalization is in the importer's table from opset 17 only.
    ln = make_model([helper.make_node("LayerNormalization", ["x", "s"], ["y"])],
                    [("x", TensorProto.FLOAT, [2, 4]), ("s", TensorProto.FLOAT, [4])],
                    [("y", TensorProto.FLOAT, [2, 4])], opset=17)
    assert infer.supported_ops()["LayerNormalization"][0] == 17
    assert backend.is_compatible(ln)
    ln.opset_import[0].version = 16
    assert not backend.is_compatible(ln)


def test_optimization_report() -> None:
    """Op counts by type before and after the graph stage; str() is infer-run's table."""
    nodes = [helper.make_node("Identity", ["x"], ["i"]), helper.make_node("Relu", ["i"], ["y"])]
    f = TensorProto.FLOAT
    model = make_model(nodes, [("x", f, [2, 3])], [("y", f, [2, 3])])
    report = infer.optimization_report(model, opt_level=1)
    assert report.before == {"graph.identity": 1, "graph.relu": 1}
    assert report.after == {"graph.relu": 1}
    lines = str(report).splitlines()
    assert lines[0] == "op counts before and after graph-optimize{level=1}:"
    assert lines[-1].split() == ["total", "2", "1"]


def test_signature_read_at_the_llvm_level(add_model) -> None:
    """The compile pipeline carries the model's signature down to the llvm-level module, and
    the runtime reads it there (dim names included)."""
    from infer.context import make_context
    from infer.frontend.onnx_import import import_model
    from infer.pipeline import compile_passes, run_passes
    from infer.runtime.compiled_model import compile_and_map

    module = import_model(add_model)
    run_passes(module, make_context(), compile_passes(2))
    # functions, and the thread count its parallel loop (over N rows) reads
    assert {op.name for op in module.ops} == {"llvm.func", "llvm.mlir.global"}
    assert [op.sym_name.data for op in module.ops if op.name == "llvm.mlir.global"] == [
        "_infer_num_threads"]
    model = compile_and_map(module)
    assert [(s.name, s.dtype, s.shape) for s in model.inputs] == [
        ("a", np.float32, ("N", 4)), ("b", np.float32, ("N", 4))]
    assert [s.name for s in model.outputs] == ["y"]
    a = np.ones((2, 4), np.float32)
    np.testing.assert_array_equal(model.run({"a": a, "b": a})["y"], 2 * a)


def test_nchwc_block_is_a_compile_option() -> None:
    """The block of level 3 defaults to the host's and can be given: both run anywhere."""
    w = np.full((16, 16, 3, 3), 0.01, np.float32)
    model = make_model(
        [helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])],
        [("x", TensorProto.FLOAT, [1, 16, 5, 5])], [("y", TensorProto.FLOAT, [1, 16, 5, 5])],
        [numpy_helper.from_array(w, "w")])
    x = np.random.default_rng(0).standard_normal((1, 16, 5, 5)).astype(np.float32)
    (ref,) = run_onnxruntime(model, {"x": x})
    for block in (None, 8, 16):
        out = infer.compile(model, opt_level=3, nchwc_block=block).run({"x": x})["y"]
        np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-5)


def test_verifier_runs_after_each_pass_in_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """IR that breaks an invariant (an alloc with fewer sizes than its type's dynamic dims)
    fails at the pass that ran on it, naming the pass."""
    from xdsl.dialects import func, memref
    from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerAttr, MemRefType, ModuleOp, f32
    from xdsl.ir import Block, Region
    from xdsl.utils.exceptions import VerifyException

    from infer.context import make_context
    from infer.pipeline import VERIFY_EACH_PASS, run_passes

    t = MemRefType(f32, [DYNAMIC_INDEX, 4])
    block = Block()
    alloc = memref.AllocOp([], [], t, IntegerAttr(64, 64))  # no size for the dynamic dim
    block.add_ops([alloc, func.ReturnOp(alloc)])
    module = ModuleOp([func.FuncOp("f", ([], [t]), Region(block))])
    with pytest.raises(VerifyException, match="after 'cse' does not verify"):
        run_passes(module, make_context(), ["cse"])
    # Within the conversion to llvm, after its last pass; after each with "all".
    with pytest.raises(VerifyException, match=r"after 'convert-parallel-calls-to-pool' \(or a "
                                              r"conversion to llvm before it"):
        run_passes(module, make_context(), ["convert-scf-to-cf", "convert-parallel-calls-to-pool"])
    monkeypatch.setenv(VERIFY_EACH_PASS, "all")
    with pytest.raises(VerifyException, match="after 'convert-scf-to-cf' does not verify"):
        run_passes(module, make_context(), ["convert-scf-to-cf", "convert-parallel-calls-to-pool"])
    # "stages": once as the module leaves the graph level, and at the end of each stage.
    monkeypatch.setenv(VERIFY_EACH_PASS, "stages")
    run_passes(module, make_context(), ["cse", "convert-scf-to-cf"])
    with pytest.raises(VerifyException, match="after the graph-level passes does not verify"):
        run_passes(module, make_context(), ["plan-loops"])
    with pytest.raises(VerifyException, match=r"after 'convert-parallel-calls-to-pool' \(or a "
                                              r"pass of its stage before it"):
        run_passes(module, make_context(), ["cse", "convert-parallel-calls-to-pool"])


def test_element_types_without_a_representation_are_refused() -> None:
    """complex64 has no element type in the graph dialect: a clear refusal naming the
    graph input, not an internal error."""
    node = helper.make_node("Identity", ["x"], ["y"], name="copy")
    c64 = TensorProto.COMPLEX64
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", c64, [3])],
                          [helper.make_tensor_value_info("y", c64, [3])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 22)])
    with pytest.raises(infer.UnsupportedError,
                       match=r"graph input 'x': element type COMPLEX64 is not supported"):
        infer.compile(model, verbose=False)


def test_bf16_ops_compute_in_f32() -> None:
    """bf16 Celu: widened to f32 and rounded once, as onnxruntime computes half types."""
    node = helper.make_node("Celu", ["x"], ["y"], name="act")
    bf16 = TensorProto.BFLOAT16
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", bf16, [5])],
                          [helper.make_tensor_value_info("y", bf16, [5])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 22)])
    x = np.array([-3, -0.5, 0, 0.25, 2], ml_dtypes.bfloat16)
    wide = x.astype(np.float32)
    want = np.where(wide > 0, wide, np.expm1(wide)).astype(ml_dtypes.bfloat16)
    got = infer.compile(model, verbose=False).run({"x": x})["y"]
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=1e-2)


def test_submodules_named_in_the_readme_are_attributes() -> None:
    """`infer.ray_batch.predict` and `infer.backend` right after `import infer`, in a fresh
    interpreter (nothing imported them before)."""
    import subprocess
    import sys

    code = ("import infer; print(infer.ray_batch.predict.__name__, "
            "infer.backend.prepare.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["predict", "prepare"]

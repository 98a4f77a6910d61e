"""A large module is compiled by LLVM in parts at once (codegen/partition.py): the parts
cover every function once, keep small callees with their callers, and the code they make
together computes what onnxruntime does, also beside another model compiled in parts."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer.abi import NOINLINE_ATTR
from infer.codegen import compile as compile_module
from infer.codegen import partition as part
from infer.codegen.jit import pack_objects, unpack_objects

from .helpers import make_model, run_onnxruntime


def _convs(seed: int, layers: int = 4, size: int = 12
           ) -> tuple[object, dict[str, np.ndarray]]:
    """Convs and relus with an add between, on size x size images: several kernels and
    loops (parallel ones from size 96)."""
    rng = np.random.default_rng(seed)
    nodes, inits, x = [], [], "x"
    for i in range(layers):
        w = rng.standard_normal((8, 8, 3, 3)).astype(np.float32) * 0.2
        inits.append(numpy_helper.from_array(w, f"w{i}"))
        nodes.append(helper.make_node("Conv", [x, f"w{i}"], [f"c{i}"], pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", [f"c{i}"], [f"r{i}"]))
        nodes.append(helper.make_node("Add", [f"r{i}", x], [f"a{i}"]))
        x = f"a{i}"
    nodes.append(helper.make_node("Sigmoid", [x], ["y"]))
    shape = [1, 8, size, size]
    model = make_model(nodes, [("x", TP.FLOAT, shape)], [("y", TP.FLOAT, shape)], inits)
    return model, {"x": rng.standard_normal(shape).astype(np.float32)}


@pytest.fixture
def in_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every module compiled in 3 parts, however small."""
    monkeypatch.setattr(part, "PARALLEL_OPS", 0)
    monkeypatch.setattr(compile_module, "compile_workers", lambda: 3)


def test_models_compiled_in_parts_match_onnxruntime(in_parts: None) -> None:
    runs = []
    for seed in (0, 1):  # two models with the same function names, in one process
        model, feeds = _convs(seed)
        compiled = infer.compile(model, cache=False, opt_level=3)
        assert len(unpack_objects(compiled.compiled.code.obj)) == 3
        runs.append((compiled, model, feeds))
    for compiled, model, feeds in runs:
        np.testing.assert_allclose(compiled.run(feeds)["y"], run_onnxruntime(model, feeds)[0],
                                   rtol=1e-5, atol=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("parts", [1, 3])
def test_compiles_in_several_threads_at_once_match_onnxruntime(
        parts: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """O3 and code generation run outside llvmlite's lock (codegen/llvm_calls.py): four
    compiles from four Python threads, each in `parts` parts, all at once."""
    monkeypatch.setattr(part, "PARALLEL_OPS", 0)
    monkeypatch.setattr(compile_module, "compile_workers", lambda: parts)
    cases = [_convs(seed) for seed in range(4)]
    results: dict[int, np.ndarray] = {}

    def work(i: int) -> None:
        model, feeds = cases[i]
        results[i] = infer.compile(model, cache=False, opt_level=3).run(feeds)["y"]

    with ThreadPoolExecutor(len(cases)) as pool:
        list(pool.map(work, range(len(cases))))
    for i, (model, feeds) in enumerate(cases):
        np.testing.assert_allclose(results[i], run_onnxruntime(model, feeds)[0],
                                   rtol=1e-5, atol=1e-6)


def test_a_model_compiled_in_parts_saves_and_loads(in_parts: None, tmp_path) -> None:
    model, feeds = _convs(2)
    compiled = infer.compile(model, cache=False)
    compiled.save(tmp_path / "m.infer")
    loaded = infer.load(tmp_path / "m.infer")
    np.testing.assert_array_equal(loaded.run(feeds)["y"], compiled.run(feeds)["y"])


def test_parts_cover_each_function_once_and_keep_small_callees(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from infer.context import make_context
    from infer.frontend.onnx_import import import_model
    from infer.pipeline import compile_passes, run_passes

    monkeypatch.setattr(part, "PARALLEL_OPS", 0)
    model, _ = _convs(3, layers=6)
    module = import_model(model)
    run_passes(module, make_context(), compile_passes(3))
    groups, exported = part.partition(module, 4)
    assert len(groups) == 4
    names = [n for g in groups for n in g]
    assert len(names) == len(set(names)) == len(part._defined(module))
    home = {n: i for i, g in enumerate(groups) for n in g}
    defined = part._defined(module)
    for caller, callees in part.references(module).items():
        for callee in callees:
            if (sum(1 for _ in defined[callee].walk()) <= part.SMALL_FUNCTION
                    and NOINLINE_ATTR not in defined[callee].attributes):
                assert home[callee] == home[caller], (caller, callee)
    assert exported == {callee for caller, callees in part.references(module).items()
                        for callee in callees if home[callee] != home[caller]}
    assert part.partition(module, 1) == ([set(defined)], set())


def test_object_files_pack_and_unpack() -> None:
    objects = [b"\x7fELF one", b"", b"\x7fELF three"]
    assert unpack_objects(pack_objects(objects)) == objects
    blob = pack_objects(objects)
    for bad in (blob[:-1], blob + b"x", b"\x7fELF raw", blob[:12], b"INFEROBJ" + bytes(8)):
        with pytest.raises(ValueError):
            unpack_objects(bad)

"""The memory plan (lowering/memory_plan.py): intermediates packed into one arena per
model, results written in place, on models whose lifetimes overlap in interesting ways
(branches, residuals, views, dynamic dims), compared with onnxruntime; the arena pool
under concurrent runs; the plan kept by an artifact."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer.abi import ARENA_ALIGNMENT
from infer.lowering.memory_plan import Buffer, assign_offsets
from infer.runtime.arena import ArenaPool

from .helpers import (
    check_against_onnxruntime,
    concurrent_run_errors,
    make_model,
    run_onnxruntime,
)

R = np.random.default_rng(11)
F = TP.FLOAT


def _init(name: str, *shape: int, scale: float = 0.2) -> onnx.TensorProto:
    return numpy_helper.from_array((R.standard_normal(shape) * scale).astype(np.float32), name)


def _x(*shape: int) -> np.ndarray:
    return R.standard_normal(shape).astype(np.float32)


def _branches() -> onnx.ModelProto:
    """Two branches from one value (softmax between elementwise ops keeps buffers apart),
    joined, with the branch point read again at the end."""
    nodes = [
        helper.make_node("Relu", ["x"], ["a"]),
        helper.make_node("Softmax", ["a"], ["b"], axis=-1),
        helper.make_node("Exp", ["b"], ["c"]),
        helper.make_node("Softmax", ["a"], ["d"], axis=1),
        helper.make_node("Sigmoid", ["d"], ["e"]),
        helper.make_node("Add", ["c", "e"], ["f"]),
        helper.make_node("Softmax", ["f"], ["g"], axis=-1),
        helper.make_node("Mul", ["g", "a"], ["y"]),
    ]
    return make_model(nodes, [("x", F, [2, 3, 8, 8])], [("y", F, [2, 3, 8, 8])])


def _residual() -> onnx.ModelProto:
    """Two residual blocks: conv-relu-conv + skip, relu (a fused Z of the conv)."""
    nodes, inits = [], []
    x = "x"
    for k in range(2):
        nodes += [
            helper.make_node("Conv", [x, f"w{k}a", f"b{k}a"], [f"c{k}"], pads=[1, 1, 1, 1]),
            helper.make_node("Relu", [f"c{k}"], [f"r{k}"]),
            helper.make_node("Conv", [f"r{k}", f"w{k}b", f"b{k}b"], [f"d{k}"], pads=[1, 1, 1, 1]),
            helper.make_node("Add", [f"d{k}", x], [f"s{k}"]),
            helper.make_node("Relu", [f"s{k}"], [f"o{k}"]),
        ]
        inits += [_init(f"w{k}a", 8, 8, 3, 3), _init(f"b{k}a", 8),
                  _init(f"w{k}b", 8, 8, 3, 3), _init(f"b{k}b", 8)]
        x = f"o{k}"
    nodes.append(helper.make_node("GlobalAveragePool", [x], ["y"]))
    return make_model(nodes, [("x", F, [1, 8, 10, 10])], [("y", F, [1, 8, 1, 1])], inits)


def _views() -> onnx.ModelProto:
    """Reshapes and flattens (views of their input's buffer) read after their source's
    other users, an output that is a view of an intermediate, and a transpose."""
    shape = numpy_helper.from_array(np.array([2, 48], np.int64), "shape")
    nodes = [
        helper.make_node("Exp", ["x"], ["a"]),
        helper.make_node("Reshape", ["a", "shape"], ["v"]),
        helper.make_node("Softmax", ["v"], ["s"], axis=-1),
        helper.make_node("Flatten", ["a"], ["fl"], axis=1),
        helper.make_node("Softmax", ["fl"], ["t"], axis=0),
        helper.make_node("Add", ["s", "t"], ["u"]),
        helper.make_node("Transpose", ["u"], ["w"], perm=[1, 0]),
        helper.make_node("Softmax", ["w"], ["z"], axis=0),
        helper.make_node("Reshape", ["z", "shape2"], ["y"]),
        helper.make_node("Reshape", ["s", "shape2"], ["y2"]),
    ]
    shape2 = numpy_helper.from_array(np.array([2, 3, 4, 4], np.int64), "shape2")
    return make_model(nodes, [("x", F, [2, 3, 4, 4])],
                      [("y", F, [2, 3, 4, 4]), ("y2", F, [2, 3, 4, 4])], [shape, shape2])


def _in_place() -> onnx.ModelProto:
    """Elementwise ops whose operands die with them (written in place), one reading the
    same buffer twice, one broadcasting a smaller operand, and one whose operand is
    read again later (not in place)."""
    bias = _init("bias", 8)
    nodes = [
        helper.make_node("Softmax", ["x"], ["a"], axis=-1),
        helper.make_node("Mul", ["a", "a"], ["b"]),
        helper.make_node("Softmax", ["b"], ["c"], axis=-1),
        helper.make_node("Add", ["c", "bias"], ["d"]),
        helper.make_node("Softmax", ["d"], ["e"], axis=0),
        helper.make_node("Tanh", ["e"], ["f"]),
        helper.make_node("Softmax", ["f"], ["g"], axis=-1),
        helper.make_node("Sub", ["g", "e"], ["y"]),
    ]
    return make_model(nodes, [("x", F, [6, 8])], [("y", F, [6, 8])], [bias])


def _dynamic() -> onnx.ModelProto:
    """A dynamic batch (its buffers on malloc) next to static ones (in the arena)."""
    nodes = [
        helper.make_node("Softmax", ["x"], ["a"], axis=-1),
        helper.make_node("ReduceMean", ["a"], ["m"], axes=[0], keepdims=0),
        helper.make_node("Exp", ["m"], ["e"]),
        helper.make_node("Softmax", ["e"], ["s"], axis=-1),
        helper.make_node("Neg", ["s"], ["n"]),
        helper.make_node("Softmax", ["n"], ["t"], axis=-1),
        helper.make_node("Add", ["a", "t"], ["y"]),
    ]
    return make_model(nodes, [("x", F, ["N", 16])], [("y", F, ["N", 16])], opset=13)


CASES = {
    "branches": (_branches, {"x": (2, 3, 8, 8)}),
    "residual": (_residual, {"x": (1, 8, 10, 10)}),
    "views": (_views, {"x": (2, 3, 4, 4)}),
    "in_place": (_in_place, {"x": (6, 8)}),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("level", [2, 3])
def test_matches_onnxruntime(name: str, level: int) -> None:
    build, shapes = CASES[name]
    model = build()
    feeds = [{k: _x(*s) for k, s in shapes.items()} for _ in range(2)]
    compiled = check_against_onnxruntime(model, feeds, opt_level=level)
    plan = compiled.memory_plan
    assert plan is not None and plan.buffers >= 1
    assert plan.arena % ARENA_ALIGNMENT == 0 and plan.arena <= plan.total


def test_buffers_share_bytes() -> None:
    """Lifetimes that do not overlap share bytes: the arena is smaller than the sum."""
    names = ["x", "a", "b", "c", "d", "y"]
    nodes = [helper.make_node("Softmax", [i], [o], axis=k % 2)
             for k, (i, o) in enumerate(zip(names, names[1:], strict=False))]
    model = make_model(nodes, [("x", F, [16, 16])], [("y", F, [16, 16])])
    compiled = check_against_onnxruntime(model, {"x": _x(16, 16)})
    plan = compiled.memory_plan
    assert plan is not None and plan.buffers == 4
    assert plan.arena == 2 * 16 * 16 * 4 < plan.total  # two at a time


def test_dynamic_dims() -> None:
    model = _dynamic()
    compiled = infer.compile(model)
    plan = compiled.memory_plan
    assert plan is not None and plan.buffers >= 1 and plan.unplanned >= 1
    for n in (1, 5, 3):
        feeds = {"x": _x(n, 16)}
        np.testing.assert_allclose(compiled.run(feeds)["y"], run_onnxruntime(model, feeds)[0],
                                   rtol=1e-5, atol=1e-6)


def test_outputs_outlive_the_next_run() -> None:
    """Outputs are not in the arena: a later run leaves an earlier run's outputs as they
    were."""
    model = _residual()
    compiled = infer.compile(model)
    feeds = [{"x": _x(1, 8, 10, 10)} for _ in range(3)]
    outs = [compiled.run(f)["y"].copy() for f in feeds]
    kept = [compiled.run(f)["y"] for f in feeds]
    for a, b in zip(outs, kept, strict=True):
        np.testing.assert_array_equal(a, b)


def test_concurrent_runs() -> None:
    """Runs from several Python threads at once each get an arena of their own."""
    model = _branches()
    compiled = infer.compile(model)
    feeds = [{"x": _x(2, 3, 8, 8)} for _ in range(6)]
    assert not concurrent_run_errors(compiled, feeds, rounds=20)


def test_artifact_keeps_the_plan(tmp_path: Path) -> None:
    model = _residual()
    compiled = infer.compile(model)
    path = tmp_path / "m.infer"
    compiled.save(path)
    loaded = infer.load(path)
    assert loaded.memory_plan == compiled.memory_plan
    feeds = {"x": _x(1, 8, 10, 10)}
    np.testing.assert_array_equal(loaded.run(feeds)["y"], compiled.run(feeds)["y"])


def test_assign_offsets_never_overlaps() -> None:
    """Random intervals and sizes: buffers live at once never share a byte, every offset
    is aligned, and the arena holds them all."""
    rng = np.random.default_rng(3)
    for _ in range(50):
        buffers = []
        for _ in range(int(rng.integers(1, 30))):
            start = int(rng.integers(0, 40))
            size = int(rng.integers(0, 20)) * ARENA_ALIGNMENT
            buffers.append(Buffer(None, start, start + int(rng.integers(0, 10)), size, []))  # type: ignore[arg-type]
        arena = assign_offsets(buffers)
        for i, a in enumerate(buffers):
            assert a.offset % ARENA_ALIGNMENT == 0 and a.offset + a.size <= arena
            for b in buffers[i + 1:]:
                if a.overlaps(b) and a.size and b.size:
                    assert a.offset + a.size <= b.offset or b.offset + b.size <= a.offset
        peak = max(sum(b.size for b in buffers if b.start <= t <= b.end) for t in range(50))
        assert arena >= peak


def test_arena_pool() -> None:
    pool = ArenaPool(1000, keep=2)
    a, b, c = pool.take(), pool.take(), pool.take()
    assert len({x.ctypes.data for x in (a, b, c)}) == 3
    assert all(x.ctypes.data % ARENA_ALIGNMENT == 0 and x.nbytes == 1000 for x in (a, b, c))
    for x in (a, b, c):
        pool.give(x)
    assert pool.take() is not None

"""graph-optimize: each rewrite on a small model built for it, and every level on the light
models, against onnxruntime. Level 2 must not change results beyond 1e-4 relative."""

from __future__ import annotations

from collections import Counter

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import infer
from infer.dialects import graph as G
from infer.dialects.graph.evaluate import evaluate
from infer.frontend.onnx_import import import_model
from infer.model_zoo import dummy_inputs, light_model_path, with_random_weights
from infer.transforms.graph_optimize import (
    PATTERN_MODULES,
    contributed_patterns,
    op_counts,
    optimize,
)

from .helpers import make_model, run_onnxruntime

F = TensorProto.FLOAT


def _i64(name: str, values: list[int]) -> onnx.TensorProto:
    return numpy_helper.from_array(np.array(values, dtype=np.int64), name)


def _f32(name: str, values: np.ndarray | float) -> onnx.TensorProto:
    return numpy_helper.from_array(np.asarray(values, dtype=np.float32), name)


def _graph_ops(model: onnx.ModelProto, level: int) -> Counter[str]:
    module = import_model(model)
    optimize(module, level)
    return Counter({k: v for k, v in op_counts(module).items() if k != "graph.constant"})


def _assert_close(ours: dict[str, np.ndarray], theirs: list[np.ndarray], rtol: float) -> None:
    """Relative to each output's scale: |a - b| <= rtol * (|b| + max |b|)."""
    for (name, a), b in zip(ours.items(), theirs, strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype, name
        scale = float(np.max(np.abs(b))) if b.size else 0.0
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * scale, err_msg=name)


# -- one small model per pattern --------------------------------------------------------

N = helper.make_node
# name: (nodes, inputs, initializers, the graph ops left at level 1, the output's shape)
PATTERN_MODELS = {
    "identity_dropout": (
        [N("Identity", ["x"], ["a"]), N("Dropout", ["a"], ["b"]), N("Relu", ["b"], ["y"])],
        [("x", F, ["N", 4])], [], {"graph.relu": 1}, ["N", 4],
    ),
    "noop_cast": (
        [N("Cast", ["x"], ["a"], to=F), N("Relu", ["a"], ["y"])],
        [("x", F, [2, 3])], [], {"graph.relu": 1}, [2, 3],
    ),
    "reshape_chain": (
        [N("Reshape", ["x", "s1"], ["a"]), N("Reshape", ["a", "s2"], ["b"]),
         N("Relu", ["b"], ["y"])],
        [("x", F, [2, 3, 4])], [_i64("s1", [6, 4]), _i64("s2", [4, 6])],
        {"graph.reshape": 1, "graph.relu": 1}, [4, 6],
    ),
    "unsqueeze_flatten_dynamic": (
        [N("Unsqueeze", ["x", "axes"], ["a"]), N("Flatten", ["a"], ["b"], axis=1),
         N("Relu", ["b"], ["y"])],
        [("x", F, ["N", 3, 4])], [_i64("axes", [1])], {"graph.reshape": 1, "graph.relu": 1},
        ["N", 12],
    ),
    "noop_reshape": (
        [N("Reshape", ["x", "s"], ["a"]), N("Relu", ["a"], ["y"])],
        [("x", F, [2, 6])], [_i64("s", [2, -1])], {"graph.relu": 1}, [2, 6],
    ),
    "transpose_chain": (
        [N("Transpose", ["x"], ["a"], perm=[1, 2, 0]),
         N("Transpose", ["a"], ["y"], perm=[1, 2, 0])],
        [("x", F, [2, 3, 4])], [], {"graph.transpose": 1}, [4, 2, 3],
    ),
    "transpose_inverse": (
        [N("Transpose", ["x"], ["a"], perm=[0, 2, 1]),
         N("Transpose", ["a"], ["b"], perm=[0, 2, 1]), N("Relu", ["b"], ["y"])],
        [("x", F, ["N", 3, 4])], [], {"graph.relu": 1}, ["N", 3, 4],
    ),
    "concat_of_one": (
        [N("Concat", ["x"], ["a"], axis=1), N("Relu", ["a"], ["y"])],
        [("x", F, [2, 3])], [], {"graph.relu": 1}, [2, 3],
    ),
    "arith_identities": (
        [N("Add", ["x", "zero"], ["a"]), N("Mul", ["one", "a"], ["b"]),
         N("Sub", ["b", "zero"], ["c"]), N("Div", ["c", "one"], ["d"]),
         N("Relu", ["d"], ["y"])],
        [("x", F, [2, 3])], [_f32("zero", np.zeros(3)), _f32("one", 1.0)], {"graph.relu": 1},
        [2, 3],
    ),
    "add_zero_broadcasting_stays": (
        [N("Add", ["x", "zero"], ["y"])],
        [("x", F, [3])], [_f32("zero", np.zeros((2, 3)))], {"graph.add": 1}, [2, 3],
    ),
    "constant_of_shape_weight": (
        [N("ConstantOfShape", ["ws"], ["w"], value=_f32("v", np.array([0.25]))),
         N("MatMul", ["x", "w"], ["y"])],
        [("x", F, ["N", 4])], [_i64("ws", [4, 3])], {"graph.matmul": 1}, ["N", 3],
    ),
    "static_shape_chain": (
        [N("Shape", ["x"], ["s"]), N("Gather", ["s", "i1"], ["c"], axis=0),
         N("Concat", ["c", "minus1"], ["ns"], axis=0), N("Reshape", ["x", "ns"], ["y"])],
        [("x", F, [2, 3, 4])], [_i64("i1", [1]), _i64("minus1", [-1])],
        {"graph.reshape": 1}, [3, 8],
    ),
}


def _pattern_model(name: str) -> onnx.ModelProto:
    nodes, inputs, inits, _, out_shape = PATTERN_MODELS[name]
    return make_model(nodes, inputs, [("y", F, out_shape)], inits)


@pytest.mark.parametrize("name", sorted(PATTERN_MODELS))
def test_pattern_model(name: str) -> None:
    model = _pattern_model(name)
    assert _graph_ops(model, 1) == Counter(PATTERN_MODELS[name][3])
    rng = np.random.default_rng(0)
    feeds = {i.name: rng.standard_normal(
        [d.dim_value or 2 for d in i.type.tensor_type.shape.dim]).astype(np.float32)
        for i in model.graph.input}
    theirs = run_onnxruntime(model, feeds)
    for level in (0, 1):
        _assert_close(infer.compile(model, opt_level=level).run(feeds), theirs, 1e-5)


def test_canonicalize_pass_applies_the_patterns() -> None:
    """The patterns are attached to the ops: xDSL's own `canonicalize` applies them."""
    from infer.context import make_context
    from infer.pipeline import run_passes

    module = import_model(_pattern_model("identity_dropout"))
    run_passes(module, make_context(), ["canonicalize"])
    assert "graph.identity" not in op_counts(module)
    assert "graph.dropout" not in op_counts(module)


# -- the pass itself --------------------------------------------------------------------


def test_level_zero_changes_nothing() -> None:
    model = _pattern_model("identity_dropout")
    assert _graph_ops(model, 0) == Counter(
        {"graph.identity": 1, "graph.dropout": 1, "graph.relu": 1})


@pytest.mark.parametrize("level", [-1, 4])
def test_bad_level(level: int) -> None:
    with pytest.raises(ValueError, match="level must be 0..3"):
        infer.compile(_pattern_model("noop_cast"), opt_level=level)


def test_pattern_modules_contract() -> None:
    """Each contributing module exports patterns(level); none below level 2."""
    assert contributed_patterns(1) == []
    assert len(PATTERN_MODULES) == 3


@pytest.mark.parametrize("name", ["static_shape_chain", "arith_identities", "transpose_chain"])
def test_evaluate_as_a_reference(name: str) -> None:
    """graph_eval interprets an imported graph op by op, as onnxruntime computes it."""
    model = _pattern_model(name)
    module = import_model(model)
    f = next(iter(module.body.block.ops))
    x = np.random.default_rng(0).standard_normal(
        [d if d > 0 else 2 for d in f.body.block.args[0].type.get_shape()]).astype(np.float32)
    values = {f.body.block.args[0]: x}
    for op in f.body.block.ops:
        if isinstance(op, G.ConstantOp):
            values[op.output] = op.numpy()
        elif op.results:
            outs = evaluate(op, [values[o] for o in op.operands])
            values.update(zip(op.results, outs, strict=True))
        else:  # func.return
            out = values[op.operands[0]]
    np.testing.assert_allclose(out, run_onnxruntime(model, {"x": x})[0], rtol=1e-6)


# -- the light models at every level ----------------------------------------------------

# Compiling a light model takes 5-80 s: every level on the two smallest, levels 2-3 on
# resnet50, and each of the others at the level (2, or 3 with the blocked layout) that
# its neighbours in the list are not, so that levels 2 and 3 meet every kind of network
# (vgg19's kinds of layers are alexnet's and zfnet512's).
CASES = [("squeezenet", lv) for lv in (0, 1, 2, 3)] + [("shufflenet", 0), ("shufflenet", 3),
    ("resnet50", 2), ("resnet50", 3), ("bvlc_alexnet", 2), ("zfnet512", 3),
    ("inception_v1", 3), ("inception_v2", 2), ("densenet121", 3)]


def _random_model(name: str) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    model = with_random_weights(onnx.load(light_model_path(name)), seed=1)
    rng = np.random.default_rng(2)
    feeds = {k: rng.standard_normal(v.shape).astype(np.float32)
             for k, v in dummy_inputs(model).items()}
    return model, feeds


@pytest.mark.usefixtures("verify_at_stage_ends")
@pytest.mark.slow
@pytest.mark.parametrize(("name", "level"), CASES, ids=[f"{m}-O{lv}" for m, lv in CASES])
def test_light_model_level(name: str, level: int) -> None:
    model, feeds = _random_model(name)
    ours = infer.compile(model, opt_level=level).run(feeds)
    _assert_close(ours, run_onnxruntime(model, feeds), 1e-4)


# (blocked convs, reorders in, reorders out). The 3-channel stem conv is blocked reading
# the image as NCHW, so nothing is reordered in: its output, the stem pool (DenseNet's
# feeds the first concat and conv) and all after it stay blocked until the classifier.
BLOCKED = {"resnet50": (53, 0, 1), "squeezenet": (26, 0, 1), "densenet121": (121, 0, 1)}


@pytest.mark.slow
@pytest.mark.parametrize("name", BLOCKED)
def test_light_model_level_3_blocks_convs(name: str) -> None:
    """Level 3 with AVX2 blocks (8 channels): every conv is blocked (the 3-channel stem on
    its NCHW input), and the whole network is one blocked region."""
    module = import_model(onnx.load(light_model_path(name)))
    optimize(module, 3, block=8)
    counts = op_counts(module)
    convs, into, out = BLOCKED[name]
    assert counts["graph.conv_nchwc"] == convs
    assert counts["graph.conv"] == 0
    assert (counts["graph.to_nchwc"], counts["graph.from_nchwc"]) == (into, out)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["squeezenet", "resnet50", "shufflenet"])
def test_light_model_op_counts_shrink(name: str) -> None:
    """Level 1 turns every ConstantOfShape weight into a constant; no level adds ops."""
    model = onnx.load(light_model_path(name))
    counts = [sum(_graph_ops(model, lv).values()) for lv in (0, 1, 2)]
    assert _graph_ops(model, 1)["graph.constant_of_shape"] == 0
    assert counts[0] > counts[1] >= counts[2]

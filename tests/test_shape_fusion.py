"""Shape-computation fusion (shape dialect) and channel-shuffle fusion: op counts on a
ShuffleNet exported from PyTorch with a dynamic batch, and numerics vs onnxruntime."""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper

import infer
from infer.context import make_context
from infer.frontend.onnx_import import import_model
from infer.pipeline import run_passes
from infer.tests.helpers import make_model, run_onnxruntime
from infer.transforms.graph_optimize import op_counts

INPUTS = os.path.join(os.path.dirname(__file__), "..", "filecheck_tests", "Inputs")
SHUFFLENET = os.path.join(INPUTS, "shufflenet_dyn.onnx")
SHAPE_CHAIN_OPS = ["shape", "gather", "unsqueeze", "squeeze", "div", "mul", "add", "cast"]


def optimized_counts(model: onnx.ModelProto, passes: list[str]) -> Counter[str]:
    module = import_model(model)
    run_passes(module, make_context(), passes)
    return op_counts(module)


def check_numerics(model: onnx.ModelProto, feeds_list: list[dict[str, np.ndarray]]) -> None:
    compiled = infer.compile(model)
    for feeds in feeds_list:
        ours = list(compiled.run(feeds).values())
        for a, b in zip(ours, run_onnxruntime(model, feeds), strict=True):
            assert a.shape == b.shape
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def const(name: str, value: int | list[int]) -> onnx.NodeProto:
    return helper.make_node("Constant", [], [name], value=helper.make_tensor(
        name, TP.INT64, np.shape(value), np.ravel(value).tolist()))


# -- ShuffleNet -------------------------------------------------------------------------


@pytest.mark.parametrize("passes", [["shape-fusion"], ["graph-optimize{level=2}"]])
def test_shufflenet_shape_chains_fold_away(passes: list[str]) -> None:
    model = onnx.load(SHUFFLENET)
    before = Counter(n.op_type for n in model.graph.node)
    assert before["Shape"] and before["Gather"] and before["Transpose"] == 4
    after = optimized_counts(model, passes)
    for name in SHAPE_CHAIN_OPS:
        assert after[f"graph.{name}"] == 0, (name, after)
    assert after["shape.of"] == 0  # every map became constant once types were refined
    assert after["graph.channel_shuffle"] == 4
    assert after["graph.transpose"] == 0 and after["graph.reshape"] == 0
    assert after["graph.concat"] == before["Concat"] - 8  # the 4 feature-map concats stay


def test_shufflenet_numerics_dynamic_batch() -> None:
    model = onnx.load(SHUFFLENET)
    rng = np.random.default_rng(0)
    check_numerics(model, [{"x": rng.standard_normal((n, 3, 32, 32), np.float32)}
                           for n in (1, 3)])


# -- one model per pattern --------------------------------------------------------------


def torch_style_shuffle(c: int, g: int) -> onnx.ModelProto:
    """channel_shuffle as PyTorch's exporter writes it: sizes from Shape/Gather, c // g as
    Div + Cast, Unsqueeze + Concat into the view shapes."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]), const("ax", [0]), const("g", g),
             const("g1", [g]), const("m1", [-1])]
    for i, n in enumerate("bchw"):
        nodes += [const(f"i{i}", i), helper.make_node("Gather", ["s", f"i{i}"], [n])]
    nodes += [
        helper.make_node("Div", ["c", "g"], ["cg"]),
        helper.make_node("Cast", ["cg"], ["cgc"], to=TP.INT64),
        *[helper.make_node("Unsqueeze", [n, "ax"], [n + "u"]) for n in ["b", "cgc", "h", "w"]],
        helper.make_node("Concat", ["bu", "g1", "cgcu", "hu", "wu"], ["s1"], axis=0),
        helper.make_node("Reshape", ["x", "s1"], ["r1"]),
        helper.make_node("Transpose", ["r1"], ["t"], perm=[0, 2, 1, 3, 4]),
        helper.make_node("Concat", ["bu", "m1", "hu", "wu"], ["s2"], axis=0),
        helper.make_node("Reshape", ["t", "s2"], ["y"]),
    ]
    return make_model(nodes, [("x", TP.FLOAT, ["N", c, 3, 5])], [("y", TP.FLOAT, ["N", c, 3, 5])])


@pytest.mark.parametrize("c,g", [(6, 2), (6, 3), (12, 4)])
def test_channel_shuffle(c: int, g: int) -> None:
    model = torch_style_shuffle(c, g)
    counts = optimized_counts(model, ["shape-fusion"])
    assert counts == Counter({"graph.channel_shuffle": 1}), counts
    rng = np.random.default_rng(1)
    check_numerics(model, [{"x": rng.standard_normal((n, c, 3, 5), np.float32)} for n in (1, 3)])


def test_flatten_from_shape_chain() -> None:
    """Reshape(x, Concat(Gather(Shape(x), [0]), [-1])): typed ?x24, no shape ops left."""
    model = make_model(
        [helper.make_node("Shape", ["x"], ["s"]), const("i", [0]), const("m1", [-1]),
         helper.make_node("Gather", ["s", "i"], ["n"]),
         helper.make_node("Concat", ["n", "m1"], ["t"], axis=0),
         helper.make_node("Reshape", ["x", "t"], ["y"])],
        [("x", TP.FLOAT, ["N", 4, 6])], [("y", TP.FLOAT, ["N", 24])])
    counts = optimized_counts(model, ["shape-fusion"])
    assert counts["graph.shape"] == counts["graph.gather"] == counts["graph.concat"] == 0
    rng = np.random.default_rng(2)
    check_numerics(model, [{"x": rng.standard_normal((n, 4, 6), np.float32)} for n in (1, 5)])


def test_dynamic_entries_evaluated_at_run_time() -> None:
    """ConstantOfShape([(N + 2) / 2, 3]) with N dynamic: the map is evaluated from the
    input's dims at run time (shape.of's lowering), not computed by kernels."""
    model = make_model(
        [helper.make_node("Shape", ["x"], ["s"]), const("i", 0), const("two", 2),
         const("ax", [0]), const("three", [3]),
         helper.make_node("Gather", ["s", "i"], ["n"]),
         helper.make_node("Add", ["n", "two"], ["n2"]),
         helper.make_node("Div", ["n2", "two"], ["h"]),
         helper.make_node("Unsqueeze", ["h", "ax"], ["hu"]),
         helper.make_node("Concat", ["hu", "three"], ["shape"], axis=0),
         helper.make_node("ConstantOfShape", ["shape"], ["y"],
                          value=helper.make_tensor("v", TP.FLOAT, [1], [1.5]))],
        [("x", TP.FLOAT, ["N", 2])], [("y", TP.FLOAT, ["M", 3])])
    counts = optimized_counts(model, ["shape-fusion"])
    assert counts == Counter({"shape.of": 1, "graph.constant_of_shape": 1}), counts
    check_numerics(model, [{"x": np.zeros((n, 2), np.float32)} for n in (1, 3, 4)])


def test_slice_and_int32_cast() -> None:
    """Slice of a shape, Cast to int32 and back, Mul and Sub with constants."""
    model = make_model(
        [helper.make_node("Shape", ["x"], ["s"]), const("st", [1]), const("en", [3]),
         const("ax", [0]), const("k", [2, 1]), const("one", [1]),
         helper.make_node("Slice", ["s", "st", "en", "ax"], ["hw"]),
         helper.make_node("Cast", ["hw"], ["hw32"], to=TP.INT32),
         helper.make_node("Cast", ["hw32"], ["hw64"], to=TP.INT64),
         helper.make_node("Mul", ["hw64", "k"], ["m"]),
         helper.make_node("Sub", ["m", "one"], ["t"]),
         helper.make_node("Concat", ["one", "t"], ["shape"], axis=0),
         helper.make_node("ConstantOfShape", ["shape"], ["y"])],
        [("x", TP.FLOAT, [2, "H", "W"])], [("y", TP.FLOAT, [1, "A", "B"])])
    counts = optimized_counts(model, ["shape-fusion"])
    assert counts == Counter({"shape.of": 1, "graph.constant_of_shape": 1}), counts
    check_numerics(model, [{"x": np.zeros((2, h, w), np.float32)} for h, w in ((3, 4), (1, 7))])


def test_no_fusion_when_div_could_truncate_negative() -> None:
    """(W - 5) / 2 may be negative: ONNX truncates, floordiv floors; Div stays."""
    model = make_model(
        [helper.make_node("Shape", ["x"], ["s"]), const("five", [5]), const("two", [2]),
         helper.make_node("Sub", ["s", "five"], ["d"]),
         helper.make_node("Div", ["d", "two"], ["y"])],
        [("x", TP.FLOAT, ["W"])], [("y", TP.INT64, [1])])
    counts = optimized_counts(model, ["shape-fusion"])
    assert counts["graph.div"] == 1 and counts["shape.of"] == 1

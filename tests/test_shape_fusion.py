"""Shape-computation fusion (shape dialect) and channel-shuffle fusion: op counts on a
ShuffleNet exported from PyTorch with a dynamic batch, and numerics vs onnxruntime."""

from __future__ import annotations

import os
import re
from collections import Counter

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper
from xdsl.parser import Parser

import infer
from infer.context import make_context
from infer.frontend.onnx_import import import_model
from infer.pipeline import LOWER_TO_LOOPS, graph_optimize_passes, run_passes
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


@pytest.mark.slow
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


# -- shape.of evaluated by its users at run time ------------------------------------------
#
# Reshape / Expand / ConstantOfShape fed by a shape.of evaluate its map on the source's
# memref.dims where they need the sizes: no i64 shape buffer, no kernel (see
# lowering/graph_ops/shape_dialect.py).

I64_ALLOC = re.compile(r"memref\.alloc.*: memref<[0-9?x]*i64>")


def lowered_loops(model: onnx.ModelProto) -> str:
    """The loop IR `infer.compile` makes at opt level 2 (before the llvm lowering)."""
    module = import_model(model)
    run_passes(module, make_context(), graph_optimize_passes(2) + LOWER_TO_LOOPS)
    return str(module)


def unsqueezed_dims(shape: str, dims: dict[str, int]) -> list[onnx.NodeProto]:
    """PyTorch's `x.size(i)` in a view: Gather(Shape(x), i) (a scalar) + Unsqueeze -> [d]."""
    nodes = [const("zero_axis", [0])]
    for name, i in dims.items():
        nodes += [const(f"{name}_i", i), helper.make_node("Gather", [shape, f"{name}_i"], [name]),
                  helper.make_node("Unsqueeze", [name, "zero_axis"], [f"{name}_u"])]
    return nodes


def torch_style_heads() -> onnx.ModelProto:
    """Attention-style views of a projection, with sizes from another tensor:
    q = x @ W; q.view(x.size(0), x.size(1), 2, 4).transpose(1, 2).reshape(x.size(0), -1)."""
    w = numpy_helper.from_array(np.random.default_rng(3).standard_normal((8, 8), np.float32), "w")
    nodes = [helper.make_node("Shape", ["x"], ["s"]), *unsqueezed_dims("s", {"b": 0, "t": 1}),
             const("heads", [2, 4]), const("m1", [-1]),
             helper.make_node("Concat", ["b_u", "t_u", "heads"], ["split"], axis=0),
             helper.make_node("MatMul", ["x", "w"], ["q"]),
             helper.make_node("Reshape", ["q", "split"], ["qh"]),
             helper.make_node("Transpose", ["qh"], ["qt"], perm=[0, 2, 1, 3]),
             helper.make_node("Concat", ["b_u", "m1"], ["flat"], axis=0),
             helper.make_node("Reshape", ["qt", "flat"], ["y"])]
    return make_model(nodes, [("x", TP.FLOAT, ["B", "T", 8])], [("y", TP.FLOAT, ["B", "F"])],
                      [w])


def test_torch_style_views_evaluate_shape_inline() -> None:
    model = torch_style_heads()
    counts = optimized_counts(model, ["graph-optimize{level=2}"])
    for name in ["shape", "gather", "unsqueeze", "concat"]:
        assert counts[f"graph.{name}"] == 0, (name, counts)
    assert counts["shape.of"] == 2 and counts["graph.reshape"] == 2, counts
    loops = lowered_loops(model)
    assert "shape.of" not in loops and not I64_ALLOC.search(loops), loops
    rng = np.random.default_rng(4)
    check_numerics(model, [{"x": rng.standard_normal((n, t, 8), np.float32)}
                           for n, t in ((1, 5), (3, 2), (3, 1))])


def test_constant_of_shape_of_dynamic_batch() -> None:
    """ConstantOfShape(Shape(x)) with a dynamic batch: sized from x's memref.dim."""
    model = make_model(
        [helper.make_node("Shape", ["x"], ["s"]),
         helper.make_node("ConstantOfShape", ["s"], ["c"],
                          value=helper.make_tensor("v", TP.FLOAT, [1], [0.5])),
         helper.make_node("Mul", ["x", "c"], ["y"])],
        [("x", TP.FLOAT, ["N", 3])], [("y", TP.FLOAT, ["N", 3])])
    loops = lowered_loops(model)
    assert "shape.of" not in loops and not I64_ALLOC.search(loops), loops
    rng = np.random.default_rng(5)
    check_numerics(model, [{"x": rng.standard_normal((n, 3), np.float32)} for n in (1, 3)])


def test_shape_also_returned_is_materialized() -> None:
    """A shape.of that is also a model output keeps its i64 buffer; the Reshape reads it."""
    model = make_model(
        [helper.make_node("Shape", ["x"], ["s"]), *unsqueezed_dims("s", {"n": 0}),
         const("rest", [2, 2]), helper.make_node("Concat", ["n_u", "rest"], ["shape"], axis=0),
         helper.make_node("Relu", ["x"], ["r"]),
         helper.make_node("Reshape", ["r", "shape"], ["y"])],
        [("x", TP.FLOAT, ["N", 4])], [("y", TP.FLOAT, ["N", 2, 2]), ("shape", TP.INT64, [3])])
    assert I64_ALLOC.search(lowered_loops(model))
    rng = np.random.default_rng(6)
    check_numerics(model, [{"x": rng.standard_normal((n, 4), np.float32)} for n in (1, 3)])


EXPAND_OF_SHAPE = """
func.func @main(%x: tensor<?x1x4xf32> {graph.name = "x"}, %y: tensor<?x?x4xf32> {graph.name = "y"})
    -> (tensor<?x?x4xf32> {graph.name = "z"}) {
  %s = shape.of %y {map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>}
      : tensor<?x?x4xf32> -> tensor<3xi64>
  %z = graph.expand %x, %s : (tensor<?x1x4xf32>, tensor<3xi64>) -> tensor<?x?x4xf32>
  func.return %z : tensor<?x?x4xf32>
}
"""


def expand_of_shape_model() -> onnx.ModelProto:
    """x.expand(y.size()) / expand_as as exported: Expand(x, Shape(y))."""
    return make_model(
        [helper.make_node("Shape", ["y"], ["s"]), helper.make_node("Expand", ["x", "s"], ["z"])],
        [("x", TP.FLOAT, ["A", 1, 4]), ("y", TP.FLOAT, ["B", "M", 4])],
        [("z", TP.FLOAT, ["B", "M", 4])])


# Batch 1 and 3, and x's dynamic dim 1 broadcast against y's 3 (decided at run time).
EXPAND_FEEDS = [(1, 1, 1), (3, 3, 5), (1, 3, 2)]


def test_expand_of_dynamic_shape() -> None:
    """Expand(x, shape.of y) with dynamic dims, from IR (see the import test below):
    output sizes and x's broadcast are decided from x's and y's dims at run time."""
    module = Parser(make_context(), EXPAND_OF_SHAPE).parse_module()
    compiled = infer.compile_module(module)
    rng = np.random.default_rng(7)
    for a, b, m in EXPAND_FEEDS:
        feeds = {"x": rng.standard_normal((a, 1, 4), np.float32),
                 "y": rng.standard_normal((b, m, 4), np.float32)}
        (ours,) = compiled.run(feeds).values()
        (theirs,) = run_onnxruntime(expand_of_shape_model(), feeds)
        assert ours.shape == theirs.shape
        np.testing.assert_array_equal(ours, theirs)


def test_expand_of_shape_from_onnx() -> None:
    rng = np.random.default_rng(8)
    check_numerics(expand_of_shape_model(), [
        {"x": rng.standard_normal((a, 1, 4), np.float32),
         "y": rng.standard_normal((b, m, 4), np.float32)} for a, b, m in EXPAND_FEEDS])


# -- Range fed by shape chains ------------------------------------------------------------
#
# PyTorch exports `torch.arange(x.size(1))` as Range(0, Gather(Shape(x), 1), 1): the scalar
# Gather becomes a 0-d shape.of, and the range's length is computed from x's memref.dims.

SCALAR_ALLOC = re.compile(r"memref\.alloc.*: memref<i(32|64)>")


def torch_style_positions() -> onnx.ModelProto:
    """x + torch.arange(x.size(1)).unsqueeze(0).expand(x.size(0), -1).float().unsqueeze(-1)
    with x of shape [N, T, 8]."""
    nodes = [helper.make_node("Shape", ["x"], ["s"]), const("zero", 0), const("one", 1),
             helper.make_node("Gather", ["s", "one"], ["t"]),
             helper.make_node("Range", ["zero", "t", "one"], ["pos"]),
             *unsqueezed_dims("s", {"n": 0}), const("ax0", [0]), const("ax2", [2]),
             helper.make_node("Unsqueeze", ["pos", "ax0"], ["pos_row"]),
             helper.make_node("Unsqueeze", ["t", "ax0"], ["t_u"]),
             helper.make_node("Concat", ["n_u", "t_u"], ["nt"], axis=0),
             helper.make_node("Expand", ["pos_row", "nt"], ["pos_nt"]),
             helper.make_node("Cast", ["pos_nt"], ["pos_f"], to=TP.FLOAT),
             helper.make_node("Unsqueeze", ["pos_f", "ax2"], ["pos_3d"]),
             helper.make_node("Add", ["x", "pos_3d"], ["y"])]
    return make_model(nodes, [("x", TP.FLOAT, ["N", "T", 8])], [("y", TP.FLOAT, ["N", "T", 8])])


def test_range_of_shape_evaluated_from_dims() -> None:
    model = torch_style_positions()
    module = import_model(model)
    run_passes(module, make_context(), graph_optimize_passes(2))
    counts = op_counts(module)
    for name in ["shape", "gather", "concat"]:
        assert counts[f"graph.{name}"] == 0, (name, counts)
    (rng_op,) = [op for op in module.walk() if op.name == "graph.range"]
    limit = rng_op.operands[1].owner
    assert limit.name == "shape.of" and limit.operands[0].name_hint == "x", str(module)
    loops = lowered_loops(model)
    assert "shape.of" not in loops and not SCALAR_ALLOC.search(loops), loops
    rng = np.random.default_rng(9)
    check_numerics(model, [{"x": rng.standard_normal((n, t, 8), np.float32)}
                           for n, t in ((2, 3), (2, 7), (1, 1))])


def test_range_of_static_dim_folds() -> None:
    """With T static the limit is a constant, and constant folding makes the range one."""
    model = torch_style_positions()
    model.graph.input[0].type.tensor_type.shape.dim[1].dim_value = 5
    counts = optimized_counts(model, ["graph-optimize{level=2}"])
    assert counts["graph.range"] == 0 and counts["shape.of"] == 1, counts  # N's
    rng = np.random.default_rng(10)
    check_numerics(model, [{"x": rng.standard_normal((n, 5, 8), np.float32)} for n in (1, 3)])

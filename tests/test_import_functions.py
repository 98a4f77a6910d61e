"""Ops that ONNX defines by a function body, imported by expanding the body: numerics against
onnxruntime, node names and error messages naming the original node, natives preferred."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx.reference import ReferenceEvaluator
from xdsl.dialects.builtin import NameLoc

import infer
from infer.dialects import graph as G
from infer.errors import UnsupportedError
from infer.frontend.onnx_import import import_model
from infer.frontend.onnx_ops import OPS, Expansion

from .helpers import check_against_onnxruntime

RNG = np.random.default_rng(0)


def model(nodes: list[onnx.NodeProto], inputs: list[tuple[str, int, list[int]]],
          opset: int) -> onnx.ModelProto:
    """One output "y" of the first input's type (ONNX infers no shape for some of these)."""
    x = inputs[0]
    graph = h.make_graph(
        nodes, "g", [h.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [h.make_tensor_value_info("y", x[1], x[2])])
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 10
    return onnx.shape_inference.infer_shapes(m, strict_mode=True)


X = ("x", T.FLOAT, [2, 3, 4])

# (id, node, inputs, opset): attributes set and left to the schema's default, optional
# inputs given and omitted
CASES = [
    ("swish_alpha", h.make_node("Swish", ["x"], ["y"], alpha=0.5), [X], 24),
    ("swish_default", h.make_node("Swish", ["x"], ["y"]), [X], 24),
    ("rms_axis1", h.make_node("RMSNormalization", ["x", "s"], ["y"], axis=1, epsilon=1e-3),
     [X, ("s", T.FLOAT, [3, 4])], 23),
    ("rms_default", h.make_node("RMSNormalization", ["x", "s"], ["y"]),
     [X, ("s", T.FLOAT, [4])], 23),
    ("mvn_axes", h.make_node("MeanVarianceNormalization", ["x"], ["y"], axes=[0, 2]),
     [X], 13),
    ("castlike", h.make_node("CastLike", ["t", "x"], ["y"]),
     [("x", T.FLOAT, [2, 3]), ("t", T.DOUBLE, [2, 3])], 21),
    ("group_norm", h.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=3,
                               epsilon=1e-2),
     [("x", T.FLOAT, [2, 6, 5]), ("s", T.FLOAT, [6]), ("b", T.FLOAT, [6])], 21),
    ("attention_causal", h.make_node("Attention", ["q", "k", "v"], ["y"], is_causal=1),
     [("q", T.FLOAT, [1, 2, 3, 4]), ("k", T.FLOAT, [1, 2, 5, 4]),
      ("v", T.FLOAT, [1, 2, 5, 4])], 23),
    ("attention_3d_heads", h.make_node("Attention", ["q", "k", "v", "", "pk", "pv"],
                                       ["y", "pk1", "pv1"], q_num_heads=2, kv_num_heads=2,
                                       scale=0.3),
     [("q", T.FLOAT, [2, 3, 8]), ("k", T.FLOAT, [2, 5, 8]), ("v", T.FLOAT, [2, 5, 8]),
      ("pk", T.FLOAT, [2, 2, 1, 4]), ("pv", T.FLOAT, [2, 2, 1, 4])], 23),
]


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_expanded_op_matches_onnxruntime(case: tuple) -> None:
    _, node, inputs, opset = case
    m = model([node], inputs, opset)
    feeds = {n: RNG.standard_normal(s).astype(onnx.helper.tensor_dtype_to_np_dtype(t))
             for n, t, s in inputs}
    check_against_onnxruntime(m, feeds)


def test_body_names_derive_from_the_node_and_meet_no_graph_name() -> None:
    """Body nodes are named after the node; their values' prefix avoids the graph's names
    (here "s/t", which a body value "t" of node "s" would otherwise take)."""
    nodes = [h.make_node("Swish", ["x"], ["s/t"], name="s", alpha=2.0),
             h.make_node("Swish", ["s/t"], ["y"], name="u")]
    m = model(nodes, [X], 24)
    check_against_onnxruntime(m, {"x": RNG.standard_normal([2, 3, 4]).astype(np.float32)})
    ops = list(import_model(m).walk())
    names = {op.location.desc.data for op in ops if isinstance(op.location, NameLoc)}
    assert {"s/2/0", "u/0"} <= names and "s/0" not in names


def test_failing_body_node_names_the_original_node() -> None:
    # HannWindow's body casts the window to its output type: complex, which infer lacks
    node = h.make_node("HannWindow", ["n"], ["y"], name="window",
                       output_datatype=T.COMPLEX64)
    graph = h.make_graph([node], "g", [h.make_tensor_value_info("n", T.INT64, [])],
                         [h.make_tensor_value_info("y", T.COMPLEX64, [None])])
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)])
    with pytest.raises(UnsupportedError) as info:
        import_model(m)
    message = str(info.value)
    assert message.startswith("unsupported op 'HannWindow' (node 'window', opset 17): "
                              "expanded body: unsupported op 'Cast' (node 'window/")
    assert message.endswith("element type COMPLEX64 is not supported")


def test_native_importer_wins_over_the_body() -> None:
    assert not isinstance(OPS["Softmax"][13], Expansion)
    m = model([h.make_node("Softmax", ["x"], ["y"])], [X], 13)
    kinds = {type(op) for op in import_model(m).walk()}
    assert G.SoftmaxOp in kinds and G.ExpOp not in kinds


@pytest.mark.slow
def test_previewed_op_is_imported_by_its_body() -> None:
    """FlexAttention (domain ai.onnx.preview) has a body stated in the model's default
    opset: imported by expanding it, it matches ONNX's reference at two sequence lengths."""
    node = h.make_node("FlexAttention", ["q", "k", "v"], ["y"], domain="ai.onnx.preview")
    shapes = {"q": [1, 2, "L", 8], "k": [1, 2, "S", 8], "v": [1, 2, "S", 8]}
    graph = h.make_graph([node], "g", [h.make_tensor_value_info(n, T.FLOAT, s)
                                       for n, s in shapes.items()],
                         [h.make_tensor_value_info("y", T.FLOAT, [1, 2, "L", 8])])
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", 26),
                                           h.make_opsetid("ai.onnx.preview", 1)])
    m.ir_version = 11
    compiled = infer.compile(m)
    for length, span in ((3, 5), (4, 2)):
        feeds = {n: RNG.standard_normal([1, 2, length if n == "q" else span, 8])
                 .astype(np.float32) for n in shapes}
        (want,) = ReferenceEvaluator(m).run(None, feeds)
        np.testing.assert_allclose(compiled.run(feeds)["y"], want, rtol=1e-5, atol=1e-6)

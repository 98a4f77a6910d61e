"""Transformer fusions (LayerNorm, Erf GELU, attention): the fused ops appear, the
decomposed ones are gone, and results match onnxruntime on the unfused model."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper
from xdsl.dialects.builtin import ModuleOp

from infer.api import compile_module
from infer.context import make_context
from infer.errors import UnsupportedError
from infer.frontend.onnx_import import import_model
from infer.runtime.compiled_model import CompiledModel
from infer.transforms.graph_optimize import optimize
from infer.transforms.transformer_fusion import TransformerFusionPass, patterns

from .helpers import check_against_onnxruntime, run_onnxruntime

RNG = np.random.default_rng(0)
MODELS = Path(__file__).parent / "models"


def f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def init(name: str, value: np.ndarray | float) -> onnx.TensorProto:
    return numpy_helper.from_array(np.asarray(value, dtype=np.float32), name)


def model(
    nodes: Sequence[onnx.NodeProto],
    inputs: Sequence[tuple[str, Sequence[int | str]]],
    inits: Sequence[onnx.TensorProto] = (),
    opset: int = 13,
) -> onnx.ModelProto:
    """A float32 model with output `y`, its type inferred by ONNX."""
    g = helper.make_graph(
        list(nodes),
        "fusion",
        [helper.make_tensor_value_info(n, TP.FLOAT, list(s)) for n, s in inputs],
        [helper.make_tensor_value_info("y", TP.FLOAT, None)],
        list(inits),
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    m = onnx.shape_inference.infer_shapes(m, strict_mode=True)
    onnx.checker.check_model(m)
    return m


def graph_ops(module: ModuleOp) -> Counter[str]:
    return Counter(op.name for op in module.walk() if op.name.startswith("graph."))


def fused(m: onnx.ModelProto) -> tuple[Counter[str], CompiledModel]:
    """Import and run transformer-fusion alone: the op counts and the model compiled
    without further graph optimization."""
    module = import_model(m)
    TransformerFusionPass().apply(make_context(), module)
    module.verify()
    return graph_ops(module), compile_module(module, opt_level=0)


def check_unfused(m: onnx.ModelProto, feeds: Mapping[str, np.ndarray]) -> None:
    """The decomposed chain compiled as is (opt_level 0) also matches onnxruntime."""
    ours = compile_module(import_model(m), opt_level=0).run(dict(feeds))
    for a, b in zip(ours.values(), run_onnxruntime(m, feeds), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def check_fused(
    m: onnx.ModelProto,
    feeds: Mapping[str, np.ndarray],
    present: Mapping[str, int],
    gone: Sequence[str],
    rtol: float = 1e-4,
    atol: float = 1e-5,
) -> None:
    counts, compiled = fused(m)
    for name, n in present.items():
        assert counts[name] == n, f"{name}: {counts[name]} != {n} in {dict(counts)}"
    for name in gone:
        assert counts[name] == 0, f"{name} left after fusion: {dict(counts)}"
    ours = compiled.run(dict(feeds))
    theirs = run_onnxruntime(m, feeds)
    for (name, a), b in zip(ours.items(), theirs, strict=True):
        assert a.shape == b.shape, name
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=name)


def test_patterns_by_level() -> None:
    assert patterns(0) == [] and patterns(1) == []
    assert {type(p).__name__ for p in patterns(2)} == {"FuseLayerNorm", "FuseGelu",
                                                      "FuseAttention"}


# ---------------------------------------------------------------------------------------
# LayerNorm
# ---------------------------------------------------------------------------------------


def layer_norm_nodes(
    x: str, out: str, k: int = 1, square: str = "Pow", gamma: bool = True, beta: bool = True,
    opset: int = 13, tag: str = "ln",
) -> tuple[list[onnx.NodeProto], list[onnx.TensorProto]]:
    """PyTorch's decomposed LayerNorm over the last k axes (ReduceMean axes as at `opset`)."""
    axes = list(range(-k, 0))
    t = lambda s: f"{tag}_{s}"  # noqa: E731 - a local name maker
    inits = [init(t("eps"), 1e-5), init(t("two"), 2.0)]

    def reduce_mean(src: str, dst: str) -> onnx.NodeProto:
        if opset >= 18:
            return helper.make_node("ReduceMean", [src, t("axes")], [dst])
        return helper.make_node("ReduceMean", [src], [dst], axes=axes)

    if opset >= 18:
        inits.append(numpy_helper.from_array(np.array(axes, np.int64), t("axes")))
    nodes = [
        reduce_mean(x, t("mean")),
        helper.make_node("Sub", [x, t("mean")], [t("d")]),
        helper.make_node("Pow", [t("d"), t("two")], [t("sq")]) if square == "Pow"
        else helper.make_node("Mul", [t("d"), t("d")], [t("sq")]),
        reduce_mean(t("sq"), t("var")),
        helper.make_node("Add", [t("var"), t("eps")], [t("ve")]),
        helper.make_node("Sqrt", [t("ve")], [t("std")]),
        helper.make_node("Div", [t("d"), t("std")], [t("n")]),
    ]
    cur = t("n")
    if gamma:
        nodes.append(helper.make_node("Mul", [cur, t("g")], [t("s")]))
        cur = t("s")
    if beta:
        nodes.append(helper.make_node("Add", [t("b"), cur], [t("o")]))  # commuted
        cur = t("o")
    nodes.append(helper.make_node("Identity", [cur], [out]))
    return nodes, inits


@pytest.mark.parametrize(
    ("k", "square", "gamma", "beta", "opset"),
    [
        (1, "Pow", True, True, 13),
        (1, "Mul", True, True, 18),
        (2, "Pow", True, False, 13),
        (1, "Pow", False, True, 13),
        (1, "Mul", False, False, 13),
    ],
)
def test_layer_norm_fusion(k: int, square: str, gamma: bool, beta: bool, opset: int) -> None:
    shape = [3, 5, 16]
    nodes, inits = layer_norm_nodes("x", "y", k, square, gamma, beta, opset)
    feature = shape[-k:]
    inits += [init("ln_g", f32(*feature)), init("ln_b", f32(*feature))]
    m = model(nodes, [("x", ["N", 5, 16])], inits, opset)
    check_fused(
        m, {"x": f32(*shape) * 3 + 1}, {"graph.layer_normalization": 1},
        ["graph.reduce_mean", "graph.pow", "graph.sqrt", "graph.div", "graph.sub"],
    )


def test_layer_norm_not_fused_over_a_leading_axis() -> None:
    """Mean and variance over axis 1 of 3: an instance-norm-like chain, not a LayerNorm."""
    nodes, inits = layer_norm_nodes("x", "y", 1, gamma=False, beta=False)
    for n in nodes:
        if n.op_type == "ReduceMean":
            n.attribute[0].ints[:] = [1]
    m = model(nodes, [("x", [2, 4, 6])], inits)
    counts, _ = fused(m)
    assert counts["graph.layer_normalization"] == 0
    check_unfused(m, {"x": f32(2, 4, 6)})


@pytest.mark.parametrize(
    ("axis", "shape", "bias"), [(-1, [2, 5, 16], True), (1, [2, 3, 4], False), (0, [3, 4], True)]
)
def test_layer_normalization_op(axis: int, shape: list[int], bias: bool) -> None:
    """ONNX LayerNormalization (opset 17) imported as graph.layer_normalization."""
    feature = shape[axis:]
    inits = [init("g", f32(*feature)), init("b", f32(*feature))][: 2 if bias else 1]
    node = helper.make_node("LayerNormalization", ["x", *[i.name for i in inits]], ["y"],
                            axis=axis, epsilon=1e-3)
    m = model([node], [("x", shape)], inits, opset=17)
    check_against_onnxruntime(m, {"x": f32(*shape)})


@pytest.mark.parametrize("outputs", [["y", "mean"], ["y", "mean", "inv_std"], ["y", "", "inv_std"]])
def test_layer_normalization_statistics(outputs: list[str]) -> None:
    """Mean and InvStdDev (X's shape with the normalized dims 1), at run-time sizes."""
    node = helper.make_node("LayerNormalization", ["x", "g"], outputs, axis=1)
    m = model([node], [("x", ["N", 3, 4])], [init("g", f32(3, 4))], opset=17)
    for name in outputs[1:]:
        if name:
            m.graph.output.append(helper.make_tensor_value_info(name, TP.FLOAT, ["N", 1, 1]))
    check_against_onnxruntime(m, [{"x": f32(n, 3, 4)} for n in (1, 5)])


def test_layer_normalization_statistics_of_f16_unsupported() -> None:
    node = helper.make_node("LayerNormalization", ["x", "g"], ["y", "mean"])
    x = helper.make_tensor_value_info("x", TP.FLOAT16, [2, 4])
    graph = helper.make_graph(
        [node], "ln", [x],
        [helper.make_tensor_value_info(n, t, s) for n, t, s in
         (("y", TP.FLOAT16, [2, 4]), ("mean", TP.FLOAT, [2, 1]))],
        [numpy_helper.from_array(np.ones(4, np.float16), "g")])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    with pytest.raises(UnsupportedError, match="Mean and InvStdDev"):
        import_model(m)


# ---------------------------------------------------------------------------------------
# GELU
# ---------------------------------------------------------------------------------------

SQRT2 = np.float32(np.sqrt(2.0))


def gelu_nodes(x: str, out: str, order: str, tag: str = "gelu") -> list[onnx.NodeProto]:
    """Erf GELU in one of the orderings exporters produce."""
    t = lambda s: f"{tag}_{s}"  # noqa: E731
    inner = (helper.make_node("Mul", [x, t("inv_sqrt2")], [t("a")]) if order == "mul_inv"
             else helper.make_node("Div", [x, t("sqrt2")], [t("a")]))
    nodes = [inner, helper.make_node("Erf", [t("a")], [t("e")]),
             helper.make_node("Add", [t("one"), t("e")], [t("p")])]
    if order in ("torch", "mul_inv"):  # (x * (1 + erf)) * 0.5
        nodes += [helper.make_node("Mul", [x, t("p")], [t("q")]),
                  helper.make_node("Mul", [t("q"), t("half")], [out])]
    elif order == "half_first":  # (0.5 * x) * (1 + erf)
        nodes += [helper.make_node("Mul", [t("half"), x], [t("h")]),
                  helper.make_node("Mul", [t("h"), t("p")], [out])]
    else:  # x * ((1 + erf) * 0.5)
        nodes += [helper.make_node("Mul", [t("p"), t("half")], [t("q")]),
                  helper.make_node("Mul", [x, t("q")], [out])]
    return nodes


def gelu_inits(tag: str = "gelu") -> list[onnx.TensorProto]:
    return [init(f"{tag}_sqrt2", SQRT2), init(f"{tag}_inv_sqrt2", 1 / SQRT2),
            init(f"{tag}_one", 1.0), init(f"{tag}_half", 0.5)]


@pytest.mark.parametrize("order", ["torch", "mul_inv", "half_first", "half_on_erf"])
def test_gelu_fusion(order: str) -> None:
    used = {"torch", "half_first", "half_on_erf"}
    inits = [i for i in gelu_inits() if not (i.name == "gelu_inv_sqrt2" and order in used)
             and not (i.name == "gelu_sqrt2" and order == "mul_inv")]
    m = model(gelu_nodes("x", "y", order), [("x", ["N", 32])], inits)
    check_fused(m, {"x": f32(4, 32) * 3}, {"graph.gelu": 1},
                ["graph.erf", "graph.mul", "graph.div", "graph.add"])


# ---------------------------------------------------------------------------------------
# Attention
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scale_at", "mask", "kt_given"),
    [
        ("scores_div", True, False),
        ("scores_mul", False, False),
        ("q_and_k", True, False),
        ("q", False, True),
        ("none", True, True),
    ],
)
def test_attention_fusion(scale_at: str, mask: bool, kt_given: bool) -> None:
    b, h, m_, n, d = 2, 3, 5, 7, 8
    nodes: list[onnx.NodeProto] = []
    inits = [init("c", np.sqrt(d)), init("rc", 1 / np.sqrt(d)), init("r4", d ** -0.25)]
    q, k = "q", "k"
    if scale_at == "q_and_k":  # PyTorch's SDPA export: d^-1/4 on each of Q and K^T
        nodes.append(helper.make_node("Mul", ["q", "r4"], ["qs"]))
        q = "qs"
    if scale_at == "q":
        nodes.append(helper.make_node("Div", ["q", "c"], ["qs"]))
        q = "qs"
    if not kt_given:
        nodes.append(helper.make_node("Transpose", [k], ["kt"], perm=[0, 1, 3, 2]))
        k = "kt"
    if scale_at == "q_and_k":
        nodes.append(helper.make_node("Mul", ["r4", k], ["ks"]))
        k = "ks"
    nodes.append(helper.make_node("MatMul", [q, k], ["s"]))
    s = "s"
    if scale_at == "scores_div":
        nodes.append(helper.make_node("Div", [s, "c"], ["s2"]))
        s = "s2"
    if scale_at == "scores_mul":
        nodes.append(helper.make_node("Mul", ["rc", s], ["s2"]))
        s = "s2"
    if mask:
        nodes.append(helper.make_node("Add", [s, "mask"], ["s3"]))
        s = "s3"
    nodes += [helper.make_node("Softmax", [s], ["p"], axis=-1),
              helper.make_node("MatMul", ["p", "v"], ["y"])]
    k_shape = [b, h, d, n] if kt_given else [b, h, n, d]
    inputs = [("q", ["B", h, m_, d]), ("k", ["B", *k_shape[1:]]), ("v", ["B", h, n, d])]
    feeds = {"q": f32(b, h, m_, d), "k": f32(*k_shape), "v": f32(b, h, n, d)}
    if mask:
        inputs.append(("mask", [1, 1, m_, n]))
        feeds["mask"] = np.where(np.tril(np.ones((m_, n))) > 0, 0, -1e4).astype(np.float32)[
            None, None]
    m = model(nodes, inputs, inits)
    check_fused(m, feeds, {"graph.attention": 1},
                ["graph.softmax", "graph.matmul", "graph.transpose", "graph.div"])


def test_attention_3d_kt_shared() -> None:
    """A K^T read by another op stays; the attention reads K and needs no transpose."""
    nodes = [helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
             helper.make_node("MatMul", ["q", "kt"], ["s"]),
             helper.make_node("Softmax", ["s"], ["p"], axis=2),
             helper.make_node("MatMul", ["p", "v"], ["a"]),
             helper.make_node("ReduceMax", ["kt"], ["ks"], axes=[1, 2], keepdims=1),
             helper.make_node("Add", ["a", "ks"], ["y"])]
    m = model(nodes, [("q", [2, 4, 6]), ("k", [2, 5, 6]), ("v", [2, 5, 3])])
    check_fused(m, {"q": f32(2, 4, 6), "k": f32(2, 5, 6), "v": f32(2, 5, 3)},
                {"graph.attention": 1, "graph.transpose": 1}, ["graph.softmax"])


# ---------------------------------------------------------------------------------------
# A tiny transformer block: LayerNorm, multi-head attention, LayerNorm, GELU MLP
# ---------------------------------------------------------------------------------------


def transformer_block(s: int = 6, e: int = 16, heads: int = 2) -> onnx.ModelProto:
    dh = e // heads
    nodes, inits = layer_norm_nodes("x", "h1", tag="ln1")
    inits += [init("ln1_g", f32(e)), init("ln1_b", f32(e))]
    for w in "qkvo":
        inits.append(init(f"w{w}", f32(e, e) / np.sqrt(e)))
    inits += [init("w1", f32(e, 4 * e) / np.sqrt(e)), init("w2", f32(4 * e, e) / np.sqrt(4 * e)),
              init("b1", f32(4 * e)), init("scale", np.sqrt(dh)),
              numpy_helper.from_array(np.array([0, 0, heads, dh], np.int64), "heads_shape"),
              numpy_helper.from_array(np.array([0, 0, e], np.int64), "merged_shape"),
              init("mask", np.where(np.tril(np.ones((s, s))) > 0, 0, -1e9)[None, None])]
    for w in "qkv":
        nodes += [helper.make_node("MatMul", ["h1", f"w{w}"], [f"{w}0"]),
                  helper.make_node("Reshape", [f"{w}0", "heads_shape"], [f"{w}1"])]
    nodes += [
        helper.make_node("Transpose", ["q1"], ["q"], perm=[0, 2, 1, 3]),
        helper.make_node("Transpose", ["k1"], ["kt"], perm=[0, 2, 3, 1]),  # K^T directly
        helper.make_node("Transpose", ["v1"], ["v"], perm=[0, 2, 1, 3]),
        helper.make_node("MatMul", ["q", "kt"], ["sc"]),
        helper.make_node("Div", ["sc", "scale"], ["ss"]),
        helper.make_node("Add", ["ss", "mask"], ["sm"]),
        helper.make_node("Softmax", ["sm"], ["p"], axis=3),
        helper.make_node("MatMul", ["p", "v"], ["att"]),
        helper.make_node("Transpose", ["att"], ["att_t"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["att_t", "merged_shape"], ["att_m"]),
        helper.make_node("MatMul", ["att_m", "wo"], ["proj"]),
        helper.make_node("Add", ["x", "proj"], ["r1"]),
    ]
    ln2, ln2_inits = layer_norm_nodes("r1", "h2", square="Mul", tag="ln2")
    nodes += ln2
    inits += ln2_inits + [init("ln2_g", f32(e)), init("ln2_b", f32(e))]
    nodes += [helper.make_node("MatMul", ["h2", "w1"], ["f0"]),
              helper.make_node("Add", ["f0", "b1"], ["f1"])]
    nodes += gelu_nodes("f1", "f2", "torch")
    inits += gelu_inits()
    nodes += [helper.make_node("MatMul", ["f2", "w2"], ["f3"]),
              helper.make_node("Add", ["r1", "f3"], ["y"])]
    return model(nodes, [("x", ["B", s, e])], inits)


@pytest.mark.slow
def test_transformer_block() -> None:
    m = transformer_block()
    feeds = {"x": f32(3, 6, 16)}
    check_fused(
        m, feeds, {"graph.layer_normalization": 2, "graph.attention": 1, "graph.gelu": 1},
        ["graph.softmax", "graph.erf", "graph.reduce_mean", "graph.sqrt", "graph.pow"],
    )
    check_unfused(m, feeds)


def test_transformer_block_through_graph_optimize() -> None:
    """The same block through the real pipeline: graph-optimize level 2 fuses all three."""
    m = transformer_block()
    module = import_model(m)
    optimize(module, 2)
    counts = graph_ops(module)
    assert counts["graph.layer_normalization"] == 2, dict(counts)
    assert counts["graph.attention"] == 1 and counts["graph.gelu"] == 1, dict(counts)
    assert counts["graph.softmax"] == counts["graph.erf"] == 0, dict(counts)
    check_against_onnxruntime(m, {"x": f32(2, 6, 16)})


@pytest.mark.slow
@pytest.mark.skipif(not (MODELS / "torch_encoder_layer.onnx").exists(),
                    reason="made by tests/models/make_torch_models.py (needs torch)")
def test_pytorch_encoder_layer() -> None:
    """nn.TransformerEncoderLayer exported by PyTorch at opset 14 (decomposed LayerNorm)."""
    m = onnx.load(MODELS / "torch_encoder_layer.onnx")
    counts, _ = fused(m)
    assert counts["graph.layer_normalization"] == 2, dict(counts)
    assert counts["graph.gelu"] == 1, dict(counts)
    assert counts["graph.attention"] == 1, dict(counts)
    check_fused(m, {"x": f32(2, 6, 16)}, {}, ["graph.softmax", "graph.erf"])
    check_against_onnxruntime(m, {"x": f32(3, 6, 16)})  # through graph-optimize level 2

"""graph_eval's numpy evaluators of conv, pools and LRN (NCHW and blocked NCHWc), which
constant folding uses, against onnxruntime: each model is imported (and optimized, for
the fused and blocked forms) and interpreted op by op with `evaluate`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from infer.dialects import graph as G
from infer.dialects.graph.evaluate import can_evaluate, evaluate
from infer.frontend.onnx_import import import_model
from infer.transforms.graph_optimize import op_counts, optimize, optimize_layout

from .helpers import make_model, node_model, run_onnxruntime

F = TensorProto.FLOAT
RNG = np.random.default_rng(0)


def _data(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def interpret(module: ModuleOp, feeds: Mapping[str, np.ndarray]) -> list[np.ndarray]:
    """Run the module's function op by op with the numpy evaluators."""
    f = next(op for op in module.body.block.ops if isinstance(op, func.FuncOp))
    values = {arg: feeds[str(arg.name_hint)] for arg in f.body.block.args}
    for op in f.body.block.ops:
        if isinstance(op, func.ReturnOp):
            return [values[v] for v in op.operands]
        if isinstance(op, G.ConstantOp):
            values[op.output] = op.numpy()
            continue
        assert can_evaluate(op), op.name
        values.update(zip(op.results, evaluate(op, [values[v] for v in op.operands]),
                          strict=True))
    raise AssertionError("no func.return")


def check(
    model: onnx.ModelProto,
    feeds: Mapping[str, np.ndarray],
    level: int = 0,
    layout: bool = False,
    expect: Sequence[str] = (),
    rtol: float = 1e-4,
    block: int = 8,
) -> Counter[str]:
    """Interpret `model` (optimized at `level`, then blocked by `block` channels if `layout`)
    and compare each output with onnxruntime's; `expect` lists graph ops the module must
    contain."""
    module = import_model(model)
    optimize(module, level)
    if layout:
        optimize_layout(module, block)
    counts = op_counts(module)
    for name in expect:
        assert counts[name] > 0, (name, dict(counts))
    ours = interpret(module, feeds)
    theirs = run_onnxruntime(model, feeds)
    for a, b in zip(ours, theirs, strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype)
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * float(np.max(np.abs(b))))
    return counts


# -- conv -------------------------------------------------------------------------------

CONVS = {
    "plain": ([1, 3, 7, 8], [4, 3, 3, 3], {}),
    "strides_pads": ([2, 3, 9, 8], [5, 3, 3, 2], {"strides": [2, 3], "pads": [1, 0, 2, 1]}),
    "dilations": ([1, 2, 10, 9], [3, 2, 3, 3], {"dilations": [2, 3], "pads": [2, 1, 0, 3]}),
    "group": ([2, 4, 6, 6], [6, 2, 3, 3], {"group": 2, "pads": [1, 1, 1, 1]}),
    "depthwise": ([1, 5, 6, 7], [5, 1, 3, 3], {"group": 5, "strides": [2, 2]}),
    "same_upper": ([1, 3, 7, 6], [2, 3, 4, 3], {"auto_pad": "SAME_UPPER", "strides": [2, 1]}),
    "1x1": ([1, 6, 4, 4], [3, 6, 1, 1], {}),
    "1d": ([2, 3, 11], [4, 3, 3], {"strides": [2], "pads": [1, 2], "dilations": [2]}),
    "3d": ([1, 2, 5, 6, 4], [3, 2, 2, 3, 2], {"pads": [1, 0, 1, 0, 1, 1]}),
}


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("name", list(CONVS))
def test_conv(name: str, bias: bool) -> None:
    x_shape, w_shape, attrs = CONVS[name]
    inits = {"w": _data(*w_shape)}
    if bias:
        inits["b"] = _data(w_shape[0])
    m = node_model("Conv", [("x", F, x_shape)], attrs, inits)
    check(m, {"x": _data(*x_shape)}, expect=["graph.conv"])


# Conv + residual Add + activation, fused at level 2 into one graph.conv with the summand
# as its 4th operand and the activation as a property.
ACTIVATIONS = [
    ("Relu", {}, 17), ("Sigmoid", {}, 17), ("Tanh", {}, 17), ("HardSwish", {}, 17),
    ("HardSigmoid", {"alpha": 0.3, "beta": 0.4}, 17), ("LeakyRelu", {"alpha": 0.2}, 17),
    ("Gelu", {}, 20), ("Gelu", {"approximate": "tanh"}, 20), ("Clip", "clip", 17),
]  # fmt: skip


@pytest.mark.parametrize("act, attrs, opset", ACTIVATIONS)
def test_conv_fused_summand_and_activation(act: str, attrs: object, opset: int) -> None:
    inits = [numpy_helper.from_array(_data(4, 3, 3, 3), "w"),
             numpy_helper.from_array(_data(4), "b")]  # fmt: skip
    act_inputs = ["s"]
    if attrs == "clip":
        inits += [numpy_helper.from_array(np.array(v, np.float32), n)
                  for n, v in (("lo", -0.5), ("hi", 0.7))]  # fmt: skip
        act_inputs += ["lo", "hi"]
        attrs = {}
    assert isinstance(attrs, dict)
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Add", ["c", "z"], ["s"]),
        helper.make_node(act, act_inputs, ["y"], **attrs),
    ]
    m = make_model(nodes, [("x", F, [2, 3, 5, 6]), ("z", F, [2, 4, 5, 6])],
                   [("y", F, [2, 4, 5, 6])], inits, opset=opset)  # fmt: skip
    counts = check(m, {"x": _data(2, 3, 5, 6), "z": _data(2, 4, 5, 6)}, level=2)
    assert counts == Counter({"graph.conv": 1, "graph.constant": 2}), counts


# -- pools ------------------------------------------------------------------------------

POOLS = {
    "plain": ([1, 2, 6, 7], {"kernel_shape": [2, 2]}),
    "strides_pads": ([2, 3, 7, 8], {"kernel_shape": [3, 2], "strides": [2, 2],
                                    "pads": [1, 0, 1, 1]}),
    "ceil": ([1, 2, 7, 8], {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1}),
    "ceil_pads": ([1, 2, 6, 9], {"kernel_shape": [3, 2], "strides": [2, 3], "pads": [1, 1, 1, 0],
                                 "ceil_mode": 1}),
    "dilations": ([1, 2, 9, 8], {"kernel_shape": [2, 3], "dilations": [2, 2],
                                 "pads": [1, 1, 0, 2]}),
    "1d": ([2, 3, 10], {"kernel_shape": [3], "strides": [2], "pads": [1, 1]}),
    "3d": ([1, 2, 5, 4, 6], {"kernel_shape": [2, 2, 3], "strides": [1, 2, 2],
                             "pads": [1, 0, 1, 0, 1, 1]}),
}  # fmt: skip


@pytest.mark.parametrize("name", list(POOLS))
def test_max_pool(name: str) -> None:
    shape, attrs = POOLS[name]
    m = node_model("MaxPool", [("x", F, shape)], attrs, opset=12)
    check(m, {"x": _data(*shape)}, expect=["graph.max_pool"])


@pytest.mark.parametrize("include_pad", [0, 1])
@pytest.mark.parametrize("name", list(POOLS))
def test_average_pool(name: str, include_pad: int) -> None:
    shape, attrs = POOLS[name]
    m = node_model("AveragePool", [("x", F, shape)],
                   {**attrs, "count_include_pad": include_pad}, opset=19)  # fmt: skip
    check(m, {"x": _data(*shape)}, expect=["graph.average_pool"])


@pytest.mark.parametrize("op", ["GlobalMaxPool", "GlobalAveragePool"])
@pytest.mark.parametrize("shape", [[2, 3, 5, 4], [1, 4, 7], [1, 2, 3, 4, 2]])
def test_global_pool(op: str, shape: list[int]) -> None:
    m = node_model(op, [("x", F, shape)])
    check(m, {"x": _data(*shape)})


@pytest.mark.parametrize("size", [1, 3, 5])
def test_lrn(size: int) -> None:
    attrs = {"size": size, "alpha": 0.01, "beta": 0.6, "bias": 1.5}
    m = node_model("LRN", [("x", F, [2, 6, 3, 4])], attrs)
    check(m, {"x": _data(2, 6, 3, 4) * 3}, expect=["graph.lrn"])


def test_lrn_even_size() -> None:
    """onnxruntime takes odd sizes only: an even window against the ONNX spec's formula,
    channel by channel (onnx's reference implementation loops over the wrong axis)."""
    size, alpha, beta, bias = 4, 0.02, 0.7, 1.0
    m = node_model("LRN", [("x", F, [1, 7, 2, 3])], {"size": size, "alpha": alpha, "beta": beta})
    x = _data(1, 7, 2, 3) * 3
    (ours,) = interpret(import_model(m), {"x": x})
    ref = np.empty_like(x)
    for c in range(7):  # the window [c - floor((size-1)/2), c + ceil((size-1)/2)]
        sq = np.sum(x[:, max(0, c - 1) : c + 3] ** 2, axis=1)
        ref[:, c] = x[:, c] / (bias + alpha / size * sq) ** beta
    np.testing.assert_allclose(ours, ref, rtol=1e-5)


# -- blocked (NCHWc) --------------------------------------------------------------------


def test_blocked_ops() -> None:
    """Level 3's layout: reorders, blocked convs (one with a summand and an activation,
    one depthwise) and blocked pools, all interpreted through NCHW."""
    # blocks of 8: the 8-channel input is reordered in (with 16 its
    # conv would read it as NCHW, as test_blocked_stem does)
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[3, 3], strides=[2, 2],
                         pads=[1, 1, 1, 1], ceil_mode=1),
        helper.make_node("Conv", ["p1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], group=16),
        helper.make_node("Add", ["c2", "p1"], ["s"]),
        helper.make_node("Relu", ["s"], ["r2"]),
        helper.make_node("AveragePool", ["r2"], ["p2"], kernel_shape=[2, 2], pads=[0, 0, 1, 1]),
        helper.make_node("LRN", ["p2"], ["y"], size=3),  # needs NCHW: a reorder back
    ]
    inits = [numpy_helper.from_array(a, n) for n, a in [
        ("w1", _data(16, 8, 3, 3)), ("b1", _data(16)), ("w2", _data(16, 1, 3, 3)),
        ("b2", _data(16))]]  # fmt: skip
    m = make_model(nodes, [("x", F, [1, 8, 9, 10])], [("y", F, [1, 16, 5, 6])], inits)
    blocked = ["graph.to_nchwc", "graph.conv_nchwc", "graph.max_pool_nchwc",
               "graph.average_pool_nchwc", "graph.from_nchwc"]  # fmt: skip
    counts = check(m, {"x": _data(1, 8, 9, 10)}, level=2, layout=True, expect=blocked)
    assert counts["graph.conv"] == 0, counts


@pytest.mark.parametrize("block", [8, 16])
def test_blocked_stem(block: int) -> None:
    """An image stem (3 channels, 7x7 stride 2, bias, summand, ReLU) blocked on its NCHW
    input: conv_nchwc reads x as is, only the summand is reordered in."""
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], strides=[2, 2], pads=[3, 3, 3, 3]),
        helper.make_node("Add", ["c", "z"], ["s"]),
        helper.make_node("Relu", ["s"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["y"], kernel_shape=[3, 3], strides=[2, 2],
                         pads=[1, 1, 1, 1]),
    ]
    inits = [numpy_helper.from_array(_data(32, 3, 7, 7), "w"),
             numpy_helper.from_array(_data(32), "b")]  # fmt: skip
    m = make_model(nodes, [("x", F, [2, 3, 13, 17]), ("z", F, [2, 32, 7, 9])],
                   [("y", F, [2, 32, 4, 5])], inits)
    feeds = {"x": _data(2, 3, 13, 17), "z": _data(2, 32, 7, 9)}
    counts = check(m, feeds, level=2, layout=True, block=block,
                   expect=["graph.conv_nchwc", "graph.max_pool_nchwc"])
    assert counts["graph.conv"] == 0 and counts["graph.to_nchwc"] == 1, counts


# -- folding ----------------------------------------------------------------------------


def test_conv_of_constants_folds() -> None:
    """A conv (then a pool) on constants folds at level 1 to the value onnxruntime gets."""
    nodes = [helper.make_node("Conv", ["c", "w"], ["t"], pads=[1, 1, 1, 1], strides=[2, 2]),
             helper.make_node("MaxPool", ["t"], ["p"], kernel_shape=[2, 2]),
             helper.make_node("Add", ["x", "p"], ["y"])]  # fmt: skip
    inits = [numpy_helper.from_array(_data(1, 3, 8, 8), "c"),
             numpy_helper.from_array(_data(4, 3, 3, 3), "w")]  # fmt: skip
    m = make_model(nodes, [("x", F, [1, 4, 3, 3])], [("y", F, [1, 4, 3, 3])], inits)
    counts = check(m, {"x": _data(1, 4, 3, 3)}, level=1)
    assert counts == Counter({"graph.constant": 1, "graph.add": 1}), counts


# ONNX's clamping for a negative step: start in [0, n - 1], end in [-1, n - 1], where -1
# (after adding n to a negative end) means before the first element, not the last one.
SLICES = {
    "reverse": ([-1], [np.iinfo(np.int64).min], [-1]),
    "reverse_to_start": ([4], [-9], [-2]),
    "reverse_part": ([-2], [0], [-1]),
    "forward": ([1], [-1], [2]),
}


@pytest.mark.parametrize("name", list(SLICES))
def test_slice(name: str) -> None:
    starts, ends, steps = (np.array(v, np.int64) for v in SLICES[name])
    inits = [numpy_helper.from_array(v, n) for v, n in
             ((starts, "s"), (ends, "e"), (np.array([1], np.int64), "a"), (steps, "p"))]
    model = make_model([helper.make_node("Slice", ["x", "s", "e", "a", "p"], ["y"])],
                       [("x", TensorProto.FLOAT, [2, 5])], [("y", TensorProto.FLOAT, [2, "k"])],
                       inits)
    check(model, {"x": _data(2, 5)})

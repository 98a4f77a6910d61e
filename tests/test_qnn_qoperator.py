"""onnxruntime's QOperator ops of its com.microsoft domain (QGemm, QLinearAdd, QLinearMul,
QLinearConcat, the QLinear pools and activations), one node each, against onnxruntime
bit for bit; and QDQ patterns with an activation between the op and its quantize, which
onnxruntime's quantizer never writes but other exporters do."""

from __future__ import annotations

from typing import cast

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue

import infer
from infer.dialects import graph as G
from infer.dialects import qnn as Q
from infer.dialects.graph.evaluate import evaluate
from infer.frontend.onnx_import import import_model
from infer.transforms.graph_optimize import op_counts, optimize

from .helpers import check_against_onnxruntime, run_onnxruntime, s8_weights

R = np.random.default_rng(11)
U8, I8, F = TP.UINT8, TP.INT8, TP.FLOAT
MS = "com.microsoft"


def _model(node: onnx.NodeProto, inputs: list[tuple[str, int, list[int]]],
           output: tuple[str, int, list[int]], inits: dict[str, np.ndarray]
           ) -> onnx.ModelProto:
    graph = helper.make_graph(
        [node], "q", [helper.make_tensor_value_info(*i) for i in inputs],
        [helper.make_tensor_value_info(*output)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid(MS, 1)])
    model.ir_version = 8
    return model


def _q(dtype: type, *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return R.integers(info.min, info.max + 1, shape, dtype=dtype)


def _f(value: float) -> np.ndarray:
    return np.array(value, np.float32)


@pytest.mark.parametrize(("op", "dtype", "b_shape"), [
    ("QLinearAdd", np.uint8, [3, 1, 5]), ("QLinearAdd", np.int8, [1]),
    ("QLinearMul", np.uint8, [5]), ("QLinearMul", np.int8, [2, 3, 4, 5])])
def test_binary(op: str, dtype: type, b_shape: list[int]) -> None:
    """a (2,3,4,5) with b broadcast against it (or one element); the result's scale
    small enough that values saturate at both ends. The scales are calibration-like
    (no short binary fractions): on exact halves onnxruntime's AVX2 QLinearAdd, a fused
    multiply-add of the raw values by the scale ratios, rounds some the other way than
    the formula qnn.add computes (one step, see test_add_halves)."""
    t = U8 if dtype == np.uint8 else I8
    zero = 128 if dtype == np.uint8 else 0
    inits = {"sa": _f(0.0513), "za": np.array(zero + 3, dtype), "b": _q(dtype, *b_shape),
             "sb": _f(0.0217), "zb": np.array(zero - 7, dtype),
             "sy": _f(0.0419 if op == "QLinearAdd" else 0.0311),
             "zy": np.array(zero + 1, dtype)}
    node = helper.make_node(op, ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"], ["y"],
                            domain=MS)
    model = _model(node, [("a", t, [2, 3, 4, 5])], ("y", t, [2, 3, 4, 5]), inits)
    check_against_onnxruntime(model, [{"a": _q(dtype, 2, 3, 4, 5)} for _ in range(2)])


def test_add_halves() -> None:
    """Scale ratios 1.25 and 0.5 put many sums on exact halves: qnn.add rounds
    round_half_even((sa (a - za) + sb (b - zb)) / sy), the spec's formula, and is within
    one step of onnxruntime everywhere, equal on most elements."""
    inits = {"sa": _f(0.05), "za": np.array(131, np.uint8), "b": _q(np.uint8, 4000),
             "sb": _f(0.02), "zb": np.array(121, np.uint8), "sy": _f(0.04),
             "zy": np.array(129, np.uint8)}
    node = helper.make_node("QLinearAdd", ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"],
                            ["y"], domain=MS)
    model = _model(node, [("a", U8, [4000])], ("y", U8, [4000]), inits)
    a = _q(np.uint8, 4000)
    (ours,) = infer.compile(model).run({"a": a}).values()
    (theirs,) = run_onnxruntime(model, {"a": a})
    diff = np.abs(ours.astype(np.int32) - theirs)
    assert diff.max() <= 1 and np.mean(diff == 0) >= 0.8, np.mean(diff == 0)


def test_mul_halves() -> None:
    """Products on exact halves of a step: the zero point is added before rounding, as
    onnxruntime's QLinearMul does, so these round as its do."""
    inits = {"sa": _f(0.05), "za": np.array(131, np.uint8), "b": _q(np.uint8, 5),
             "sb": _f(0.02), "zb": np.array(121, np.uint8), "sy": _f(0.03),
             "zy": np.array(129, np.uint8)}
    node = helper.make_node("QLinearMul", ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"],
                            ["y"], domain=MS)
    model = _model(node, [("a", U8, [800, 5])], ("y", U8, [800, 5]), inits)
    check_against_onnxruntime(model, {"a": _q(np.uint8, 800, 5)})


@pytest.mark.parametrize(("trans_a", "alpha", "with_y"), [(0, 1.0, True), (1, 0.5, True),
                                                          (0, 2.0, False)])
def test_qgemm(trans_a: int, alpha: float, with_y: bool) -> None:
    """u8 a times s8 b (transposed, per column scale and zero point 0) plus an int32
    bias; requantized to u8, or the f32 result where y_scale is absent."""
    m, k, n = 3, 16, 6
    inits = {"sa": _f(0.03), "za": np.array(120, np.uint8), "b": s8_weights(R, n, k),
             "sb": R.uniform(0.005, 0.02, n).astype(np.float32),
             "zb": np.zeros(n, np.int8), "c": R.integers(-500, 500, n).astype(np.int32)}
    names = ["a", "sa", "za", "b", "sb", "zb", "c"]
    if with_y:
        inits |= {"sy": _f(0.2), "zy": np.array(100, np.uint8)}
        names += ["sy", "zy"]
    node = helper.make_node("QGemm", names, ["y"], domain=MS, transA=trans_a, transB=1,
                            alpha=alpha)
    a_shape = [k, m] if trans_a else [m, k]
    model = _model(node, [("a", U8, a_shape)], ("y", U8 if with_y else F, [m, n]), inits)
    check_against_onnxruntime(model, {"a": _q(np.uint8, *a_shape)}, rtol=1e-6, atol=0)


def _qnn_values(module: ModuleOp, cls: type[Operation], feeds: dict[str, np.ndarray]
                ) -> list[np.ndarray]:
    """The numpy form of each `cls` op of `module` on its operands: the feeds by the
    function's argument names, constants, or values earlier ops of the list computed."""
    (fn,) = [op for op in module.ops if isinstance(op, func.FuncOp)]
    known: dict[SSAValue, np.ndarray] = {
        a: feeds[cast(StringAttr, attrs.data["graph.name"]).data]
        for a, attrs in zip(fn.args, fn.arg_attrs or [], strict=True)}
    out = []
    for op in fn.walk():
        if isinstance(op, cls):
            values = [known.get(v, G.constant_value(v)) for v in op.operands]
            assert all(v is not None for v in values), op
            known[op.results[0]] = evaluate(op, cast(list[np.ndarray], values))[0]
            out.append(known[op.results[0]])
    return out


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
def test_concat_of_mixed_scales(dtype: type) -> None:
    """Inputs each with a scale and zero point of its own, one of them the result's:
    qnn.concat, which requantizes the others (values saturate at both ends, some land on
    halves of a step), bit for bit, compiled and in its numpy form."""
    t = U8 if dtype == np.uint8 else I8
    zero = 128 if dtype == np.uint8 else 0
    inits = {"sy": _f(0.1), "zy": np.array(zero, dtype), "s1": _f(0.1),
             "z1": np.array(zero, dtype), "s2": _f(0.37), "z2": np.array(zero - 125, dtype),
             "b": _q(dtype, 2, 4, 3), "s3": _f(0.05), "z3": np.array(zero + 1, dtype)}
    node = helper.make_node("QLinearConcat", ["sy", "zy", "a", "s1", "z1", "b", "s2", "z2",
                                              "c", "s3", "z3"], ["y"], domain=MS, axis=1)
    model = _model(node, [("a", t, [2, 2, 3]), ("c", t, [2, 5, 3])], ("y", t, [2, 11, 3]),
                   inits)
    feeds = {"a": _q(dtype, 2, 2, 3), "c": np.arange(30).astype(dtype).reshape(2, 5, 3)}
    check_against_onnxruntime(model, feeds)
    module = import_model(model)
    (ours,) = _qnn_values(module, Q.ConcatOp, feeds)
    np.testing.assert_array_equal(ours, run_onnxruntime(model, feeds)[0])


def _qdq_model(nodes: list[onnx.NodeProto], inputs: list[tuple[str, list[int]]],
               outputs: list[tuple[str, int, list[int]]], inits: dict[str, np.ndarray]
               ) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "qdq", [helper.make_tensor_value_info(n, F, s)
                                             for n, s in inputs],
                              [helper.make_tensor_value_info(*o) for o in outputs],
                              [numpy_helper.from_array(np.asarray(v), k)
                               for k, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
def test_qdq_concat_of_scales(dtype: type) -> None:
    """Q(concat(DQ(a), DQ(b))) with a, b and the result in three scales is one
    qnn.concat, equal to onnxruntime's float DQ, Concat, Q."""
    zero = 128 if dtype == np.uint8 else 0
    inits = {"sa": _f(0.02), "za": np.array(zero + 10, dtype), "sb": _f(0.07),
             "zb": np.array(zero - 20, dtype), "sy": _f(0.045),
             "zy": np.array(zero + 3, dtype)}
    nodes = [helper.make_node("QuantizeLinear", ["a", "sa", "za"], ["qa"]),
             helper.make_node("DequantizeLinear", ["qa", "sa", "za"], ["fa"]),
             helper.make_node("QuantizeLinear", ["b", "sb", "zb"], ["qb"]),
             helper.make_node("DequantizeLinear", ["qb", "sb", "zb"], ["fb"]),
             helper.make_node("Concat", ["fa", "fb"], ["c"], axis=-1),
             helper.make_node("QuantizeLinear", ["c", "sy", "zy"], ["qy"]),
             helper.make_node("DequantizeLinear", ["qy", "sy", "zy"], ["y"])]
    model = _qdq_model(nodes, [("a", [2, 3, 4]), ("b", [2, 3, 6])], [("y", F, [2, 3, 10])],
                       inits)
    module = import_model(model)
    optimize(module, 1)
    counts = op_counts(module)
    assert counts[Q.ConcatOp.name] == 1 and "graph.concat" not in counts, counts
    rng = np.random.default_rng(3)
    feeds = [{"a": rng.normal(0, 2, (2, 3, 4)).astype(np.float32),
              "b": rng.normal(0, 6, (2, 3, 6)).astype(np.float32)} for _ in range(3)]
    for level in (1, 2):
        check_against_onnxruntime(model, feeds, rtol=0, atol=0, opt_level=level)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
@pytest.mark.parametrize("per_axis", [False, True])
def test_quantize_and_dequantize(dtype: type, per_axis: bool) -> None:
    """A QuantizeLinear and a DequantizeLinear at a model's float boundaries, per tensor
    or per channel (axis 1): qnn.quantize and qnn.dequantize from level 1, bit for bit
    with onnxruntime on values that saturate and on exact halves of a step, compiled and
    in their numpy forms."""
    t = U8 if dtype == np.uint8 else I8
    zero = 128 if dtype == np.uint8 else 0
    if per_axis:
        scale = np.array([0.5, 0.02, 0.125], np.float32)
        zp = np.array([zero - 3, zero, zero + 17], dtype)
    else:
        scale, zp = _f(0.25), np.array(zero + 5, dtype)
    inits = {"s": scale, "z": zp}
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=1),
             helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["y"], axis=1)]
    model = _qdq_model(nodes, [("x", [2, 3, 40])], [("q", t, [2, 3, 40]), ("y", F, [2, 3, 40])],
                       inits)
    model.graph.input.append(helper.make_tensor_value_info("xq", t, [2, 3, 40]))
    module = import_model(model)
    optimize(module, 1)
    counts = op_counts(module)
    assert counts[Q.QuantizeOp.name] == counts[Q.DequantizeOp.name] == 1, counts
    steps = np.arange(-100, 100, 5).astype(np.float32) + 0.5  # halves, some past the range
    x = (steps * np.broadcast_to(scale.reshape(-1, 1), (3, 1))).astype(np.float32)
    feeds = {"x": np.stack([x, -x]), "xq": _q(dtype, 2, 3, 40)}
    check_against_onnxruntime(model, feeds, rtol=0, atol=0, opt_level=1)
    q, y = run_onnxruntime(model, feeds)
    np.testing.assert_array_equal(_qnn_values(module, Q.QuantizeOp, feeds)[0], q)
    np.testing.assert_array_equal(_qnn_values(module, Q.DequantizeOp, feeds)[0], y)


@pytest.mark.parametrize(("op", "attrs"), [("QLinearLeakyRelu", {"alpha": 0.1}),
                                           ("QLinearSigmoid", {})])
@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
def test_activations(op: str, attrs: dict[str, float], dtype: type) -> None:
    t = U8 if dtype == np.uint8 else I8
    zero = 128 if dtype == np.uint8 else 0
    inits = {"sx": _f(0.05), "zx": np.array(zero + 5, dtype), "sy": _f(0.004),
             "zy": np.array(zero - 100, dtype)}
    node = helper.make_node(op, ["x", "sx", "zx", "sy", "zy"], ["y"], domain=MS, **attrs)
    model = _model(node, [("x", t, [4, 64])], ("y", t, [4, 64]), inits)
    x = np.arange(256).astype(dtype).reshape(4, 64)  # every 8-bit value once
    check_against_onnxruntime(model, {"x": x})


@pytest.mark.parametrize(("attrs", "out"), [
    ({"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}, [7, 6]),
    ({"kernel_shape": [2, 2], "strides": [2, 2], "count_include_pad": 1,
      "pads": [1, 1, 0, 0]}, [4, 3]),
    ({"kernel_shape": [3, 2], "strides": [2, 1], "ceil_mode": 1}, [3, 5])])
def test_average_pool(attrs: dict[str, object], out: list[int]) -> None:
    """Windows with halves between steps (counts 2, 4, 6): the zero point is added
    before rounding, as onnxruntime does."""
    inits = {"sx": _f(0.1), "zx": np.array(7, np.uint8), "sy": _f(0.1),
             "zy": np.array(135, np.uint8)}
    node = helper.make_node("QLinearAveragePool", ["x", "sx", "zx", "sy", "zy"], ["y"],
                            domain=MS, **attrs)
    model = _model(node, [("x", U8, [2, 3, 7, 6])], ("y", U8, [2, 3, *out]), inits)
    check_against_onnxruntime(model, [{"x": _q(np.uint8, 2, 3, 7, 6)} for _ in range(3)])


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
def test_global_average_pool(dtype: type) -> None:
    t = U8 if dtype == np.uint8 else I8
    inits = {"sx": _f(0.07), "zx": np.array(-5 if dtype == np.int8 else 9, dtype),
             "sy": _f(0.011), "zy": np.array(3, dtype)}
    node = helper.make_node("QLinearGlobalAveragePool", ["x", "sx", "zx", "sy", "zy"],
                            ["y"], domain=MS)
    model = _model(node, [("x", t, [2, 16, 5, 7])], ("y", t, [2, 16, 1, 1]), inits)
    check_against_onnxruntime(model, [{"x": _q(dtype, 2, 16, 5, 7)} for _ in range(3)])


def test_channels_last_is_refused() -> None:
    inits = {"sx": _f(0.07), "zx": np.array(9, np.uint8), "sy": _f(0.011),
             "zy": np.array(3, np.uint8)}
    node = helper.make_node("QLinearGlobalAveragePool", ["x", "sx", "zx", "sy", "zy"],
                            ["y"], domain=MS, name="gap", channels_last=1)
    model = _model(node, [("x", U8, [2, 5, 7, 16])], ("y", U8, [2, 1, 1, 16]), inits)
    with pytest.raises(infer.UnsupportedError, match=r"'QLinearGlobalAveragePool' \(node "
                       r"'gap', opset 17\): channels_last=1 \(NHWC\) is not supported"):
        infer.compile(model)


def test_another_version_of_the_domain_is_refused() -> None:
    node = helper.make_node("QLinearSigmoid", ["x", "sx", "zx", "sy", "zy"], ["y"],
                            domain=MS, name="s")
    model = _model(node, [("x", U8, [4])], ("y", U8, [4]),
                   {"sx": _f(0.1), "zx": np.array(1, np.uint8), "sy": _f(0.1),
                    "zy": np.array(1, np.uint8)})
    model.opset_import[1].version = 2
    with pytest.raises(infer.UnsupportedError, match="version 2 of com.microsoft is not "
                       r"supported \(1 is\)"):
        infer.compile(model)


def _qdq_conv(activation: onnx.NodeProto, extra: dict[str, np.ndarray]) -> onnx.ModelProto:
    """DQ(x), DQ(w), DQ(bias) -> Conv -> `activation` -> Q -> DQ, s8 weights per channel."""
    sx, sw = np.float32(0.04), R.uniform(0.01, 0.03, 4).astype(np.float32)
    inits = {"sx": sx, "zx": np.array(120, np.uint8), "w": _q(np.int8, 4, 3, 3, 3),
             "sw": sw, "zw": np.zeros(4, np.int8),
             "b": R.integers(-300, 300, 4).astype(np.int32), "sb": sx * sw,
             "zb": np.zeros(4, np.int32), "sy": _f(0.05), "zy": np.array(60, np.uint8),
             **extra}
    nodes = [helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["qx"]),
             helper.make_node("DequantizeLinear", ["qx", "sx", "zx"], ["fx"]),
             helper.make_node("DequantizeLinear", ["w", "sw", "zw"], ["fw"], axis=0),
             helper.make_node("DequantizeLinear", ["b", "sb", "zb"], ["fb"], axis=0),
             helper.make_node("Conv", ["fx", "fw", "fb"], ["c"], pads=[1, 1, 1, 1]),
             activation,
             helper.make_node("QuantizeLinear", ["r", "sy", "zy"], ["qy"]),
             helper.make_node("DequantizeLinear", ["qy", "sy", "zy"], ["y"])]
    graph = helper.make_graph(nodes, "qdq", [helper.make_tensor_value_info("x", F,
                                                                           [1, 3, 6, 6])],
                              [helper.make_tensor_value_info("y", F, [1, 4, 6, 6])],
                              [numpy_helper.from_array(np.asarray(v), k)
                               for k, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


@pytest.mark.parametrize(("activation", "extra"), [
    (helper.make_node("Relu", ["c"], ["r"]), {}),
    (helper.make_node("Clip", ["c", "lo", "hi"], ["r"]), {"lo": _f(-0.5), "hi": _f(2.0)})])
def test_qdq_activation_folds_into_the_clamp(activation: onnx.NodeProto,
                                             extra: dict[str, np.ndarray]) -> None:
    """Q(relu(conv)) = max(Q(conv), Q(0)): the activation is a clamp of the 8-bit result,
    equal to onnxruntime's float Relu then QuantizeLinear."""
    model = _qdq_conv(activation, extra)
    module = import_model(model)
    optimize(module, 1)
    counts = op_counts(module)
    assert counts[Q.ConvOp.name] == 1 and "graph.relu" not in counts, counts
    x = np.random.default_rng(0).normal(0, 2, (1, 3, 6, 6)).astype(np.float32)
    check_against_onnxruntime(model, {"x": x}, rtol=0, atol=0, opt_level=1)

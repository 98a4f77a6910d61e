"""Level-2 fusions (transforms/fusion.py): each pattern on a small model, numerics against
onnxruntime with and without graph optimization, and the op counts the fusion leaves."""

from __future__ import annotations

from collections import Counter
from typing import cast

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from xdsl.dialects import func

import infer
from infer.context import make_context
from infer.dialects import graph
from infer.frontend.onnx_import import import_model
from infer.tests.helpers import make_model, run_onnxruntime
from infer.transforms.fusion import GraphFusePass, patterns

F = TensorProto.FLOAT
rng = np.random.default_rng(0)


def _init(name: str, shape: tuple[int, ...], positive: bool = False) -> TensorProto:
    a = rng.random(shape) + 0.5 if positive else rng.standard_normal(shape)
    return numpy_helper.from_array(a.astype(np.float32), name)


def _fused_counts(model) -> Counter[str]:
    module = import_model(model)
    GraphFusePass().apply(make_context(), module)
    module.verify()
    counts: Counter[str] = Counter()
    for f in module.body.block.ops:
        if isinstance(f, func.FuncOp):
            for op in f.body.walk():
                if op.name.startswith("graph.") and op.name != "graph.constant":
                    counts[op.name] += 1
    return counts


def _check(model, feeds, expected: dict[str, int]) -> None:
    """The fused graph has exactly `expected` non-constant ops; levels 0 and 2 both match
    onnxruntime to 1e-4."""
    assert _fused_counts(model) == Counter(expected)
    theirs = run_onnxruntime(model, feeds)
    for level in (0, 2):
        ours = infer.compile(model, opt_level=level).run(feeds)
        for a, b in zip(ours.values(), theirs, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5, err_msg=f"level {level}")


def _x(*shape: int) -> dict[str, np.ndarray]:
    return {"x": rng.standard_normal(shape).astype(np.float32)}


CONV_IN = [("x", F, ["N", 3, 8, 8])]


def _out(rank: int = 4, name: str = "y") -> tuple[str, int, list[str]]:
    """An output of unknown dims (our types are inferred)."""
    return (name, F, [f"{name}{i}" for i in range(rank)])


def _conv(out: str = "c", bias: bool = True, **attrs) -> list:
    inputs = ["x", "w", "b"] if bias else ["x", "w"]
    return [helper.make_node("Conv", inputs, [out], **attrs)]


# ---------------------------------------------------------------------------------------


def test_patterns_only_from_level_2():
    assert patterns(0) == [] and patterns(1) == []
    assert len(patterns(2)) == len(patterns(3)) > 0


def test_conv_batchnorm():
    nodes = _conv(pads=[1, 1, 1, 1]) + [
        helper.make_node("BatchNormalization", ["c", "s", "beta", "mean", "var"], ["y"],
                         epsilon=1e-3)
    ]
    inits = [_init("w", (4, 3, 3, 3)), _init("b", (4,)), _init("s", (4,)),
             _init("beta", (4,)), _init("mean", (4,)), _init("var", (4,), positive=True)]
    model = make_model(nodes, CONV_IN, [_out()], inits)
    _check(model, _x(2, 3, 8, 8), {"graph.conv": 1})


def test_grouped_conv_batchnorm_relu():
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], group=3),
        helper.make_node("BatchNormalization", ["c", "s", "beta", "mean", "var"], ["d"]),
        helper.make_node("Relu", ["d"], ["y"]),
    ]
    inits = [_init("w", (6, 1, 3, 3)), _init("s", (6,)), _init("beta", (6,)),
             _init("mean", (6,)), _init("var", (6,), positive=True)]
    model = make_model(nodes, CONV_IN, [_out()], inits)
    _check(model, _x(1, 3, 8, 8), {"graph.conv": 1})


def _activation_node(name: str) -> tuple[onnx.NodeProto, list[onnx.TensorProto]]:
    """The ONNX node (a -> y) of one of the dialect's fusable activations, its float
    attributes 0.2, 0.3, ... and its scalar operands (Clip's) 0 and 6 as initializers."""
    act = graph.ACTIVATIONS[name]
    attrs: dict[str, float | str] = {a: 0.2 + 0.1 * i for i, a in enumerate(act.attrs)}
    attrs.update(act.fixed)
    operands = [f"{name}_{i}" for i in range(act.operands)]
    inits = [numpy_helper.from_array(np.array(v, np.float32), n)
             for n, v in zip(operands, (0.0, 6.0), strict=False)]
    onnx_op = cast(str, act.op.ONNX_OP)
    return helper.make_node(onnx_op, ["a", *operands], ["y"], **attrs), inits


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(graph.ACTIVATIONS))
def test_conv_bias_add_activation(name: str) -> None:
    """conv (no bias) + per-channel constant Add + each fusable activation: one conv."""
    act, extra = _activation_node(name)
    nodes = _conv(bias=False, pads=[1, 0, 1, 2], strides=[2, 1]) + [
        helper.make_node("Add", ["c", "bias"], ["a"]), act]
    inits = [_init("w", (4, 3, 3, 3)), _init("bias", (1, 4, 1, 1)), *extra]
    model = make_model(nodes, CONV_IN, [_out()], inits, opset=20)
    _check(model, _x(2, 3, 8, 8), {"graph.conv": 1})


def test_pointwise_conv_relu6_clip_v6():
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"]),
             helper.make_node("Clip", ["c"], ["y"], min=0.0, max=6.0)]
    inits = [_init("w", (8, 3, 1, 1)), _init("b", (8,))]
    model = make_model(nodes, CONV_IN, [_out()], inits, opset=9)
    _check(model, {"x": 3 * rng.standard_normal((1, 3, 8, 8)).astype(np.float32)},
           {"graph.conv": 1})


@pytest.mark.parametrize("size", [8, 9], ids=["even", "odd"])
def test_strided_pointwise_conv_reads_a_subsampled_input(size: int) -> None:
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], strides=[2, 3]),
             helper.make_node("Relu", ["c"], ["y"])]
    inits = [_init("w", (8, 3, 1, 1)), _init("b", (8,))]
    model = make_model(nodes, [("x", F, ["N", 3, "H", "W"])], [_out()], inits)
    _check(model, _x(2, 3, size, size), {"graph.slice": 1, "graph.conv": 1})


def test_conv_mul_add_per_channel():
    """conv * s + t (per-channel constants, scalar and [C,1,1]) folds into W and B."""
    nodes = _conv() + [
        helper.make_node("Mul", ["s", "c"], ["m"]),
        helper.make_node("Add", ["m", "t"], ["a"]),
        helper.make_node("Mul", ["a", "k"], ["z"]),
        helper.make_node("Sub", ["z", "t"], ["y"]),
    ]
    inits = [_init("w", (4, 3, 3, 3)), _init("b", (4,)), _init("s", (4, 1, 1)),
             _init("t", (1, 4, 1, 1)), numpy_helper.from_array(np.array(1.5, np.float32), "k")]
    model = make_model(nodes, CONV_IN, [_out()], inits)
    _check(model, _x(2, 3, 8, 8), {"graph.conv": 1})


def test_conv_add_not_per_channel_stays():
    """A constant varying over H is not a bias: the Add stays."""
    nodes = _conv() + [helper.make_node("Add", ["c", "t"], ["y"])]
    inits = [_init("w", (4, 3, 3, 3)), _init("b", (4,)), _init("t", (6, 1))]
    model = make_model(nodes, CONV_IN, [_out()], inits)
    _check(model, _x(1, 3, 8, 8), {"graph.conv": 1, "graph.add": 1})


def test_conv_with_two_users_is_not_folded():
    nodes = _conv() + [helper.make_node("Relu", ["c"], ["y"]),
                       helper.make_node("Mul", ["c", "s"], ["z"])]
    inits = [_init("w", (4, 3, 3, 3)), _init("b", (4,)), _init("s", (4, 1, 1))]
    model = make_model(nodes, CONV_IN, [_out(), _out(name="z")], inits)
    _check(model, _x(1, 3, 8, 8), {"graph.conv": 1, "graph.relu": 1, "graph.mul": 1})


def test_matmul_add_relu_to_gemm():
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]),
             helper.make_node("Add", ["bias", "m"], ["a"]),
             helper.make_node("Relu", ["a"], ["y"])]
    inits = [_init("w", (16, 8)), _init("bias", (8,))]
    model = make_model(nodes, [("x", F, ["N", 16])], [_out(2)], inits)
    _check(model, _x(5, 16), {"graph.gemm": 1})


def test_gemm_bias_add_sigmoid():
    """Gemm (transB, with C and beta) + constant row + Sigmoid: one gemm."""
    nodes = [helper.make_node("Gemm", ["x", "w", "c"], ["g"], transB=1, beta=0.5, alpha=2.0),
             helper.make_node("Add", ["g", "bias"], ["a"]),
             helper.make_node("Sigmoid", ["a"], ["y"])]
    inits = [_init("w", (8, 16)), _init("c", (8,)), _init("bias", (1, 8))]
    model = make_model(nodes, [("x", F, [3, 16])], [_out(2)], inits)
    _check(model, _x(3, 16), {"graph.gemm": 1})


def test_batched_matmul_leaky_relu():
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]),
             helper.make_node("LeakyRelu", ["m"], ["y"], alpha=0.1)]
    model = make_model(nodes, [("x", F, [2, 3, 16])], [_out(3)], [_init("w", (16, 8))])
    _check(model, _x(2, 3, 16), {"graph.matmul": 1})


def test_matvec_gelu():
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]),
             helper.make_node("Gelu", ["m"], ["y"])]
    model = make_model(nodes, [("x", F, [3, 16])], [_out(1)], [_init("w", (16,))],
                       opset=20)
    _check(model, _x(3, 16), {"graph.matmul": 1})


# ---------------------------------------------------------------------------------------
# Residual Add → the conv's summand Z


def _check_batches(model, batches: list[dict[str, np.ndarray]], expected: dict[str, int]
                   ) -> None:
    """`_check` with one compiled model per level run on several feeds (dynamic batch)."""
    assert _fused_counts(model) == Counter(expected)
    for level in (0, 2):
        compiled = infer.compile(model, opt_level=level)
        for feeds in batches:
            theirs = run_onnxruntime(model, feeds)
            for a, b in zip(compiled.run(feeds).values(), theirs, strict=True):
                # atol scaled to the output: sums of ~50 products cancel to small values
                atol = 1e-5 * max(1.0, float(np.abs(b).max()))
                np.testing.assert_allclose(a, b, rtol=1e-4, atol=atol,
                                           err_msg=f"level {level}, batch {len(a)}")


RES_IN = [("x", F, ["N", 8, 6, 7])]


def _residual(kernel: int, bias: bool, relu: bool, conv_first: bool) -> tuple[list, list]:
    """relu?(conv(x) + x), the conv keeping x's shape (a ResNet identity shortcut)."""
    pads = [kernel // 2] * 4
    nodes = [helper.make_node("Conv", ["x", "w", "b"] if bias else ["x", "w"], ["c"],
                              pads=pads),
             helper.make_node("Add", ["c", "x"] if conv_first else ["x", "c"],
                              ["a" if relu else "y"])]
    if relu:
        nodes.append(helper.make_node("Relu", ["a"], ["y"]))
    inits = [_init("w", (8, 8, kernel, kernel))] + ([_init("b", (8,))] if bias else [])
    return nodes, inits


@pytest.mark.slow
@pytest.mark.parametrize("kernel", [1, 3], ids=["pointwise", "3x3"])
@pytest.mark.parametrize("bias", [True, False], ids=["bias", "nobias"])
@pytest.mark.parametrize("relu,conv_first", [(True, True), (True, False), (False, True)],
                         ids=["conv+x,relu", "x+conv,relu", "conv+x"])
def test_residual_add(kernel, bias, relu, conv_first):
    """conv + shortcut (+ relu): one conv with the shortcut as Z, over two batch sizes."""
    nodes, inits = _residual(kernel, bias, relu, conv_first)
    model = make_model(nodes, RES_IN, [_out()], inits)
    _check_batches(model, [_x(1, 8, 6, 7), _x(3, 8, 6, 7)], {"graph.conv": 1})


@pytest.mark.slow
def test_resnet_blocks():
    """A bottleneck block with a projection shortcut (both Add operands are convs, one
    strided) then an identity block, as in ResNet-50 after BN folding: each block ends in
    one conv carrying the residual and the Relu: five convs, and the subsampled input of
    each strided 1x1 conv (graph-fuse alone runs no CSE to merge the two)."""
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], strides=[2, 2]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("Conv", ["r2", "w3", "b3"], ["c3"]),
        helper.make_node("Conv", ["x", "ws", "bs"], ["cs"], strides=[2, 2]),
        helper.make_node("Sum", ["c3", "cs"], ["s"]),
        helper.make_node("Relu", ["s"], ["r3"]),
        helper.make_node("Conv", ["r3", "w4", "b4"], ["c4"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c4", "g", "beta", "mean", "var"], ["n4"]),
        helper.make_node("Add", ["r3", "n4"], ["a"]),
        helper.make_node("Relu", ["a"], ["y"]),
    ]
    inits = [_init("w1", (4, 8, 1, 1)), _init("w2", (4, 4, 3, 3)), _init("b2", (4,)),
             _init("w3", (16, 4, 1, 1)), _init("b3", (16,)), _init("ws", (16, 8, 1, 1)),
             _init("bs", (16,)), _init("w4", (16, 16, 3, 3)), _init("b4", (16,)),
             _init("g", (16,)), _init("beta", (16,)), _init("mean", (16,)),
             _init("var", (16,), positive=True)]
    model = make_model(nodes, [("x", F, ["N", 8, 9, 10])], [_out()], inits, opset=9)
    _check_batches(model, [_x(2, 8, 9, 10), _x(1, 8, 9, 10)],
                   {"graph.conv": 5, "graph.slice": 2})


def test_residual_add_broadcast_stays():
    """A shortcut broadcast over H is not a summand of Y's shape: the Add stays."""
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"]),
             helper.make_node("Add", ["c", "z"], ["a"]),
             helper.make_node("Relu", ["a"], ["y"])]
    inits = [_init("w", (4, 3, 1, 1)), _init("b", (4,))]
    model = make_model(nodes, CONV_IN + [("z", F, ["N", 4, 1, 8])], [_out()], inits)
    feeds = {**_x(2, 3, 8, 8), "z": rng.standard_normal((2, 4, 1, 8)).astype(np.float32)}
    _check(model, feeds, {"graph.conv": 1, "graph.add": 1, "graph.relu": 1})


def test_residual_add_conv_with_another_user_stays():
    nodes, inits = _residual(3, True, True, True)
    model = make_model(nodes, RES_IN, [_out(), _out(name="c")], inits)
    _check(model, _x(2, 8, 6, 7), {"graph.conv": 1, "graph.add": 1, "graph.relu": 1})


# ---------------------------------------------------------------------------------------
# Pad


def _pad_model(pads: list[int], mode: str = "constant", value: float | None = None,
               then: list | None = None, opset: int = 17):
    inits = [numpy_helper.from_array(np.array(pads, np.int64), "pads")]
    inputs = ["x", "pads"]
    if value is not None:
        inits.append(numpy_helper.from_array(np.array(value, np.float32), "v"))
        inputs.append("v")
    nodes = [helper.make_node("Pad", inputs, ["p" if then else "y"], mode=mode), *(then or [])]
    if then and then[0].op_type == "Conv":
        inits += [_init("w", (4, 3, 3, 3)), _init("b", (4,))]
    return make_model(nodes, CONV_IN, [_out()], inits, opset=opset)


@pytest.mark.slow
@pytest.mark.parametrize("pads,mode", [
    ([0, 0, 1, 2, 0, 1, 3, 0], "constant"),
    ([1, 0, 0, -1, 0, 2, -2, 1], "constant"),
    ([0, 0, 2, 1, 0, 0, 1, 2], "edge"),
    ([0, 1, 2, 1, 0, 0, 1, 3], "reflect"),
])
def test_pad(pads, mode):
    model = _pad_model(pads, mode, 0.5 if mode == "constant" else None)
    _check(model, _x(2, 3, 8, 8), {"graph.pad": 1})


def test_pad_v2_attributes():
    nodes = [helper.make_node("Pad", ["x"], ["y"], pads=[0, 0, 1, 1, 0, 0, 1, 1], value=2.0)]
    model = make_model(nodes, CONV_IN, [_out()], opset=9)
    _check(model, _x(1, 3, 8, 8), {"graph.pad": 1})


def test_pad_into_conv():
    conv = helper.make_node("Conv", ["p", "w", "b"], ["y"], pads=[1, 0, 0, 1])
    model = _pad_model([0, 0, 1, 2, 0, 0, 0, 1], then=[conv])
    _check(model, _x(2, 3, 8, 8), {"graph.conv": 1})


def test_pad_nonzero_value_stays_before_conv():
    conv = helper.make_node("Conv", ["p", "w", "b"], ["y"])
    model = _pad_model([0, 0, 1, 1, 0, 0, 1, 1], value=1.0, then=[conv])
    _check(model, _x(1, 3, 8, 8), {"graph.pad": 1, "graph.conv": 1})


def test_pad_into_max_pool():
    pool = helper.make_node("MaxPool", ["p"], ["y"], kernel_shape=[3, 3], strides=[2, 2])
    model = _pad_model([0, 0, 1, 1, 0, 0, 1, 1], value=float("-inf"), then=[pool])
    _check(model, _x(1, 3, 8, 8), {"graph.max_pool": 1})


def test_pad_into_average_pool():
    pool = helper.make_node("AveragePool", ["p"], ["y"], kernel_shape=[3, 3])
    model = _pad_model([0, 0, 1, 2, 0, 0, 1, 0], then=[pool])
    _check(model, _x(1, 3, 8, 8), {"graph.average_pool": 1})


def test_pad_before_average_pool_excluding_its_pads_stays():
    pool = helper.make_node("AveragePool", ["p"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    model = _pad_model([0, 0, 1, 1, 0, 0, 1, 1], then=[pool])
    _check(model, _x(1, 3, 8, 8), {"graph.pad": 1, "graph.average_pool": 1})


# ---------------------------------------------------------------------------------------
# Elementwise chains: one loop nest at lowering (no graph rewrite involved)


def test_elementwise_chain_numerics():
    """add(bcast) -> relu -> mul -> sigmoid, with a result also read twice (not inlined)
    and a broadcast operand that is itself computed (not inlined either)."""
    nodes = [
        helper.make_node("Add", ["x", "b"], ["a"]),
        helper.make_node("Relu", ["a"], ["r"]),
        helper.make_node("Exp", ["b"], ["e"]),
        helper.make_node("Mul", ["r", "e"], ["m"]),
        helper.make_node("Sigmoid", ["m"], ["s"]),
        helper.make_node("Sub", ["s", "r"], ["y"]),
    ]
    model = make_model(nodes, [("x", F, ["N", 3, 4]), ("b", F, [4])], [_out(3)])
    feeds = {"x": rng.standard_normal((2, 3, 4)).astype(np.float32),
             "b": rng.standard_normal(4).astype(np.float32)}
    _check(model, feeds, {"graph.add": 1, "graph.relu": 1, "graph.exp": 1, "graph.mul": 1,
                          "graph.sigmoid": 1, "graph.sub": 1})


def test_elementwise_chain_one_loop_nest():
    from infer.pipeline import LOWER_TO_LOOPS, run_passes

    nodes = [helper.make_node("Add", ["x", "x"], ["a"]),
             helper.make_node("Relu", ["a"], ["r"]),
             helper.make_node("Neg", ["r"], ["y"])]
    module = import_model(make_model(nodes, [("x", F, [8])], [_out(1)]))
    run_passes(module, make_context(), LOWER_TO_LOOPS)
    names = Counter(op.name for op in module.walk())
    assert names["memref.alloc"] == 1 and names["scf.for"] == 1


# ---------------------------------------------------------------------------------------
# ConvTranspose whose kernel is its stride → conv 1x1 + DepthToSpace


@pytest.mark.slow
@pytest.mark.parametrize(("k", "bias"), [(2, True), (3, False), (1, True)])
def test_conv_transpose_with_kernel_stride_is_a_conv(k: int, bias: bool) -> None:
    nodes = [helper.make_node("ConvTranspose", ["x", "w", "b"] if bias else ["x", "w"], ["y"],
                              strides=[k, k])]
    inits = [_init("w", (3, 5, k, k))] + ([_init("b", (5,))] if bias else [])
    model = make_model(nodes, [("x", F, ["N", 3, "H", "W"])], [_out()], inits)
    expected = {"graph.conv": 1} if k == 1 else {"graph.conv": 1, "graph.depth_to_space": 1}
    _check_batches(model, [_x(1, 3, 4, 5), _x(2, 3, 3, 3)], expected)


def test_overlapping_conv_transpose_stays() -> None:
    nodes = [helper.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2])]
    model = make_model(nodes, [("x", F, ["N", 3, "H", "W"])], [_out()], [_init("w", (3, 5, 3, 3))])
    _check_batches(model, [_x(1, 3, 4, 5)], {"graph.conv_transpose": 1})

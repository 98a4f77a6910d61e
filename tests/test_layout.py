"""Level 3 (the blocked NCHWc layout) against onnxruntime: small CNNs built for each
region the layout pass forms (residual blocks, depthwise-separable convs, channel concats,
BatchNormalization after a concat, grouped convs, ops without a blocked form), compiled at
level 3 and run at batch sizes 1 and 3, with blocks of 8 (AVX2) and 16 (AVX-512) channels
whatever the host. Each test also checks that the layout fired."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

from infer.frontend.onnx_import import import_model
from infer.transforms.graph_optimize import op_counts, optimize

from .helpers import check_against_onnxruntime, make_model

RNG = np.random.default_rng(7)


class Net:
    """An ONNX graph under construction: nodes, random initializers, fresh names."""

    def __init__(self, channels: int, size: int = 10) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.input = ("x", TP.FLOAT, ["N", channels, size, size])
        self.n = 0

    def _name(self, base: str) -> str:
        self.n += 1
        return f"{base}{self.n}"

    def const(self, array: np.ndarray) -> str:
        name = self._name("c")
        if array.dtype == np.float64:
            array = array.astype(np.float32)
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def node(self, op: str, inputs: Sequence[str], **attrs: object) -> str:
        out = self._name(op.lower())
        self.nodes.append(helper.make_node(op, list(inputs), [out], **attrs))
        return out

    def conv(self, x: str, c_in: int, c_out: int, k: int = 3, group: int = 1,
             bias: bool = True, **attrs: object) -> str:
        w = self.const(RNG.standard_normal((c_out, c_in // group, k, k)).astype(np.float32)
                       / np.sqrt(c_in // group * k * k))
        ins = [x, w] + ([self.const(RNG.standard_normal(c_out).astype(np.float32))] if bias
                        else [])
        attrs.setdefault("pads", [k // 2] * 4)
        return self.node("Conv", ins, kernel_shape=[k, k], group=group, **attrs)

    def bn(self, x: str, c: int) -> str:
        params = [RNG.random(c).astype(np.float32) + 0.5, RNG.standard_normal(c).astype(np.float32),
                  RNG.standard_normal(c).astype(np.float32), RNG.random(c).astype(np.float32) + 0.5]
        return self.node("BatchNormalization", [x, *map(self.const, params)])

    def model(self, *outputs: str, rank: int = 4) -> onnx.ModelProto:
        """The model with `outputs`, of unknown dims (types are inferred)."""
        outs = [(o, TP.FLOAT, [f"{o}_{i}" for i in range(rank)]) for o in outputs]
        return make_model(self.nodes, [self.input], outs, self.inits)


@pytest.fixture(params=[8, 16], ids=["block8", "block16"])
def block(request: pytest.FixtureRequest) -> int:
    """The block is a compile option: both widths run on any host."""
    return request.param


def _check(model: onnx.ModelProto, blocked_convs: int, channels: int, block: int,
           size: int = 10) -> None:
    module = import_model(model)
    optimize(module, 3, block)
    assert op_counts(module)["graph.conv_nchwc"] == blocked_convs
    feeds = [{"x": RNG.standard_normal((n, channels, size, size)).astype(np.float32)}
             for n in (1, 3)]
    check_against_onnxruntime(model, feeds, opt_level=3, nchwc_block=block)


@pytest.mark.slow
def test_residual_block(block: int) -> None:
    """conv-BN-relu-conv + shortcut, relu, max pool, global pool, flatten, gemm."""
    g = Net(16)
    a = g.node("Relu", [g.bn(g.conv("x", 16, 16, bias=False), 16)])
    s = g.node("Relu", [g.node("Add", [g.conv(a, 16, 16), "x"])])
    p = g.node("MaxPool", [s], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    f = g.node("Flatten", [g.node("GlobalAveragePool", [p])])
    w = g.const(RNG.standard_normal((10, 16)).astype(np.float32))
    y = g.node("Gemm", [f, w], transB=1)
    _check(g.model(y, rank=2), 2, 16, block)


@pytest.mark.slow
def test_downsampling_block(block: int) -> None:
    """ResNet v1's downsampling block: two strided 1x1 convs of one input (one blocked
    subsample serves both), a 3x3 conv, the residual add; odd and even sizes."""
    for size in (11, 8):
        g = Net(16, size)
        x = g.node("Relu", [g.conv("x", 16, 16)])
        shortcut = g.conv(x, 16, 32, k=1, strides=[2, 2])
        a = g.node("Relu", [g.conv(x, 16, 16, k=1, strides=[2, 2])])
        y = g.node("Relu", [g.node("Add", [g.conv(a, 16, 32), shortcut])])
        model = g.model(y)
        module = import_model(model)
        optimize(module, 3, block)
        counts = op_counts(module)
        assert counts["graph.slice"] == 1 and counts["graph.from_nchwc"] == 1
        _check(model, 4, 16, block, size)


@pytest.mark.slow
def test_depthwise_separable(block: int) -> None:
    """Pointwise, depthwise 3x3 stride 2 with ReLU6, pointwise 16 -> 32, average pool
    with pads. A depthwise conv on the model input stays NCHW (it would be a region alone)."""
    g = Net(16, 11)
    lone = g.conv("x", 16, 16, group=16)
    d = g.conv(g.node("Relu", [g.conv("x", 16, 16, k=1)]), 16, 16, group=16, strides=[2, 2])
    lo, hi = g.const(np.array(0, np.float32)), g.const(np.array(6, np.float32))
    c = g.node("Clip", [d, lo, hi])
    pw = g.conv(c, 16, 32, k=1)
    y = g.node("AveragePool", [pw], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    _check(g.model(y, lone), 3, 16, block, 11)


@pytest.mark.slow
def test_dense_block(block: int) -> None:
    """DenseNet: concat(x, conv(relu(bn(x)))), then BN-relu-conv on the concat."""
    g = Net(16)
    a = g.conv(g.node("Relu", [g.bn("x", 16)]), 16, 16)
    cat = g.node("Concat", ["x", a], axis=1)
    b = g.conv(g.node("Relu", [g.bn(cat, 32)]), 32, 16, k=1)
    cat2 = g.node("Concat", [cat, b], axis=1)
    y = g.node("AveragePool", [cat2], kernel_shape=[2, 2], strides=[2, 2])
    _check(g.model(y), 2, 16, block)


@pytest.mark.slow
def test_inception_branches(block: int) -> None:
    """Parallel 1x1 / 3x3 / 5x5 / pool branches concatenated, grouped conv after."""
    g = Net(16)
    b1 = g.conv("x", 16, 16, k=1)
    b2 = g.conv(g.conv("x", 16, 16, k=1), 16, 32)
    b3 = g.conv("x", 16, 16, k=5)
    b4 = g.conv(g.node("MaxPool", ["x"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]), 16, 32, k=1)
    cat = g.node("Concat", [b1, b2, b3, b4], axis=1)
    y = g.node("Relu", [g.conv(cat, 96, 32, group=2, dilations=[2, 2], pads=[2, 2, 2, 2])])
    _check(g.model(y), 6, 16, block)


@pytest.mark.slow
def test_boundaries(block: int) -> None:
    """An image stem (3 channels) is blocked reading its NCHW input; an LRN and a
    12-channel conv stay NCHW between blocked convs; a per-channel Mul and a broadcast Add
    of a row cross the boundary."""
    g = Net(3)
    stem = g.node("Relu", [g.conv("x", 3, 16)])
    a = g.conv(stem, 16, 16)
    m = g.node("Mul", [a, g.const(RNG.standard_normal((16, 1, 1)).astype(np.float32))])
    lrn = g.node("LRN", [m], size=3)
    b = g.conv(lrn, 16, 12, k=1)
    row = g.const(RNG.standard_normal((1, 10)).astype(np.float32))
    added = g.node("Add", [g.conv(m, 16, 16), row])
    _check(g.model(b, added), 3, 3, block)


@pytest.mark.slow
def test_image_stem(block: int) -> None:
    """ResNet's stem: a 7x7 stride-2 conv of the 3-channel image, BN, ReLU, max pool,
    then a residual conv. The stem conv reads the image as NCHW: nothing is reordered in."""
    g = Net(3, 23)
    stem = g.conv("x", 3, 32, k=7, bias=False, strides=[2, 2])
    s = g.node("Relu", [g.bn(stem, 32)])
    p = g.node("MaxPool", [s], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    y = g.node("Relu", [g.node("Add", [g.conv(p, 32, 32), p])])
    model = g.model(y)
    module = import_model(model)
    optimize(module, 3, block)
    counts = op_counts(module)
    assert (counts["graph.to_nchwc"], counts["graph.from_nchwc"]) == (0, 1), counts
    _check(model, 2, 3, block, 23)


@pytest.mark.parametrize("level", [2, 3])
def test_level_3_blocks_only_at_level_3(level: int, block: int) -> None:
    g = Net(16)
    y = g.conv("x", 16, 16)
    module = import_model(g.model(y))
    optimize(module, level, block)
    assert op_counts(module)["graph.conv_nchwc"] == (level == 3)

"""Numerics of the blocked-layout (NCHWc) lowerings: each graph.*_nchwc op written as IR,
compiled without graph optimization and run on random data, against onnxruntime run on
the plain NCHW tensors (dialects/graph/nchwc.py converts between the two). The convs'
rows are cut into tiles by select-conv-rows first, as the pipeline does at level 3 (a
dynamic row keeps the generic path: test_static_spatial_and_dynamic_spatial)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from onnx import TensorProto
from onnx.reference import ReferenceEvaluator
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from infer.api import compile_module
from infer.context import make_context
from infer.dialects import graph as G
from infer.errors import UnsupportedError
from infer.runtime.compiled_model import CompiledModel
from infer.transforms import nchwc_packing
from infer.transforms.conv_tile import SelectConvRowsPass

from .helpers import node_model, run_onnxruntime

RNG = np.random.default_rng(20240612)
C = nchwc_packing.BLOCK


def _rand(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _t(shape: Sequence[int | str]) -> str:
    return "tensor<" + "x".join("?" if isinstance(d, str) else str(d) for d in shape) + "xf32>"


def _attrs(attrs: dict[str, Any]) -> str:
    """A property dict in the graph dialect's syntax."""
    parts = []
    for k, v in attrs.items():
        if k == "activation":
            parts.append(f'activation = "{v}"')
        elif k == "activation_params":
            parts.append(f"activation_params = array<f32: {', '.join(map(str, v))}>")
        elif isinstance(v, list):
            parts.append(f"{k} = array<i64: {', '.join(map(str, v))}>")
        else:
            parts.append(f"{k} = {v} : i64")
    return " {" + ", ".join(parts) + "}" if parts else ""


def _compile(op: str, args: Sequence[Sequence[int | str]], result: Sequence[int | str],
             attrs: dict[str, Any]) -> CompiledModel:
    """A function `main` applying one graph op to its arguments."""
    params = ", ".join(f"%a{i}: {_t(s)}" for i, s in enumerate(args))
    operands = ", ".join(f"%a{i}" for i in range(len(args)))
    types = ", ".join(_t(s) for s in args)
    text = (
        f"func.func @main({params}) -> {_t(result)} {{\n"
        f"  %y = {op} {operands}{_attrs(attrs)} : ({types}) -> {_t(result)}\n"
        f"  func.return %y : {_t(result)}\n}}\n"
    )
    return _compile_text(text)


def _compile_text(text: str) -> CompiledModel:
    module: ModuleOp = Parser(make_context(), text).parse_module()
    SelectConvRowsPass().apply(make_context(), module)
    return compile_module(module, opt_level=0)


def _run(compiled: CompiledModel, *args: np.ndarray) -> np.ndarray:
    (y,) = compiled.run({f"input{i}": a for i, a in enumerate(args)}).values()
    return y


def _onnx(op: str, feeds: dict[str, np.ndarray], attrs: dict[str, Any],
          reference: bool = False) -> np.ndarray:
    """The op's output from onnxruntime, or from ONNX's reference implementation."""
    model = node_model(op, [(k, TensorProto.FLOAT, v.shape) for k, v in feeds.items()], attrs,
                       opset=19)
    if reference:
        (y,) = ReferenceEvaluator(model).run(None, feeds)
        return y
    (y,) = run_onnxruntime(model, feeds)
    return y


def _blocked_shape(shape: Sequence[int | str]) -> list[int | str]:
    n, ch, *sp = shape
    assert isinstance(ch, int)
    return [n, ch // C, *sp, C]


# ---------------------------------------------------------------------------------------
# Layout conversions
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [("N", 16, 5, 7), ("N", 8, 9), ("N", 24, 2, 3, 4)])
def test_to_from_nchwc(shape: tuple[int | str, ...]) -> None:
    blocked = _blocked_shape(shape)
    to = _compile("graph.to_nchwc", [shape], blocked, {"block": C})
    back = _compile("graph.from_nchwc", [blocked], shape, {})
    for n in (1, 3):
        x = _rand(n, *shape[1:])  # type: ignore[arg-type]
        xb = _run(to, x)
        np.testing.assert_array_equal(xb, G.to_blocked(x, C))
        np.testing.assert_array_equal(_run(back, xb), x)


# ---------------------------------------------------------------------------------------
# Conv
# ---------------------------------------------------------------------------------------

# x NCHW shape, ONNX weight shape [M, C/group, *k], bias, summand, attributes
CONV_CASES: dict[str, tuple[tuple[int, ...], tuple[int, ...], bool, bool, dict[str, Any]]] = {
    "3x3_pad1": ((2, 16, 9, 13), (16, 16, 3, 3), True, False, dict(pads=[1, 1, 1, 1])),
    "3x3_pad1_stride2": ((1, 8, 11, 15), (24, 8, 3, 3), True, False,
                         dict(pads=[1, 1, 1, 1], strides=[2, 2])),
    "1x1": ((1, 16, 5, 14), (8, 16, 1, 1), False, False, {}),
    "1x1_stride2": ((1, 16, 7, 9), (16, 16, 1, 1), True, False, dict(strides=[2, 2])),
    "7x7_stride2_pad3": ((1, 8, 20, 23), (16, 8, 7, 7), True, False,
                         dict(pads=[3, 3, 3, 3], strides=[2, 2])),
    "asym_pads_no_bias": ((1, 8, 7, 10), (8, 8, 3, 3), False, False, dict(pads=[1, 0, 2, 1])),
    "dilation2": ((1, 8, 12, 17), (16, 8, 3, 3), True, False,
                  dict(pads=[2, 2, 2, 2], dilations=[2, 2])),
    "dilation_stride_mixed": ((1, 16, 9, 19), (8, 16, 3, 2), True, False,
                              dict(pads=[0, 1, 2, 1], dilations=[2, 1], strides=[1, 2])),
    "pad_beyond_reach": ((1, 8, 3, 3), (8, 8, 3, 3), True, False,
                         dict(pads=[3, 3, 3, 3], dilations=[3, 3])),
    "narrow": ((1, 8, 4, 2), (8, 8, 3, 3), True, False, dict(pads=[1, 1, 1, 1])),
    # rows in register tiles of about equal size, the edge tiles' taps chosen statically
    "row_of_1": ((1, 8, 3, 1), (8, 8, 3, 3), True, False, dict(pads=[1, 1, 1, 1])),
    "row_of_7": ((1, 16, 3, 7), (32, 16, 3, 3), True, True, dict(pads=[1, 1, 1, 1])),
    "row_of_25_stride3": ((1, 8, 4, 25), (16, 8, 3, 3), True, False,
                          dict(pads=[2, 2, 2, 2], strides=[1, 3])),
    "row_of_31_kw5": ((1, 8, 3, 31), (16, 8, 1, 5), True, False, dict(pads=[0, 2, 0, 2])),
    "row_of_9_pads_2_0": ((1, 8, 3, 9), (16, 8, 3, 3), False, False, dict(pads=[1, 2, 1, 0])),
    "summand_relu": ((2, 16, 6, 11), (16, 16, 3, 3), True, True,
                     dict(pads=[1, 1, 1, 1], activation="relu")),
    "clip": ((1, 8, 6, 8), (8, 8, 3, 3), True, False,
             dict(pads=[1, 1, 1, 1], activation="clip", activation_params=[0.0, 0.5])),
    "summand_sigmoid": ((1, 8, 5, 9), (8, 8, 1, 1), True, True, dict(activation="sigmoid")),
    "leaky_relu": ((1, 8, 5, 9), (8, 8, 3, 3), False, False,
                   dict(pads=[1, 1, 1, 1], activation="leaky_relu", activation_params=[0.1])),
    "group2": ((1, 32, 6, 10), (32, 16, 3, 3), True, False, dict(pads=[1, 1, 1, 1], group=2)),
    "group2_odd_blocks": ((1, 32, 5, 9), (48, 16, 3, 3), True, False,
                          dict(pads=[1, 1, 1, 1], group=2)),
    "depthwise": ((2, 16, 7, 13), (16, 1, 3, 3), True, False, dict(pads=[1, 1, 1, 1], group=16)),
    "depthwise_stride2": ((1, 8, 9, 16), (8, 1, 3, 3), True, False,
                          dict(pads=[1, 1, 1, 1], group=8, strides=[2, 2])),
    "depthwise_5x5_summand_relu": ((1, 16, 8, 9), (16, 1, 5, 5), False, True,
                                   dict(pads=[2, 2, 2, 2], group=16, activation="relu")),
    "1d": ((2, 8, 17), (16, 8, 3), True, False, dict(pads=[1, 2], strides=[2])),
    # register tiles chosen on the op (discardable attribute `tile`: outputs, blocks)
    "tile_4x1": ((1, 16, 6, 13), (16, 16, 3, 3), True, False, dict(pads=[1, 1, 1, 1], tile=[4, 1])),
    "tile_3x4_summand_relu": ((1, 16, 5, 12), (64, 16, 3, 3), True, True,
                              dict(pads=[1, 1, 1, 1], tile=[3, 4], activation="relu")),
    # 7 output blocks in tiles of 4: the 3 left over run as a tile of their own
    "tile_3x4_tail_of_3": ((1, 16, 4, 11), (56, 16, 3, 3), True, True,
                           dict(pads=[1, 1, 1, 1], tile=[3, 4], activation="relu")),
    # 18 input blocks: batches of 8, 8 and 2 (partial sums in y between them)
    "input_batches_summand_relu": ((1, 144, 5, 9), (24, 144, 3, 3), True, True,
                                   dict(pads=[1, 1, 1, 1], activation="relu")),
    "input_batches_1x1_sigmoid": ((1, 136, 3, 7), (16, 136, 1, 1), False, True,
                                  dict(activation="sigmoid")),
    # a pointwise conv of 17 output blocks on rows of 7: 5 x 7 as one row (flat_rows),
    # 8 block pairs and the block left over
    "flat_rows_odd_blocks_summand_relu": ((1, 16, 5, 7), (136, 16, 1, 1), True, True,
                                          dict(activation="relu")),
    "3d": ((1, 8, 4, 5, 9), (8, 8, 3, 3, 3), True, True, dict(pads=[1, 1, 1, 1, 1, 1])),
}

def _activated(y: np.ndarray, name: str, params: Sequence[float] | None) -> np.ndarray:
    """y through the dialect's activation `name`: its op's numpy semantics."""
    act = G.ACTIVATIONS[name]
    params = list(params or [])
    scalars = [np.array(p, y.dtype) for p in act.operand_params(params)]
    return act.instance(params).numpy(y, *scalars)  # type: ignore[attr-defined]


@pytest.mark.parametrize("case", list(CONV_CASES))
def test_conv_nchwc(case: str) -> None:
    x_shape, w_shape, has_bias, has_z, attrs = CONV_CASES[case]
    w = _rand(*w_shape)
    bias = _rand(w_shape[0])
    conv_attrs = {k: v for k, v in attrs.items()
                  if not k.startswith("activation") and k != "tile"}
    packed = nchwc_packing.pack_conv_weights(w, C)
    blocked_x = _blocked_shape(["N", *x_shape[1:]])

    feeds_by_n = []  # (x, onnxruntime's conv, summand) at batch 1 and 2 or 3
    for n in (1, x_shape[0]) if x_shape[0] > 1 else (1, 3):
        x = _rand(n, *x_shape[1:])
        onnx_feeds = {"x": x, "w": w, **({"b": bias} if has_bias else {})}
        y = _onnx("Conv", onnx_feeds, conv_attrs)
        feeds_by_n.append((x, y, _rand(*y.shape) if has_z else None))
    y_blocked = _blocked_shape(["N", *feeds_by_n[0][1].shape[1:]])
    args: list[Sequence[int | str]] = [blocked_x, list(packed.shape)]
    if has_bias or has_z:
        args.append([w_shape[0]])
    if has_z:
        args.append(y_blocked)
    compiled = _compile("graph.conv_nchwc", args, y_blocked, attrs)
    for x, y, z in feeds_by_n:
        inputs = [G.to_blocked(x, C), packed]
        if has_bias or has_z:
            inputs.append(bias if has_bias else np.zeros_like(bias))
        if z is not None:
            y = y + z
            inputs.append(G.to_blocked(z, C))
        if "activation" in attrs:
            y = _activated(y, attrs["activation"], attrs.get("activation_params"))
        ours = _run(compiled, *inputs)
        np.testing.assert_allclose(G.from_blocked(ours), y, rtol=1e-4, atol=1e-4)


def test_conv_nchwc_channel_multiplier_unsupported() -> None:
    # 8 groups of one input channel, two outputs each: a block of outputs would read two
    # input channels (not a vector); the layout pass never creates this.
    with pytest.raises(UnsupportedError, match="do not fill whole blocks"):
        _compile("graph.conv_nchwc", [["N", 1, 5, 5, C], [2, 1, 3, 3, 1, C]], ["N", 2, 3, 3, C],
                 {"group": 8})


# ---------------------------------------------------------------------------------------
# Pooling
# ---------------------------------------------------------------------------------------

POOL_CASES: dict[str, tuple[tuple[int, ...], dict[str, Any]]] = {
    "3x3_s2_pad1": ((2, 16, 9, 11), dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])),
    "2x2_s2": ((1, 8, 8, 7), dict(kernel_shape=[2, 2], strides=[2, 2])),
    "ceil_mode": ((1, 8, 7, 10), dict(kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)),
    "ceil_pads": ((1, 8, 6, 9), dict(kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 1, 1],
                                     ceil_mode=1)),
    "count_include_pad": ((1, 16, 6, 7), dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                              count_include_pad=1)),
    "ceil_count_include_pad": ((1, 8, 7, 8), dict(kernel_shape=[3, 3], strides=[2, 2],
                                                  pads=[1, 1, 1, 1], ceil_mode=1,
                                                  count_include_pad=1)),
    "1d": ((2, 8, 11), dict(kernel_shape=[3], strides=[2], pads=[1, 1])),
    "dilated": ((1, 8, 9, 10), dict(kernel_shape=[2, 3], dilations=[2, 2], pads=[1, 1, 1, 1])),
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["max", "average"])
@pytest.mark.parametrize("case", list(POOL_CASES))
def test_pool_nchwc(kind: str, case: str) -> None:
    x_shape, attrs = POOL_CASES[case]
    onnx_attrs = dict(attrs)
    if kind == "max":
        onnx_attrs.pop("count_include_pad", None)
    # onnxruntime has no dilated AveragePool: ONNX's reference implementation has
    reference = kind == "average" and "dilations" in attrs
    results = []
    for n in (1, 3):
        x = _rand(n, *x_shape[1:])
        results.append((x, _onnx("MaxPool" if kind == "max" else "AveragePool", {"x": x},
                                 onnx_attrs, reference)))
    y_blocked = _blocked_shape(["N", *results[0][1].shape[1:]])
    compiled = _compile(f"graph.{kind}_pool_nchwc", [_blocked_shape(["N", *x_shape[1:]])],
                        y_blocked, onnx_attrs)
    for x, y in results:
        ours = _run(compiled, G.to_blocked(x, C))
        np.testing.assert_allclose(G.from_blocked(ours), y, rtol=1e-5, atol=1e-6)


def test_static_spatial_and_dynamic_spatial() -> None:
    """Static batch with dynamic spatial dims (the interior tile bounds are run-time)."""
    compiled = _compile("graph.conv_nchwc", [[2, 1, "H", "W", C], [1, 1, 3, 3, C, C]],
                        [2, 1, "H", "W", C], {"pads": [1, 1, 1, 1]})
    w = _rand(8, 8, 3, 3)
    for h, wd in ((5, 17), (3, 4), (1, 1)):
        x = _rand(2, 8, h, wd)
        y = _onnx("Conv", {"x": x, "w": w}, {"pads": [1, 1, 1, 1]})
        ours = _run(compiled, G.to_blocked(x, C), nchwc_packing.pack_conv_weights(w, C))
        np.testing.assert_allclose(G.from_blocked(ours), y, rtol=1e-4, atol=1e-4)


def test_conv_nchwc_constant_weights() -> None:
    """Weights and bias as graph.constant (memref.global), as the layout pass makes them."""
    w, bias = _rand(16, 8, 3, 3), _rand(16)
    packed = nchwc_packing.pack_conv_weights(w, C)

    def const(a: np.ndarray) -> str:
        return f'graph.constant dense<"0x{a.tobytes().hex().upper()}"> : {_t(a.shape)}'

    xt, yt = _t(["N", 1, 6, 9, C]), _t(["N", 2, 6, 9, C])
    text = (
        f"func.func @main(%x: {xt}) -> {yt} {{\n"
        f"  %w = {const(packed)}\n  %b = {const(bias)}\n"
        f"  %y = graph.conv_nchwc %x, %w, %b {{pads = array<i64: 1, 1, 1, 1>}} : "
        f"({xt}, {_t(packed.shape)}, {_t(bias.shape)}) -> {yt}\n"
        f"  func.return %y : {yt}\n}}\n"
    )
    compiled = _compile_text(text)
    x = _rand(2, 8, 6, 9)
    y = _onnx("Conv", {"x": x, "w": w, "b": bias}, {"pads": [1, 1, 1, 1]})
    ours = _run(compiled, G.to_blocked(x, C))
    np.testing.assert_allclose(G.from_blocked(ours), y, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("group", [1, 32])
def test_conv_nchwc_block16(group: int) -> None:
    """Nothing assumes c = 8: a 16-channel block (one zmm of f32 on AVX-512)."""
    block = 16
    w, bias = _rand(32, 32 // group, 3, 3), _rand(32)
    packed = nchwc_packing.pack_conv_weights(w, block)
    attrs = {"pads": [1, 1, 1, 1], "group": group}
    compiled = _compile("graph.conv_nchwc", [["N", 2, 5, 11, block], list(packed.shape), [32]],
                        ["N", 2, 5, 11, block], attrs)
    x = _rand(2, 32, 5, 11)
    y = _onnx("Conv", {"x": x, "w": w, "b": bias}, attrs)
    ours = _run(compiled, G.to_blocked(x, block), packed, bias)
    np.testing.assert_allclose(G.from_blocked(ours), y, rtol=1e-4, atol=1e-4)


# x NCHW shape (fewer channels than a block), ONNX weight shape [M, C, *k], bias, attributes
NCHW_INPUT_CASES: dict[str, tuple[tuple[int, ...], tuple[int, ...], bool, dict[str, Any]]] = {
    "stem_7x7_s2_p3_relu": ((3, 3, 37, 45), (64, 3, 7, 7), True,
                            dict(pads=[3, 3, 3, 3], strides=[2, 2], activation="relu")),
    "3x3_s2_p1": ((3, 3, 17, 23), (32, 3, 3, 3), True, dict(pads=[1, 1, 1, 1], strides=[2, 2])),
    "1_channel": ((3, 1, 11, 19), (16, 1, 5, 5), False, dict(pads=[2, 2, 2, 2])),
    "odd_asym": ((3, 5, 9, 13), (48, 5, 3, 2), True,
                 dict(pads=[0, 1, 2, 0], strides=[1, 2], activation="relu")),
    "dilated_no_pad": ((3, 7, 12, 31), (16, 7, 3, 3), False, dict(dilations=[2, 2])),
}


@pytest.mark.slow
@pytest.mark.parametrize("block", [8, 16])
@pytest.mark.parametrize("case", list(NCHW_INPUT_CASES))
def test_conv_nchwc_nchw_input(case: str, block: int) -> None:
    """The image stem's form: an NCHW input of C < c channels, weights [M/c, 1, *k, C, c],
    a blocked output; at batch 1 and 3 (dynamic)."""
    x_shape, w_shape, has_bias, attrs = NCHW_INPUT_CASES[case]
    w, bias = _rand(*w_shape), _rand(w_shape[0])
    packed = nchwc_packing.pack_conv_weights(w, block, input_blocked=False)
    assert packed.shape == (w_shape[0] // block, 1, *w_shape[2:], w_shape[1], block)
    np.testing.assert_array_equal(G.unpack_conv_weights(packed), w)
    conv_attrs = {k: v for k, v in attrs.items()
                  if not k.startswith("activation") and k != "tile"}
    results = []
    for n in (1, x_shape[0]):
        x = _rand(n, *x_shape[1:])
        y = _onnx("Conv", {"x": x, "w": w, **({"b": bias} if has_bias else {})}, conv_attrs)
        results.append((x, y if "activation" not in attrs else np.maximum(y, 0)))
    m, *out_sp = results[0][1].shape[1:]
    y_blocked = ["N", m // block, *out_sp, block]
    args: list[Sequence[int | str]] = [["N", *x_shape[1:]], list(packed.shape)]
    args += [[m]] if has_bias else []
    compiled = _compile("graph.conv_nchwc", args, y_blocked, attrs)
    for x, y in results:
        ours = _run(compiled, x, packed, *([bias] if has_bias else []))
        np.testing.assert_allclose(G.from_blocked(ours), y, rtol=1e-4, atol=1e-4)


def test_conv_nchwc_nchw_input_needs_group_1() -> None:
    # The op's verifier refuses it: after the first pass in the tests (which verify after
    # every pass), else when graph-to-loops computes its shape.
    with pytest.raises((ValueError, VerifyException), match="group 1 only"):
        _compile("graph.conv_nchwc", [["N", 4, 5, 5], [2, 1, 3, 3, 4, C]], ["N", 2, 3, 3, C],
                 {"group": 2})


def test_conv_nchwc_nchw_input_dynamic_spatial() -> None:
    """The stem with run-time image sizes: interior tile bounds computed at run time."""
    attrs = {"pads": [3, 3, 3, 3], "strides": [2, 2]}
    w = _rand(16, 3, 7, 7)
    packed = nchwc_packing.pack_conv_weights(w, C, input_blocked=False)
    compiled = _compile("graph.conv_nchwc", [[1, 3, "H", "W"], list(packed.shape)],
                        [1, 2, "OH", "OW", C], attrs)
    for h, wd in ((23, 41), (7, 8), (1, 2)):
        x = _rand(1, 3, h, wd)
        y = _onnx("Conv", {"x": x, "w": w}, attrs)
        ours = _run(compiled, x, packed)
        np.testing.assert_allclose(G.from_blocked(ours), y, rtol=1e-4, atol=1e-4)

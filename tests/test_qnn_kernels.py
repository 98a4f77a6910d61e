"""The int8 kernels (qnn.conv_requant / qnn.matmul_requant in each form qnn-legalize picks:
vpdpbusd and vpmaddwd, at each vector width this CPU runs), bit-exact against onnxruntime
(ONNX's reference implementation where onnxruntime's kernel saturates) on QLinearConv /
QLinearMatMul with shapes that leave remainders in every tile dim: rows (output channels,
M), pixels and columns, k words; pads, strides, dilations, groups, depthwise; u8 and s8
activations, s8 and u8 weights, per-tensor and per-channel scales. Each case also checks
that the integer kernel ran (the fused op after legalization)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from infer.codegen.target import host_target
from infer.context import make_context
from infer.dialects import qnn as Q
from infer.frontend.onnx_import import import_model
from infer.lowering.qnn_legalize import choose_kernel
from infer.pipeline import compile_passes, prepare_passes, run_passes
from infer.runtime.compiled_model import compile_and_map

from .helpers import run_onnxruntime

R = np.random.default_rng(20261126)


def _forms() -> list[tuple[bool, int]]:
    """(vnni, lanes) forms this CPU runs: vpmaddwd at SSE2/AVX2 widths always (x86-64
    hosts have them), the others where the host has the features."""
    on = host_target().enabled()
    forms = [(False, 4), (False, 8)]
    if {"avx512f", "avx512bw"} <= on:
        forms.append((False, 16))
    if "avx512vnni" in on and "avx512vl" in on or "avxvnni" in on:
        forms.append((True, 8))
    if "avx512vnni" in on and "avx512bw" in on:
        forms.append((True, 16))
    return forms


FORMS = _forms()


def _ids(form: tuple[bool, int]) -> str:
    return f"{'vnni' if form[0] else 'pairs'}{form[1]}"


def _ints(dtype: type, *shape: int) -> np.ndarray:
    info = np.iinfo(dtype)
    return R.integers(info.min, info.max + 1, shape, dtype=dtype)


def _run(model: onnx.ModelProto, feeds: list[dict[str, np.ndarray]], form: tuple[bool, int],
         expect_kernel: str | None = None) -> None:
    module = import_model(model)
    ctx = make_context()
    run_passes(module, ctx, prepare_passes(3, form))
    fused = [op for op in module.walk() if isinstance(op, Q.ConvRequantOp | Q.MatMulRequantOp)]
    assert len(fused) == 1, [op.name for op in module.walk()]
    assert fused[0].kernel is not None
    if expect_kernel is not None:
        assert fused[0].kernel.data == expect_kernel
    module = import_model(model)
    run_passes(module, ctx, compile_passes(3, int8=form))
    compiled = compile_and_map(module)
    for f in feeds:
        (ours,) = compiled.run(f).values()
        (theirs,) = _reference(model, f)
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
        np.testing.assert_array_equal(ours, theirs)


def _saturating_onnxruntime(model: onnx.ModelProto) -> bool:
    """Whether onnxruntime computes this u8 x s8 model with vpmaddubsw, which saturates a
    pair of products to int16 (its AVX2 and AVX-512BW kernels, on CPUs without VNNI):
    its answers are then not the exact ones (what onnxruntime's `reduce_range` is for)."""
    on = host_target().enabled()
    weight = model.graph.node[0].input[3]  # QLinearConv's w, QLinearMatMul's b
    types = {t.name: t.data_type for t in model.graph.initializer}
    return (model.graph.input[0].type.tensor_type.elem_type == TP.UINT8
            and types.get(weight) == TP.INT8 and not ({"avx512vnni", "avxvnni"} & on))


def _reference(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    """onnxruntime's outputs, or ONNX's reference implementation's where onnxruntime's
    kernel saturates (`_saturating_onnxruntime`)."""
    if _saturating_onnxruntime(model):
        return ReferenceEvaluator(model).run(None, feeds)
    return run_onnxruntime(model, feeds)


def _model(node: onnx.NodeProto, x: tuple[int, list[int | str]], y: tuple[int, list[int | str]],
           inits: dict[str, np.ndarray]) -> onnx.ModelProto:
    graph = helper.make_graph(
        [node], "q", [helper.make_tensor_value_info("x", *x)],
        [helper.make_tensor_value_info("y", *y)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    model.ir_version = 10
    onnx.checker.check_model(model)
    return model


_ELEM = {np.uint8: TP.UINT8, np.int8: TP.INT8}

# (C, H, W, M, kernel, attributes): 1x1 (the flattened packing), 3x3 with pads, strides
# and dilations, a stem-like 7x7/2, grouped and depthwise, in place; M and C/group * taps leave
# remainders of the 6-row tile and of the 4- and 2-value words, the pixels of the tile.
CONVS = [
    (8, 7, 9, 13, (1, 1), {}),
    (5, 9, 9, 6, (3, 3), {"pads": [1, 1, 1, 1]}),
    (3, 15, 13, 7, (7, 7), {"pads": [3, 2, 3, 1], "strides": [2, 2]}),
    (6, 10, 11, 8, (3, 2), {"pads": [2, 0, 1, 1], "dilations": [2, 1], "group": 2}),
    (12, 8, 8, 12, (3, 3), {"pads": [1, 1, 1, 1], "group": 12}),
    (16, 6, 6, 40, (1, 1), {"strides": [2, 2]}),
    # unit strides and whole words of channels: read in place (no im2col) where the rows
    # fill 7/8 of their vectors: rows of 14 (4 rows a tile, 9 rows), of 21 (im2col at 16
    # and 8 lanes), of 62 (two tiles a row), of 4 (at 4 lanes)
    (8, 9, 14, 13, (3, 3), {"pads": [2, 1, 2, 1], "dilations": [2, 1]}),
    (16, 5, 20, 10, (3, 2), {"pads": [0, 2, 1, 0], "dilations": [2, 1], "group": 2}),
    (8, 4, 62, 20, (3, 3), {"pads": [1, 1, 1, 1]}),
    (4, 6, 4, 9, (3, 3), {"pads": [1, 1, 1, 1]}),
]
# (x, w) types: onnxruntime's QLinearConv takes these pairs
TYPES = [(np.uint8, np.int8), (np.uint8, np.uint8), (np.int8, np.int8)]
# The fast subset (`-m "not slow"`) runs every case and form with the first pair only.
TYPE_PARAMS = [pytest.param(t, id=f"{t[0].__name__}x{t[1].__name__}",
                            marks=() if i == 0 else pytest.mark.slow)
               for i, t in enumerate(TYPES)]


def _conv_model(case: tuple, types: tuple[type, type], per_channel: bool, bias: bool
                ) -> onnx.ModelProto:
    c, h, w, m, (kh, kw), attrs = case
    tx, tw = types
    group = attrs.get("group", 1)
    channels = m if per_channel else 1
    wzp = np.zeros(channels, tw) if tw == np.int8 else _ints(tw, channels)
    inits = {"x_scale": np.array(0.02, np.float32), "x_zero_point": _ints(tx, 1).reshape(()),
             "w": _ints(tw, m, c // group, kh, kw),
             "w_scale": R.uniform(0.001, 0.01, channels).astype(np.float32),
             "w_zero_point": wzp if per_channel else wzp.reshape(()),
             # outputs spread over the 8-bit range (few saturate)
             "y_scale": np.array(0.012 * np.sqrt(c // group * kh * kw), np.float32),
             "y_zero_point": _ints(tx, 1).reshape(())}
    if bias:
        inits["b"] = R.integers(-5000, 5000, m).astype(np.int32)
    node = helper.make_node("QLinearConv", ["x", *list(inits)[:7], *(["b"] if bias else [])],
                            ["y"], **attrs)
    return _model(node, (_ELEM[tx], ["N", c, h, w]), (_ELEM[tx], ["N", m, "OH", "OW"]), inits)


@pytest.mark.parametrize("form", FORMS, ids=_ids)
@pytest.mark.parametrize("types", TYPE_PARAMS)
@pytest.mark.parametrize("case", range(len(CONVS)))
def test_conv(case: int, types: tuple[type, type], form: tuple[bool, int]) -> None:
    c, h, w = CONVS[case][:3]
    model = _conv_model(CONVS[case], types, per_channel=case % 2 == 0, bias=case != 1)
    feeds = [{"x": _ints(types[0], n, c, h, w)} for n in (1, 2)]
    # u8 weights less a zero point need not fit s8: vnni then falls back to pairs
    _run(model, feeds, form, None if types[1] == np.uint8 else _ids(form)[:-len(str(form[1]))])


# (batch dims, M, K, N): M past the 4- and 2-row tiles, N past 4 panels and straddling a
# panel, K past a word; a dynamic M.
MATMULS = [((), 1, 2048, 1000), ((), 5, 7, 3), ((2,), 9, 33, 70), ((), 17, 64, 16)]


@pytest.mark.parametrize("form", FORMS, ids=_ids)
@pytest.mark.parametrize("types", TYPE_PARAMS)
@pytest.mark.parametrize("case", range(len(MATMULS)))
def test_matmul(case: int, types: tuple[type, type], form: tuple[bool, int]) -> None:
    batch, m, k, n = MATMULS[case]
    ta, tb = types
    per_column = case % 2 == 1
    cols = n if per_column else 1
    bzp = np.zeros(cols, tb) if tb == np.int8 else _ints(tb, cols)
    inits = {"a_scale": np.array(0.03, np.float32), "a_zero_point": _ints(ta, 1).reshape(()),
             "b": _ints(tb, k, n), "b_scale": R.uniform(0.001, 0.01, cols).astype(np.float32),
             "b_zero_point": bzp if per_column else bzp.reshape(()),
             "y_scale": np.array(0.02 * np.sqrt(k), np.float32),
             "y_zero_point": _ints(ta, 1).reshape(())}
    node = helper.make_node("QLinearMatMul", ["x", *inits], ["y"])
    model = _model(node, (_ELEM[ta], [*batch, "M", k]), (_ELEM[ta], [*batch, "M", n]), inits)
    _run(model, [{"x": _ints(ta, *batch, rows, k)} for rows in (m, 1)], form)


def test_weights_past_s8_take_pairs() -> None:
    """w - w_zero_point outside [-128, 127] cannot be s8: vpmaddwd's i16 takes it."""
    assert choose_kernel(np.array([-128, 127]), vnni=True) == "vnni"
    assert choose_kernel(np.array([-129, 0]), vnni=True) == "pairs"
    assert choose_kernel(np.array([0, 128]), vnni=True) == "pairs"
    assert choose_kernel(np.array([0, 1]), vnni=False) == "pairs"

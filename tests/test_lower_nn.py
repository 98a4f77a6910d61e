"""Numerics of the NN lowerings (conv, pooling, MatMul/Gemm, BatchNormalization, LRN)
against onnxruntime: one single-node model per attribute combination, compiled once and
run at batch sizes 1 and 3 where the batch dim is dynamic ("N")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import infer

from .helpers import run_onnxruntime

RNG = np.random.default_rng(20240611)
ELEM = {np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE, np.int8: TensorProto.INT8,
        np.uint8: TensorProto.UINT8}


def _rand(shape: Sequence[int], dtype: type = np.float32, positive: bool = False) -> np.ndarray:
    a = RNG.random(shape) + 0.5 if positive else RNG.standard_normal(shape)
    return a.astype(dtype)


def _model(op: str, inputs: list[tuple[str, Sequence[int | str]]], weights: dict[str, np.ndarray],
           attrs: dict[str, Any], dtype: type = np.float32) -> onnx.ModelProto:
    """One `op` node over runtime inputs (name, shape) then initializers, output "y"."""
    elem = ELEM[dtype]
    names = [n for n, _ in inputs] + list(weights)
    node = helper.make_node(op, names, ["y"], **attrs)
    graph = helper.make_graph(
        [node], "test",
        [helper.make_tensor_value_info(n, elem, list(s)) for n, s in inputs],
        [helper.make_tensor_value_info("y", elem, None)],
        [numpy_helper.from_array(w, n) for n, w in weights.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    model.ir_version = 9
    return onnx.shape_inference.infer_shapes(model)


def _check(model: onnx.ModelProto, feeds: list[dict[str, np.ndarray]],
           rtol: float = 1e-4, atol: float = 1e-5) -> None:
    compiled = infer.compile(model)
    for f in feeds:
        (ours,) = compiled.run(f).values()
        (theirs,) = run_onnxruntime(model, f)
        assert ours.shape == theirs.shape
        np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol)


def _batched(x_shape: Sequence[int], dtype: type = np.float32) -> list[dict[str, np.ndarray]]:
    """Feeds of "x" at batch 1 and 3 (the model's batch dim is "N")."""
    return [{"x": _rand([n, *x_shape[1:]], dtype)} for n in (1, 3)]


# ---------------------------------------------------------------------------------------
# Conv
# ---------------------------------------------------------------------------------------

CONV_CASES = {
    "3x3_pad1": ((2, 3, 8, 9), (4, 3, 3, 3), True, dict(pads=[1, 1, 1, 1])),
    "stride2_pad1": ((2, 3, 9, 8), (4, 3, 3, 3), True, dict(pads=[1, 1, 1, 1], strides=[2, 2])),
    "asym_pads": ((1, 3, 7, 7), (6, 3, 3, 3), False, dict(pads=[1, 0, 2, 1])),
    "7x7_stride2": ((1, 3, 16, 16), (8, 3, 7, 7), True, dict(pads=[3, 3, 3, 3], strides=[2, 2])),
    "5x5_stride3": ((1, 3, 10, 11), (4, 3, 5, 5), False, dict(pads=[2, 2, 2, 2], strides=[3, 3])),
    "dilation2": ((1, 2, 9, 9), (4, 2, 3, 3), True, dict(pads=[2, 2, 2, 2], dilations=[2, 2])),
    "dilation_stride_mixed": ((1, 4, 9, 10), (8, 2, 3, 2), False,
                              dict(pads=[0, 1, 2, 1], group=2, dilations=[2, 1], strides=[1, 2])),
    "pad_gt_kernel_reach": ((1, 2, 3, 3), (4, 2, 3, 3), False,
                            dict(pads=[3, 3, 3, 3], dilations=[3, 3])),
    "group2": ((2, 4, 6, 6), (6, 2, 3, 3), True, dict(pads=[1, 1, 1, 1], group=2)),
    "depthwise": ((2, 8, 7, 7), (8, 1, 3, 3), True, dict(pads=[1, 1, 1, 1], group=8)),
    "depthwise_mult2_stride2": ((1, 4, 9, 9), (8, 1, 3, 3), True,
                                dict(pads=[1, 1, 1, 1], group=4, strides=[2, 2])),
    "pointwise": ((2, 16, 7, 7), (24, 16, 1, 1), True, {}),
    "pointwise_stride2": ((1, 8, 7, 7), (4, 8, 1, 1), True, dict(strides=[2, 2])),
    "1x1_no_bias": ((1, 5, 4, 6), (3, 5, 1, 1), False, {}),
    "conv1d": ((2, 3, 11), (5, 3, 3), True, dict(pads=[2, 1], strides=[2], dilations=[2])),
    "conv1d_strided_window": ((2, 1, 1024), (66, 1, 64), False, dict(strides=[32])),
    "conv1d_several_blocks": ((1, 5, 700), (9, 5, 3), True, dict(pads=[1, 1])),
    "conv1d_group3": ((2, 6, 40), (6, 2, 5), True, dict(pads=[2, 2], strides=[2], group=3)),
    "conv1d_depthwise": ((1, 8, 30), (8, 1, 7), True, dict(pads=[3, 3], group=8)),
    "conv3d": ((1, 2, 4, 5, 5), (3, 2, 2, 3, 3), True, dict(pads=[1, 1, 1, 0, 1, 1])),
    "rect_kernel": ((1, 3, 8, 8), (4, 3, 1, 5), True, dict(pads=[0, 2, 0, 2])),
}


@pytest.mark.parametrize("case", CONV_CASES, ids=list(CONV_CASES))
def test_conv(case: str) -> None:
    x_shape, w_shape, with_bias, attrs = CONV_CASES[case]
    weights = {"w": _rand(w_shape)}
    if with_bias:
        weights["b"] = _rand([w_shape[0]])
    model = _model("Conv", [("x", ["N", *x_shape[1:]])], weights, attrs)
    _check(model, _batched(x_shape))


def test_conv1d_of_any_length_with_fused_summand_and_activation() -> None:
    """A 1-D conv over a run-time length (a GEMM over input columns, blocks of 256
    outputs), its residual summand and ReLU fused: outputs fewer than a vector, a block and
    a vector's remainder, and several blocks."""
    w, bias = _rand([6, 4, 5]), _rand([6])
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[2, 2]),
             helper.make_node("Add", ["c", "z"], ["s"]), helper.make_node("Relu", ["s"], ["y"])]
    graph = helper.make_graph(
        nodes, "conv1d", [helper.make_tensor_value_info(n, TensorProto.FLOAT, ["N", c, "L"])
                          for n, c in (("x", 4), ("z", 6))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 6, "L"])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(bias, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    compiled = infer.compile(model)
    for n, length in ((1, 5), (2, 31), (1, 300), (2, 517)):
        feeds = {"x": _rand([n, 4, length]), "z": _rand([n, 6, length])}
        (ours,) = compiled.run(feeds).values()
        np.testing.assert_allclose(ours, run_onnxruntime(model, feeds)[0], rtol=1e-4, atol=1e-5)


def test_conv_weights_as_inputs() -> None:
    """Weights fed at run time rather than constants."""
    model = _model("Conv", [("x", [1, 2, 6, 6]), ("w", [4, 2, 3, 3]), ("b", [4])], {},
                   dict(pads=[1, 1, 1, 1], strides=[1, 2]))
    feeds = {"x": _rand([1, 2, 6, 6]), "w": _rand([4, 2, 3, 3]), "b": _rand([4])}
    _check(model, [feeds])


@pytest.mark.parametrize("op, attrs, shapes", [
    ("Gemm", dict(transB=1, alpha=0.5), [(3, 4), (5, 4), (5,)]),
    ("MatMul", {}, [(2, 3, 4), (4, 5)]),
    ("MaxPool", dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]), [(1, 2, 7, 7)]),
], ids=["gemm", "matmul", "max_pool"])
def test_f64(op: str, attrs: dict[str, Any], shapes: list[tuple[int, ...]]) -> None:
    names = ["a", "b", "c"][: len(shapes)]
    model = _model(op, list(zip(names, shapes, strict=True)), {}, attrs, np.float64)
    feeds = {n: _rand(s, np.float64) for n, s in zip(names, shapes, strict=True)}
    _check(model, [feeds], rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------------------------------
# Pooling
# ---------------------------------------------------------------------------------------

POOL_CASES = {
    "k3": ((2, 2, 6, 7), dict(kernel_shape=[3, 3])),
    "k3_s2_p1": ((2, 2, 7, 8), dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])),
    "k2_s2_ceil": ((1, 3, 7, 9), dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1)),
    "k3_s2_ceil_asym": ((1, 3, 8, 7), dict(kernel_shape=[3, 2], strides=[2, 3],
                                           pads=[1, 0, 2, 1], ceil_mode=1)),
    "dilated": ((1, 2, 9, 9), dict(kernel_shape=[3, 3], dilations=[2, 2], pads=[2, 1, 1, 1])),
    "1d": ((2, 2, 9), dict(kernel_shape=[3], strides=[2], pads=[1, 2])),
    "3d": ((1, 2, 5, 6, 6), dict(kernel_shape=[2, 3, 3], pads=[1, 1, 1, 1, 1, 1])),
}


@pytest.mark.parametrize("case", POOL_CASES, ids=list(POOL_CASES))
def test_max_pool(case: str) -> None:
    x_shape, attrs = POOL_CASES[case]
    model = _model("MaxPool", [("x", ["N", *x_shape[1:]])], {}, attrs)
    _check(model, _batched(x_shape))


AVG_CASES = {
    **{k: v for k, v in POOL_CASES.items() if k != "dilated"},  # ORT: no dilated AveragePool
    "k3_p1_include_pad": ((1, 2, 6, 7), dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                             count_include_pad=1)),
    "ceil_include_pad": ((1, 2, 7, 7), dict(kernel_shape=[3, 3], strides=[2, 2],
                                            pads=[1, 1, 1, 1], ceil_mode=1,
                                            count_include_pad=1)),
    "ceil_asym_include_pad": ((1, 2, 8, 7), dict(kernel_shape=[3, 2], strides=[2, 3],
                                                 pads=[1, 0, 2, 1], ceil_mode=1,
                                                 count_include_pad=1)),
}


@pytest.mark.parametrize("case", AVG_CASES, ids=list(AVG_CASES))
def test_average_pool(case: str) -> None:
    x_shape, attrs = AVG_CASES[case]
    model = _model("AveragePool", [("x", ["N", *x_shape[1:]])], {}, attrs)
    _check(model, _batched(x_shape))


@pytest.mark.parametrize("op", ["GlobalAveragePool", "GlobalMaxPool"])
@pytest.mark.parametrize("x_shape", [(2, 3, 7, 7), (2, 3, 5), (1, 2, 2, 3, 4)],
                         ids=["2d", "1d", "3d"])
def test_global_pool(op: str, x_shape: tuple[int, ...]) -> None:
    model = _model(op, [("x", ["N", *x_shape[1:]])], {}, {})
    _check(model, _batched(x_shape))


# ---------------------------------------------------------------------------------------
# MatMul and Gemm
# ---------------------------------------------------------------------------------------

MATMUL_CASES = {
    "2d": ((3, 4), (4, 5)),
    "batched_lhs": ((2, 3, 4), (4, 5)),
    "batched_both_broadcast": ((2, 1, 3, 4), (3, 4, 5)),
    "lhs_broadcast": ((3, 4), (2, 4, 5)),
    "vec_mat": ((4,), (4, 5)),
    "mat_vec": ((3, 4), (4,)),
    "vec_vec": ((4,), (4,)),
    "vec_batched": ((4,), (2, 4, 5)),
    "batched_vec": ((2, 3, 4), (4,)),
    "wide": ((5, 37), (37, 33)),
}


@pytest.mark.parametrize("case", MATMUL_CASES, ids=list(MATMUL_CASES))
def test_matmul(case: str) -> None:
    a_shape, b_shape = MATMUL_CASES[case]
    model = _model("MatMul", [("a", a_shape), ("b", b_shape)], {}, {})
    _check(model, [{"a": _rand(a_shape), "b": _rand(b_shape)}])


def test_matmul_dynamic_batch_constant_rhs() -> None:
    model = _model("MatMul", [("x", ["N", 3, 8])], {"w": _rand([8, 6])}, {})
    _check(model, _batched((1, 3, 8)))


GEMM_C = {"none": None, "row": (5,), "col": (3, 1), "full": (3, 5), "scalar": (1,)}


@pytest.mark.parametrize("trans_a", [0, 1])
@pytest.mark.parametrize("trans_b", [0, 1])
@pytest.mark.parametrize("c", ["none", "row", "col", "full"])
def test_gemm(trans_a: int, trans_b: int, c: str) -> None:
    a_shape = (4, 3) if trans_a else (3, 4)
    b_shape = (5, 4) if trans_b else (4, 5)
    inputs = [("a", a_shape), ("b", b_shape)]
    feeds = {"a": _rand(a_shape), "b": _rand(b_shape)}
    c_shape = GEMM_C[c]
    if c_shape is not None:
        inputs.append(("c", c_shape))
        feeds["c"] = _rand(c_shape)
    attrs = dict(transA=trans_a, transB=trans_b, alpha=0.75, beta=1.5)
    _check(_model("Gemm", inputs, {}, attrs), [feeds])


def test_gemm_fully_connected_dynamic_batch() -> None:
    """Flatten → Gemm(transB) as in ResNet/SqueezeNet heads: weights constant, batch "N"."""
    weights = {"w": _rand([10, 64]), "c": _rand([10])}
    model = _model("Gemm", [("x", ["N", 64])], weights, dict(transB=1))
    _check(model, _batched((1, 64)))


def test_gemm_scalar_c_beta_zero() -> None:
    model = _model("Gemm", [("a", (3, 4)), ("b", (4, 5)), ("c", (1,))], {}, dict(beta=0.0))
    _check(model, [{"a": _rand((3, 4)), "b": _rand((4, 5)), "c": _rand((1,))}])


# ---------------------------------------------------------------------------------------
# BatchNormalization and LRN
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("x_shape", [(2, 3, 4, 5), (2, 3), (2, 3, 5), (1, 3, 2, 3, 2)],
                         ids=["4d", "2d", "3d", "5d"])
def test_batch_normalization(x_shape: tuple[int, ...]) -> None:
    c = x_shape[1]
    weights = {"scale": _rand([c]), "bias": _rand([c]), "mean": _rand([c]),
               "var": _rand([c], positive=True)}
    model = _model("BatchNormalization", [("x", ["N", *x_shape[1:]])], weights,
                   dict(epsilon=1e-3))
    _check(model, _batched(x_shape))


@pytest.mark.parametrize("size", [1, 3, 5])  # onnxruntime implements odd sizes only
def test_lrn(size: int) -> None:
    attrs = dict(size=size, alpha=0.01, beta=0.75, bias=1.5)
    model = _model("LRN", [("x", ["N", 7, 3, 4])], {}, attrs)
    _check(model, _batched((1, 7, 3, 4)))


def _lrn_reference(x: np.ndarray, size: int, alpha: float, beta: float, bias: float):
    """ONNX's formula (its reference implementation loops over the batch, not channels)."""
    sq = np.zeros_like(x)
    channels = x.shape[1]
    for c in range(channels):
        lo, hi = max(0, c - (size - 1) // 2), min(channels, c + -(-(size - 1) // 2) + 1)
        sq[:, c] = (x[:, lo:hi] ** 2).sum(axis=1)
    return x / (bias + alpha / size * sq) ** beta


@pytest.mark.parametrize("size", [2, 4])
def test_lrn_even_size(size: int) -> None:
    attrs = dict(size=size, alpha=0.02, beta=0.5, bias=2.0)
    model = _model("LRN", [("x", [2, 6, 3, 3])], {}, attrs)
    x = _rand([2, 6, 3, 3])
    (ours,) = infer.compile(model).run({"x": x}).values()
    np.testing.assert_allclose(ours, _lrn_reference(x, **attrs), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("x_shape", [("N", 3, "H", "W"), ("N", 2, 5), ("N", 2, 3, 2, 4)])
def test_instance_normalization(x_shape: tuple[int | str, ...]) -> None:
    """Per (n, c) statistics over the spatial dims, then the per-channel scale and bias."""
    c = x_shape[1]
    m = _model("InstanceNormalization", [("x", x_shape)],
               {"s": _rand([c]), "b": _rand([c])}, {"epsilon": 1e-3})
    sizes = {"N": (1, 2), "H": (4, 3), "W": (5, 1)}
    feeds = [{"x": _rand([sizes[d][k] if isinstance(d, str) else d for d in x_shape])}
             for k in range(2)]
    _check(m, feeds)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_max_pool_8bit_integers(dtype: type) -> None:
    """Padding never wins, also against the type's smallest value."""
    info = np.iinfo(dtype)
    m = _model("MaxPool", [("x", ("N", 2, 5, 6))], {},
               {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1], "strides": [2, 1]}, dtype)
    x = RNG.integers(info.min, info.max, (2, 2, 5, 6), endpoint=True).astype(dtype)
    x[0, 0] = info.min
    _check(m, [{"x": x}, {"x": x[:1]}])


def _indices_model(attrs: dict[str, Any], x_shape: Sequence[int | str],
                   elem: int = TensorProto.FLOAT) -> onnx.ModelProto:
    node = helper.make_node("MaxPool", ["x"], ["y", "i"], **attrs)
    graph = helper.make_graph(
        [node], "test", [helper.make_tensor_value_info("x", elem, list(x_shape))],
        [helper.make_tensor_value_info("y", elem, None),
         helper.make_tensor_value_info("i", TensorProto.INT64, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])
    model.ir_version = 8
    return onnx.shape_inference.infer_shapes(model)


# column-major indices (storage_order 1) against onnxruntime's 2-D pools, which have them
INDICES_CASES = [(c, 0) for c in POOL_CASES] + [
    (c, 1) for c, (shape, _) in POOL_CASES.items() if len(shape) == 4]


@pytest.mark.parametrize(("case", "storage_order"), INDICES_CASES)
def test_max_pool_indices(case: str, storage_order: int) -> None:
    """Indices over the whole input (batch and channel included), row- or column-major in
    the spatial dims; ties (rounded inputs repeat) go to the first tap."""
    x_shape, attrs = POOL_CASES[case]
    m = _indices_model({**attrs, "storage_order": storage_order}, ["N", *x_shape[1:]])
    compiled = infer.compile(m)
    for x in (np.round(_rand(x_shape) * 2), np.round(_rand(x_shape[1:])[None])):
        ours, theirs = compiled.run({"x": x}), run_onnxruntime(m, {"x": x})
        for got, want in zip(ours.values(), theirs, strict=True):
            np.testing.assert_array_equal(got, want)


def test_max_pool_indices_nan_and_int8() -> None:
    """A NaN wins over numbers (the value propagates, as MaxPool's does) at its first
    position; 8-bit integers compare by their signedness."""
    m = _indices_model({"kernel_shape": [2, 2]}, [1, 1, 3, 3])
    x = np.array([[[[1, np.nan, 2], [np.nan, 0, 5], [3, 4, -1]]]], np.float32)
    got = infer.compile(m).run({"x": x})
    np.testing.assert_array_equal(got["y"], [[[[np.nan, np.nan], [np.nan, 5]]]])
    np.testing.assert_array_equal(got["i"], [[[[1, 1], [3, 5]]]])
    m = _indices_model({"kernel_shape": [2], "strides": [2]}, [1, 2, 4], TensorProto.UINT8)
    x = np.array([[[200, 7, 0, 255], [9, 9, 1, 3]]], np.uint8)
    got = infer.compile(m).run({"x": x})
    np.testing.assert_array_equal(got["y"], [[[200, 255], [9, 3]]])
    np.testing.assert_array_equal(got["i"], [[[0, 3], [4, 7]]])


def test_batch_normalization_training_mode() -> None:
    """Normalized by the batch's own mean and biased variance; the running statistics
    returned move toward them by 1 - momentum (dynamic batch, two sizes, one compile)."""
    c = 3
    node = helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "rm", "rv"],
                            training_mode=1, momentum=0.8, epsilon=1e-3)
    graph = helper.make_graph(
        [node], "test", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", c, 4, 5])],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
         for n, s in (("y", ["N", c, 4, 5]), ("rm", [c]), ("rv", [c]))],
        [numpy_helper.from_array(_rand([c], positive=p), n)
         for n, p in (("s", False), ("b", False), ("m", False), ("v", True))])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)])
    m.ir_version = 8
    compiled = infer.compile(m)
    for n in (2, 5):
        x = _rand([n, c, 4, 5]) * 3 + 1
        for got, want in zip(compiled.run({"x": x}).values(), run_onnxruntime(m, {"x": x}),
                             strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (2, 4, 4), (2, 3, 5, 5)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_det(shape: tuple[int, ...], dtype: type) -> None:
    """Against numpy's LAPACK determinant, with a singular and a permuted matrix among
    them (pivoting), at two batch sizes from one compile."""
    m = _model("Det", [("x", ["N", *shape[1:]] if len(shape) > 2 else list(shape))], {}, {},
               dtype)
    m.opset_import[0].version = 22
    compiled = infer.compile(m)
    for n in (shape[0], 1) if len(shape) > 2 else (shape[0],):
        x = _rand((n, *shape[1:]), dtype)
        if x.shape[-1] > 2:
            x.reshape(-1, *x.shape[-2:])[0, 0] = x.reshape(-1, *x.shape[-2:])[0, 1]  # singular
            x.reshape(-1, *x.shape[-2:])[-1, :, 0] = 0  # no pivot in column 0
        (got,) = compiled.run({"x": x}).values()
        np.testing.assert_allclose(got, np.linalg.det(x.astype(np.float64)), rtol=1e-5,
                                   atol=1e-6)

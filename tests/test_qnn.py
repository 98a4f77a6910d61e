"""The integer and QLinear ops (imported as qnn ops, canonicalized to int32/f32 graph ops):
bit-exact against onnxruntime at every optimization level, with constant and run-time
weights, per-tensor and per-channel parameters, groups, padding, strides, batches."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer.dialects import qnn as Q
from infer.frontend.onnx_import import import_model

from .helpers import check_against_onnxruntime, s8_weights

R = np.random.default_rng(7)
U8, I8, F = TP.UINT8, TP.INT8, TP.FLOAT


def _model(node: onnx.NodeProto, inputs: list[tuple[str, int, list[int | str]]],
           output: tuple[str, int, list[int | str | None]], inits: dict[str, np.ndarray],
           opset: int = 21) -> onnx.ModelProto:
    graph = helper.make_graph(
        [node], "q", [helper.make_tensor_value_info(*i) for i in inputs],
        [helper.make_tensor_value_info(*output)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    onnx.checker.check_model(model)
    return model


def _u8(*shape: int) -> np.ndarray:
    return R.integers(0, 256, shape, dtype=np.uint8)


def _i8(*shape: int) -> np.ndarray:
    return R.integers(-128, 128, shape, dtype=np.int8)


def _scalar(value: float, dtype: type = np.float32) -> np.ndarray:
    return np.array(value, dtype)


@pytest.mark.slow
@pytest.mark.parametrize("level", [0, 2, 3])
def test_qlinear_conv_per_channel_with_bias(level: int) -> None:
    """u8 activations, s8 weights with a scale per output channel, int32 bias, padding
    and stride: the requantized result is onnxruntime's, element for element."""
    m = 6
    inits = {"x_scale": _scalar(0.02), "x_zero_point": np.array(128, np.uint8),
             "w": s8_weights(R, m, 3, 3, 3),
             "w_scale": R.uniform(0.001, 0.01, m).astype(np.float32),
             "w_zero_point": np.zeros(m, np.int8), "y_scale": _scalar(0.05),
             "y_zero_point": np.array(100, np.uint8),
             "bias": R.integers(-2000, 2000, m).astype(np.int32)}
    node = helper.make_node("QLinearConv", ["x", "x_scale", "x_zero_point", "w", "w_scale",
                                            "w_zero_point", "y_scale", "y_zero_point", "bias"],
                            ["y"], pads=[1, 1, 1, 1], strides=[2, 2])
    model = _model(node, [("x", U8, ["N", 3, 9, 9])], ("y", U8, ["N", m, 5, 5]), inits)
    check_against_onnxruntime(model, [{"x": _u8(n, 3, 9, 9)} for n in (1, 3)],
                              opt_level=level)


def test_qlinear_conv_depthwise_signed() -> None:
    """s8 activations and weights, one group per channel, dilation, no bias."""
    c = 4
    inits = {"x_scale": _scalar(0.1), "x_zero_point": np.array(-3, np.int8),
             "w": s8_weights(R, c, 1, 3, 3), "w_scale": _scalar(0.004),
             "w_zero_point": np.array(0, np.int8), "y_scale": _scalar(0.2),
             "y_zero_point": np.array(5, np.int8)}
    node = helper.make_node("QLinearConv", ["x", "x_scale", "x_zero_point", "w", "w_scale",
                                            "w_zero_point", "y_scale", "y_zero_point"],
                            ["y"], group=c, dilations=[2, 2], pads=[2, 2, 2, 2])
    model = _model(node, [("x", I8, [2, c, 8, 8])], ("y", I8, [2, c, 8, 8]), inits)
    check_against_onnxruntime(model, {"x": _i8(2, c, 8, 8)})


def test_qlinear_matmul_batched_per_column() -> None:
    """A batch of u8 rows against constant u8 weights whose scale and zero point are per
    column (opset 21)."""
    n = 5
    inits = {"a_scale": _scalar(0.03), "a_zero_point": np.array(120, np.uint8),
             "b": _u8(16, n), "b_scale": R.uniform(0.005, 0.02, n).astype(np.float32),
             "b_zero_point": _u8(n), "y_scale": _scalar(0.7),
             "y_zero_point": np.array(90, np.uint8)}
    node = helper.make_node("QLinearMatMul", ["a", "a_scale", "a_zero_point", "b", "b_scale",
                                              "b_zero_point", "y_scale", "y_zero_point"], ["y"])
    model = _model(node, [("a", U8, [2, "M", 16])], ("y", U8, [2, "M", n]), inits)
    check_against_onnxruntime(model, [{"a": _u8(2, m, 16)} for m in (1, 7)])


def _same_as_reference(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> None:
    """Equal to ONNX's reference implementation, where onnxruntime lacks the form (per
    row / per channel zero points of the integer ops)."""
    from onnx.reference import ReferenceEvaluator

    (ours,) = infer.compile(model).run(feeds).values()
    (theirs,) = ReferenceEvaluator(model).run(None, feeds)
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)


def test_matmul_and_conv_integer() -> None:
    """The int32 accumulators themselves: MatMulInteger with a zero point per column of
    b (and per row of a), ConvInteger with one per output channel of w."""
    node = helper.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])
    model = _model(node, [("a", U8, ["M", 8]), ("b", I8, [8, 3])], ("y", TP.INT32, ["M", 3]),
                   {"az": np.array(7, np.uint8), "bz": _i8(3)}, opset=10)
    check_against_onnxruntime(model, [{"a": _u8(m, 8), "b": s8_weights(R, 8, 3)}
                                      for m in (1, 4)])
    # a's zero point per row: the spec's formula (neither onnxruntime nor the reference
    # implementation runs it)
    az, bz, a, b = _u8(4), _i8(3), _u8(4, 8), _i8(8, 3)
    model = _model(node, [("a", U8, [4, 8]), ("b", I8, [8, 3])], ("y", TP.INT32, [4, 3]),
                   {"az": az, "bz": bz}, opset=10)
    expected = (a.astype(np.int32) - az[:, None]) @ (b.astype(np.int32) - bz)
    np.testing.assert_array_equal(infer.compile(model).run({"a": a, "b": b})["y"], expected)
    node = helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], pads=[0, 1, 0, 1])
    model = _model(node, [("x", U8, [1, 2, 5, 5])], ("y", TP.INT32, [1, 3, 5, 5]),
                   {"w": _u8(3, 2, 1, 3), "xz": np.array(3, np.uint8),
                    "wz": np.array(9, np.uint8)}, opset=10)
    check_against_onnxruntime(model, {"x": _u8(1, 2, 5, 5)})
    model.graph.initializer[2].CopyFrom(numpy_helper.from_array(_u8(3), "wz"))
    _same_as_reference(model, {"x": _u8(1, 2, 5, 5)})


def test_imported_as_qnn_ops() -> None:
    node = helper.make_node("QLinearMatMul", ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"],
                            ["y"])
    model = _model(node, [("a", U8, [2, 4])], ("y", U8, [2, 3]),
                   {"sa": _scalar(0.1), "za": np.array(1, np.uint8), "b": _u8(4, 3),
                    "sb": _scalar(0.2), "zb": np.array(2, np.uint8), "sy": _scalar(0.3),
                    "zy": np.array(3, np.uint8)})
    ops = [type(op) for op in import_model(model).walk()]
    assert Q.MatMulOp in ops and Q.RequantizeOp in ops


def test_a_scale_that_is_not_positive_is_refused() -> None:
    node = helper.make_node("QLinearMatMul", ["a", "sa", "za", "b", "sb", "zb", "sy", "zy"],
                            ["y"], name="qmm")
    model = _model(node, [("a", U8, [2, 4])], ("y", U8, [2, 3]),
                   {"sa": _scalar(0.1), "za": np.array(1, np.uint8), "b": _u8(4, 3),
                    "sb": _scalar(0.2), "zb": np.array(2, np.uint8), "sy": _scalar(-0.3),
                    "zy": np.array(3, np.uint8)})
    with pytest.raises(infer.InvalidModelError, match=r"'QLinearMatMul' \(node 'qmm'.*"
                       "output_scale must be positive"):
        infer.compile(model)

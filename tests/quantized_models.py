"""Small float models and their int8 forms made by onnxruntime's static quantizer, for the
quantized-numerics tests and benchmarks.

    model = quantized(conv_relu(), QuantFormat.QDQ, per_channel=True)

Each builder returns a float model with one input `x` of a fixed shape (a batch of 2) and
seeded random weights; `quantized` calibrates it on a few seeded random samples of that
shape and returns the quantized model (QDQ: QuantizeLinear/DequantizeLinear pairs around
float ops; QOperator: QLinearConv, QGemm, QLinearAdd, ... of onnxruntime's com.microsoft
domain).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Callable

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper
from onnxruntime.quantization import (
    CalibrationDataReader,
    QuantFormat,
    QuantType,
    quantize_static,
)

from .helpers import onnxruntime_int8_is_exact

OPSET = 17


def _weights(seed: int, **shapes: tuple[int, ...]) -> list[onnx.TensorProto]:
    r = np.random.default_rng(seed)
    return [numpy_helper.from_array(r.normal(0, 0.5, s).astype(np.float32), n)
            for n, s in shapes.items()]


def _model(nodes: list[onnx.NodeProto], x: list[int], inits: list[onnx.TensorProto]
           ) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "m", [helper.make_tensor_value_info("x", TP.FLOAT, x)],
                              [helper.make_tensor_value_info("y", TP.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    return onnx.shape_inference.infer_shapes(model)


def conv_relu() -> onnx.ModelProto:
    """Conv (bias, padding) then Relu."""
    return _model([helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
                   helper.make_node("Relu", ["c"], ["y"])],
                  [2, 3, 8, 8], _weights(1, w=(4, 3, 3, 3), b=(4,)))


def matmul() -> onnx.ModelProto:
    """MatMul by a constant."""
    return _model([helper.make_node("MatMul", ["x", "w"], ["y"])], [2, 5, 16],
                  _weights(2, w=(16, 8)))


def gemm() -> onnx.ModelProto:
    """Gemm with a transposed weight and a bias, then Relu."""
    return _model([helper.make_node("Gemm", ["x", "w", "b"], ["g"], transB=1),
                   helper.make_node("Relu", ["g"], ["y"])],
                  [2, 16], _weights(3, w=(8, 16), b=(8,)))


def add_mul() -> onnx.ModelProto:
    """Two convs added, then multiplied by a third: QLinearAdd, QLinearMul."""
    nodes = [helper.make_node("Conv", ["x", "w1"], ["a"]),
             helper.make_node("Conv", ["x", "w2"], ["b"]),
             helper.make_node("Conv", ["x", "w3"], ["c"]),
             helper.make_node("Add", ["a", "b"], ["s"]),
             helper.make_node("Mul", ["s", "c"], ["y"])]
    return _model(nodes, [2, 3, 6, 6], _weights(4, w1=(4, 3, 1, 1), w2=(4, 3, 1, 1),
                                                  w3=(4, 3, 1, 1)))


def concat() -> onnx.ModelProto:
    """Two convs concatenated along channels."""
    nodes = [helper.make_node("Conv", ["x", "w1"], ["a"]),
             helper.make_node("Conv", ["x", "w2"], ["b"], pads=[1, 1, 1, 1]),
             helper.make_node("Concat", ["a", "b"], ["y"], axis=1)]
    return _model(nodes, [2, 3, 6, 6], _weights(5, w1=(2, 3, 1, 1), w2=(3, 3, 3, 3)))


def pools() -> onnx.ModelProto:
    """Conv, MaxPool, AveragePool, GlobalAveragePool."""
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("MaxPool", ["c"], ["m"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("AveragePool", ["m"], ["a"], kernel_shape=[3, 3],
                              pads=[1, 1, 1, 1]),
             helper.make_node("GlobalAveragePool", ["a"], ["y"])]
    return _model(nodes, [2, 3, 8, 8], _weights(6, w=(4, 3, 3, 3)))


def small_cnn() -> onnx.ModelProto:
    """Conv+Relu, a residual Add, MaxPool, GlobalAveragePool, Flatten, Gemm."""
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["c2", "r1"], ["s"]),
             helper.make_node("Relu", ["s"], ["r2"]),
             helper.make_node("MaxPool", ["r2"], ["m"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("GlobalAveragePool", ["m"], ["g"]),
             helper.make_node("Flatten", ["g"], ["f"]),
             helper.make_node("Gemm", ["f", "w3", "b3"], ["y"], transB=1)]
    return _model(nodes, [2, 3, 12, 12], _weights(
        7, w1=(8, 3, 3, 3), b1=(8,), w2=(8, 8, 3, 3), b2=(8,), w3=(10, 8), b3=(10,)))


FLOAT_MODELS: dict[str, Callable[[], onnx.ModelProto]] = {
    "conv_relu": conv_relu, "matmul": matmul, "gemm": gemm, "add_mul": add_mul,
    "concat": concat, "pools": pools, "small_cnn": small_cnn}


def input_shape(model: onnx.ModelProto) -> list[int]:
    return [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]


def samples(model: onnx.ModelProto, count: int, seed: int) -> list[dict[str, np.ndarray]]:
    """`count` seeded random feeds of the model's input."""
    r = np.random.default_rng(seed)
    return [{"x": r.normal(0, 1, input_shape(model)).astype(np.float32)}
            for _ in range(count)]


class _Reader(CalibrationDataReader):
    def __init__(self, feeds: list[dict[str, np.ndarray]]) -> None:
        self.feeds = iter(feeds)

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self.feeds, None)


def quantized(model: onnx.ModelProto, quant_format: QuantFormat, per_channel: bool = False,
              activation_type: QuantType = QuantType.QUInt8,
              weight_type: QuantType = QuantType.QInt8) -> onnx.ModelProto:
    """`model` quantized by onnxruntime.quantization.quantize_static, calibrated on four
    random samples. s8 weights get 7 bits (onnxruntime's `reduce_range`) where
    onnxruntime's int8 kernels are not exact (`onnxruntime_int8_is_exact`), so that its
    answers stay exact to compare with; with VNNI, the full 8 bits."""
    reduce_range = weight_type == QuantType.QInt8 and not onnxruntime_int8_is_exact()
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # the quantizer's advice to pre-process the model
    try:
        with tempfile.TemporaryDirectory() as tmp:
            src, dst = os.path.join(tmp, "f.onnx"), os.path.join(tmp, "q.onnx")
            onnx.save(model, src)
            quantize_static(src, dst, _Reader(samples(model, 4, seed=0)),
                            quant_format=quant_format, per_channel=per_channel,
                            activation_type=activation_type, weight_type=weight_type,
                            reduce_range=reduce_range)
            return onnx.load(dst)
    finally:
        root.setLevel(level)

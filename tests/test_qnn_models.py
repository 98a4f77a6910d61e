"""Models quantized by onnxruntime's static quantizer (QDQ and QOperator formats, per
tensor and per channel, u8 and s8 activations), compiled at every optimization level and
compared with onnxruntime running the same quantized model.

The outputs are dequantized int8 values, so a difference is a whole number of output
quantization steps. Every output must be within one step of onnxruntime's on >= 99% of
its elements; the QOperator models, whose every op is imported as onnxruntime computes
it, must match bit for bit. (QDQ models with s8 activations are within one step, not
equal: onnxruntime computes their convs in float, we fold them to integers.)
"""

from __future__ import annotations

from functools import cache

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

import infer
from infer.dialects import qnn as Q
from infer.frontend.onnx_import import import_model
from infer.transforms.graph_optimize import op_counts, optimize

from .helpers import run_onnxruntime
from .quantized_models import FLOAT_MODELS, QuantFormat, QuantType, quantized, samples

FORMATS = {"qdq": QuantFormat.QDQ, "qoperator": QuantFormat.QOperator}
ACTIVATIONS = {"u8": QuantType.QUInt8, "s8": QuantType.QInt8}
VARIANTS = [(f, g, a) for f in FORMATS for g in ("per_tensor", "per_channel")
            for a in ACTIVATIONS]


@cache
def _model(name: str, fmt: str, granularity: str, activations: str) -> onnx.ModelProto:
    return quantized(FLOAT_MODELS[name](), FORMATS[fmt], granularity == "per_channel",
                     ACTIVATIONS[activations])


def _output_step(model: onnx.ModelProto) -> float:
    """The scale of the DequantizeLinear that makes the output."""
    (last,) = [n for n in model.graph.node if n.output[0] == model.graph.output[0].name]
    assert last.op_type == "DequantizeLinear"
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    return float(inits[last.input[1]])


def _fractions(model: onnx.ModelProto, level: int) -> tuple[float, float]:
    """(equal, within one output step): the fractions of output elements, over three
    random inputs."""
    compiled = infer.compile(model, opt_level=level)
    step = _output_step(model)
    equal, close = [], []
    for feeds in samples(model, 3, seed=1):
        ours = compiled.run(feeds)["y"]
        (theirs,) = run_onnxruntime(model, feeds)
        assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
        diff = np.abs(ours.astype(np.float64) - theirs)
        equal.append(np.mean(diff == 0))
        close.append(np.mean(diff <= step * (1 + 1e-5)))
    return float(np.mean(equal)), float(np.mean(close))


def _check(name: str, fmt: str, granularity: str, activations: str, level: int) -> None:
    equal, close = _fractions(_model(name, fmt, granularity, activations), level)
    assert close >= 0.99, f"{close:.2%} within one step ({equal:.2%} equal)"
    if fmt == "qoperator":
        assert equal == 1.0, f"{equal:.2%} equal"


@pytest.mark.slow
@pytest.mark.parametrize("level", [0, 3])
@pytest.mark.parametrize(("fmt", "granularity", "activations"), VARIANTS)
@pytest.mark.parametrize("name", sorted(FLOAT_MODELS))
def test_against_onnxruntime(name: str, fmt: str, granularity: str, activations: str,
                             level: int) -> None:
    _check(name, fmt, granularity, activations, level)


@pytest.mark.slow
@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize(("fmt", "granularity", "activations"), VARIANTS)
def test_small_cnn_at_every_level(fmt: str, granularity: str, activations: str,
                                  level: int) -> None:
    _check("small_cnn", fmt, granularity, activations, level)


@pytest.mark.parametrize("name", sorted(FLOAT_MODELS))
def test_qdq_models_fold_to_integer_ops(name: str) -> None:
    """From level 1, every QuantizeLinear/DequantizeLinear pair between ops is gone: the
    model runs on 8-bit values from its input's qnn.quantize to its output's
    qnn.dequantize (a concat of inputs in scales of their own is a qnn.concat)."""
    module = import_model(_model(name, "qdq", "per_channel", "u8"))
    optimize(module, 1)
    counts = op_counts(module)
    assert counts[Q.QuantizeOp.name] == counts[Q.DequantizeOp.name] == 1, counts
    assert counts[Q.ConcatOp.name] == (name == "concat"), counts
    assert not any(k in counts for k in ("graph.conv", "graph.matmul", "graph.gemm",
                                         "graph.average_pool", "graph.global_average_pool",
                                         "graph.quantize_linear", "graph.dequantize_linear",
                                         "graph.concat"))


def test_a_conv_with_a_float_bias_stays_float() -> None:
    """A QDQ conv whose bias is a float initializer (no int32 DequantizeLinear) is not
    folded: the integer ops built for it before the bias was seen are dropped, so that
    no half-built op keeps a use of the graph's values, and the model still compiles."""
    model = onnx.ModelProto()
    model.CopyFrom(_model("conv_relu", "qdq", "per_tensor", "u8"))
    graph = model.graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    (conv,) = [n for n in graph.node if n.op_type == "Conv"]
    (dq,) = [n for n in graph.node if n.output[0] == conv.input[2]]
    bias = (inits[dq.input[0]].astype(np.float32) * inits[dq.input[1]]).astype(np.float32)
    graph.initializer.append(numpy_helper.from_array(bias, "b_float"))
    conv.input[2] = "b_float"
    graph.node.remove(dq)
    onnx.checker.check_model(model)
    for level in (1, 3):
        compiled = infer.compile(model, opt_level=level)
        for feeds in samples(model, 2, seed=2):
            (theirs,) = run_onnxruntime(model, feeds)
            np.testing.assert_allclose(compiled.run(feeds)["y"], theirs,
                                       atol=_output_step(model) * (1 + 1e-5), rtol=0)

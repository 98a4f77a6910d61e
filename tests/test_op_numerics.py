"""Elementwise ops end to end, one line each: a one-node ONNX model is imported, its IR
round-trips through text, the op's numpy form (constant folding's) and the compiled
kernel both match onnxruntime. Adding a unary op is one line in `CASES`."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx.helper import np_dtype_to_tensor_dtype
from xdsl.parser import Parser

from infer.context import make_context
from infer.dialects import graph as G
from infer.dialects.graph.evaluate import evaluate
from infer.frontend.onnx_import import import_model

from .helpers import check_against_onnxruntime, node_model, run_onnxruntime


class Case(NamedTuple):
    op: str  # the ONNX op type
    attrs: dict[str, object] = {}
    low: float = -3.0  # inputs are uniform in [low, high)
    high: float = 3.0
    opset: int = 17


CASES = [
    Case("Relu"),
    Case("Sigmoid"),
    Case("Tanh"),
    Case("Exp"),
    Case("Log", low=0.01, high=5),
    Case("Sqrt", low=0.0, high=5),
    Case("Erf"),
    Case("Reciprocal", low=0.5, high=4),
    Case("Softsign"),
    Case("Floor"),
    Case("Ceil"),
    Case("Neg"),
    Case("Abs"),
    Case("Identity"),
    Case("Dropout", opset=13),
    Case("LeakyRelu"),
    Case("LeakyRelu", {"alpha": 0.3}),
    Case("HardSigmoid"),
    Case("HardSigmoid", {"alpha": 0.3, "beta": 0.4}),
    Case("HardSwish", low=-5, high=5, opset=14),
    Case("Gelu", opset=20),
    Case("Gelu", {"approximate": "tanh"}, opset=20),
    Case("Sin"),
    Case("Cos"),
    Case("Tan", low=-1.5, high=1.5),
    Case("Asin", low=-1.2, high=1.2),
    Case("Acos", low=-1.2, high=1.2),
    Case("Atan"),
    Case("Sinh"),
    Case("Cosh"),
    Case("Asinh"),
    Case("Acosh", low=0.5, high=5),
    Case("Atanh", low=-1.2, high=1.2),
    Case("Round", low=-4, high=4),
    Case("Sign"),
    Case("IsNaN", opset=20),
    Case("IsInf", opset=20),
    Case("IsInf", {"detect_positive": 0}, opset=20),
    Case("IsInf", {"detect_negative": 0}, opset=20),
    Case("IsInf", {"detect_positive": 0, "detect_negative": 0}, opset=20),
    Case("Softplus", low=-100, high=100),
    Case("Mish", low=-30, high=30, opset=18),
    Case("Elu"),
    Case("Elu", {"alpha": 0.5}),
    Case("Selu"),
    Case("Selu", {"alpha": 1.5, "gamma": 2.0}),
    Case("Celu"),
    Case("Celu", {"alpha": 2.0}),
    Case("ThresholdedRelu"),
    Case("ThresholdedRelu", {"alpha": 0.5}),
    Case("Shrink"),
    Case("Shrink", {"bias": 1.5, "lambd": 1.0}),
    Case("ReduceL1", {"axes": [1]}),
    Case("ReduceL2", {"axes": [-1], "keepdims": 0}),
    Case("ReduceLogSum", {"axes": [0]}, low=0.0, high=3.0),
    Case("ReduceLogSumExp", {"axes": [1]}, low=-100, high=100),
    Case("ReduceProd", {"axes": [0]}, low=0.5, high=1.5),
    Case("ReduceSumSquare", {"keepdims": 0}),
    Case("ArgMax", {"axis": 1}, opset=13),
    Case("ArgMin", {"axis": 0, "keepdims": 0, "select_last_index": 1}, opset=13),
]

SHAPE = [3, 17]


def _id(case: Case) -> str:
    return case.op + "".join(f"-{k}={v}" for k, v in case.attrs.items())


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_elementwise_op(case: Case) -> None:
    model = node_model(case.op, [("x", TP.FLOAT, SHAPE)], case.attrs, opset=case.opset)
    x = np.random.default_rng(0).uniform(case.low, case.high, SHAPE).astype(np.float32)
    x.flat[:5] = [np.nan, np.inf, -np.inf, 0.0, -0.0]  # IEEE propagation, as onnxruntime
    if case.op == "Round":  # halves, which round to even
        x.flat[5:11] = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5]
    (expected,) = run_onnxruntime(model, {"x": x})

    module = import_model(model)
    text = str(module)
    assert str(Parser(make_context(), text).parse_module()) == text

    (op,) = [o for o in module.walk() if getattr(type(o), "ONNX_OP", None) == case.op]
    assert isinstance(op, G.GraphOp)
    (folded,) = evaluate(op, [x])
    assert folded.dtype == expected.dtype
    np.testing.assert_allclose(folded, expected, rtol=1e-5, atol=1e-6)

    check_against_onnxruntime(model, {"x": x})


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8])
def test_sign_of_integers(dtype: type) -> None:
    info = np.iinfo(dtype)
    x = np.array([info.min, -3, -1, 0, 1, 7, info.max]).clip(info.min).astype(dtype)
    model = node_model("Sign", [("x", np_dtype_to_tensor_dtype(np.dtype(dtype)), [7])])
    check_against_onnxruntime(model, {"x": x})

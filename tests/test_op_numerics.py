"""Elementwise ops end to end, one line each: a one-node ONNX model is imported, its IR
round-trips through text, the op's numpy form (constant folding's) and the compiled
kernel both match onnxruntime. Adding a unary op is one line in `CASES`."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pytest
from onnx import TensorProto as TP
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
]

SHAPE = [3, 17]


def _id(case: Case) -> str:
    return case.op + "".join(f"-{k}={v}" for k, v in case.attrs.items())


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_elementwise_op(case: Case) -> None:
    model = node_model(case.op, [("x", TP.FLOAT, SHAPE)], case.attrs, opset=case.opset)
    x = np.random.default_rng(0).uniform(case.low, case.high, SHAPE).astype(np.float32)
    (expected,) = run_onnxruntime(model, {"x": x})

    module = import_model(model)
    text = str(module)
    assert str(Parser(make_context(), text).parse_module()) == text

    (op,) = [o for o in module.walk() if getattr(type(o), "ONNX_OP", None) == case.op]
    assert isinstance(op, G.GraphOp)
    (folded,) = evaluate(op, [x])
    np.testing.assert_allclose(folded, expected, rtol=1e-5, atol=1e-6)

    check_against_onnxruntime(model, {"x": x})

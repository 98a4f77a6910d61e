"""Unary elementwise ops beyond the core set: trigonometric and hyperbolic functions,
Round, Sign, the IsNaN / IsInf tests and the exponential-family activations. The
`elementwise` module exports them with its own ops; their scalar bodies are in
`lowering/graph_ops/elementwise.py`."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType
from xdsl.irdl import irdl_op_definition, prop_def

from infer.dialects.graph.base import FloatUnaryOp, UnaryOp
from infer.dialects.graph.types import float_attr, int_attr


@irdl_op_definition
class SinOp(FloatUnaryOp):
    name = "graph.sin"
    ONNX_OP: ClassVar[str | None] = "Sin"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.sin(x)


@irdl_op_definition
class CosOp(FloatUnaryOp):
    name = "graph.cos"
    ONNX_OP: ClassVar[str | None] = "Cos"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.cos(x)


@irdl_op_definition
class TanOp(FloatUnaryOp):
    name = "graph.tan"
    ONNX_OP: ClassVar[str | None] = "Tan"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.tan(x)


@irdl_op_definition
class AsinOp(FloatUnaryOp):
    name = "graph.asin"
    ONNX_OP: ClassVar[str | None] = "Asin"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.arcsin(x)


@irdl_op_definition
class AcosOp(FloatUnaryOp):
    name = "graph.acos"
    ONNX_OP: ClassVar[str | None] = "Acos"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.arccos(x)


@irdl_op_definition
class AtanOp(FloatUnaryOp):
    name = "graph.atan"
    ONNX_OP: ClassVar[str | None] = "Atan"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.arctan(x)


@irdl_op_definition
class SinhOp(FloatUnaryOp):
    name = "graph.sinh"
    ONNX_OP: ClassVar[str | None] = "Sinh"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.sinh(x)


@irdl_op_definition
class CoshOp(FloatUnaryOp):
    name = "graph.cosh"
    ONNX_OP: ClassVar[str | None] = "Cosh"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.cosh(x)


@irdl_op_definition
class AsinhOp(FloatUnaryOp):
    name = "graph.asinh"
    ONNX_OP: ClassVar[str | None] = "Asinh"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.arcsinh(x)


@irdl_op_definition
class AcoshOp(FloatUnaryOp):
    name = "graph.acosh"
    ONNX_OP: ClassVar[str | None] = "Acosh"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.arccosh(x)


@irdl_op_definition
class AtanhOp(FloatUnaryOp):
    name = "graph.atanh"
    ONNX_OP: ClassVar[str | None] = "Atanh"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.arctanh(x)


@irdl_op_definition
class RoundOp(FloatUnaryOp):
    """Halves to even, as ONNX (and numpy) round."""

    name = "graph.round"
    ONNX_OP: ClassVar[str | None] = "Round"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.round(x)


@irdl_op_definition
class SignOp(UnaryOp):
    name = "graph.sign"
    ONNX_OP: ClassVar[str | None] = "Sign"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.sign(x)


@irdl_op_definition
class IsNaNOp(FloatUnaryOp):
    name = "graph.is_nan"
    ONNX_OP: ClassVar[str | None] = "IsNaN"

    @classmethod
    def output_elements(cls, props, elements):
        return [IntegerType(1)]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.isnan(x)


@irdl_op_definition
class IsInfOp(FloatUnaryOp):
    name = "graph.is_inf"
    detect_positive = prop_def(IntegerAttr, default_value=int_attr(1))
    detect_negative = prop_def(IntegerAttr, default_value=int_attr(1))
    ONNX_OP: ClassVar[str | None] = "IsInf"

    @classmethod
    def output_elements(cls, props, elements):
        return [IntegerType(1)]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        pos = bool(self.detect_positive.value.data) & (x == np.inf)
        return pos | (bool(self.detect_negative.value.data) & (x == -np.inf))


def _softplus(x: np.ndarray) -> np.ndarray:
    """log(1 + e^x) without overflow: max(x, 0) + log1p(e^-|x|)."""
    return np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))


@irdl_op_definition
class SoftplusOp(FloatUnaryOp):
    name = "graph.softplus"
    ONNX_OP: ClassVar[str | None] = "Softplus"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return _softplus(x)


@irdl_op_definition
class MishOp(FloatUnaryOp):
    name = "graph.mish"
    ONNX_OP: ClassVar[str | None] = "Mish"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return x * np.tanh(_softplus(x))


@irdl_op_definition
class EluOp(FloatUnaryOp):
    name = "graph.elu"
    alpha = prop_def(FloatAttr, default_value=float_attr(1.0))
    ONNX_OP: ClassVar[str | None] = "Elu"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.where(x < 0, self.alpha.value.data * np.expm1(x), x)


@irdl_op_definition
class SeluOp(FloatUnaryOp):
    name = "graph.selu"
    alpha = prop_def(FloatAttr, default_value=float_attr(1.67326319217681884765625))
    gamma = prop_def(FloatAttr, default_value=float_attr(1.05070102214813232421875))
    ONNX_OP: ClassVar[str | None] = "Selu"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        y = np.where(x <= 0, self.alpha.value.data * np.expm1(x), x)
        return self.gamma.value.data * y


@irdl_op_definition
class CeluOp(FloatUnaryOp):
    name = "graph.celu"
    alpha = prop_def(FloatAttr, default_value=float_attr(1.0))
    ONNX_OP: ClassVar[str | None] = "Celu"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        alpha = self.alpha.value.data
        return np.where(x < 0, alpha * np.expm1(x / alpha), x)


@irdl_op_definition
class ThresholdedReluOp(FloatUnaryOp):
    name = "graph.thresholded_relu"
    alpha = prop_def(FloatAttr, default_value=float_attr(1.0))
    ONNX_OP: ClassVar[str | None] = "ThresholdedRelu"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.where(x > self.alpha.value.data, x, 0)


@irdl_op_definition
class ShrinkOp(FloatUnaryOp):
    name = "graph.shrink"
    bias = prop_def(FloatAttr, default_value=float_attr(0.0))
    lambd = prop_def(FloatAttr, default_value=float_attr(0.5))
    ONNX_OP: ClassVar[str | None] = "Shrink"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        bias, lambd = self.bias.value.data, self.lambd.value.data
        return np.where(x < -lambd, x + bias, np.where(x > lambd, x - bias, 0))


__all__ = [
    "SinOp",
    "CosOp",
    "TanOp",
    "AsinOp",
    "AcosOp",
    "AtanOp",
    "SinhOp",
    "CoshOp",
    "AsinhOp",
    "AcoshOp",
    "AtanhOp",
    "RoundOp",
    "SignOp",
    "IsNaNOp",
    "IsInfOp",
    "SoftplusOp",
    "MishOp",
    "EluOp",
    "SeluOp",
    "CeluOp",
    "ThresholdedReluOp",
    "ShrinkOp",
]

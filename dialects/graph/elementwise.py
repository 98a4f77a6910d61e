"""Elementwise ops (ONNX's unary math, binary arithmetic with broadcasting, comparisons,
Where, the variadic Sum/Max/Min/Mean, Clip, Cast) and the activations that conv, gemm and
matmul can apply to their results. The further unary ops (trigonometric, Round, Sign,
IsNaN / IsInf, the exponential-family activations) are in `unary` and exported from here."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float8E8M0FNUType,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    AnyAttr,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.graph import unary
from infer.dialects.graph.base import (
    TRAITS,
    BinaryOp,
    CompareOp,
    FloatUnaryOp,
    GraphOp,
    OrderedCompareOp,
    UnaryOp,
    VariadicOp,
)
from infer.dialects.graph.constant import constant_value
from infer.dialects.graph.types import (
    SMALL_FLOAT_TYPES,
    float_attr,
    int_attr,
    is_float,
    numpy_dtype,
)
from infer.dialects.graph.unary import *  # noqa: F403  (exported with this module's ops)

# ---------------------------------------------------------------------------------------
# Elementwise: each op's numpy form is its `numpy` method (constant folding, the fused
# activations' reference); results are cast to the declared type by `evaluate`.
# ---------------------------------------------------------------------------------------

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _int_div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C-style integer division (truncates toward zero), as the kernels' divsi does."""
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


@irdl_op_definition
class ReluOp(UnaryOp):
    name = "graph.relu"
    ONNX_OP: ClassVar[str | None] = "Relu"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.maximum(x, 0)


@irdl_op_definition
class SigmoidOp(FloatUnaryOp):
    name = "graph.sigmoid"
    ONNX_OP: ClassVar[str | None] = "Sigmoid"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-x))


@irdl_op_definition
class TanhOp(FloatUnaryOp):
    name = "graph.tanh"
    ONNX_OP: ClassVar[str | None] = "Tanh"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.tanh(x)


@irdl_op_definition
class ExpOp(FloatUnaryOp):
    name = "graph.exp"
    ONNX_OP: ClassVar[str | None] = "Exp"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.exp(x)


@irdl_op_definition
class LogOp(FloatUnaryOp):
    name = "graph.log"
    ONNX_OP: ClassVar[str | None] = "Log"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.log(x)


@irdl_op_definition
class SqrtOp(FloatUnaryOp):
    name = "graph.sqrt"
    ONNX_OP: ClassVar[str | None] = "Sqrt"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.sqrt(x)


@irdl_op_definition
class ErfOp(FloatUnaryOp):
    name = "graph.erf"
    ONNX_OP: ClassVar[str | None] = "Erf"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return _erf(x)


@irdl_op_definition
class ReciprocalOp(FloatUnaryOp):
    name = "graph.reciprocal"
    ONNX_OP: ClassVar[str | None] = "Reciprocal"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return 1 / x


@irdl_op_definition
class SoftsignOp(FloatUnaryOp):
    name = "graph.softsign"
    ONNX_OP: ClassVar[str | None] = "Softsign"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return x / (1 + np.abs(x))


@irdl_op_definition
class FloorOp(FloatUnaryOp):
    name = "graph.floor"
    ONNX_OP: ClassVar[str | None] = "Floor"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.floor(x)


@irdl_op_definition
class CeilOp(FloatUnaryOp):
    name = "graph.ceil"
    ONNX_OP: ClassVar[str | None] = "Ceil"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.ceil(x)


@irdl_op_definition
class NegOp(UnaryOp):
    name = "graph.neg"
    ONNX_OP: ClassVar[str | None] = "Neg"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.negative(x)


@irdl_op_definition
class AbsOp(UnaryOp):
    name = "graph.abs"
    ONNX_OP: ClassVar[str | None] = "Abs"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.abs(x)


@irdl_op_definition
class IdentityOp(UnaryOp):
    name = "graph.identity"
    ONNX_OP: ClassVar[str | None] = "Identity"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return x


@irdl_op_definition
class DropoutOp(UnaryOp):
    """Inference-mode dropout: the identity (the mask output is not supported)."""

    name = "graph.dropout"
    ONNX_OP: ClassVar[str | None] = "Dropout"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return x


@irdl_op_definition
class LeakyReluOp(FloatUnaryOp):
    name = "graph.leaky_relu"
    alpha = prop_def(FloatAttr, default_value=float_attr(0.01))
    ONNX_OP: ClassVar[str | None] = "LeakyRelu"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.where(x >= 0, x, self.alpha.value.data * x)


@irdl_op_definition
class HardSigmoidOp(FloatUnaryOp):
    name = "graph.hard_sigmoid"
    alpha = prop_def(FloatAttr, default_value=float_attr(0.2))
    beta = prop_def(FloatAttr, default_value=float_attr(0.5))
    ONNX_OP: ClassVar[str | None] = "HardSigmoid"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.clip(self.alpha.value.data * x + self.beta.value.data, 0, 1)


@irdl_op_definition
class HardSwishOp(FloatUnaryOp):
    name = "graph.hard_swish"
    ONNX_OP: ClassVar[str | None] = "HardSwish"

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return x * np.clip(x / 6 + 0.5, 0, 1)


@irdl_op_definition
class GeluOp(FloatUnaryOp):
    name = "graph.gelu"
    approximate = prop_def(StringAttr, default_value=StringAttr("none"))
    ONNX_OP: ClassVar[str | None] = "Gelu"

    @classmethod
    def check(cls, props, types):
        if cls.prop(props, "approximate") not in ("none", "tanh"):
            raise VerifyException("'graph.gelu' approximate must be \"none\" or \"tanh\"")

    def numpy(self, x: np.ndarray) -> np.ndarray:
        v = x.astype(np.float64)
        if self.approximate.data == "tanh":
            return 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v**3)))
        return 0.5 * v * (1 + _erf(v / math.sqrt(2)))


@irdl_op_definition
class ClipOp(GraphOp):
    """y = min(max(x, min), max); min and max are scalar tensors (the importer fills ±inf)."""

    name = "graph.clip"
    input = operand_def(TensorType)
    min = operand_def(TensorType)
    max = operand_def(TensorType)
    output = result_def(TensorType)
    traits = TRAITS
    ONNX_OP: ClassVar[str | None] = "Clip"

    @classmethod
    def check(cls, props, types):
        for t in types[1:]:
            if t.get_shape() not in ((), (1,)):
                raise VerifyException(f"'graph.clip' bounds must be scalars, got {t}")
            if t.element_type != types[0].element_type:
                raise VerifyException("'graph.clip' bounds must have the input's element type")

    def numpy(self, x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        return np.minimum(np.maximum(x, lo.reshape(())), hi.reshape(()))


@irdl_op_definition
class CastOp(GraphOp):
    name = "graph.cast"
    input = operand_def(TensorType)
    output = result_def(TensorType)
    to = prop_def(AnyAttr())
    # ONNX's Cast-19 / Cast-24 attributes: whether a float8 result saturates to its largest
    # finite value (else overflow gives Inf or NaN) and how an f8E8M0 result rounds.
    saturate = prop_def(IntegerAttr, default_value=int_attr(1))
    round_mode = prop_def(StringAttr, default_value=StringAttr("up"))
    traits = TRAITS
    ONNX_OP: ClassVar[str | None] = "Cast"

    @classmethod
    def check(cls, props, types):
        to = props.get("to")
        if not (is_float(to) or isinstance(to, IntegerType)):
            raise VerifyException(f"'graph.cast' to must be an integer or float type, got {to}")
        if cls.prop(props, "round_mode") not in ("up", "down", "nearest"):
            raise VerifyException("'graph.cast' round_mode must be \"up\", \"down\" or "
                                  "\"nearest\"")

    @classmethod
    def output_elements(cls, props, elements):
        return [props["to"]]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        to = self.to
        dtype = numpy_dtype(to)
        saturate = bool(self.saturate.value.data)
        if to == Float8E8M0FNUType():
            return _to_e8m0(x, saturate, self.round_mode.data).view(dtype)
        if saturate and isinstance(to, SMALL_FLOAT_TYPES) and dtype.itemsize == 1:
            info = ml_dtypes.finfo(dtype)  # float8: clamped to the finite range, NaN kept
            x = np.clip(x.astype(np.float32), float(info.min), float(info.max))
        return x.astype(dtype)


def _to_e8m0(x: np.ndarray, saturate: bool, round_mode: str) -> np.ndarray:
    """f8E8M0 codes of x by ONNX's rule: the f32 exponent field, rounded up when any
    mantissa bit is set ("up"), never ("down"), or by guard and round/sticky bits or a
    nonzero exponent ("nearest"); NaN and Inf give 0xFF, as past the top with no
    `saturate`."""
    bits = x.astype(np.float32).view(np.uint32)
    e = ((bits >> 23) & 0xFF).astype(np.uint16)
    if round_mode == "up":
        up = (bits & 0x7FFFFF) != 0
    elif round_mode == "nearest":
        up = ((bits & 0x400000) != 0) & (((bits & 0x3FFFFF) != 0) | (e > 0))
    else:
        up = np.zeros(bits.shape, bool)
    if saturate:
        up &= e != 0xFE
    code = np.where(e == 0xFF, 0xFF, e + up)
    return code.astype(np.uint8)


@irdl_op_definition
class AddOp(BinaryOp):
    name = "graph.add"
    ONNX_OP: ClassVar[str | None] = "Add"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.add(a, b)


@irdl_op_definition
class SubOp(BinaryOp):
    name = "graph.sub"
    ONNX_OP: ClassVar[str | None] = "Sub"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.subtract(a, b)


@irdl_op_definition
class MulOp(BinaryOp):
    name = "graph.mul"
    ONNX_OP: ClassVar[str | None] = "Mul"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.multiply(a, b)


@irdl_op_definition
class DivOp(BinaryOp):
    name = "graph.div"
    ONNX_OP: ClassVar[str | None] = "Div"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return _int_div(a, b) if a.dtype.kind in "iu" else a / b


@irdl_op_definition
class PowOp(BinaryOp):
    name = "graph.pow"
    ONNX_OP: ClassVar[str | None] = "Pow"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.power(a, b)


@irdl_op_definition
class EqualOp(CompareOp):
    name = "graph.equal"
    ONNX_OP: ClassVar[str | None] = "Equal"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.equal(a, b)


@irdl_op_definition
class LessOp(OrderedCompareOp):
    name = "graph.less"
    ONNX_OP: ClassVar[str | None] = "Less"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.less(a, b)


@irdl_op_definition
class GreaterOp(OrderedCompareOp):
    name = "graph.greater"
    ONNX_OP: ClassVar[str | None] = "Greater"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.greater(a, b)


@irdl_op_definition
class WhereOp(GraphOp):
    name = "graph.where"
    condition = operand_def(TensorType)
    X = operand_def(TensorType)
    Y = operand_def(TensorType)
    output = result_def(TensorType)
    traits = TRAITS
    ONNX_OP: ClassVar[str | None] = "Where"

    @classmethod
    def check(cls, props, types):
        if types[0].element_type != IntegerType(1):
            raise VerifyException("'graph.where' condition must be a bool (i1) tensor")
        if types[1].element_type != types[2].element_type:
            raise VerifyException("'graph.where' branches have different element types")

    @classmethod
    def output_dims(cls, props, dims, consts):
        return [D.broadcast(dims)]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[1]]

    def numpy(self, condition: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.where(condition, x, y)


@irdl_op_definition
class SumOp(VariadicOp):
    name = "graph.sum"
    ONNX_OP: ClassVar[str | None] = "Sum"

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        return np.sum(np.broadcast_arrays(*x), axis=0)


@irdl_op_definition
class MaxOp(VariadicOp):
    name = "graph.max"
    ONNX_OP: ClassVar[str | None] = "Max"

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        return np.max(np.broadcast_arrays(*x), axis=0)


@irdl_op_definition
class MinOp(VariadicOp):
    name = "graph.min"
    ONNX_OP: ClassVar[str | None] = "Min"

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        return np.min(np.broadcast_arrays(*x), axis=0)


@irdl_op_definition
class MeanOp(VariadicOp):
    name = "graph.mean"
    ONNX_OP: ClassVar[str | None] = "Mean"

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        return np.mean(np.broadcast_arrays(*x), axis=0)


@dataclass(frozen=True)
class Activation:
    """An activation that conv / gemm / matmul apply to their result (an epilogue fused by
    the graph optimizer), as the elementwise op that computes it alone: its numpy
    evaluator and scalar lowering are the epilogue's, read from `instance(params)`.

    `activation_params` hold, in order, the op's float properties `attrs`, then the values
    of its scalar operands after X (Clip's min and max); `fixed` are the string properties
    the name stands for (gelu_tanh is Gelu with approximate = "tanh").
    """

    op: type[GraphOp]
    attrs: tuple[str, ...] = ()
    operands: int = 0
    fixed: tuple[tuple[str, str], ...] = ()

    @property
    def n_params(self) -> int:
        return len(self.attrs) + self.operands

    def instance(self, params: Sequence[float]) -> GraphOp:
        """A detached op (no operands) carrying the activation's properties, for the
        evaluator and the scalar lowering of `op`; operand params are passed as values."""
        props: dict[str, Attribute] = {k: StringAttr(v) for k, v in self.fixed}
        props.update({a: float_attr(p) for a, p in zip(self.attrs, params, strict=False)})
        return self.op.create(properties=props)

    def operand_params(self, params: Sequence[float]) -> list[float]:
        return list(params[len(self.attrs):])

    def params_of(self, op: Operation) -> list[float] | None:
        """The params of `op` when it computes this activation, else None (another type,
        other fixed properties, or operand params that are not constant scalars)."""
        if type(op) is not self.op or any(
            cast(StringAttr, getattr(op, k)).data != v for k, v in self.fixed
        ):
            return None
        params = [float(cast(FloatAttr, getattr(op, a)).value.data) for a in self.attrs]
        for v in op.operands[1 : 1 + self.operands]:
            c = constant_value(v)
            if c is None or c.size != 1:
                return None
            params.append(float(c.reshape(-1)[0]))
        return params


# Activations by the name written in `activation` (the fused epilogue of conv / gemm /
# matmul): a fusable activation is one entry here.
ACTIVATIONS: dict[str, Activation] = {
    "relu": Activation(ReluOp),
    "clip": Activation(ClipOp, operands=2),
    "sigmoid": Activation(SigmoidOp),
    "tanh": Activation(TanhOp),
    "hard_sigmoid": Activation(HardSigmoidOp, attrs=("alpha", "beta")),
    "hard_swish": Activation(HardSwishOp),
    "leaky_relu": Activation(LeakyReluOp, attrs=("alpha",)),
    "gelu": Activation(GeluOp, fixed=(("approximate", "none"),)),
    "gelu_tanh": Activation(GeluOp, fixed=(("approximate", "tanh"),)),
    "elu": Activation(unary.EluOp, attrs=("alpha",)),
    "selu": Activation(unary.SeluOp, attrs=("alpha", "gamma")),
    "softplus": Activation(unary.SoftplusOp),
    "mish": Activation(unary.MishOp),
}


def activation_computed_by(op: Operation) -> tuple[str, list[float]] | None:
    """The activation name and params that `op` computes, or None."""
    for name, act in ACTIVATIONS.items():
        params = act.params_of(op)
        if params is not None:
            return name, params
    return None


def activation_of(props: Mapping[str, Attribute]) -> tuple[str, list[float]] | None:
    """The fused activation of a conv / gemm / matmul and its parameters, or None."""
    name = props.get("activation")
    if name is None:
        return None
    params = props.get("activation_params")
    values = [] if params is None else [float(v) for v in cast(DenseArrayBase, params).get_values()]
    return cast(StringAttr, name).data, values


def apply_activation(op: Operation, v: np.ndarray) -> np.ndarray:
    """The activation fused into a conv / gemm / matmul `op`, if any, applied to v: the
    numpy form of the op that computes it alone (`ACTIVATIONS`), its operand params
    (Clip's bounds) as scalars of v's dtype."""
    act = activation_of(op.properties)
    if act is None:
        return v
    name, params = act
    activation = ACTIVATIONS[name]
    bounds = [np.array(p, dtype=v.dtype) for p in activation.operand_params(params)]
    return activation.instance(params).numpy(v, *bounds)  # type: ignore[attr-defined]


def check_activation(cls: type[GraphOp], props: Mapping[str, Attribute]) -> None:
    if props.get("activation_params") is not None and props.get("activation") is None:
        raise VerifyException(f"'{cls.name}' has activation_params but no activation")
    act = activation_of(props)
    if act is None:
        return
    name, params = act
    if name not in ACTIVATIONS:
        raise VerifyException(
            f"'{cls.name}' unknown activation \"{name}\" (known: {', '.join(ACTIVATIONS)})"
        )
    if len(params) != ACTIVATIONS[name].n_params:
        raise VerifyException(
            f"'{cls.name}' activation \"{name}\" takes {ACTIVATIONS[name].n_params} params, "
            f"got {len(params)}"
        )


__all__ = [
    "ReluOp",
    "SigmoidOp",
    "TanhOp",
    "ExpOp",
    "LogOp",
    "SqrtOp",
    "ErfOp",
    "ReciprocalOp",
    "SoftsignOp",
    "FloorOp",
    "CeilOp",
    "NegOp",
    "AbsOp",
    "IdentityOp",
    "DropoutOp",
    "LeakyReluOp",
    "HardSigmoidOp",
    "HardSwishOp",
    "GeluOp",
    *unary.__all__,
    "ClipOp",
    "CastOp",
    "AddOp",
    "SubOp",
    "MulOp",
    "DivOp",
    "PowOp",
    "EqualOp",
    "LessOp",
    "GreaterOp",
    "WhereOp",
    "SumOp",
    "MaxOp",
    "MinOp",
    "MeanOp",
    "Activation",
    "ACTIVATIONS",
    "activation_computed_by",
    "activation_of",
    "apply_activation",
    "check_activation",
]

"""Elementwise ops (ONNX's unary math, binary arithmetic with broadcasting, comparisons,
Where, the variadic Sum/Max/Min/Mean, Clip, Cast) and the activations that conv, gemm and
matmul can apply to their results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
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
from infer.dialects.graph.base import (
    TRAITS,
    BinaryOp,
    CompareOp,
    FloatUnaryOp,
    GraphOp,
    UnaryOp,
    VariadicOp,
)
from infer.dialects.graph.constant import constant_value
from infer.dialects.graph.types import float_attr, get_str, is_float

# ---------------------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class ReluOp(UnaryOp):
    name = "graph.relu"


@irdl_op_definition
class SigmoidOp(FloatUnaryOp):
    name = "graph.sigmoid"


@irdl_op_definition
class TanhOp(FloatUnaryOp):
    name = "graph.tanh"


@irdl_op_definition
class ExpOp(FloatUnaryOp):
    name = "graph.exp"


@irdl_op_definition
class LogOp(FloatUnaryOp):
    name = "graph.log"


@irdl_op_definition
class SqrtOp(FloatUnaryOp):
    name = "graph.sqrt"


@irdl_op_definition
class ErfOp(FloatUnaryOp):
    name = "graph.erf"


@irdl_op_definition
class ReciprocalOp(FloatUnaryOp):
    name = "graph.reciprocal"


@irdl_op_definition
class FloorOp(FloatUnaryOp):
    name = "graph.floor"


@irdl_op_definition
class CeilOp(FloatUnaryOp):
    name = "graph.ceil"


@irdl_op_definition
class NegOp(UnaryOp):
    name = "graph.neg"


@irdl_op_definition
class AbsOp(UnaryOp):
    name = "graph.abs"


@irdl_op_definition
class IdentityOp(UnaryOp):
    name = "graph.identity"


@irdl_op_definition
class DropoutOp(UnaryOp):
    """Inference-mode dropout: the identity (the mask output is not supported)."""

    name = "graph.dropout"


@irdl_op_definition
class LeakyReluOp(FloatUnaryOp):
    name = "graph.leaky_relu"
    alpha = prop_def(FloatAttr, default_value=float_attr(0.01))


@irdl_op_definition
class HardSigmoidOp(FloatUnaryOp):
    name = "graph.hard_sigmoid"
    alpha = prop_def(FloatAttr, default_value=float_attr(0.2))
    beta = prop_def(FloatAttr, default_value=float_attr(0.5))


@irdl_op_definition
class HardSwishOp(FloatUnaryOp):
    name = "graph.hard_swish"


@irdl_op_definition
class GeluOp(FloatUnaryOp):
    name = "graph.gelu"
    approximate = prop_def(StringAttr, default_value=StringAttr("none"))

    @classmethod
    def check(cls, props, types):
        super().check(props, types)
        if get_str(props, "approximate", "none") not in ("none", "tanh"):
            raise VerifyException("'graph.gelu' approximate must be \"none\" or \"tanh\"")


@irdl_op_definition
class ClipOp(GraphOp):
    """y = min(max(x, min), max); min and max are scalar tensors (the importer fills ±inf)."""

    name = "graph.clip"
    input = operand_def(TensorType)
    min = operand_def(TensorType)
    max = operand_def(TensorType)
    output = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        for t in types[1:]:
            if t.get_shape() not in ((), (1,)):
                raise VerifyException(f"'graph.clip' bounds must be scalars, got {t}")
            if t.element_type != types[0].element_type:
                raise VerifyException("'graph.clip' bounds must have the input's element type")


@irdl_op_definition
class CastOp(GraphOp):
    name = "graph.cast"
    input = operand_def(TensorType)
    output = result_def(TensorType)
    to = prop_def(AnyAttr())
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        to = props.get("to")
        if not (is_float(to) or isinstance(to, IntegerType)):
            raise VerifyException(f"'graph.cast' to must be an integer or float type, got {to}")

    @classmethod
    def output_elements(cls, props, elements):
        return [props["to"]]


@irdl_op_definition
class AddOp(BinaryOp):
    name = "graph.add"


@irdl_op_definition
class SubOp(BinaryOp):
    name = "graph.sub"


@irdl_op_definition
class MulOp(BinaryOp):
    name = "graph.mul"


@irdl_op_definition
class DivOp(BinaryOp):
    name = "graph.div"


@irdl_op_definition
class PowOp(BinaryOp):
    name = "graph.pow"


@irdl_op_definition
class EqualOp(CompareOp):
    name = "graph.equal"


@irdl_op_definition
class LessOp(CompareOp):
    name = "graph.less"


@irdl_op_definition
class GreaterOp(CompareOp):
    name = "graph.greater"


@irdl_op_definition
class WhereOp(GraphOp):
    name = "graph.where"
    condition = operand_def(TensorType)
    X = operand_def(TensorType)
    Y = operand_def(TensorType)
    output = result_def(TensorType)
    traits = TRAITS

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


@irdl_op_definition
class SumOp(VariadicOp):
    name = "graph.sum"


@irdl_op_definition
class MaxOp(VariadicOp):
    name = "graph.max"


@irdl_op_definition
class MinOp(VariadicOp):
    name = "graph.min"


@irdl_op_definition
class MeanOp(VariadicOp):
    name = "graph.mean"


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

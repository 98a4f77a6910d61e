"""ONNX elementwise operators: unary, binary and variadic maths, activations, Cast, Where,
the logical, bitwise and integer ops."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import (
    f64,
)

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import (
    NodeError,
    OpBuilder,
    OpFn,
    Value,
    _unary,
    dims,
    element,
    element_type,
)
from infer.frontend.onnx_ops.random import training_dropout

# ---------------------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------------------


def _binary(cls: type[G.GraphOp]) -> OpFn:
    def binary(b: OpBuilder, a: Value, c: Value) -> Value:
        if element(a) != element(c):
            raise NodeError(
                f"operands have different element types: {element(a)} and {element(c)}"
            )
        return b.emit1(cls, a, c)

    binary.__name__ = cls.name.removeprefix("graph.")
    return binary


def _before_opset_7(modern: OpFn) -> OpFn:
    """Add, Sub, Mul, Div and Pow of opsets 1 to 6: without `broadcast` both operands have
    one shape; with it the second is broadcast to the first, its dims aligned with the
    first's from `axis` on (with the trailing dims when `axis` is absent, as numpy)."""

    def legacy(b: OpBuilder, a: Value, c: Value, *, broadcast: int = 0,
               axis: int | None = None, consumed_inputs: list[int] | None = None) -> Value:
        del consumed_inputs  # opset 1's memory-reuse hint
        x, y = dims(a), dims(c)
        if not broadcast:
            if len(x) != len(y) or any(isinstance(m, int) and isinstance(n, int) and m != n
                                       for m, n in zip(x, y, strict=True)):
                raise NodeError(f"operands of shapes {x} and {y} differ and broadcast is 0")
        elif axis is not None:
            start = axis + len(x) if axis < 0 else axis
            if not 0 <= start <= len(x) - len(y):
                raise NodeError(f"axis {axis} does not place a rank-{len(y)} operand in "
                                f"a rank-{len(x)} one")
            trailing = len(x) - start - len(y)
            if trailing:
                c = b.emit1(G.UnsqueezeOp, c, b.ints(range(len(y), len(y) + trailing)))
        return modern(b, a, c)

    legacy.__name__ = f"{getattr(modern, '__name__', 'binary')}_before_opset_7"
    return legacy


def prelu_before_opset_7(b: OpBuilder, x: Value, slope: Value, *,
                         consumed_inputs: list[int] | None = None) -> Value:
    """PRelu of opsets 1 and 6: a slope of one element is shared, one of C elements (x's
    dim 1) is per channel, as Caffe2 defined it; else it has x's shape."""
    del consumed_inputs
    x_dims, s_dims = dims(x), dims(slope)
    if len(s_dims) == 1 and len(x_dims) > 2 and s_dims[0] != 1:
        slope = b.emit1(G.UnsqueezeOp, slope, b.ints(range(1, len(x_dims) - 1)))
    return _binary(G.PReluOp)(b, x, slope)


def _variadic(cls: type[G.GraphOp]) -> OpFn:
    def variadic(b: OpBuilder, *inputs: Value | None) -> Value:
        return b.emit1(cls, *inputs)

    variadic.__name__ = cls.name.removeprefix("graph.")
    return variadic


def identity(b: OpBuilder, input: Value) -> Value:
    return b.emit1(G.IdentityOp, input)


def leaky_relu(b: OpBuilder, x: Value, *, alpha: float | None = None) -> Value:
    return b.emit1(G.LeakyReluOp, x, alpha=alpha)


def hard_sigmoid(b: OpBuilder, x: Value, *, alpha: float | None = None,
                 beta: float | None = None) -> Value:
    return b.emit1(G.HardSigmoidOp, x, alpha=alpha, beta=beta)


def elu(b: OpBuilder, x: Value, *, alpha: float | None = None) -> Value:
    return b.emit1(G.EluOp, x, alpha=alpha)


def selu(b: OpBuilder, x: Value, *, alpha: float | None = None,
         gamma: float | None = None) -> Value:
    return b.emit1(G.SeluOp, x, alpha=alpha, gamma=gamma)


def celu(b: OpBuilder, x: Value, *, alpha: float | None = None) -> Value:
    return b.emit1(G.CeluOp, x, alpha=alpha)


def thresholded_relu(b: OpBuilder, x: Value, *, alpha: float | None = None) -> Value:
    return b.emit1(G.ThresholdedReluOp, x, alpha=alpha)


def shrink(b: OpBuilder, x: Value, *, bias: float | None = None,
           lambd: float | None = None) -> Value:
    return b.emit1(G.ShrinkOp, x, bias=bias, lambd=lambd)


def is_inf(b: OpBuilder, x: Value, *, detect_positive: int | None = None,
           detect_negative: int | None = None) -> Value:
    return b.emit1(G.IsInfOp, x, detect_positive=detect_positive,
                   detect_negative=detect_negative)


def gelu(b: OpBuilder, x: Value, *, approximate: str | None = None) -> Value:
    if approximate not in (None, "none", "tanh"):
        raise NodeError(f"approximate must be 'none' or 'tanh', got '{approximate}'")
    return b.emit1(G.GeluOp, x, approximate=approximate)


def pow_(b: OpBuilder, x: Value, y: Value) -> Value:
    """Since opset 12 the exponent may have another type; the result has the base's type.
    An integer base is raised in f64 and the result truncated back, as onnxruntime's
    std::pow does (so 4 ** 0.5 is 2 and 2 ** -1 is 0)."""
    if not G.is_float(element(x)):
        wide = [b.emit1(G.CastOp, v, to=f64) for v in (x, y)]
        return b.emit1(G.CastOp, b.emit1(G.PowOp, *wide), to=element(x))
    if element(y) != element(x):
        y = b.emit1(G.CastOp, y, to=element(x))
    return b.emit1(G.PowOp, x, y)


def _clip_bound(b: OpBuilder, x: Value, bound: float | None, upper: bool) -> Value:
    """A scalar constant of x's dtype; a missing bound is the dtype's +-inf (max/min)."""
    dtype = G.numpy_dtype(element(x))
    if bound is None:
        if dtype.kind == "f":
            bound = np.inf if upper else -np.inf
        else:
            info = np.iinfo(dtype)
            bound = info.max if upper else info.min
    return b.const(np.array(bound, dtype=dtype))


def clip_v6(
    b: OpBuilder, input: Value, *, min: float | None = None, max: float | None = None
) -> Value:
    return b.emit1(
        G.ClipOp, input, _clip_bound(b, input, min, False), _clip_bound(b, input, max, True)
    )


def clip(b: OpBuilder, input: Value, min: Value | None = None, max: Value | None = None) -> Value:
    lo = _clip_bound(b, input, None, False) if min is None else min
    hi = _clip_bound(b, input, None, True) if max is None else max
    return b.emit1(G.ClipOp, input, lo, hi)


def cast_(
    b: OpBuilder, input: Value, *, to: int, saturate: int | None = None,
    round_mode: str | None = None,
) -> Value:
    return b.emit1(G.CastOp, input, to=element_type(to), saturate=saturate,
                   round_mode=round_mode)


def where(b: OpBuilder, condition: Value, x: Value, y: Value) -> Value:
    if element(x) != element(y):
        raise NodeError(f"X and Y have different element types: {element(x)} and {element(y)}")
    return b.emit1(G.WhereOp, condition, x, y)


def bit_shift(b: OpBuilder, x: Value, y: Value, *, direction: str) -> Value:
    return b.emit1(G.BitShiftOp, x, y, direction=direction)


def mod(b: OpBuilder, a: Value, c: Value, *, fmod: int | None = None) -> Value:
    return b.emit1(G.ModOp, a, c, fmod=fmod)


def mod_v10(b: OpBuilder, a: Value, c: Value, *, fmod: int | None = None) -> Value:
    # the floor remainder of floats is defined from opset 28 on
    if not fmod and G.is_float(element(a)):
        raise NodeError("fmod must be 1 for floating-point operands before opset 28")
    return mod(b, a, c, fmod=fmod)


def dropout_v7(b: OpBuilder, data: Value, *, ratio: float = 0.5) -> Value:
    return b.emit1(G.DropoutOp, data)


def dropout(
    b: OpBuilder,
    data: Value,
    ratio: Value | None = None,
    training_mode: Value | None = None,
    *,
    seed: int | None = None,
) -> Value | list[Value]:
    """Inference Dropout is the identity and its mask all true; so is training mode with a
    constant ratio of 0. Otherwise training mode keeps the elements whose uniform draw is
    at least the ratio, scaled by 1 / (1 - ratio) (random.training_dropout)."""
    if training_mode is not None:
        mode = G.constant_value(training_mode)
        drop = G.constant_value(ratio) if ratio is not None else np.array(0.5)
        if mode is None or (mode.any() and (drop is None or drop.any())):
            y, mask = training_dropout(b, data, ratio, training_mode, seed)
            return [y, mask] if len(b.used) > 1 and b.used[1] else y
    y = b.emit1(G.DropoutOp, data)
    if len(b.used) < 2 or not b.used[1]:  # no mask, or one nothing reads
        return y
    true = b.const(np.array(True))
    return [y, b.emit1(G.ExpandOp, true, b.emit1(G.ShapeOp, data))]


OPS: dict[str, dict[int, OpFn]] = {
    "Relu": {1: _unary(G.ReluOp)},
    "Sigmoid": {1: _unary(G.SigmoidOp)},
    "Tanh": {1: _unary(G.TanhOp)},
    "Exp": {1: _unary(G.ExpOp)},
    "Log": {1: _unary(G.LogOp)},
    "Sqrt": {1: _unary(G.SqrtOp)},
    "Erf": {9: _unary(G.ErfOp)},
    "Reciprocal": {1: _unary(G.ReciprocalOp)},
    "Softsign": {1: _unary(G.SoftsignOp)},
    "Floor": {1: _unary(G.FloorOp)},
    "Ceil": {1: _unary(G.CeilOp)},
    "Neg": {1: _unary(G.NegOp)},
    "Abs": {1: _unary(G.AbsOp)},
    "Sin": {7: _unary(G.SinOp)},
    "Cos": {7: _unary(G.CosOp)},
    "Tan": {7: _unary(G.TanOp)},
    "Asin": {7: _unary(G.AsinOp)},
    "Acos": {7: _unary(G.AcosOp)},
    "Atan": {7: _unary(G.AtanOp)},
    "Sinh": {9: _unary(G.SinhOp)},
    "Cosh": {9: _unary(G.CoshOp)},
    "Asinh": {9: _unary(G.AsinhOp)},
    "Acosh": {9: _unary(G.AcoshOp)},
    "Atanh": {9: _unary(G.AtanhOp)},
    "Round": {11: _unary(G.RoundOp)},
    "Sign": {9: _unary(G.SignOp)},
    "IsNaN": {9: _unary(G.IsNaNOp)},
    "IsInf": {10: is_inf},
    "Softplus": {1: _unary(G.SoftplusOp)},
    "Mish": {18: _unary(G.MishOp)},
    "Elu": {6: elu},
    "Selu": {6: selu},
    "Celu": {12: celu},
    "ThresholdedRelu": {10: thresholded_relu},
    "Shrink": {9: shrink},
    "Identity": {1: identity},
    "Dropout": {7: dropout_v7, 12: dropout},
    "LeakyRelu": {1: leaky_relu},
    "HardSigmoid": {1: hard_sigmoid},
    "HardSwish": {14: _unary(G.HardSwishOp)},
    "Gelu": {20: gelu},
    "Clip": {6: clip_v6, 11: clip},
    "Cast": {6: cast_},
    "Add": {1: _before_opset_7(_binary(G.AddOp)), 7: _binary(G.AddOp)},
    "Sub": {1: _before_opset_7(_binary(G.SubOp)), 7: _binary(G.SubOp)},
    "Mul": {1: _before_opset_7(_binary(G.MulOp)), 7: _binary(G.MulOp)},
    "Div": {1: _before_opset_7(_binary(G.DivOp)), 7: _binary(G.DivOp)},
    "Pow": {1: _before_opset_7(pow_), 7: pow_},
    "Equal": {7: _binary(G.EqualOp)},
    "Less": {7: _binary(G.LessOp)},
    "Greater": {7: _binary(G.GreaterOp)},
    "Where": {9: where},
    "LessOrEqual": {12: _binary(G.LessOrEqualOp)},
    "GreaterOrEqual": {12: _binary(G.GreaterOrEqualOp)},
    "And": {7: _binary(G.AndOp)},
    "Or": {7: _binary(G.OrOp)},
    "Xor": {7: _binary(G.XorOp)},
    "Not": {1: _unary(G.NotOp)},
    "BitwiseAnd": {18: _binary(G.BitwiseAndOp)},
    "BitwiseOr": {18: _binary(G.BitwiseOrOp)},
    "BitwiseXor": {18: _binary(G.BitwiseXorOp)},
    "BitwiseNot": {18: _unary(G.BitwiseNotOp)},
    "BitShift": {11: bit_shift},
    "Mod": {10: mod_v10, 28: mod},
    "PRelu": {1: prelu_before_opset_7, 7: _binary(G.PReluOp)},
    "Sum": {6: _variadic(G.SumOp)},
    "Max": {6: _variadic(G.MaxOp)},
    "Min": {6: _variadic(G.MinOp)},
    "Mean": {6: _variadic(G.MeanOp)},
}

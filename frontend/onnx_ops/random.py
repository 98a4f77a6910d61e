"""ONNX importers: the random ops, built from graph ops as a counter-based generator.

Element i of a draw is splitmix64 (Steele, Lea and Flood's mixer) of
    key + (i + 1) * 0x9E3779B97F4A7C15,   key = mix(seed) ^ mix(run),
where `seed` is the node's, or one drawn when compiling, and `run` is the number of the
run: the hidden input RUN_COUNTER, which the runtime fills with 0, 1, 2, ... per
compiled model. So every run draws anew, and a seeded op repeats its sequence from one
compile to the next, as onnxruntime's does from one session to the next (the values are
not onnxruntime's: its generator is another).

    uniform   the top 53 bits of a draw / 2^53, in [0, 1), then low + (high - low) * u
    normal    Box-Muller of two uniform draws (the second a stream of its own)
    Multinomial   per sample, the first class whose cumulative probability (softmax of
              the row) exceeds a uniform draw times the total
"""

from __future__ import annotations

import secrets

import numpy as np
from xdsl.dialects.builtin import IntegerType, Signedness, f64

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import (
    ONNX_ELEMENT_TYPES,
    NodeError,
    OpBuilder,
    OpFn,
    Unsupported,
    Value,
    built_from_other_ops,
    dims,
    element,
    element_type,
)

U64 = IntegerType(64, Signedness.UNSIGNED)
_GOLDEN = 0x9E3779B97F4A7C15
_NORMAL_STREAM = 0xD1B54A32D192ED03  # the second uniform of Box-Muller: another key


def _u64(b: OpBuilder, v: int) -> Value:
    return b.const(np.array(v % 2**64, np.uint64))


def _mix(b: OpBuilder, z: Value) -> Value:
    """splitmix64's finalizer on u64 values."""
    for shift, factor in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB)):
        z = b.emit1(G.MulOp, b.emit1(G.BitwiseXorOp, z, b.emit1(
            G.BitShiftOp, z, _u64(b, shift), direction="RIGHT")), _u64(b, factor))
    return b.emit1(G.BitwiseXorOp, z, b.emit1(G.BitShiftOp, z, _u64(b, 31), direction="RIGHT"))


def _uniform(b: OpBuilder, shape: Value, seed: float | None, stream: int = 0) -> Value:
    """Uniform f64 draws in [0, 1) of run-time `shape`."""
    if b.run_counter is None:
        raise Unsupported("random ops need the runtime's run counter (import the model)")
    chosen = secrets.randbits(64) if seed is None else int(np.float32(seed).view(np.uint32))
    key = b.emit1(G.BitwiseXorOp, _mix(b, _u64(b, chosen + stream)),
                  _mix(b, b.run_counter()))
    count = b.emit1(G.ReduceProdOp, shape, keepdims=0)
    ids = b.emit1(G.CastOp, b.emit1(G.RangeOp, b.const(np.array(1, np.int64)),
                                     b.emit1(G.AddOp, count, b.const(np.array(1, np.int64))),
                                     b.const(np.array(1, np.int64))), to=U64)
    z = _mix(b, b.emit1(G.AddOp, key, b.emit1(G.MulOp, ids, _u64(b, _GOLDEN))))
    top = b.emit1(G.CastOp, b.emit1(G.BitShiftOp, z, _u64(b, 11), direction="RIGHT"), to=f64)
    u = b.emit1(G.MulOp, top, b.const(np.array(2.0 ** -53)))
    return b.emit1(G.ReshapeOp, u, shape, allowzero=1)


def _scaled(b: OpBuilder, u: Value, offset: float, factor: float, dtype: int) -> Value:
    v = b.emit1(G.AddOp, b.emit1(G.MulOp, u, b.const(np.array(factor))), b.const(np.array(
        offset)))
    return b.emit1(G.CastOp, v, to=element_type(dtype))


def _normal(b: OpBuilder, shape: Value, seed: float | None) -> Value:
    """Standard normal f64 draws: sqrt(-2 ln(1 - u1)) * cos(2 pi u2)."""
    u1, u2 = _uniform(b, shape, seed), _uniform(b, shape, seed, _NORMAL_STREAM)
    one = b.const(np.array(1.0))
    radius = b.emit1(G.SqrtOp, b.emit1(G.MulOp, b.const(np.array(-2.0)), b.emit1(
        G.LogOp, b.emit1(G.SubOp, one, u1))))
    angle = b.emit1(G.MulOp, u2, b.const(np.array(2 * np.pi)))
    return b.emit1(G.MulOp, radius, b.emit1(G.CosOp, angle))


def _shape(b: OpBuilder, shape: list[int]) -> Value:
    if any(d < 0 for d in shape):
        raise NodeError(f"shape {shape} has a negative dim")
    return b.ints(shape)


def _like_dtype(x: Value, dtype: int | None) -> int:
    if dtype is not None:
        return dtype
    return next(k for k, v in ONNX_ELEMENT_TYPES.items() if v == element(x))


@built_from_other_ops
def random_uniform(b: OpBuilder, *, shape: list[int], dtype: int = 1, high: float = 1.0,
                   low: float = 0.0, seed: float | None = None) -> Value:
    return _scaled(b, _uniform(b, _shape(b, shape), seed), low, high - low, dtype)


@built_from_other_ops
def random_normal(b: OpBuilder, *, shape: list[int], dtype: int = 1, mean: float = 0.0,
                  scale: float = 1.0, seed: float | None = None) -> Value:
    return _scaled(b, _normal(b, _shape(b, shape), seed), mean, scale, dtype)


@built_from_other_ops
def random_uniform_like(b: OpBuilder, x: Value, *, dtype: int | None = None,
                        high: float = 1.0, low: float = 0.0, seed: float | None = None
                        ) -> Value:
    u = _uniform(b, b.emit1(G.ShapeOp, x), seed)
    return _scaled(b, u, low, high - low, _like_dtype(x, dtype))


@built_from_other_ops
def random_normal_like(b: OpBuilder, x: Value, *, dtype: int | None = None,
                       mean: float = 0.0, scale: float = 1.0, seed: float | None = None
                       ) -> Value:
    n = _normal(b, b.emit1(G.ShapeOp, x), seed)
    return _scaled(b, n, mean, scale, _like_dtype(x, dtype))


@built_from_other_ops
def multinomial(b: OpBuilder, x: Value, *, dtype: int = 6, sample_size: int = 1,
                seed: float | None = None) -> Value:
    """x [batch, classes] unnormalized log-probabilities; y [batch, sample_size] class
    indices (int32 or int64)."""
    if len(dims(x)) != 2:
        raise NodeError(f"the input must be [batch, classes], got rank {len(dims(x))}")
    if sample_size < 1:
        raise NodeError(f"sample_size must be positive, got {sample_size}")
    probs = b.emit1(G.CastOp, b.emit1(G.SoftmaxOp, x, axis=1), to=f64)
    cdf = b.emit1(G.CumulativeOp, probs, b.const(np.array(1, np.int64)))  # [batch, classes]
    batch = b.emit1(G.SliceOp, b.emit1(G.ShapeOp, x), b.ints([0]), b.ints([1]), b.ints([0]),
                    b.ints([1]))
    shape = b.emit1(G.ConcatOp, batch, b.ints([sample_size]), axis=0)
    total = b.emit1(G.SliceOp, cdf, b.ints([-1]), b.ints([2**62]), b.ints([1]), b.ints([1]))
    target = b.emit1(G.MulOp, _uniform(b, shape, seed), total)  # [batch, samples]
    below = b.emit1(G.LessOrEqualOp, b.emit1(G.UnsqueezeOp, cdf, b.ints([1])),
                    b.emit1(G.UnsqueezeOp, target, b.ints([2])))  # [batch, samples, classes]
    index = b.emit1(G.ReduceSumOp, b.emit1(G.CastOp, below, to=element_type(7)), b.ints([2]),
                    keepdims=0)
    last = b.emit1(G.SubOp, b.emit1(G.GatherOp, b.emit1(G.ShapeOp, x), b.const(np.array(
        1, np.int64)), axis=0), b.const(np.array(1, np.int64)))
    if dtype not in (6, 7):
        raise Unsupported(f"Multinomial to {element_type(dtype)} (int32 and int64 are)")
    return b.emit1(G.CastOp, b.emit1(G.MinOp, index, last), to=element_type(dtype))


@built_from_other_ops
def bernoulli(b: OpBuilder, x: Value, *, dtype: int | None = None, seed: float | None = None
              ) -> Value:
    """1 with probability x, as the specification says (ONNX's function body for it
    compares the other way round, drawing 1 with probability 1 - x)."""
    u = _uniform(b, b.emit1(G.ShapeOp, x), seed)
    ones = b.emit1(G.LessOp, u, b.emit1(G.CastOp, x, to=f64))
    return b.emit1(G.CastOp, ones, to=element_type(_like_dtype(x, dtype)))


def training_dropout(b: OpBuilder, data: Value, ratio: Value | None, training: Value,
                     seed: float | None) -> tuple[Value, Value]:
    """Dropout in training mode (where `training` holds): mask = a uniform draw >= ratio,
    y = mask * data / (1 - ratio); else y = data and the mask all true."""
    dtype = G.numpy_dtype(element(data))
    ratio = ratio if ratio is not None else b.const(np.array(0.5, dtype))
    u = _uniform(b, b.emit1(G.ShapeOp, data), seed)
    keep = b.emit1(G.GreaterOrEqualOp, u, b.emit1(G.CastOp, ratio, to=f64))
    mask = b.emit1(G.OrOp, keep, b.emit1(G.NotOp, training))
    one = b.const(np.array(1, dtype))
    scale = b.emit1(G.WhereOp, training, b.emit1(G.DivOp, one, b.emit1(
        G.SubOp, one, b.emit1(G.CastOp, ratio, to=element(data)))), one)
    kept = b.emit1(G.MulOp, b.emit1(G.CastOp, mask, to=element(data)), data)
    return b.emit1(G.MulOp, kept, scale), mask


OPS: dict[str, dict[int, OpFn]] = {
    "RandomUniform": {1: random_uniform},
    "RandomNormal": {1: random_normal},
    "RandomUniformLike": {1: random_uniform_like},
    "RandomNormalLike": {1: random_normal_like},
    "Multinomial": {7: multinomial},
    "Bernoulli": {15: bernoulli},
}


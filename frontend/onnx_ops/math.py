"""ONNX linear algebra, softmax and reduction operators."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import (
    NodeError,
    OpBuilder,
    OpFn,
    Unsupported,
    Value,
    _axis,
    _unary,
    built_from_other_ops,
    dims,
    element,
)


def matmul(b: OpBuilder, a: Value, c: Value) -> Value:
    """Integer products (which the matmul kernels do not take) as the equal Einsum."""
    if G.is_float(element(a)):
        return b.emit1(G.MatMulOp, a, c)
    return b.emit1(G.EinsumOp, a, c, equation=G.matmul_equation(len(dims(a)), len(dims(c))))


def gemm(
    b: OpBuilder,
    a: Value,
    c: Value,
    bias: Value | None = None,
    *,
    alpha: float | None = None,
    beta: float | None = None,
    transA: int | None = None,
    transB: int | None = None,
) -> Value:
    return b.emit1(G.GemmOp, a, c, bias, alpha=alpha, beta=beta, transA=transA, transB=transB)



def gemm_before_opset_7(
    b: OpBuilder,
    a: Value,
    c: Value,
    bias: Value,
    *,
    alpha: float | None = None,
    beta: float | None = None,
    transA: int | None = None,
    transB: int | None = None,
    broadcast: int = 0,
) -> Value:
    """Gemm of opsets 1 and 6: the bias is broadcast only with `broadcast`, else it has the
    result's shape; either way Gemm 7's broadcast gives the same result."""
    del broadcast
    return gemm(b, a, c, bias, alpha=alpha, beta=beta, transA=transA, transB=transB)


def _coerced(b: OpBuilder, along: Callable[[Value, int], Value], x: Value, axis: int
             ) -> Value:
    """Softmax-like ops before opset 13: `along(x, axis)` over the input coerced to 2-D at
    `axis` (Flatten-like)."""
    x_dims = dims(x)
    axis = _axis(axis, len(x_dims))
    if all(d == 1 for d in x_dims[axis + 1 :]):
        return along(x, axis)  # unit trailing dims: the same as the new form
    flat = b.emit1(G.FlattenOp, x, axis=axis)
    y = along(flat, -1)  # the last of the 2-D form: the default axis
    if sum(not isinstance(d, int) for d in x_dims) <= 1:
        shape = b.ints([d if isinstance(d, int) else -1 for d in x_dims])
    else:
        shape = b.emit1(G.ShapeOp, x)
    return b.emit1(G.ReshapeOp, y, shape)


def _along(b: OpBuilder, cls: type[G.GraphOp]) -> Callable[[Value, int], Value]:
    return lambda x, axis: b.emit1(cls, x, axis=axis)


def softmax_v1(b: OpBuilder, input: Value, *, axis: int = 1) -> Value:
    return _coerced(b, _along(b, G.SoftmaxOp), input, axis)


def softmax(b: OpBuilder, input: Value, *, axis: int | None = None) -> Value:
    return b.emit1(G.SoftmaxOp, input, axis=axis)


def log_softmax_v1(b: OpBuilder, input: Value, *, axis: int = 1) -> Value:
    return _coerced(b, _along(b, G.LogSoftmaxOp), input, axis)


def _hardmax_along(b: OpBuilder, x: Value, axis: int) -> Value:
    """1 at the first maximum along `axis` (ArgMax's), 0 elsewhere: OneHot of ArgMax."""
    axis = _axis(axis, len(dims(x)))
    first = b.emit1(G.ArgMaxOp, x, axis=axis, keepdims=0)
    n = dims(x)[axis]
    depth = b.ints([n]) if isinstance(n, int) else b.emit1(G.ShapeOp, x, start=axis,
                                                            end=axis + 1)
    values = b.const(np.array([0, 1], G.numpy_dtype(element(x))))
    return b.emit1(G.OneHotOp, first, depth, values, axis=axis)


def hardmax_v1(b: OpBuilder, input: Value, *, axis: int = 1) -> Value:
    return _coerced(b, lambda x, a: _hardmax_along(b, x, a), input, axis)


def hardmax(b: OpBuilder, input: Value, *, axis: int = -1) -> Value:
    return _hardmax_along(b, input, axis)


def _cumulative(kind: str) -> OpFn:
    def cumulative(b: OpBuilder, x: Value, axis: Value, *, exclusive: int | None = None,
                   reverse: int | None = None) -> Value:
        return b.emit1(G.CumulativeOp, x, axis, kind=kind, exclusive=exclusive,
                       reverse=reverse)

    cumulative.__name__ = f"cum_{kind}"
    return cumulative


def lp_normalization(b: OpBuilder, input: Value, *, axis: int = -1, p: int = 2) -> Value:
    """x / ||x||_p along `axis`, 0 where the norm is 0 (as ONNX's reference)."""
    if p not in (1, 2):
        raise NodeError(f"p must be 1 or 2, got {p}")
    axis = _axis(axis, len(dims(input)))
    norm = b.emit1(G.ReduceL1Op if p == 1 else G.ReduceL2Op, input, b.ints([axis]))
    zero = b.const(np.zeros((), G.numpy_dtype(element(input))))
    return b.emit1(G.WhereOp, b.emit1(G.EqualOp, norm, zero), zero,
                   b.emit1(G.DivOp, input, norm))


def log_softmax(b: OpBuilder, input: Value, *, axis: int | None = None) -> Value:
    return b.emit1(G.LogSoftmaxOp, input, axis=axis)


def _reduce_attr(cls: type[G.GraphOp]) -> OpFn:
    """Reductions whose axes are an attribute (ReduceSum < 13, the others < 18)."""

    def reduce(b: OpBuilder, data: Value, *, axes: list[int] | None = None,
               keepdims: int | None = None) -> Value:
        return b.emit1(cls, data, None if axes is None else b.ints(axes), keepdims=keepdims)

    reduce.__name__ = cls.name.removeprefix("graph.") + "_v1"
    return reduce


def _reduce_input(cls: type[G.GraphOp]) -> OpFn:
    """Reductions whose axes are an input, which may be computed at run time."""

    def reduce(b: OpBuilder, data: Value, axes: Value | None = None, *,
               keepdims: int | None = None, noop_with_empty_axes: int | None = None) -> Value:
        if axes is not None and G.constant_value(axes) is None:
            if not isinstance(dims(axes)[0], int):  # the result's rank would be unknown
                raise Unsupported("axes computed at run time need a static length")
        return b.emit1(cls, data, axes, keepdims=keepdims,
                       noop_with_empty_axes=noop_with_empty_axes)

    reduce.__name__ = cls.name.removeprefix("graph.")
    return reduce


def _arg_reduce(cls: type[G.GraphOp]) -> OpFn:
    def arg_reduce(b: OpBuilder, data: Value, *, axis: int | None = None,
                   keepdims: int | None = None, select_last_index: int | None = None) -> Value:
        return b.emit1(cls, data, axis=axis, keepdims=keepdims,
                       select_last_index=select_last_index)

    arg_reduce.__name__ = cls.name.removeprefix("graph.")
    return arg_reduce


def _reductions() -> dict[str, dict[int, OpFn]]:
    """Each reduction's importers: axes an attribute, then an input (ReduceSum from
    opset 13, the others from 18)."""
    classes = [G.ReduceMeanOp, G.ReduceSumOp, G.ReduceMaxOp, G.ReduceMinOp, G.ReduceProdOp,
               G.ReduceL1Op, G.ReduceL2Op, G.ReduceSumSquareOp, G.ReduceLogSumOp,
               G.ReduceLogSumExpOp]
    return {c.ONNX_OP: {1: _reduce_attr(c), 13 if c is G.ReduceSumOp else 18: _reduce_input(c)}
            for c in classes if c.ONNX_OP is not None}


def einsum(b: OpBuilder, *inputs: Value | None, equation: str) -> Value:
    return b.emit1(G.EinsumOp, *inputs, equation=equation)


def linear_attention(b: OpBuilder, query: Value, key: Value, value: Value,
                     past_state: Value | None = None, decay: Value | None = None,
                     beta: Value | None = None, *, q_num_heads: int, kv_num_heads: int,
                     scale: float | None = None, update_rule: str | None = None,
                     chunk_size: int = 64) -> list[Value]:
    """`chunk_size` tunes chunked GPU kernels; the recurrence does not need it."""
    if update_rule is None:
        update_rule = G.LinearAttentionOp.prop({}, "update_rule")
    gated, delta = update_rule in ("gated", "gated_delta"), update_rule in ("delta",
                                                                             "gated_delta")
    if gated != (decay is not None) or delta != (beta is not None):
        raise NodeError(f"update_rule '{update_rule}' takes "
                        + ("decay" if gated else "no decay") + " and "
                        + ("beta" if delta else "no beta"))
    return b.emit(G.LinearAttentionOp, query, key, value, past_state, decay, beta,
                  q_num_heads=q_num_heads, kv_num_heads=kv_num_heads, scale=scale,
                  update_rule=update_rule, has_past_state=int(past_state is not None))


OPS: dict[str, dict[int, OpFn]] = {
    "MatMul": {1: matmul},
    "Gemm": {1: gemm_before_opset_7, 7: gemm},
    "Det": {11: _unary(G.DetOp)},
    "Einsum": {12: einsum},
    "LinearAttention": {27: linear_attention},
    "Softmax": {1: softmax_v1, 13: softmax},
    "LogSoftmax": {1: log_softmax_v1, 13: log_softmax},
    "Hardmax": {1: built_from_other_ops(hardmax_v1), 13: built_from_other_ops(hardmax)},
    "CumSum": {11: _cumulative("sum")},
    "CumProd": {26: built_from_other_ops(_cumulative("prod"))},
    "LpNormalization": {1: built_from_other_ops(lp_normalization)},
    **_reductions(),
    "ArgMax": {1: _arg_reduce(G.ArgMaxOp)},
    "ArgMin": {1: _arg_reduce(G.ArgMinOp)},
}

"""Transformer fusions: decomposed LayerNorm, Erf-form GELU and attention → one op each.

Exporters (PyTorch below opset 17, TensorFlow, hand-written graphs) spell these blocks as
chains of small ops; each chain becomes one `graph` op whose kernel reads its input once:

    d = x - mean(x); d / sqrt(mean(d^2) + eps) * g + b   → graph.layer_normalization
    x * 0.5 * (1 + erf(x / sqrt(2)))                    → graph.gelu
    softmax(Q K^T * c + mask) V                          → graph.attention

A chain is fused only when its intermediate values have no users outside it (fusing
otherwise would compute them twice). `patterns(level)` is what `graph-optimize` runs at
level >= 2; the `transformer-fusion` pass runs them alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import VerifyException

from infer.dialects import graph
from infer.transforms.rewrite import rewrite_module

SQRT2 = float(np.sqrt(2.0))

# ---------------------------------------------------------------------------------------
# Matching helpers
# ---------------------------------------------------------------------------------------


def scalar(v: SSAValue) -> float | None:
    """The value of a one-element float constant, else None."""
    arr = graph.constant_value(v)
    if arr is None or arr.size != 1 or arr.dtype.kind != "f":
        return None
    return float(arr.reshape(-1)[0])


def is_scalar(v: SSAValue, expected: float, rtol: float = 1e-6) -> bool:
    """`v` is a one-element constant equal to `expected` up to float32 rounding."""
    c = scalar(v)
    return c is not None and abs(c - expected) <= rtol * abs(expected)


def other_operand(op: Operation, v: SSAValue) -> SSAValue | None:
    """The operand of binary `op` that is not `v` (None if `v` is not an operand)."""
    a, b = op.operands
    return b if a is v else a if b is v else None


def owner(v: SSAValue, cls: type[Operation]) -> Operation | None:
    """The op defining `v` if it is a `cls`."""
    return v.owner if isinstance(v.owner, cls) else None


def sole_user(v: SSAValue) -> Operation | None:
    return v.get_user_of_unique_use()


def used_only_within(chain: list[Operation], root: Operation) -> bool:
    """Every result of the chain's ops but the root's is used only by chain ops."""
    ops = set(chain)
    return all(
        use.operation in ops
        for op in chain
        if op is not root
        for r in op.results
        for use in r.uses
    )


def replace_chain(
    rewriter: PatternRewriter, chain: list[Operation], root: Operation, new: list[Operation]
) -> None:
    """Replace `root` by `new` (the last op gives the result), then erase the dead chain."""
    rewriter.replace(root, new)
    alive = [op for op in chain if op is not root]
    changed = True
    while changed:
        changed = False
        for op in list(alive):
            if all(not r.uses for r in op.results):
                rewriter.erase(op)
                alive.remove(op)
                changed = True


def leading_ones(v: SSAValue, tail: int) -> bool:
    """All dims of `v` before its last `tail` are statically 1 (a per-feature parameter)."""
    shape = graph.dims_of(v.type)
    return all(d == 1 for d in shape[: max(len(shape) - tail, 0)])


def strip_scale(v: SSAValue, chain: list[Operation]) -> tuple[SSAValue, float]:
    """Peel Mul/Div by scalar constants off `v`: (base, factor) with v = base * factor."""
    factor = 1.0
    while True:
        if (mul := owner(v, graph.MulOp)) is not None:
            a, b = mul.operands
            c, base = (scalar(b), a) if scalar(b) is not None else (scalar(a), b)
            if c is None:
                return v, factor
            factor *= c
        elif (div := owner(v, graph.DivOp)) is not None:
            c = scalar(div.operands[1])
            if c is None or c == 0.0:
                return v, factor
            factor /= c
            base = div.operands[0]
        else:
            return v, factor
        chain.append(v.owner)
        v = base


def build(
    cls: type[graph.GraphOp],
    operands: list[SSAValue],
    props: dict[str, Attribute],
    like: SSAValue,
) -> graph.GraphOp | None:
    """`cls(operands)` typed as `like` (the value it replaces, whose type may be more
    refined), or None when the op does not apply to these operands or its type is not
    compatible with `like`'s. Nothing is built on failure (a built op would hold uses)."""
    try:
        (inferred,) = cls.infer(operands, props)
    except VerifyException:
        return None
    t = like.type
    if not isinstance(t, TensorType) or not graph.compatible(inferred, t):
        return None
    return cls.make(operands, props, result_types=[t])


# ---------------------------------------------------------------------------------------
# LayerNorm
# ---------------------------------------------------------------------------------------


def _trailing_mean(v: SSAValue, of: SSAValue) -> tuple[Operation, int] | None:
    """(op, k) when `v` = ReduceMean(`of`) over its last k axes with keepdims."""
    op = owner(v, graph.ReduceMeanOp)
    if (op is None or op.operands[0] is not of
            or not cast(graph.ReduceMeanOp, op).keepdims.value.data):
        return None
    rank = len(graph.dims_of(of.type))
    consts = [graph.constant_value(o) for o in op.operands]
    try:
        axes = graph.ReduceMeanOp.reduced_axes(op.properties, rank, consts)
    except ValueError:
        return None
    k = len(axes)
    if k == 0 or axes != list(range(rank - k, rank)):
        return None
    return op, k


class FuseLayerNorm(RewritePattern):
    """The LayerNorm chain → graph.layer_normalization (anchored on the Div):

        d = Sub(x, ReduceMean(x, last k axes))
        y = Div(d, Sqrt(Add(ReduceMean(Pow(d, 2), same axes), eps))) [* g] [+ b]
          → graph.layer_normalization(x, g or 1, b) {axis = -k, epsilon = eps}

    Pow(d, 2) may be Mul(d, d); adds and muls in either operand order; g and b must be
    per-feature (dims before the last k are 1), so a residual Add is never absorbed.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.DivOp, rewriter: PatternRewriter, /) -> None:
        d, std = op.operands
        sub = owner(d, graph.SubOp)
        sqrt = owner(std, graph.SqrtOp)
        if sub is None or sqrt is None:
            return
        x, mean = sub.operands
        if (m1 := _trailing_mean(mean, x)) is None:
            return
        mean_op, k = m1
        add_eps = owner(sqrt.operands[0], graph.AddOp)
        if add_eps is None:
            return
        a, b = add_eps.operands
        var, eps = (a, scalar(b)) if scalar(b) is not None else (b, scalar(a))
        if eps is None:
            return
        var_op = owner(var, graph.ReduceMeanOp)
        if var_op is None or (m2 := _trailing_mean(var, var_op.operands[0])) is None:
            return
        if m2[1] != k:
            return
        sq = owner(var_op.operands[0], graph.PowOp) or owner(var_op.operands[0], graph.MulOp)
        if sq is None or sq.operands[0] is not d:
            return
        if isinstance(sq, graph.PowOp) and not is_scalar(sq.operands[1], 2.0):
            return
        if isinstance(sq, graph.MulOp) and sq.operands[1] is not d:
            return
        chain: list[Operation] = [mean_op, sub, sq, var_op, add_eps, sqrt, op]
        root: Operation = op
        gamma = beta = None
        user = sole_user(op.results[0])
        if isinstance(user, graph.MulOp):
            gamma = other_operand(user, root.results[0])
            chain.append(user)
            root = user
            user = sole_user(user.results[0])
        if isinstance(user, graph.AddOp):
            beta = other_operand(user, root.results[0])
            chain.append(user)
            root = user
        for p in (gamma, beta):
            if p is not None and (p is root.results[0] or not leading_ones(p, k)):
                return
        if not used_only_within(chain, root):
            return
        consts: list[Operation] = []
        if gamma is None:
            dtype = graph.numpy_dtype(cast(TensorType, x.type).element_type)
            consts.append(graph.ConstantOp(np.ones(1, dtype)))
            gamma = consts[0].results[0]
        props: dict[str, Attribute] = {
            "axis": graph.int_attr(-k), "epsilon": graph.float_attr(eps)
        }
        operands = [x, gamma] + ([beta] if beta is not None else [])
        ln = build(graph.LayerNormalizationOp, operands, props, root.results[0])
        if ln is None:
            for c in consts:
                c.erase()
            return
        replace_chain(rewriter, chain, root, [*consts, ln])


# ---------------------------------------------------------------------------------------
# GELU
# ---------------------------------------------------------------------------------------


class FuseGelu(RewritePattern):
    """The Erf form of GELU → graph.gelu (anchored on the Erf):

        Mul(Mul(x, Add(Erf(Div(x, 1.4142135)), 1)), 0.5)  → graph.gelu(x)

    and its other exported orderings: Mul(x, 0.70710677) for the Div, 1 + erf, and the
    0.5 multiplying x first, (1 + erf) first, or the product (in either operand order).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.ErfOp, rewriter: PatternRewriter, /) -> None:
        inner = op.operands[0].owner
        x: SSAValue | None = None
        if isinstance(inner, graph.DivOp) and is_scalar(inner.operands[1], SQRT2):
            x = inner.operands[0]
        elif isinstance(inner, graph.MulOp):
            a, b = inner.operands
            x = a if is_scalar(b, 1 / SQRT2) else b if is_scalar(a, 1 / SQRT2) else None
        if x is None:
            return
        assert isinstance(inner, Operation)
        add = sole_user(op.results[0])
        if not isinstance(add, graph.AddOp):
            return
        one = other_operand(add, op.results[0])
        if one is None or not is_scalar(one, 1.0):
            return
        chain: list[Operation] = [inner, op, add]
        cur = add
        have_x = have_half = False
        while not (have_x and have_half):
            user = sole_user(cur.results[0])
            if not isinstance(user, graph.MulOp) or len(chain) > 6:
                return
            f = other_operand(user, cur.results[0])
            if f is None:
                return
            half = owner(f, graph.MulOp)
            if f is x and not have_x:
                have_x = True
            elif is_scalar(f, 0.5) and not have_half:
                have_half = True
            elif half is not None and not (have_x or have_half) and (
                (half.operands[0] is x and is_scalar(half.operands[1], 0.5))
                or (half.operands[1] is x and is_scalar(half.operands[0], 0.5))
            ):
                have_x = have_half = True
                chain.append(half)
            else:
                return
            chain.append(user)
            cur = user
        if not used_only_within(chain, cur):
            return
        if (gelu := build(graph.GeluOp, [x], {}, cur.results[0])) is not None:
            replace_chain(rewriter, chain, cur, [gelu])


# ---------------------------------------------------------------------------------------
# Attention
# ---------------------------------------------------------------------------------------


def _swaps_last_two(t: Operation, rank: int) -> bool:
    perm = graph.TransposeOp.permutation(t.properties, rank)
    return perm == [*range(rank - 2), rank - 1, rank - 2]


def _scores(v: SSAValue, chain: list[Operation]) -> tuple[Operation, float] | None:
    """(MatMul or Gemm, factor) when `v` = factor * (Q @ K'), scale ops appended to chain."""
    local: list[Operation] = []
    base, factor = strip_scale(v, local)
    mm = owner(base, graph.MatMulOp) or owner(base, graph.GemmOp)
    if mm is None:
        return None
    chain.extend(local)
    return mm, factor


class FuseAttention(RewritePattern):
    """Scaled dot-product attention → graph.attention (anchored on the last MatMul):

        MatMul(Softmax(Add(MatMul(Q, Transpose(K)) * c, mask), axis=-1), V)
          → graph.attention(Q, K, V, mask) {scale = c}

    Transpose(K) swaps the last two axes (K^T given as is otherwise: k_transposed = 1);
    the scale is any Mul or Div by scalar constants on Q, K, K^T or the scores; the mask
    Add is optional. A 2-D scores MatMul already fused into Gemm(Q, K, mask) {transB}
    (alpha the scale, beta 1) matches too.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.MatMulOp, rewriter: PatternRewriter, /) -> None:
        p, v = op.operands
        sm = owner(p, graph.SoftmaxOp)
        if sm is None:
            return
        rank = len(graph.dims_of(p.type))
        axis = cast(graph.SoftmaxOp, sm).axis.value.data
        if rank < 2 or len(graph.dims_of(v.type)) < 2 or axis not in (-1, rank - 1):
            return
        chain: list[Operation] = [op, sm]
        s = sm.operands[0]
        mask: SSAValue | None = None
        found = _scores(s, chain)
        if found is None and (add := owner(s, graph.AddOp)) is not None:
            for cand, other in (add.operands, reversed(add.operands)):
                if (found := _scores(cand, chain)) is not None:
                    mask = other
                    chain.append(add)
                    break
        if found is None:
            return
        mm, scale = found
        chain.append(mm)
        if isinstance(mm, graph.GemmOp):
            if mm.transA.value.data or (
                len(mm.operands) > 2 and (mask is not None or mm.beta.value.data != 1.0)
            ):
                return
            if len(mm.operands) > 2:
                mask = mm.operands[2]
            q, k = mm.operands[0], mm.operands[1]
            scale *= mm.alpha.value.data
            k_transposed = 0 if mm.transB.value.data else 1
        else:
            q, f = strip_scale(mm.operands[0], chain)
            scale *= f
            k, f = strip_scale(mm.operands[1], chain)
            scale *= f
            k_transposed = 1
            t = owner(k, graph.TransposeOp)
            if t is not None and _swaps_last_two(t, len(graph.dims_of(k.type))):
                k = t.operands[0]
                k_transposed = 0
                if t.results[0].has_one_use():  # else others still read the transpose
                    chain.append(t)
                    k, f = strip_scale(k, chain)
                    scale *= f
        if min(len(graph.dims_of(w.type)) for w in (q, k)) < 2:
            return
        if not used_only_within(chain, op):
            return
        props: dict[str, Attribute] = {
            "scale": graph.float_attr(scale), "k_transposed": graph.int_attr(k_transposed)
        }
        operands = [q, k, v] + ([mask] if mask is not None else [])
        if (att := build(graph.AttentionOp, operands, props, op.results[0])) is not None:
            replace_chain(rewriter, chain, op, [att])


# ---------------------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------------------


def patterns(level: int) -> list[RewritePattern]:
    """The transformer fusions `graph-optimize` runs at `level` (>= 2: all of them)."""
    if level < 2:
        return []
    return [FuseLayerNorm(), FuseGelu(), FuseAttention()]


def apply_patterns(module: ModuleOp, rewrites: Iterable[RewritePattern]) -> None:
    rewrite_module(module, list(rewrites))


@dataclass(frozen=True)
class TransformerFusionPass(ModulePass):
    """Run the transformer fusions alone (graph-optimize runs them at level >= 2)."""

    name = "transformer-fusion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_patterns(op, patterns(2))

"""Canonicalization patterns of graph ops: each removes an op that does nothing, or merges
two ops into one. They reach the ops through `GraphCanonicalizationPatterns` (a trait in
graph.py), so xDSL's `canonicalize` pass and `graph-optimize` both apply them.

Every pattern's docstring is its rewrite, in the style of `# x*1 -> x`. None of them may
change a result's type: when the replacement's type differs (a broadcast), it does not fire.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from infer.dialects import graph as G
from infer.dialects.dims import DYN, Dim


def _is_splat(value: SSAValue, x: float) -> bool:
    v = G.constant_value(value)
    return v is not None and v.size > 0 and bool(np.all(v == x))


def _forward(op: Operation, value: SSAValue, rewriter: PatternRewriter) -> None:
    """Replace `op`'s only result by `value`, if that keeps the type."""
    if value.type == op.results[0].type:
        rewriter.replace(op, (), (value,))


class EliminateIdentity(RewritePattern):
    """# identity(x) -> x, dropout(x) -> x (inference)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.IdentityOp | G.DropoutOp, rewriter: PatternRewriter, /):
        _forward(op, op.X, rewriter)


class EliminateNoOpCast(RewritePattern):
    """# cast<T>(x: T) -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.CastOp, rewriter: PatternRewriter, /):
        _forward(op, op.input, rewriter)


_RESHAPE_LIKE = (G.ReshapeOp, G.FlattenOp, G.SqueezeOp, G.UnsqueezeOp)


class EliminateNoOpReshape(RewritePattern):
    """# reshape(x: T) -> x: T when T is static (also flatten, squeeze, unsqueeze)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: G.ReshapeOp | G.FlattenOp | G.SqueezeOp | G.UnsqueezeOp,
        rewriter: PatternRewriter,
        /,
    ):
        x = op.operands[0]
        if isinstance(x.type, TensorType) and x.type.has_static_shape():
            _forward(op, x, rewriter)


class _Sym:
    """A dynamic input dim that keeps its identity when copied (not under arithmetic)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def _dyn(self, other: object) -> Dim:
        return DYN

    def _times(self, other: object) -> Dim:
        return self if isinstance(other, int) and other == 1 else DYN  # products of one dim

    __add__ = __radd__ = __sub__ = __rsub__ = __floordiv__ = __rfloordiv__ = _dyn
    __mul__ = __rmul__ = _times


def _chain_target(x: SSAValue, chain: Sequence[Operation]) -> list[int] | None:
    """The Reshape `shape` operand equivalent to applying `chain` to `x`, or None.

    Static dims are written out; a dynamic dim still equal to x's dim at the same
    position becomes 0 (copy); one other dynamic dim becomes -1 (inferred).
    """
    assert isinstance(x.type, TensorType)
    dims: list[Dim] = [_Sym(i) if d is DYN else d for i, d in enumerate(G.dims_of(x.type))]
    try:
        for op in chain:
            operand_dims = [dims] + [G.dims_of(v.type) for v in op.operands[1:]]
            consts = [None] + [G.constant_value(v) for v in op.operands[1:]]
            dims = type(op).output_dims(op.properties, operand_dims, consts)[0]  # type: ignore[attr-defined]
    except ValueError:
        return None
    shape: list[int] = []
    for i, d in enumerate(dims):
        if isinstance(d, int):
            if d == 0:
                return None  # 0 would mean "copy" in the shape operand
            shape.append(d)
        elif isinstance(d, _Sym) and d.index == i:
            shape.append(0)
        else:
            shape.append(-1)
    return shape if shape.count(-1) <= 1 else None


class FoldReshapeChain(RewritePattern):
    """# reshape(reshape(x, s1), s2) -> reshape(x, s2) (any mix of reshape, flatten,
    squeeze, unsqueeze; when the final shape is static or expressible with 0 and -1)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: G.ReshapeOp | G.FlattenOp | G.SqueezeOp | G.UnsqueezeOp,
        rewriter: PatternRewriter,
        /,
    ):
        inner = op.operands[0].owner
        if not isinstance(inner, _RESHAPE_LIKE):
            return
        x = inner.operands[0]
        shape = _chain_target(x, [inner, op])
        if shape is None:
            return
        const = G.ConstantOp(np.array(shape, dtype=np.int64))
        out_t = op.results[0].type
        inferred = G.ReshapeOp.infer([x, const.output], {})[0]
        if not isinstance(out_t, TensorType) or not G.compatible(inferred, out_t):
            return
        new = G.ReshapeOp.make([x, const], result_types=[out_t])
        rewriter.replace(op, [const, new], [new.reshaped])


def _perm(op: G.TransposeOp) -> list[int]:
    t = op.data.type
    assert isinstance(t, TensorType)
    return G.TransposeOp.permutation(op.properties, len(t.get_shape()))


class ComposeTransposes(RewritePattern):
    """# transpose(transpose(x, p), q) -> transpose(x, [p[i] for i in q])"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.TransposeOp, rewriter: PatternRewriter, /):
        inner = op.data.owner
        if not isinstance(inner, G.TransposeOp):
            return
        p, q = _perm(inner), _perm(op)
        new = G.TransposeOp.make(
            [inner.data], {"perm": G.ints_attr([p[i] for i in q])}, [op.transposed.type]
        )
        rewriter.replace(op, new)


class EliminateIdentityTranspose(RewritePattern):
    """# transpose(x, [0, 1, ..., n-1]) -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.TransposeOp, rewriter: PatternRewriter, /):
        p = _perm(op)
        if p == list(range(len(p))):
            _forward(op, op.data, rewriter)


class EliminateConcatOfOne(RewritePattern):
    """# concat(x) -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.ConcatOp, rewriter: PatternRewriter, /):
        if len(op.inputs) == 1:
            _forward(op, op.inputs[0], rewriter)


class EliminateAddZero(RewritePattern):
    """# x + 0 -> x, 0 + x -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.AddOp, rewriter: PatternRewriter, /):
        if _is_splat(op.B, 0):
            _forward(op, op.A, rewriter)
        elif _is_splat(op.A, 0):
            _forward(op, op.B, rewriter)


class EliminateSubZero(RewritePattern):
    """# x - 0 -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.SubOp, rewriter: PatternRewriter, /):
        if _is_splat(op.B, 0):
            _forward(op, op.A, rewriter)


class EliminateMulOne(RewritePattern):
    """# x * 1 -> x, 1 * x -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.MulOp, rewriter: PatternRewriter, /):
        if _is_splat(op.B, 1):
            _forward(op, op.A, rewriter)
        elif _is_splat(op.A, 1):
            _forward(op, op.B, rewriter)


class EliminateDivOne(RewritePattern):
    """# x / 1 -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.DivOp, rewriter: PatternRewriter, /):
        if _is_splat(op.B, 1):
            _forward(op, op.A, rewriter)


class EliminateReorderPair(RewritePattern):
    """# to_nchwc(from_nchwc(x)) -> x, from_nchwc(to_nchwc(x)) -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.ToNchwcOp | G.FromNchwcOp, rewriter: PatternRewriter, /):
        inner = op.X.owner
        if isinstance(op, G.ToNchwcOp) and isinstance(inner, G.FromNchwcOp):
            _forward(op, inner.X, rewriter)  # the type check compares the blocks too
        elif isinstance(op, G.FromNchwcOp) and isinstance(inner, G.ToNchwcOp):
            _forward(op, inner.X, rewriter)


_RESHAPE_PATTERNS = (EliminateNoOpReshape(), FoldReshapeChain())

# op class -> its canonicalization patterns (read by the trait in graph.py).
class TakeConstantBranch(RewritePattern):
    """# if(constant c) {A} else {B} -> A (or B), inlined in place"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.IfOp, rewriter: PatternRewriter, /):
        cond = G.constant_value(op.cond)
        if cond is None or cond.size != 1:
            return
        region = op.then_region if cond.reshape(-1)[0] else op.else_region
        values = op.yielded(region)
        if any(v.type != r.type for v, r in zip(values, op.results, strict=True)):
            return
        yield_op = region.block.last_op
        rewriter.inline_block(region.block, InsertPoint.before(op))
        assert yield_op is not None
        rewriter.erase_op(yield_op)
        rewriter.replace_op(op, (), values)


PATTERNS: dict[type[Operation], tuple[RewritePattern, ...]] = {
    G.IfOp: (TakeConstantBranch(),),
    G.IdentityOp: (EliminateIdentity(),),
    G.DropoutOp: (EliminateIdentity(),),
    G.CastOp: (EliminateNoOpCast(),),
    G.ReshapeOp: _RESHAPE_PATTERNS,
    G.FlattenOp: _RESHAPE_PATTERNS,
    G.SqueezeOp: _RESHAPE_PATTERNS,
    G.UnsqueezeOp: _RESHAPE_PATTERNS,
    G.TransposeOp: (EliminateIdentityTranspose(), ComposeTransposes()),
    G.ConcatOp: (EliminateConcatOfOne(),),
    G.AddOp: (EliminateAddZero(),),
    G.SubOp: (EliminateSubZero(),),
    G.MulOp: (EliminateMulOne(),),
    G.DivOp: (EliminateDivOne(),),
    G.ToNchwcOp: (EliminateReorderPair(),),
    G.FromNchwcOp: (EliminateReorderPair(),),
}


def patterns_for(op_type: type[Operation]) -> tuple[RewritePattern, ...]:
    return PATTERNS.get(op_type, ())

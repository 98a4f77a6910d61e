"""Canonicalization patterns of graph ops: each removes an op that does nothing, or merges
two ops into one. The dialect imports this module after its ops, and the ops reach their
patterns through `GraphCanonicalizationPatterns` (a trait in base.py), so xDSL's
`canonicalize` pass and `graph-optimize` both apply them.

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

from infer.dialects.dims import DYN, Dim
from infer.dialects.graph.base import CANONICALIZATION_PATTERNS
from infer.dialects.graph.constant import ConstantOp, constant_value
from infer.dialects.graph.control_flow import IfOp
from infer.dialects.graph.elementwise import (
    AddOp,
    CastOp,
    DivOp,
    DropoutOp,
    IdentityOp,
    MulOp,
    SubOp,
)
from infer.dialects.graph.nchwc import FromNchwcOp, ToNchwcOp
from infer.dialects.graph.tensor import (
    ConcatOp,
    FlattenOp,
    ReshapeOp,
    SqueezeOp,
    TransposeOp,
    UnsqueezeOp,
)
from infer.dialects.graph.types import compatible, dims_of, ints_attr


def _is_splat(value: SSAValue, x: float) -> bool:
    v = constant_value(value)
    return v is not None and v.size > 0 and bool(np.all(v == x))


def _forward(op: Operation, value: SSAValue, rewriter: PatternRewriter) -> None:
    """Replace `op`'s only result by `value`, if that keeps the type."""
    if value.type == op.results[0].type:
        rewriter.replace(op, (), (value,))


class EliminateIdentity(RewritePattern):
    """# identity(x) -> x, dropout(x) -> x (inference)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IdentityOp | DropoutOp, rewriter: PatternRewriter, /):
        _forward(op, op.X, rewriter)


class EliminateNoOpCast(RewritePattern):
    """# cast<T>(x: T) -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CastOp, rewriter: PatternRewriter, /):
        _forward(op, op.input, rewriter)


_RESHAPE_LIKE = (ReshapeOp, FlattenOp, SqueezeOp, UnsqueezeOp)


class EliminateNoOpReshape(RewritePattern):
    """# reshape(x: T) -> x: T when T is static (also flatten, squeeze, unsqueeze)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: ReshapeOp | FlattenOp | SqueezeOp | UnsqueezeOp,
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
    dims: list[Dim] = [_Sym(i) if d is DYN else d for i, d in enumerate(dims_of(x.type))]
    try:
        for op in chain:
            operand_dims = [dims] + [dims_of(v.type) for v in op.operands[1:]]
            consts = [None] + [constant_value(v) for v in op.operands[1:]]
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
        op: ReshapeOp | FlattenOp | SqueezeOp | UnsqueezeOp,
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
        const = ConstantOp(np.array(shape, dtype=np.int64))
        out_t = op.results[0].type
        inferred = ReshapeOp.infer([x, const.output], {})[0]
        if not isinstance(out_t, TensorType) or not compatible(inferred, out_t):
            return
        new = ReshapeOp.make([x, const], result_types=[out_t])
        rewriter.replace(op, [const, new], [new.reshaped])


def _perm(op: TransposeOp) -> list[int]:
    t = op.data.type
    assert isinstance(t, TensorType)
    return TransposeOp.permutation(op.properties, len(t.get_shape()))


class ComposeTransposes(RewritePattern):
    """# transpose(transpose(x, p), q) -> transpose(x, [p[i] for i in q])"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter, /):
        inner = op.data.owner
        if not isinstance(inner, TransposeOp):
            return
        p, q = _perm(inner), _perm(op)
        new = TransposeOp.make(
            [inner.data], {"perm": ints_attr([p[i] for i in q])}, [op.transposed.type]
        )
        rewriter.replace(op, new)


class EliminateIdentityTranspose(RewritePattern):
    """# transpose(x, [0, 1, ..., n-1]) -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter, /):
        p = _perm(op)
        if p == list(range(len(p))):
            _forward(op, op.data, rewriter)


class EliminateConcatOfOne(RewritePattern):
    """# concat(x) -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConcatOp, rewriter: PatternRewriter, /):
        if len(op.inputs) == 1:
            _forward(op, op.inputs[0], rewriter)


class EliminateAddZero(RewritePattern):
    """# x + 0 -> x, 0 + x -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AddOp, rewriter: PatternRewriter, /):
        if _is_splat(op.B, 0):
            _forward(op, op.A, rewriter)
        elif _is_splat(op.A, 0):
            _forward(op, op.B, rewriter)


class EliminateSubZero(RewritePattern):
    """# x - 0 -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SubOp, rewriter: PatternRewriter, /):
        if _is_splat(op.B, 0):
            _forward(op, op.A, rewriter)


class EliminateMulOne(RewritePattern):
    """# x * 1 -> x, 1 * x -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MulOp, rewriter: PatternRewriter, /):
        if _is_splat(op.B, 1):
            _forward(op, op.A, rewriter)
        elif _is_splat(op.A, 1):
            _forward(op, op.B, rewriter)


class EliminateDivOne(RewritePattern):
    """# x / 1 -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DivOp, rewriter: PatternRewriter, /):
        if _is_splat(op.B, 1):
            _forward(op, op.A, rewriter)


class EliminateReorderPair(RewritePattern):
    """# to_nchwc(from_nchwc(x)) -> x, from_nchwc(to_nchwc(x)) -> x"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ToNchwcOp | FromNchwcOp, rewriter: PatternRewriter, /):
        inner = op.X.owner
        if isinstance(op, ToNchwcOp) and isinstance(inner, FromNchwcOp):
            _forward(op, inner.X, rewriter)  # the type check compares the blocks too
        elif isinstance(op, FromNchwcOp) and isinstance(inner, ToNchwcOp):
            _forward(op, inner.X, rewriter)


_RESHAPE_PATTERNS = (EliminateNoOpReshape(), FoldReshapeChain())

class TakeConstantBranch(RewritePattern):
    """# if(constant c) {A} else {B} -> A (or B), inlined in place"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IfOp, rewriter: PatternRewriter, /):
        cond = constant_value(op.cond)
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


# op class -> its canonicalization patterns, read by the ops' trait (base.py)
CANONICALIZATION_PATTERNS.update({
    IfOp: (TakeConstantBranch(),),
    IdentityOp: (EliminateIdentity(),),
    DropoutOp: (EliminateIdentity(),),
    CastOp: (EliminateNoOpCast(),),
    ReshapeOp: _RESHAPE_PATTERNS,
    FlattenOp: _RESHAPE_PATTERNS,
    SqueezeOp: _RESHAPE_PATTERNS,
    UnsqueezeOp: _RESHAPE_PATTERNS,
    TransposeOp: (EliminateIdentityTranspose(), ComposeTransposes()),
    ConcatOp: (EliminateConcatOfOne(),),
    AddOp: (EliminateAddZero(),),
    SubOp: (EliminateSubZero(),),
    MulOp: (EliminateMulOne(),),
    DivOp: (EliminateDivOne(),),
    ToNchwcOp: (EliminateReorderPair(),),
    FromNchwcOp: (EliminateReorderPair(),),
})

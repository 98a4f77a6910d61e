"""The `shape` dialect: shapes as exact integer expressions of one tensor's dims.

OpenPPL's PPL.ShapeOperation replaces `Shape` and the Gather/Concat/Div/... chains that
follow it by one op holding a coefficient matrix over the input's dims (last column = the
constant). Here the matrix is an affine map, which is that matrix plus constant
floordiv/mod, so `(C + 2) / 2` on integers stays exact:

    %s = shape.of %x {map = affine_map<(d0, d1, d2, d3) -> (d0, 2, d1 floordiv 2, d2, d3)>}
         : tensor<?x116x28x28xf32> -> tensor<5xi64>

The map has one dim per input dim, no symbols, and one result per element of the result
(a 1-D tensor, or a 0-d one with a single result, as `Gather` with a scalar index makes).
Static input dims are substituted into the map by canonicalization, so a result that
only depends on them is a constant, and an all-constant `shape.of` folds to
`graph.constant`. Graph ops that take a shape operand (Reshape, Expand, ConstantOfShape,
and Range's start/limit/delta) see a `shape.of` through `graph.HasSymbolicShape`: their
shape functions evaluate the map on the input's dims (DYN at compile time), and their
lowerings evaluate it again on the input buffer's run-time dims, so a `shape.of` read
only by them needs no buffer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
from xdsl.dialects.builtin import AffineMapAttr, IntegerType, TensorType, i64
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.utils.exceptions import VerifyException

from infer.dialects.dims import Dim
from infer.dialects.graph import ConstantOp, HasSymbolicShape, dims_of, numpy_dtype

# ---------------------------------------------------------------------------------------
# Expressions
# ---------------------------------------------------------------------------------------


def eval_expr(e: AffineExpr, dims: Sequence[Dim]) -> Dim:
    """`e` evaluated on `dims` with `Dim` arithmetic: ints fold, DYN stays dynamic, and
    the lowering's `Index` values emit arith ops (floor division, as affine's floordiv)."""
    if isinstance(e, AffineConstantExpr):
        return e.value
    if isinstance(e, AffineDimExpr):
        return dims[e.position]
    assert isinstance(e, AffineBinaryOpExpr), e
    lhs, rhs = eval_expr(e.lhs, dims), eval_expr(e.rhs, dims)
    match e.kind:
        case AffineBinaryOpKind.Add:
            return lhs + rhs
        case AffineBinaryOpKind.Mul:
            return lhs * rhs
        case AffineBinaryOpKind.FloorDiv:
            return lhs // rhs
        case AffineBinaryOpKind.CeilDiv:  # ceil(a / c) = floor((a + c - 1) / c) for c > 0
            return (lhs + (rhs - 1)) // rhs
        case AffineBinaryOpKind.Mod:  # a mod c = a - floor(a / c) * c
            return lhs - (lhs // rhs) * rhs
    raise AssertionError(e.kind)


def is_nonnegative(e: AffineExpr) -> bool:
    """True when `e` is >= 0 for all dims >= 0 (then ONNX's truncating Div is floordiv)."""
    if isinstance(e, AffineConstantExpr):
        return e.value >= 0
    if isinstance(e, AffineDimExpr):
        return True
    assert isinstance(e, AffineBinaryOpExpr)
    if e.kind == AffineBinaryOpKind.Mod:
        return is_nonnegative(e.rhs)  # a mod c has c's sign
    return is_nonnegative(e.lhs) and is_nonnegative(e.rhs)


def substitute_static(exprs: Sequence[AffineExpr], t: TensorType) -> list[AffineExpr]:
    """`exprs` over `t`'s dims with its static dims made constants, simplified."""
    rank = len(t.get_shape())
    repl = [
        AffineExpr.constant(d) if isinstance(d, int) else AffineExpr.dimension(i)
        for i, d in enumerate(dims_of(t))
    ]
    out = []
    for e in exprs:
        e = e.replace_dims_and_symbols(repl, ())
        simple = e.simplify(rank, 0)
        # xDSL's simplifier expands `a mod c` into `a - (a floordiv c) * c`: keep the shorter.
        out.append(simple if _size(simple) <= _size(e) else e)
    return out


def _size(e: AffineExpr) -> int:
    return sum(1 for _ in e.dfs())


# ---------------------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------------------


class OfOpCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (FoldStaticDims(),)


@irdl_op_definition
class OfOp(IRDLOperation, HasSymbolicShape):
    """The shape of `input` seen through `map`: result[i] = map.results[i](dims of input)."""

    name = "shape.of"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    map = prop_def(AffineMapAttr)
    traits = traits_def(Pure(), OfOpCanonicalization())
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self, input: SSAValue, exprs: Sequence[AffineExpr], result_type: Attribute | None = None
    ):
        rank = len(cast(TensorType, input.type).get_shape())
        if result_type is None:
            result_type = TensorType(i64, [len(exprs)])
        super().__init__(
            operands=[input],
            result_types=[result_type],
            properties={"map": AffineMapAttr(AffineMap(rank, 0, tuple(exprs)))},
        )

    @staticmethod
    def identity(input: SSAValue, start: int = 0, end: int | None = None) -> OfOp:
        """ONNX Shape(input, start, end), bounds already clamped."""
        rank = len(cast(TensorType, input.type).get_shape())
        end = rank if end is None else end
        return OfOp(input, [AffineExpr.dimension(i) for i in range(start, end)])

    @property
    def exprs(self) -> tuple[AffineExpr, ...]:
        return self.map.data.results

    def evaluate(self, dims: Sequence[Dim]) -> list[Dim]:
        """The shape's entries for input dims `dims` (ints, DYN or run-time values)."""
        return [eval_expr(e, dims) for e in self.exprs]

    def symbolic_shape(self) -> list[Dim]:
        return self.evaluate(dims_of(self.input.type))

    def verify_(self) -> None:
        t, rt = self.input.type, self.result.type
        assert isinstance(t, TensorType) and isinstance(rt, TensorType)
        m = self.map.data
        rank = len(t.get_shape())
        if m.num_dims != rank or m.num_symbols != 0:
            raise VerifyException(
                f"'shape.of' map has {m.num_dims} dims and {m.num_symbols} symbols, "
                f"expected {rank} dims (the input's rank) and no symbols"
            )
        e = rt.element_type
        if not (isinstance(e, IntegerType) and e.width.data in (32, 64)):
            raise VerifyException(f"'shape.of' result must hold i32 or i64, got {e}")
        shape = rt.get_shape()
        n = len(m.results)
        if len(shape) > 1 or (len(shape) == 0 and n != 1) or (shape and shape[0] != n):
            raise VerifyException(
                f"'shape.of' map has {n} results but the result type is {rt}"
            )
        for r in m.results:
            if not r.is_pure_affine():
                raise VerifyException(f"'shape.of' result {r} is not affine")
            for sub in r.dfs():
                if (isinstance(sub, AffineBinaryOpExpr)
                        and sub.kind not in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul)
                        and cast(AffineConstantExpr, sub.rhs).value <= 0):
                    raise VerifyException(f"'shape.of' divides by a non-positive constant in {r}")


class FoldStaticDims(RewritePattern):
    """shape.of %x {map} -> shape.of %x {map with x's static dims substituted}; and when
    every result is then a constant -> graph.constant."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: OfOp, rewriter: PatternRewriter) -> None:
        t = cast(TensorType, op.input.type)
        exprs = substitute_static(op.exprs, t)
        if all(isinstance(e, AffineConstantExpr) for e in exprs):
            values = [cast(AffineConstantExpr, e).value for e in exprs]
            rt = cast(TensorType, op.result.type)
            array = np.array(values, dtype=numpy_dtype(rt.element_type))
            rewriter.replace(op, ConstantOp(array.reshape(rt.get_shape())))
        elif exprs != list(op.exprs):
            rewriter.replace(op, OfOp(op.input, exprs, op.result.type))


SHAPE = Dialect("shape", [OfOp])

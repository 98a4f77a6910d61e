"""Shape-computation fusion (OpenPPL's PPL.ShapeOperation, made exact) and channel shuffle.

Exporters compute shapes at run time: `Shape → Gather → Unsqueeze → Concat → Reshape`, with
`Div`/`Mul`/`Cast` in between (PyTorch's `x.view(b, g, c // g, h, w)`). These patterns fold
such chains into one `shape.of` whose affine map says how each entry follows from the
input's dims, so that

  - consumers (Reshape, Expand, ConstantOfShape, and Range, whose scalar operands a
    `Gather(Shape(x), i)` makes 0-d shape.ofs: `torch.arange(x.size(1))`) get static result
    types wherever an entry is a constant or depends only on static dims
    (`graph.HasSymbolicShape`), and the entries are computed from `memref.dim`s at run
    time, not by kernels;
  - structure hidden in the chain becomes visible: Reshape(N, g, C/g, H, W) → Transpose(0,
    2, 1, 3, 4) → Reshape(N, C, H, W) is one `graph.channel_shuffle`.

Rules (`s`, `t`: shape.of of the same tensor; `c`: an integer constant):

    graph.shape x {start, end}          -> shape.of x (d_start, ..., d_end-1)
    gather(s, c) / slice(s, c...)       -> the rows of s that c picks (dynamic: no fusion)
    concat(s, c, t, ...)                -> rows stacked; constants as constant expressions
    unsqueeze/squeeze(s) to rank <= 1   -> s with the new type
    cast(s) to i32/i64                  -> s with the new element type
    s + t, s - t, s + c, s - c, s * c   -> composed
    s / c                               -> s floordiv c, only where s >= 0 for every value of
                                           the dims (ONNX's integer Div truncates)

Everything here is exact integer arithmetic; a chain that does not fit stays as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerType, ModuleOp, Signedness, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.transforms.dead_code_elimination import region_dce
from xdsl.utils.exceptions import VerifyException

from infer.dialects import graph
from infer.dialects.shape import FoldStaticDims, OfOp, is_nonnegative, substitute_static
from infer.transforms.rewrite import rewrite_module

# ---------------------------------------------------------------------------------------
# Operands as rows of expressions
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rows:
    """A rank <= 1 integer tensor as expressions: of the dims of `source`, or constants
    (source None)."""

    source: SSAValue | None
    exprs: list[AffineExpr]


def _rows(v: SSAValue) -> Rows | None:
    if isinstance(v.owner, OfOp):
        return Rows(v.owner.input, list(v.owner.exprs))
    value = graph.constant_value(v)
    t = v.type
    if (value is None or value.ndim > 1 or not isinstance(t, TensorType)
            or not isinstance(t.element_type, IntegerType)):
        return None
    return Rows(None, [AffineExpr.constant(int(x)) for x in value.reshape(-1)])


_MIXED = object()


def _same_source(rows: Sequence[Rows]) -> SSAValue | None | object:
    """The one tensor all `rows` are shapes of (constants fit any; None when all are
    constants), or _MIXED when they are shapes of different tensors."""
    sources = {r.source for r in rows if r.source is not None}
    if len(sources) > 1:
        return _MIXED
    return sources.pop() if sources else None


def _is_shape_like(t: object) -> bool:
    """A rank <= 1 signless (or signed) i32/i64 tensor: what `shape.of` can produce."""
    return (isinstance(t, TensorType) and len(t.get_shape()) <= 1
            and isinstance(t.element_type, IntegerType)
            and t.element_type.width.data in (32, 64)
            and t.element_type.signedness.data != Signedness.UNSIGNED)


def _replace(
    rewriter: PatternRewriter, op: Operation, source: SSAValue | None,
    exprs: Sequence[AffineExpr],
) -> None:
    """Replace `op` by shape.of `source` with `exprs`, or by a constant when every entry
    is one (static dims, or a chain of constants: shape-sized constant folding)."""
    rt = cast(TensorType, op.results[0].type)
    if source is not None:
        exprs = substitute_static(exprs, cast(TensorType, source.type))
    if all(isinstance(e, AffineConstantExpr) for e in exprs):
        values = [cast(AffineConstantExpr, e).value for e in exprs]
        array = np.array(values, dtype=graph.numpy_dtype(rt.element_type))
        rewriter.replace(op, graph.ConstantOp(array.reshape(rt.get_shape())))
        return
    assert source is not None
    rewriter.replace(op, OfOp(source, exprs, rt))


# ---------------------------------------------------------------------------------------
# Shape chains → shape.of
# ---------------------------------------------------------------------------------------


class ShapeToShapeOf(RewritePattern):
    """graph.shape x {start, end} -> shape.of x {map = (d0..dn) -> (d_start, ..., d_end-1)}"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.ShapeOp, rewriter: PatternRewriter) -> None:
        rank = len(cast(TensorType, op.data.type).get_shape())
        start, end = graph.ShapeOp.bounds(op.properties, rank)
        rewriter.replace(op, OfOp.identity(op.data, start, end))


class GatherRows(RewritePattern):
    """gather(shape.of x {m}, c) -> shape.of x {rows c of m}"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.GatherOp, rewriter: PatternRewriter) -> None:
        data = _rows(op.data)
        idx = graph.constant_value(op.indices)
        if (data is None or idx is None or idx.ndim > 1
                or not _is_shape_like(op.output.type) or not _is_shape_like(op.data.type)):
            return
        n = len(data.exprs)
        picked = [int(i) + n if i < 0 else int(i) for i in idx.reshape(-1)]
        if any(not 0 <= i < n for i in picked):
            return
        _replace(rewriter, op, data.source, [data.exprs[i] for i in picked])


class SliceRows(RewritePattern):
    """slice(shape.of x {m}, starts, ends, axes, steps) -> shape.of x {m[start:end:step]}"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.SliceOp, rewriter: PatternRewriter) -> None:
        data = _rows(op.data)
        if data is None or not _is_shape_like(op.data.type):
            return
        exprs = data.exprs
        consts = [graph.constant_value(o) for o in op.operands]
        spec = graph.SliceOp.normalized([len(exprs)], consts)
        if spec is None:
            return  # dynamic bounds: no fusion
        for _, start, end, step in spec:
            exprs = exprs[slice(start, end, step)]
        _replace(rewriter, op, data.source, exprs)


class ConcatStack(RewritePattern):
    """concat(shape.of x {m1}, c, shape.of x {m2}) -> shape.of x {m1 ++ c ++ m2}"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.ConcatOp, rewriter: PatternRewriter) -> None:
        if not _is_shape_like(op.concat_result.type):
            return
        rows = [_rows(v) for v in op.inputs]
        if any(r is None for r in rows):
            return
        rows_ = cast(list[Rows], rows)
        source = _same_source(rows_)
        if source is _MIXED:
            return
        _replace(rewriter, op, cast(SSAValue | None, source), [e for r in rows_ for e in r.exprs])


class RetypeRows(RewritePattern):
    """unsqueeze/squeeze(shape.of x {m}) to rank <= 1 -> shape.of x {m};
    cast(shape.of x {m}) to i32/i64 -> shape.of x {m} with the new element type"""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, graph.UnsqueezeOp | graph.SqueezeOp | graph.CastOp):
            return
        data = _rows(op.operands[0])
        if data is None or not _is_shape_like(op.results[0].type):
            return
        _replace(rewriter, op, data.source, data.exprs)


class ComposeArith(RewritePattern):
    """s + t, s - t, s + c, s - c, s * c, s / c -> one shape.of (see the module's rules)"""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        kinds = (graph.AddOp, graph.SubOp, graph.MulOp, graph.DivOp)
        if not isinstance(op, kinds) or not _is_shape_like(op.results[0].type):
            return
        a, b = _rows(op.operands[0]), _rows(op.operands[1])
        if a is None or b is None:
            return
        source = _same_source([a, b])
        if source is _MIXED:
            return
        t = cast(TensorType, op.results[0].type)
        n = t.get_shape()[0] if t.get_shape() else 1
        if len(a.exprs) not in (1, n) or len(b.exprs) not in (1, n):
            return
        out: list[AffineExpr] = []
        for i in range(n):
            x, y = a.exprs[i % len(a.exprs)], b.exprs[i % len(b.exprs)]
            e = _combine(op, x, y)
            if e is None:
                return
            out.append(e)
        _replace(rewriter, op, cast(SSAValue | None, source), out)


def _combine(op: Operation, x: AffineExpr, y: AffineExpr) -> AffineExpr | None:
    cy = y.value if isinstance(y, AffineConstantExpr) else None
    if isinstance(op, graph.AddOp):
        return x + y
    if isinstance(op, graph.SubOp):
        return x - y
    if isinstance(op, graph.MulOp):
        if cy is not None:
            return x * cy
        return y * x.value if isinstance(x, AffineConstantExpr) else None
    # Div: ONNX truncates toward zero; equal to floordiv when x >= 0 for all dims.
    if cy is None or cy == 0 or not is_nonnegative(x):
        return None
    return x // cy if cy > 0 else (x // -cy) * -1


# ---------------------------------------------------------------------------------------
# Types of the ops a shape feeds
# ---------------------------------------------------------------------------------------


class RefineTypes(RewritePattern):
    """A graph op whose operands now give a more static type than it declares (a Reshape
    fed by `shape.of`, and everything downstream) is rebuilt with that type. Results that
    func.return uses keep the function's type."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, graph.GraphOp):
            return
        try:
            inferred = type(op).infer(list(op.operands), op.properties)
        except VerifyException:
            return  # not ours to diagnose: the verifier does
        new_types = []
        changed = False
        for res, t in zip(op.results, inferred, strict=True):
            old = res.type
            if (t != old and isinstance(old, TensorType) and graph.compatible(t, old)
                    and _more_static(t, old)
                    and not any(isinstance(u.operation, func.ReturnOp) for u in res.uses)):
                new_types.append(t)
                changed = True
            else:
                new_types.append(old)
        if not changed:
            return
        new = type(op).make(list(op.operands), dict(op.properties), new_types)
        new.attributes.update(op.attributes)
        rewriter.replace(op, new)


class ReshapeCopiesDims(RewritePattern):
    """reshape(x, shape.of x {(.., d_i at position i, ..)}) -> the entry becomes 0 (ONNX's
    "copy dim i"), so that a -1 elsewhere is inferred exactly: [d0, -1] of ?x4x6 is ?x24."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.ReshapeOp, rewriter: PatternRewriter) -> None:
        of = op.shape.owner
        if (not isinstance(of, OfOp) or of.input != op.data
                or op.allowzero.value.data):
            return
        exprs = [AffineExpr.constant(0) if e == AffineExpr.dimension(i) else e
                 for i, e in enumerate(of.exprs)]
        if exprs == list(of.exprs):
            return
        new_shape = OfOp(of.input, exprs, of.result.type)
        rewriter.insert(new_shape, InsertPoint.before(op))
        new = graph.ReshapeOp.make([op.data, new_shape.result], dict(op.properties),
                                   [op.reshaped.type])
        rewriter.replace(op, new)


def _more_static(a: TensorType, b: TensorType) -> bool:
    return sum(d >= 0 for d in a.get_shape()) > sum(d >= 0 for d in b.get_shape())


# ---------------------------------------------------------------------------------------
# Channel shuffle
# ---------------------------------------------------------------------------------------


def _reshape_target(op: graph.ReshapeOp, x: SSAValue, in_exprs: Sequence[AffineExpr]
                    ) -> list[AffineExpr | None] | None:
    """The reshape's target shape as expressions of `x`'s dims (static ones substituted);
    None marks the one inferred (-1) entry. `in_exprs`: the reshape input's dims in the
    same terms (for ONNX's 0 = copy). None when the shape is not known in `x`'s terms."""
    rows = _rows(op.shape)
    if rows is None or rows.source not in (None, x):
        return None
    exprs = substitute_static(rows.exprs, cast(TensorType, x.type))
    allowzero = op.allowzero.value.data
    out: list[AffineExpr | None] = []
    for i, e in enumerate(exprs):
        c = e.value if isinstance(e, AffineConstantExpr) else None
        if c == -1:
            out.append(None)
        elif c == 0 and not allowzero:
            if i >= len(in_exprs):
                return None
            out.append(in_exprs[i])
        else:
            out.append(e)
    return out


def _matches(target: Sequence[AffineExpr | None], expected: Sequence[AffineExpr]) -> bool:
    """Equal entry by entry, one -1 allowed (it is then the one missing factor)."""
    return (len(target) == len(expected) and sum(t is None for t in target) <= 1
            and all(t is None or t == e for t, e in zip(target, expected, strict=True)))


class FuseChannelShuffle(RewritePattern):
    """reshape(transpose(reshape(x, [N, g, C/g, *S]), perm = 0, 2, 1, ...), [N, C, *S])
    -> graph.channel_shuffle x {groups = g}, shapes given as constants or shape.of x."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: graph.ReshapeOp, rewriter: PatternRewriter) -> None:
        tr = op.data.owner
        if not isinstance(tr, graph.TransposeOp):
            return
        r1 = tr.data.owner
        if not isinstance(r1, graph.ReshapeOp):
            return
        x = r1.data
        xt = cast(TensorType, x.type)
        rank = len(xt.get_shape())
        if rank < 3 or not isinstance(xt.get_shape()[1], int) or xt.get_shape()[1] < 0:
            return  # needs a static channel count
        perm = graph.TransposeOp.permutation(tr.properties, rank + 1)
        if perm != [0, 2, 1, *range(3, rank + 1)]:
            return
        c = xt.get_shape()[1]
        dims = substitute_static([AffineExpr.dimension(i) for i in range(rank)], xt)
        split = _reshape_target(r1, x, dims)
        if split is None or len(split) != rank + 1:
            return
        g = _groups(split[1], split[2], c)
        if g is None:
            return
        g_, per = AffineExpr.constant(g), AffineExpr.constant(c // g)
        if not _matches(split, [dims[0], g_, per, *dims[2:]]):
            return
        merge = _reshape_target(op, x, [dims[0], per, g_, *dims[2:]])
        if merge is None or not _matches(merge, dims):
            return
        new = graph.ChannelShuffleOp.make([x], {"groups": graph.int_attr(g)},
                                          [op.reshaped.type])
        rewriter.replace(op, new)


def _groups(a: AffineExpr | None, b: AffineExpr | None, c: int) -> int | None:
    """g from the split entries (g, C/g) of the first reshape; one may be -1 (None)."""
    ga = a.value if isinstance(a, AffineConstantExpr) else None
    gb = b.value if isinstance(b, AffineConstantExpr) else None
    if ga is None and gb is not None and gb > 0 and c % gb == 0:
        ga = c // gb
    if ga is None or ga <= 0 or c % ga:
        return None
    return ga


# ---------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------


def patterns(level: int) -> list[RewritePattern]:
    """The patterns `graph-optimize` runs at `level` (all at level >= 2: extended)."""
    if level < 2:
        return []
    return [
        ShapeToShapeOf(),
        GatherRows(),
        SliceRows(),
        ConcatStack(),
        RetypeRows(),
        ComposeArith(),
        FoldStaticDims(),
        RefineTypes(),
        ReshapeCopiesDims(),
        FuseChannelShuffle(),
    ]


def fuse_shapes(module: ModuleOp) -> None:
    """Run the patterns to a fixed point, then drop what they left dead."""
    rewrite_module(module, patterns(2))
    cse(module)
    region_dce(module.body)


@dataclass(frozen=True)
class ShapeFusionPass(ModulePass):
    """The shape-fusion and channel-shuffle patterns alone (graph-optimize runs them at
    level 2 among the other fusions)."""

    name = "shape-fusion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fuse_shapes(op)


"""Level 3 of `graph-optimize`: the blocked channel layout NCHWc, where it pays.

A conv in NCHW computes one output channel at a time and re-reads its output row once
per kernel tap. In NCHWc ([N, C/c, H, W, c], dialects/graph/nchwc.py) its kernel keeps a tile of
output pixels x c channels in vector registers for the whole reduction (onnxruntime's
NchwcTransformer and oneDNN's nChw8c do the same). What it costs is reordering tensors
between the layouts, so the pass works on regions, as onnxruntime's does:

1. every eligible conv becomes `from_nchwc(conv_nchwc(to_nchwc(x), packed W))`, the
   weights packed at compile time;
2. the reorders move past ops that work as well on blocked tensors: elementwise ops
   (per-channel constants packed along), max/average pools, global pools (reductions over
   the spatial axes), slices of spatial axes, channel concats and BatchNormalization (as a
   blocked Mul and Add);
3. `to_nchwc(from_nchwc(x))` cancels (a canonicalization of the reorder ops), so a chain
   of convs, activations, residual adds and pools stays blocked, with one reorder in at its
   start and one out where an op needs NCHW (a Flatten, a Gemm, an LRN, ...).

The block is a pass option, a target choice: one vector register of f32 is best, 16
channels with AVX-512, 8 with AVX2 (as onnxruntime's MLAS picks it); the API passes the
host's (codegen/target.py), and without the option it is nchwc_packing.BLOCK (8). The
blocked kernels take it from the tensor types.

Eligible ("where it pays"): 2-D f32 convs with constant weights whose channels fill whole
blocks: C and M divisible by the block, and for a grouped conv the block divides C/group
and M/group, or a depthwise conv (group = C = M) whose input is already blocked (alone,
its reorders would cost what blocking saves). A group-1 conv with fewer input channels
than a block (the 3-channel image stem) and M divisible by the block reads its NCHW input
as is: `from_nchwc(conv_nchwc(x, packed W))`, weights [M/c, 1, *k, C, c], no reorder in
(as onnxruntime's NCHW-input conv does); padding 3 channels to a block would waste 5/8 of
the work. Other convs (C or M with a partial block) stay NCHW.

    infer-opt model.mlir -p 'nchwc-layout{block=16}'   (no block: 8)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from infer.dialects import graph as G
from infer.transforms.nchwc_packing import pack_conv_weights


def _shape(v: SSAValue) -> tuple[int, ...]:
    return tuple(cast(TensorType, v.type).get_shape())


def _blocked_source(v: SSAValue) -> SSAValue | None:
    """b when v = from_nchwc(b)."""
    owner = v.owner
    return owner.X if isinstance(owner, G.FromNchwcOp) else None


def _channels(v: SSAValue) -> int:
    """The channels of an f32 4-D tensor (-1 if dynamic), or 0 for any other value."""
    t = v.type
    if not isinstance(t, TensorType) or t.element_type != f32 or len(t.get_shape()) != 4:
        return 0
    return t.get_shape()[1]


def _blockable(v: SSAValue, block: int) -> bool:
    """An f32 4-D tensor whose channels are static and fill whole blocks."""
    c = _channels(v)
    return c > 0 and c % block == 0


def _region_block(values: Sequence[SSAValue]) -> int | None:
    """The block of the first of `values` that comes out of a blocked region, if any."""
    for v in values:
        src = _blocked_source(v)
        if src is not None:
            return _shape(src)[-1]
    return None


def _to_blocked(v: SSAValue, new_ops: list[Operation], block: int) -> SSAValue:
    """v in blocked layout: the source of a from_nchwc, or a new to_nchwc."""
    src = _blocked_source(v)
    if src is not None and _shape(src)[-1] == block:
        return src
    op = G.ToNchwcOp.make([v], {"block": G.int_attr(block)})
    new_ops.append(op)
    _name(op.results[0], v, "_nchwc")
    return op.results[0]


def _name(v: SSAValue, like: SSAValue, suffix: str) -> None:
    if like.name_hint is not None:
        v.name_hint = like.name_hint + suffix


def _replace_blocked(rewriter: PatternRewriter, op: Operation, new_ops: list[Operation],
                     blocked: Operation) -> None:
    """Replace `op` by `blocked` (its blocked form) followed by a from_nchwc."""
    _name(blocked.results[0], op.results[0], "_nchwc")
    blocked.location = op.location  # its checks and errors name the ONNX node
    for k in new_ops:
        if isinstance(k, G.ConstantOp) and k.output.name_hint is None:
            _name(k.output, op.results[0], "_const")
    back = G.FromNchwcOp.make([blocked.results[0]], {}, [op.results[0].type])
    rewriter.replace(op, [*new_ops, blocked, back])


# ---------------------------------------------------------------------------------------
# 1. Convs into the blocked layout
# ---------------------------------------------------------------------------------------


def conv_reads_nchw(op: G.ConvOp, block: int) -> bool:
    """Whether `op` is a group-1 conv of an f32 NCHW input with fewer channels than a
    block (the image stem), which conv_nchwc runs without reordering its input."""
    return 0 < _channels(op.X) < block and op.group.value.data == 1


def conv_is_eligible(op: G.ConvOp, block: int) -> bool:
    """Whether `op` has a blocked kernel that pays (see the module doc)."""
    x, y = op.X, op.Y
    if not _blockable(y, block) or G.constant_value(op.W) is None:
        return False
    if any(G.constant_value(b) is None for b in op.B[:1]):
        return False
    if conv_reads_nchw(op, block):
        return True
    if not _blockable(x, block):
        return False
    c, m = _shape(x)[1], _shape(y)[1]
    g = op.group.value.data
    if g == 1:
        return True
    if g == c == m:
        # A depthwise conv does 9 FMAs per element: about what reordering its input in and
        # its output out costs. It pays inside a blocked region, not as one of its own
        # (ShuffleNet's, between channel shuffles).
        return _blocked_source(x) is not None
    return (c // g) % block == 0 and (m // g) % block == 0


@dataclass
class ConvToNchwc(RewritePattern):
    """# conv(x, W, B, Z) -> from_nchwc(conv_nchwc(to_nchwc(x), pack(W), B, to_nchwc(Z)))

    (x itself when it has fewer channels than a block.)"""

    block: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.ConvOp, rewriter: PatternRewriter, /) -> None:
        if not conv_is_eligible(op, self.block):
            return
        new_ops: list[Operation] = []
        plain = conv_reads_nchw(op, self.block)
        x = op.X if plain else _to_blocked(op.X, new_ops, self.block)
        packed = pack_conv_weights(cast(np.ndarray, G.constant_value(op.W)), self.block,
                                         input_blocked=not plain)
        w = G.ConstantOp(packed)
        new_ops.append(w)
        _name(w.output, op.W, "_packed")
        rest = list(op.B[:1])
        if len(op.B) > 1:  # the summand
            rest.append(_to_blocked(op.B[1], new_ops, self.block))
        conv = G.ConvNchwcOp.make([x, w.output, *rest], dict(op.properties))
        _replace_blocked(rewriter, op, new_ops, conv)


# ---------------------------------------------------------------------------------------
# 2. Reorders moving past layout-agnostic ops
# ---------------------------------------------------------------------------------------


def _blocked_constant(c: np.ndarray, channels: int, block: int) -> np.ndarray | None:
    """A constant operand of a 4-D elementwise op, for the op's blocked form: splats stay,
    per-channel constants ([C, 1, 1] and the like) are blocked, anything else: None."""
    if c.ndim > 4:
        return None
    if c.size == 1:
        return c
    full = c.reshape((1,) * (4 - c.ndim) + c.shape)
    if full.shape != (1, channels, 1, 1):
        return None
    return G.to_blocked(full, block)


class ElementwiseThroughReorder(RewritePattern):
    """# f(from_nchwc(a), from_nchwc(b), c) -> from_nchwc(f(a, b, blocked(c)))

    For unary, binary and variadic elementwise ops and clip whose result has the shape
    of a blocked operand (no operand grows by broadcasting); a non-blocked tensor operand of
    that shape is reordered in, per-channel constants are packed.
    """

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, G.UnaryOp | G.BinaryOp | G.VariadicOp | G.ClipOp):
            return
        if isinstance(op, G.CompareOp) or len(_shape(op.results[0])) != 4:
            return
        out = _shape(op.results[0])
        tensors = op.operands[:1] if isinstance(op, G.ClipOp) else op.operands
        block = _region_block([v for v in tensors if _shape(v) == out])
        if block is None or not _blockable(op.results[0], block):
            return
        new_ops: list[Operation] = []
        operands: list[SSAValue] = []
        for i, v in enumerate(op.operands):
            if isinstance(op, G.ClipOp) and i > 0:  # scalar bounds
                operands.append(v)
                continue
            c = G.constant_value(v)
            if c is not None:
                blocked = _blocked_constant(c, out[1], block)
                if blocked is None:
                    return
                if blocked is c:
                    operands.append(v)
                else:
                    k = G.ConstantOp(blocked)
                    new_ops.append(k)
                    operands.append(k.output)
            elif _shape(v) == out:
                operands.append(_to_blocked(v, new_ops, block))
            else:
                return
        _replace_blocked(rewriter, op, new_ops, type(op).make(operands, dict(op.properties)))


class PoolThroughReorder(RewritePattern):
    """# pool(from_nchwc(a)) -> from_nchwc(pool_nchwc(a))"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.MaxPoolOp | G.AveragePoolOp, rewriter: PatternRewriter,
                          /) -> None:
        src = _blocked_source(op.X)
        if src is None or len(_shape(op.X)) != 4:
            return
        cls = G.MaxPoolNchwcOp if isinstance(op, G.MaxPoolOp) else G.AveragePoolNchwcOp
        _replace_blocked(rewriter, op, [], cls.make([src], dict(op.properties)))


class GlobalPoolThroughReorder(RewritePattern):
    """# global_pool(from_nchwc(a)) -> from_nchwc(reduce(a, axes = spatial, keepdims))"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.GlobalAveragePoolOp | G.GlobalMaxPoolOp,
                          rewriter: PatternRewriter, /) -> None:
        src = _blocked_source(op.X)
        if src is None:
            return
        rank = len(_shape(src))
        axes = G.ConstantOp(np.arange(2, rank - 1, dtype=np.int64))
        cls = G.ReduceMeanOp if isinstance(op, G.GlobalAveragePoolOp) else G.ReduceMaxOp
        _replace_blocked(rewriter, op, [axes], cls.make([src, axes.output], {}))


class SliceThroughReorder(RewritePattern):
    """# slice(from_nchwc(a), axes = spatial) -> from_nchwc(slice(a, same axes))

    Spatial axes are the same axes of a blocked tensor (2 and 3 of NCHW and NCHWc), so a
    slice of them only (the subsampled input of a strided 1x1 conv) needs no reorder."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.SliceOp, rewriter: PatternRewriter, /) -> None:
        src = _blocked_source(op.data)
        axes = G.constant_value(op.axes)
        if src is None or axes is None or len(_shape(op.data)) != 4:
            return
        spatial = [int(a) % 4 for a in axes.reshape(-1)]
        if not all(a in (2, 3) for a in spatial):
            return
        new_axes = G.ConstantOp(np.array(spatial, np.int64))
        sub = G.SliceOp.make([src, op.starts, op.ends, new_axes.output, op.steps])
        _replace_blocked(rewriter, op, [new_axes], sub)


class ConcatThroughReorder(RewritePattern):
    """# concat(from_nchwc(a), from_nchwc(b), axis = 1) -> from_nchwc(concat(a, b, axis = 1))

    Whole blocks concatenate along the block axis; inputs in NCHW are reordered in.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.ConcatOp, rewriter: PatternRewriter, /) -> None:
        if len(_shape(op.results[0])) != 4 or op.axis.value.data % 4 != 1:
            return
        block = _region_block(op.inputs)
        if block is None or not all(_blockable(v, block) for v in op.inputs):
            return
        new_ops: list[Operation] = []
        blocked = [_to_blocked(v, new_ops, block) for v in op.inputs]
        concat = G.ConcatOp.make(blocked, {"axis": G.int_attr(1)})
        _replace_blocked(rewriter, op, new_ops, concat)


class BatchNormThroughReorder(RewritePattern):
    """# batch_normalization(from_nchwc(a)) -> from_nchwc(a * s + t), s and t blocked

    A BatchNormalization that did not fold into a preceding conv (DenseNet's, after a
    concat) is a per-channel affine map; as a Mul and an Add it fuses with its successors
    into one elementwise loop nest.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.BatchNormalizationOp, rewriter: PatternRewriter,
                          /) -> None:
        src = _blocked_source(op.X)
        params = [G.constant_value(v) for v in (op.scale, op.B, op.mean, op.var)]
        if src is None or len(_shape(op.X)) != 4 or any(p is None for p in params):
            return
        affine = op.affine(*(cast(np.ndarray, p).astype(np.float64) for p in params))
        c = _shape(op.X)[1]
        block = _shape(src)[-1]
        consts = [G.ConstantOp(G.to_blocked(v.reshape(1, c, 1, 1).astype(np.float32), block))
                  for v in affine]
        mul = G.MulOp.make([src, consts[0].output])
        add = G.AddOp.make([mul.results[0], consts[1].output])
        _replace_blocked(rewriter, op, [*consts, mul], add)


def check_block(block: int) -> None:
    """A ValueError (reported as a bad pass option) unless `block` is a channel count."""
    if block < 1:
        raise ValueError(f"the NCHWc block must be a positive number of channels, got {block}")


def layout_patterns(block: int) -> list[RewritePattern]:
    """The layout rewrites, convs blocked by `block` channels."""
    return [ConvToNchwc(block), ElementwiseThroughReorder(), PoolThroughReorder(),
            GlobalPoolThroughReorder(), SliceThroughReorder(), ConcatThroughReorder(),
            BatchNormThroughReorder()]

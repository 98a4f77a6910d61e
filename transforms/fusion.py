"""Level-2 fusions of `graph-optimize` (onnxruntime's "extended" level): fewer kernels,
fewer intermediate tensors. Each pattern's docstring states its rewrite as a formula.

Weights are folded with numpy at compile time (in float64, stored in the weight's dtype)
into new `graph.constant`s; the old constants die and DCE removes them. A producer is only
rewritten when the matched op is its only user, so no other reader sees a changed value.

`patterns(level)` is what `graph-optimize` imports; `graph-fuse` runs them alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, StringAttr, TensorType, f32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.transforms.dead_code_elimination import region_dce

from infer.dialects import graph as G
from infer.transforms.rewrite import rewrite_module

# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------

_FUSABLE = (G.ConvOp, G.GemmOp, G.MatMulOp)


def _only_user_is(value: SSAValue, user: Operation) -> bool:
    return value.has_one_use() and value.get_user_of_unique_use() is user


def _producer(value: SSAValue, cls: type[Operation] | tuple[type[Operation], ...],
              user: Operation) -> Operation | None:
    """The op of class `cls` defining `value` when `user` is its only reader, else None."""
    owner = value.owner
    if isinstance(owner, cls) and _only_user_is(value, user):
        return owner
    return None


def _plain(op: Operation) -> bool:
    """A conv/gemm/matmul without a fused activation (its result is still linear)."""
    return G.activation_of(op.properties) is None


def _shape(v: SSAValue) -> tuple[int, ...]:
    return tuple(cast(TensorType, v.type).get_shape())


def _per_channel(c: np.ndarray, rank: int, axis: int, n: int) -> np.ndarray | None:
    """`c` as a length-n vector along `axis` when broadcasting it against a rank-`rank`
    tensor with n entries on `axis` varies it along that axis only (and adds no dims)."""
    if c.ndim > rank:
        return None
    shape = (1,) * (rank - c.ndim) + c.shape
    if any(d != 1 for i, d in enumerate(shape) if i != axis) or shape[axis] not in (1, n):
        return None
    return np.broadcast_to(c.reshape(-1).astype(np.float64), (n,))


def _constant(rewriter: PatternRewriter, array: np.ndarray, dtype: np.dtype,
              before: Operation) -> SSAValue:
    op = G.ConstantOp(np.ascontiguousarray(array.astype(dtype)))
    rewriter.insert(op, InsertPoint.before(before))
    return op.output


def _summand(conv: G.ConvOp) -> SSAValue | None:
    """The conv's fused residual summand Z (its 4th operand), if any."""
    return conv.B[1] if len(conv.B) > 1 else None


def _conv_weights(conv: G.ConvOp) -> tuple[np.ndarray, np.ndarray] | None:
    """(W, B) of a conv whose weight and bias (if any) are constants; B zero if absent."""
    w = G.constant_value(conv.W)
    if w is None:
        return None
    if len(conv.B) == 0:
        return w, np.zeros(w.shape[0], w.dtype)
    b = G.constant_value(conv.B[0])
    return None if b is None else (w, b)


def _replace_conv(rewriter: PatternRewriter, matched: Operation, conv: G.ConvOp,
                  w: np.ndarray, b: np.ndarray) -> None:
    """Replace `matched` (the conv's only user) by the conv with weights W and bias B,
    stored in the dtype of the conv's weight; a summand Z is kept as it is."""
    dtype = G.numpy_dtype(cast(TensorType, conv.W.type).element_type)
    wv = _constant(rewriter, w, dtype, matched)
    bv = _constant(rewriter, b, dtype, matched)
    z = _summand(conv)
    new = G.ConvOp.make([conv.X, wv, bv, *([z] if z else [])], dict(conv.properties),
                        [matched.results[0].type])
    rewriter.replace(matched, new)
    rewriter.erase(conv)


def _binary_with_constant(op: Operation, cls: type[Operation] | tuple[type[Operation], ...]
                          ) -> tuple[Operation, np.ndarray] | None:
    """(producer, constant) of `producer op constant` or `constant op producer` where the
    producer (of class `cls`, only read here) has the op's result type (no broadcast grows
    it)."""
    for i in (0, 1):
        prod = _producer(op.operands[i], cls, op)
        c = G.constant_value(op.operands[1 - i])
        if prod is not None and c is not None and op.operands[i].type == op.results[0].type:
            return prod, c
    return None


# ---------------------------------------------------------------------------------------
# Conv + BatchNormalization / Mul / Add → conv
# ---------------------------------------------------------------------------------------


class FoldBatchNormIntoConv(RewritePattern):
    """BN(conv(x, W, B)) = conv(x, W * a, (B - mean) * a + beta),
    a = scale / sqrt(var + eps), per output channel."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.BatchNormalizationOp, rewriter: PatternRewriter) -> None:
        conv = _producer(op.X, G.ConvOp, op)
        # BN scales Z too: (conv + Z) * a != conv' + Z.
        if not isinstance(conv, G.ConvOp) or not _plain(conv) or _summand(conv):
            return
        wb = _conv_weights(conv)
        params = [G.constant_value(v) for v in (op.scale, op.B, op.mean, op.var)]
        if wb is None or any(p is None for p in params):
            return
        a, shift = op.affine(*(cast(np.ndarray, p).astype(np.float64) for p in params))
        w, b = wb
        new_w = w.astype(np.float64) * a.reshape((-1,) + (1,) * (w.ndim - 1))
        _replace_conv(rewriter, op, conv, new_w, b.astype(np.float64) * a + shift)


class FoldScaleIntoConv(RewritePattern):
    """conv(x, W, B) * s = conv(x, W * s, B * s) for s constant per output channel."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.MulOp, rewriter: PatternRewriter) -> None:
        match = _binary_with_constant(op, G.ConvOp)
        if match is None or not _plain(match[0]) or _summand(cast(G.ConvOp, match[0])):
            return  # a summand Z would be scaled too
        conv, c = cast(G.ConvOp, match[0]), match[1]
        wb = _conv_weights(conv)
        if wb is None:
            return
        w, b = wb
        s = _per_channel(c, len(_shape(op.results[0])), 1, w.shape[0])
        if s is None:
            return
        new_w = w.astype(np.float64) * s.reshape((-1,) + (1,) * (w.ndim - 1))
        _replace_conv(rewriter, op, conv, new_w, b.astype(np.float64) * s)


class FoldBiasIntoConv(RewritePattern):
    """conv(x, W, B) + c = conv(x, W, B + c); conv(x, W, B) - c = conv(x, W, B - c),
    for c constant per output channel (a summand Z stays: it commutes with c)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.AddOp | G.SubOp, rewriter: PatternRewriter) -> None:
        if isinstance(op, G.SubOp):
            conv = _producer(op.A, G.ConvOp, op)
            c = G.constant_value(op.B)
            if conv is None or c is None or op.A.type != op.C.type:
                return
            c = -c.astype(np.float64)
        else:
            match = _binary_with_constant(op, G.ConvOp)
            if match is None:
                return
            conv, c = match
        conv = cast(G.ConvOp, conv)
        if not _plain(conv):
            return
        wb = _conv_weights(conv)
        if wb is None:
            return
        w, b = wb
        bias = _per_channel(c, len(_shape(op.results[0])), 1, w.shape[0])
        if bias is None:
            return
        _replace_conv(rewriter, op, conv, w, b.astype(np.float64) + bias)


# ---------------------------------------------------------------------------------------
# Residual Add → summand Z of conv
# ---------------------------------------------------------------------------------------


def _residual_conv(v: SSAValue, user: Operation) -> G.ConvOp | None:
    """The conv defining `v` if `user` is its only reader and Z can still be fused into it:
    no activation (act(conv) + z is not act(conv + z)) and no summand yet."""
    conv = _producer(v, G.ConvOp, user)
    if isinstance(conv, G.ConvOp) and _plain(conv) and _summand(conv) is None:
        return conv
    return None


class FuseResidualAdd(RewritePattern):
    """conv(x, W, B) + z = conv(x, W, B, z) (B = 0 if absent), z + conv likewise, and a
    two-input Sum too, for z of exactly the conv's type: the conv's rows start from B + z
    instead of a separate Add pass. A following activation then fuses into the conv
    (ResNet's relu(conv(x) + shortcut) becomes one kernel).

    When both operands qualify, the later-defined conv takes the earlier one's result as z
    (deterministic; the new conv sits at the Add, which every operand dominates)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not (isinstance(op, G.AddOp) or (isinstance(op, G.SumOp) and len(op.operands) == 2)):
            return
        out_t = op.results[0].type
        if any(v.type != out_t for v in op.operands):
            return  # broadcasting: Z must have Y's shape
        convs = [(c, op.operands[1 - i]) for i in (0, 1)
                 if (c := _residual_conv(op.operands[i], op)) is not None]
        if not convs:
            return
        if len(convs) == 2 and convs[1][0].is_before_in_block(convs[0][0]):
            convs.reverse()
        conv, z = convs[-1]
        operands = list(conv.operands)
        if len(conv.B) == 0:
            w_t = cast(TensorType, conv.W.type)
            m = w_t.get_shape()[0]
            if m < 0:
                return  # no zero bias of unknown length
            dtype = G.numpy_dtype(w_t.element_type)
            operands.append(_constant(rewriter, np.zeros(m), dtype, op))
        new = G.ConvOp.make([*operands, z], dict(conv.properties), [out_t])
        rewriter.replace(op, new)
        rewriter.erase(conv)


# ---------------------------------------------------------------------------------------
# MatMul / Gemm + bias → Gemm
# ---------------------------------------------------------------------------------------


def _gemm_bias_shape_ok(c: SSAValue, out: SSAValue) -> bool:
    """C broadcasts to the (M, N) result without growing it (Gemm's unidirectional rule)."""
    cs, (m, n) = _shape(c), _shape(out)
    if len(cs) > 2:
        return False
    full = (1,) * (2 - len(cs)) + cs
    return full[0] in (1, m) and full[1] in (1, n)


class MatMulAddToGemm(RewritePattern):
    """matmul(A, B) + C = gemm(A, B, C) for 2-D A, B and C broadcast over (M, N)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.AddOp, rewriter: PatternRewriter) -> None:
        for i in (0, 1):
            mm = _producer(op.operands[i], G.MatMulOp, op)
            c = op.operands[1 - i]
            if (
                isinstance(mm, G.MatMulOp)
                and _plain(mm)
                and len(_shape(mm.A)) == 2
                and len(_shape(mm.B)) == 2
                and mm.Y.type == op.C.type
                and _gemm_bias_shape_ok(c, op.C)
            ):
                rewriter.replace(op, G.GemmOp.make([mm.A, mm.B, c], {}, [op.C.type]))
                rewriter.erase(mm)
                return


class FoldBiasIntoGemm(RewritePattern):
    """gemm(A, B) + c = gemm(A, B, c);
    gemm(A, B, C; beta) + c = gemm(A, B, beta * C + c; beta = 1) for constants C, c."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.AddOp, rewriter: PatternRewriter) -> None:
        for i in (0, 1):
            gemm = _producer(op.operands[i], G.GemmOp, op)
            c = op.operands[1 - i]
            if not (isinstance(gemm, G.GemmOp) and _plain(gemm) and gemm.Y.type == op.C.type
                    and _gemm_bias_shape_ok(c, op.C)):
                continue
            props = dict(gemm.properties)
            props["beta"] = G.float_attr(1.0)
            if len(gemm.C) == 0:
                bias = c
            else:
                old, new = G.constant_value(gemm.C[0]), G.constant_value(c)
                if old is None or new is None:
                    continue
                beta = gemm.beta.value.data
                folded = beta * old.astype(np.float64) + new.astype(np.float64)
                bias = _constant(rewriter, folded, old.dtype, op)
            new_op = G.GemmOp.make([gemm.A, gemm.B, bias], props, [op.C.type])
            rewriter.replace(op, new_op)
            rewriter.erase(gemm)
            return


# ---------------------------------------------------------------------------------------
# Activation → epilogue of conv / gemm / matmul
# ---------------------------------------------------------------------------------------


def _scalar(v: SSAValue) -> float | None:
    c = G.constant_value(v)
    return None if c is None or c.size != 1 else float(c.reshape(-1)[0])


def _activation(op: Operation) -> tuple[str, list[float]] | None:
    """The `graph.ACTIVATIONS` entry computing `op`, or None: Clip(0, inf) is relu, and a
    clip with an infinite bound is not fused (xDSL would print an infinite f32 array
    entry as an integer)."""
    act = G.activation_computed_by(op)
    if act is None or act[0] != "clip":
        return act
    lo, hi = act[1]
    if lo == 0.0 and hi == float("inf"):
        return "relu", []
    return act if np.isfinite(lo) and np.isfinite(hi) else None


class FuseActivation(RewritePattern):
    """act(conv(x, W, B)) = conv(x, W, B; activation = act), likewise gemm and matmul:
    the activation runs as the kernel's epilogue on each finished output row."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        act = _activation(op)
        if act is None:
            return
        prod = _producer(op.operands[0], _FUSABLE, op)
        if prod is None or not _plain(prod):
            return
        name, params = act
        props: dict[str, Attribute] = dict(prod.properties)
        props["activation"] = StringAttr(name)
        if params:
            props["activation_params"] = DenseArrayBase.from_list(f32, params)
        cls = cast(type[G.GraphOp], type(prod))
        rewriter.replace(op, cls.make(list(prod.operands), props, [op.results[0].type]))
        rewriter.erase(prod)


# ---------------------------------------------------------------------------------------
# Pad → the pads of conv / pool
# ---------------------------------------------------------------------------------------


def _spatial_pads(pad: G.PadOp, fill_ok: float) -> list[int] | None:
    """The pad's [begin..., end...] over the spatial dims when it pads only those, by
    non-negative amounts, in constant mode with fill `fill_ok`."""
    pads = G.constant_value(pad.pads)
    if pads is None or pad.axes or pad.mode.data != "constant":
        return None
    if _scalar(pad.constant_value) != fill_ok:
        return None
    p = [int(v) for v in pads.reshape(-1)]
    r = len(p) // 2
    if p[0] or p[1] or p[r] or p[r + 1] or min(p) < 0:
        return None
    return p[2:r] + p[r + 2 :]


def _added_pads(op: Operation, extra: Sequence[int]) -> DenseArrayBase:
    old = G.get_ints(op.properties, "pads") or [0] * len(extra)
    return G.ints_attr([a + b for a, b in zip(old, extra, strict=True)])


class FoldPadIntoConv(RewritePattern):
    """conv(pad(x, p, 0)) = conv(x; pads += p) when p pads only spatial dims with zeros."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.ConvOp, rewriter: PatternRewriter) -> None:
        pad = op.X.owner
        if not isinstance(pad, G.PadOp):
            return
        extra = _spatial_pads(pad, 0.0)
        if extra is None:
            return
        props = dict(op.properties)
        props["pads"] = _added_pads(op, extra)
        rewriter.replace(op, G.ConvOp.make([pad.data, *op.operands[1:]], props, [op.Y.type]))


class SubsamplePointwiseConv(RewritePattern):
    """conv(x; 1x1 kernel, strides s, no pads) = conv(slice(x, steps = s); strides 1)

    A strided 1x1 conv reads one input pixel in every s along each spatial axis: copied
    out first (1/s^2 of x), it runs as a pointwise conv over contiguous rows, the GEMM and
    flat-row kernels. ResNet's downsampling convs on Zen 3, one thread: 0.83-0.94x
    onnxruntime's time where the strided kernel took 1.10-1.34x."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.ConvOp, rewriter: PatternRewriter) -> None:
        kernel = _shape(op.W)[2:]
        strides = list(op.strides.get_values()) if op.strides else []
        if (not kernel or any(k != 1 for k in kernel) or all(s == 1 for s in strides)
                or (op.pads and any(op.pads.get_values()))):
            return
        rank = len(kernel)
        bounds = ([0] * rank, [np.iinfo(np.int64).max] * rank, list(range(2, 2 + rank)),
                  strides)
        consts = [G.ConstantOp(np.array(v, np.int64)) for v in bounds]
        sub = G.SliceOp.make([op.X, *(c.output for c in consts)])
        if op.X.name_hint is not None:
            sub.results[0].name_hint = op.X.name_hint + "_subsampled"
            for c, what in zip(consts, ("starts", "ends", "axes", "steps"), strict=True):
                c.output.name_hint = f"{op.X.name_hint}_subsampled_{what}"
        props = dict(op.properties)
        del props["strides"]
        rewriter.replace(op, [*consts, sub, G.ConvOp.make([sub.results[0], *op.operands[1:]],
                                                          props, [op.Y.type])])


class FoldPadIntoPool(RewritePattern):
    """max_pool(pad(x, p, -inf)) = max_pool(x; pads += p) (padding never wins a max);
    average_pool(pad(x, p, 0); count_include_pad) = average_pool(x; pads += p,
    count_include_pad = 1) when the pool had no pads of its own or counted them too:
    the padded zeros are counted either way (floor mode only, where no window passes
    the end padding)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.MaxPoolOp | G.AveragePoolOp,
                          rewriter: PatternRewriter) -> None:
        pad = op.X.owner
        if not isinstance(pad, G.PadOp):
            return
        props = dict(op.properties)
        if isinstance(op, G.MaxPoolOp):
            extra = _spatial_pads(pad, float("-inf"))
        else:
            if op.ceil_mode.value.data:
                return
            own = any(G.get_ints(props, "pads") or [])
            if own and not op.count_include_pad.value.data:
                return
            extra = _spatial_pads(pad, 0.0)
            props["count_include_pad"] = G.int_attr(1)
        if extra is None:
            return
        props["pads"] = _added_pads(op, extra)
        rewriter.replace(op, type(op).make([pad.data], props, [op.Y.type]))


# ---------------------------------------------------------------------------------------
# ConvTranspose whose taps do not overlap → conv 1x1 + DepthToSpace
# ---------------------------------------------------------------------------------------


class ConvTransposeAsConv(RewritePattern):
    """A 2-D ConvTranspose whose k×k kernel is its stride (no pads, dilation or groups: the
    usual 2× upsampling) writes each output once:
        y[n, m, h·k + i, w·k + j] = B[m] + Σ_c x[n, c, h, w] · W[c, m, i, j]
                                  = DepthToSpace_CRD(conv1x1(x, W', B'), k)
    with W'[m·k² + i·k + j, c] = W[c, m, i, j] and B' = B repeated k² times: one dense conv
    (the conv kernels, blocked at level 3) and a copy, for a gather over every tap."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: G.ConvTransposeOp, rewriter: PatternRewriter) -> None:
        w = G.constant_value(op.W)
        if w is None or w.ndim != 4 or cast(TensorType, op.X.type).get_num_dims() != 4:
            return
        strides, dilations, pads, group = G.ConvTransposeOp.attrs(op.properties, 2)
        k = w.shape[2]
        if (group != 1 or w.shape[3] != k or strides != [k, k] or dilations != [1, 1]
                or any(pads)):
            return
        c, m = w.shape[0], w.shape[1]
        b = G.constant_value(op.B[0]) if op.B else np.zeros(m, w.dtype)
        if b is None:
            return
        dtype = G.numpy_dtype(cast(TensorType, op.W.type).element_type)
        wv = _constant(rewriter, w.transpose(1, 2, 3, 0).reshape(m * k * k, c, 1, 1), dtype, op)
        bv = _constant(rewriter, np.repeat(b.reshape(-1), k * k), dtype, op)
        conv = G.ConvOp.make([op.X, wv, bv], {})
        if k == 1:
            rewriter.replace(op, conv)
            return
        moved = G.DepthToSpaceOp.make([conv.results[0]], {"blocksize": G.int_attr(k),
                                                         "mode": StringAttr("CRD")},
                                      [op.Y.type])
        rewriter.replace(op, [conv, moved])


# ---------------------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------------------


def patterns(level: int) -> list[RewritePattern]:
    """The fusion patterns of optimization level `level` (level 2 and up)."""
    if level < 2:
        return []
    return [
        FoldPadIntoConv(),
        SubsamplePointwiseConv(),  # after FoldPadIntoConv: a padded conv is not pointwise
        FoldPadIntoPool(),
        FoldBatchNormIntoConv(),
        FoldScaleIntoConv(),
        FoldBiasIntoConv(),
        FuseResidualAdd(),  # after FoldBiasIntoConv: a constant bias is better folded
        MatMulAddToGemm(),
        FoldBiasIntoGemm(),
        FuseActivation(),
        ConvTransposeAsConv(),
    ]


@dataclass(frozen=True)
class GraphFusePass(ModulePass):
    """Apply the level-2 fusions alone (`graph-optimize{level=2}` runs them with the rest),
    then drop what they left dead (old weights, pads)."""

    name = "graph-fuse"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_module(op, patterns(2))
        region_dce(op.body)

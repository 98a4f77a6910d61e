"""qnn-fold-qdq: QDQ models' DequantizeLinear → float op → QuantizeLinear as qnn ops.

A QDQ model (onnxruntime's QuantFormat.QDQ, PyTorch's and TensorFlow's exporters) states
every quantized op in float between dequantizes of its 8-bit operands and a quantize of
its result. Where the float op and its parameters fit a qnn op, the three become it, and
the product is computed in integers (as onnxruntime's own QDQ fusion does):

    Q(conv(DQ(x), DQ(w), DQ(b)))       qnn.requantize(qnn.conv(x, w) + b, sx * sw, sy, zy)
    Q(matmul(DQ(a), DQ(b)))            qnn.requantize(qnn.matmul(a, b), sa * sb, sy, zy)
    Q(gemm(DQ(a), DQ(b), DQ(c)))       the same with transposes and the int32 bias c
    Q(DQ(a) + DQ(b)), Q(DQ(a) * DQ(b)) qnn.add, qnn.mul
    Q(global_average_pool(DQ(x)))      qnn.global_avg_pool
    Q(average_pool(DQ(x)))             qnn.avg_pool
    Q(max_pool(DQ(x))), Q(concat(DQ(x_i)...)), Q(reshape(DQ(x))), ... with one scale and
    zero point throughout:             the same op on the 8-bit values
    Q(concat(DQ(x_i)...)), other scales qnn.concat: each input requantized, Q(DQ(x_i))
    Q(relu(F)), Q(clip(F, lo, hi))     F's qnn form clamped to [Q(0), max], [Q(lo), Q(hi)]

The clamps are exact because Q is monotone: Q(max(v, 0)) = max(Q(v), Q(0)); max_pool and
concat and data movement (flatten, reshape, transpose, squeeze, unsqueeze) because
Q(DQ(q)) = q for one scale and zero point, and qnn.concat because Q and DQ act per
element. A bias folds only when it is
int32 with zero point 0 and the scale sx * sw (in f32) that the int32 sum needs. The
scales are f32 and the zero points 8-bit, each per tensor, except w's (conv) and b's
(matmul, gemm), which may be per output channel. Anything else stays float: correct,
only slower.

Then the QuantizeLinear and DequantizeLinear left, at the float boundaries (the model's
input and output, an op that stayed float), become qnn.quantize (f32 to 8-bit) and
qnn.dequantize (8-bit, or int32 with zero point 0, to f32) where their scale is a positive
f32 constant and their zero point a constant (0 where absent), per tensor or along an
axis; blocked or run-time parameters stay graph ops.

`graph-optimize` runs this first at level >= 1 (before folding turns the dequantized
weights into float constants); the compile pipeline runs it before qnn-canonicalize.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, f32, i32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from infer.dialects import graph as G
from infer.dialects import qnn as Q
from infer.dialects.graph.build import OpList
from infer.transforms.rewrite import rewrite_module


@dataclass
class _Quantized:
    """The operands of a dequantize (or a quantize's parameters): q, scale, zero point,
    and the axis a 1-D scale lies along (None per tensor)."""

    q: SSAValue | None
    scale: SSAValue
    zero_point: SSAValue | None
    axis: int | None


def _element(v: SSAValue) -> object:
    return cast(TensorType, v.type).element_type


def _shape(v: SSAValue) -> list[int]:
    return list(cast(TensorType, v.type).get_shape())


def _params(op: G.QuantizeLinearOp | G.DequantizeLinearOp, x: SSAValue) -> _Quantized | None:
    """Per tensor or per axis f32 parameters of a quantize or dequantize, else None; None
    too for a constant scale that is not positive, which no qnn op takes."""
    if _element(op.scale) != f32 or op.properties.get("to") not in (None, f32, *Q.EIGHT_BIT):
        return None
    scale = G.constant_value(op.scale)
    if scale is not None and not np.all(scale > 0):
        return None
    zp = op.zero_point[0] if op.zero_point else None
    try:
        kind, axis = op.layout(op.properties, _shape(x), _shape(op.scale), "scale", False)
        if zp is not None and op.layout(op.properties, _shape(x), _shape(zp), "zero point",
                                        False) != (kind, axis):
            return None
    except ValueError:
        return None
    if kind == "block":
        return None
    return _Quantized(op.x, op.scale, zp, axis if kind == "axis" else None)


def _dequantized(v: SSAValue, of: tuple[object, ...] = Q.EIGHT_BIT) -> _Quantized | None:
    """v's dequantize when v is one of q in `of` (8-bit by default) to f32."""
    op = v.owner
    if not isinstance(op, G.DequantizeLinearOp) or _element(op.x) not in of:
        return None
    if op.properties.get("to") is not None or _element(v) != f32:
        return None
    return _params(op, op.x)


def _zero_point(ops: OpList, p: _Quantized) -> SSAValue:
    """p's zero point, or 0 of q's type where the dequantize has none."""
    if p.zero_point is not None:
        return p.zero_point
    return ops.const(np.zeros((), G.numpy_dtype(_element(cast(SSAValue, p.q)))))


def _sole_user(v: SSAValue, user: Operation) -> bool:
    return v.has_one_use() and v.get_user_of_unique_use() is user


def _per_tensor(*ps: _Quantized | None) -> bool:
    return all(p is not None and p.axis is None for p in ps)


def _same(a: _Quantized, b: _Quantized) -> bool:
    """Whether a and b are one constant scale and zero point."""
    values = [G.constant_value(v) if v is not None else np.zeros(())
              for v in (a.scale, b.scale, a.zero_point, b.zero_point)]
    if any(v is None for v in values):
        return False
    sa, sb, za, zb = cast(list[np.ndarray], values)
    return sa.size == sb.size == za.size == zb.size == 1 and float(sa) == float(sb) and (
        int(za) == int(zb))


class _Fold:
    """Builds the integer form of one Q(F(DQ...)) match."""

    def __init__(self, q: G.QuantizeLinearOp, out: _Quantized) -> None:
        self.q, self.out, self.ops = q, out, OpList()
        self.to = q.properties["to"]

    def zero_point(self) -> SSAValue:
        if self.out.zero_point is not None:
            return self.out.zero_point
        return self.ops.const(np.zeros((), G.numpy_dtype(self.to)))

    def requantize(self, acc: SSAValue, scale: SSAValue, axis: int) -> SSAValue:
        return self.ops.add(Q.RequantizeOp, acc, scale, self.out.scale, self.zero_point(),
                            axis=axis)


def _bias(c: SSAValue, scale: np.ndarray | None) -> SSAValue | None:
    """The int32 bias c stands for, when its dequantize has zero point 0 and the scale
    `scale` (per tensor or per output channel: the last axis of a matmul, a conv's
    channels) in f32, else None."""
    p = _dequantized(c, (i32,))
    have = G.constant_value(p.scale) if p is not None else None
    if p is None or scale is None or have is None:
        return None
    want, have = scale.ravel(), have.astype(np.float32).ravel()
    if have.size > 1 and (p.axis != len(_shape(c)) - 1 or have.size != want.size):
        # per channel only along the bias's last axis, the output channels
        if not np.all(have == have[0]):
            return None
        have = have[:1]
    zp = G.constant_value(p.zero_point) if p.zero_point is not None else np.zeros(())
    if zp is None or np.any(zp != 0) or not np.array_equal(np.broadcast_to(have, want.shape),
                                                           want):
        return None
    return p.q


def _product_scale(a: _Quantized, b: _Quantized) -> np.ndarray | None:
    """a.scale * b.scale in f32 when both are constants (a bias must have this scale)."""
    sa, sb = G.constant_value(a.scale), G.constant_value(b.scale)
    if sa is None or sb is None:
        return None
    return sa.astype(np.float32) * sb.astype(np.float32)


def _conv(f: _Fold, op: G.ConvOp) -> SSAValue | None:
    x, w = _dequantized(op.X), _dequantized(op.W)
    if not _per_tensor(x) or w is None or w.axis not in (None, 0) or len(op.B) > 1:
        return None
    assert x is not None
    ops = f.ops
    acc = ops.add(Q.ConvOp, cast(SSAValue, x.q), cast(SSAValue, w.q), _zero_point(ops, x),
                  _zero_point(ops, w), **{k: v for k, v in op.properties.items()
                                          if k in ("strides", "pads", "dilations", "group")})
    if op.B:
        bias = _bias(op.B[0], _product_scale(x, w))
        if bias is None:
            return None
        rank = len(_shape(op.X))
        acc = ops.add(G.AddOp, acc, ops.add(G.ReshapeOp, bias, ops.const(
            np.array([-1] + [1] * (rank - 2)))))
    return f.requantize(acc, ops.add(G.MulOp, x.scale, w.scale), 1)


def _matmul(f: _Fold, a: SSAValue, b: SSAValue, trans_a: bool = False, trans_b: bool = False,
            c: SSAValue | None = None) -> SSAValue | None:
    pa, pb = _dequantized(a), _dequantized(b)
    if not _per_tensor(pa) or pb is None or len(_shape(b)) != 2 and (
            trans_b or c is not None):
        return None
    assert pa is not None
    rank_b = len(_shape(b))
    if pb.axis is not None and (rank_b < 2 or pb.axis != (rank_b - 2 if trans_b
                                                          else rank_b - 1)):
        return None  # b's parameters are along K, not per column
    ops = f.ops
    qa, qb = cast(SSAValue, pa.q), cast(SSAValue, pb.q)
    if trans_a:
        qa = ops.add(G.TransposeOp, qa, perm=[1, 0])
    if trans_b:
        qb = ops.add(G.TransposeOp, qb, perm=[1, 0])
    acc = ops.add(Q.MatMulOp, qa, qb, _zero_point(ops, pa), _zero_point(ops, pb))
    if c is not None:
        bias = _bias(c, _product_scale(pa, pb))
        if bias is None:
            return None
        acc = ops.add(G.AddOp, acc, bias)
    return f.requantize(acc, ops.add(G.MulOp, pa.scale, pb.scale), -1)


def _binary(f: _Fold, op: G.AddOp | G.MulOp) -> SSAValue | None:
    a, b = _dequantized(op.operands[0]), _dequantized(op.operands[1])
    if not _per_tensor(a, b):
        return None
    assert a is not None and b is not None
    cls = Q.AddOp if isinstance(op, G.AddOp) else Q.MulOp
    ops = f.ops
    return ops.add(cls, cast(SSAValue, a.q), a.scale, _zero_point(ops, a), cast(SSAValue, b.q),
                   b.scale, _zero_point(ops, b), f.out.scale, f.zero_point())


def _pool(f: _Fold, op: G.GlobalAveragePoolOp | G.AveragePoolOp) -> SSAValue | None:
    x = _dequantized(op.operands[0])
    if not _per_tensor(x) or any(d < 0 for d in _shape(op.operands[0])[2:]):
        return None
    assert x is not None
    ops = f.ops
    cls = Q.GlobalAvgPoolOp if isinstance(op, G.GlobalAveragePoolOp) else Q.AvgPoolOp
    return ops.add(cls, cast(SSAValue, x.q), x.scale, _zero_point(ops, x), f.out.scale,
                   f.zero_point(), **dict(op.properties))


def _unchanged(f: _Fold, op: Operation) -> SSAValue | None:
    """`op` (a max pool or data movement) on the 8-bit values, when its float operands
    (all of concat's, the first of the others) and its result share one constant scale
    and zero point; the other operands (shapes, permutations) are kept."""
    floats = len(op.operands) if isinstance(op, G.ConcatOp) else 1
    ins = [_dequantized(v) for v in op.operands[:floats]]
    if not all(p is not None and _same(p, f.out) and _element(cast(SSAValue, p.q)) == f.to
               for p in ins):
        return None
    qs = [cast(SSAValue, cast(_Quantized, p).q) for p in ins]
    return f.ops.add(type(op), *qs, *op.operands[floats:], **dict(op.properties))


def _concat(f: _Fold, op: G.ConcatOp) -> SSAValue | None:
    """qnn.concat of the 8-bit inputs in scales or zero points other than the result's:
    each requantized, Q(DQ(x)), as concat(Q(DQ(x_i))...) = Q(concat(DQ(x_i)...)) (Q and
    DQ act per element and concat only moves them)."""
    ins = [_dequantized(v) for v in op.operands]
    if not all(p is not None and p.axis is None for p in ins) or f.out.axis is not None:
        return None
    ps = cast(list[_Quantized], ins)
    triples = [v for p in ps for v in (cast(SSAValue, p.q), p.scale, _zero_point(f.ops, p))]
    return f.ops.add(Q.ConcatOp, *triples, f.out.scale, f.zero_point(), **dict(op.properties))


# ops that commute with a monotone Q(DQ(.)) of one scale and zero point
_UNCHANGED = (G.MaxPoolOp, G.ConcatOp, G.FlattenOp, G.ReshapeOp, G.TransposeOp,
              G.SqueezeOp, G.UnsqueezeOp)


def _integer_form(f: _Fold, op: Operation) -> SSAValue | None:
    if isinstance(op, G.ConvOp) and G.activation_of(op.properties) is None:
        return _conv(f, op)
    if isinstance(op, G.MatMulOp):
        return _matmul(f, op.A, op.B)
    if isinstance(op, G.GemmOp) and G.activation_of(op.properties) is None and (
            op.alpha.value.data == 1.0 and op.beta.value.data == 1.0):
        return _matmul(f, op.A, op.B, bool(op.transA.value.data), bool(op.transB.value.data),
                       op.C[0] if op.C else None)
    if isinstance(op, G.AddOp | G.MulOp):
        return _binary(f, op)
    if isinstance(op, G.GlobalAveragePoolOp | G.AveragePoolOp):
        return _pool(f, op)
    if isinstance(op, _UNCHANGED):
        same = _unchanged(f, op)
        return _concat(f, op) if same is None and isinstance(op, G.ConcatOp) else same
    return None


def _clamp_bounds(f: _Fold, act: Operation) -> tuple[float, float] | None:
    """The real bounds of a Relu or constant Clip between the float op and the quantize."""
    if isinstance(act, G.ReluOp):
        return 0.0, np.inf
    lo, hi = (G.constant_value(v) for v in (act.operands[1], act.operands[2]))
    if lo is None or hi is None or lo.size != 1 or hi.size != 1 or np.isnan(lo) or (
            np.isnan(hi)):
        return None
    return float(lo), float(hi)


def _clamped(f: _Fold, y: SSAValue, bounds: tuple[float, float]) -> SSAValue | None:
    """clip(y, Q(lo), Q(hi)): Q by graph.quantize_linear's own formula (numpy); an
    infinite bound is the type's end."""
    scale = G.constant_value(f.out.scale)
    zp = G.constant_value(f.out.zero_point) if f.out.zero_point is not None else None
    if scale is None or (f.out.zero_point is not None and zp is None):
        return None
    ends = G.QUANTIZED_RANGES[f.to]

    def quantized(bound: float, end: int) -> np.ndarray:
        if np.isinf(bound):
            return np.array(end, G.numpy_dtype(f.to))
        with np.errstate(over="ignore"):  # a bound past the type's range saturates
            return f.q.numpy(np.array(bound, np.float32), scale, zp)

    return f.ops.add(G.ClipOp, y, f.ops.const(quantized(bounds[0], ends[0])),
                     f.ops.const(quantized(bounds[1], ends[1])))


class FoldQdq(RewritePattern):
    """Q(act?(F(DQ(x), ...))) -> the qnn form of F, clamped by act (see the module)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, q: G.QuantizeLinearOp, rewriter: PatternRewriter) -> None:
        out = _params(q, q.x)
        if out is None or q.properties["to"] not in Q.EIGHT_BIT or out.axis is not None:
            return
        f = _Fold(q, out)
        producer, bounds = q.x.owner, None
        if isinstance(producer, G.ReluOp | G.ClipOp) and _sole_user(q.x, q):
            bounds = _clamp_bounds(f, producer)
            if bounds is None:
                return
            inner = producer.operands[0]
            if not _sole_user(inner, producer):
                return
            producer = inner.owner
            anchor = inner
        else:
            anchor = q.x
        if not isinstance(producer, Operation) or not _sole_user(anchor, q if bounds is None
                                                                   else q.x.owner):
            return
        y = _integer_form(f, producer)
        if y is not None and bounds is not None:
            y = _clamped(f, y, bounds)
        if y is None:  # the ops built so far use the graph's values: unlink them
            for built in f.ops:
                built.drop_all_references()
            return
        rewriter.insert(list(f.ops), InsertPoint.before(q))
        y.name_hint = q.y.name_hint
        rewriter.replace(q, [], [y])


def _constant_params(op: G.QuantizeLinearOp | G.DequantizeLinearOp) -> _Quantized | None:
    """op's parameters when its scale is a positive f32 constant and its zero point a
    constant (or absent), per tensor or along an axis."""
    p = _params(op, op.x)
    if p is None or G.constant_value(op.scale) is None or (
            p.zero_point is not None and G.constant_value(p.zero_point) is None):
        return None
    return p


class QdqAsQnn(RewritePattern):
    """A QuantizeLinear or DequantizeLinear left at a float boundary, whose parameters are
    constants per tensor or along an axis: qnn.quantize (f32 to 8-bit), qnn.dequantize
    (8-bit or int32 with zero point 0, to f32)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, G.QuantizeLinearOp):
            of = op.properties["to"]
            if of not in Q.EIGHT_BIT or _element(op.x) != f32:
                return
            cls: type[G.GraphOp] = Q.QuantizeOp
        elif isinstance(op, G.DequantizeLinearOp):
            of = _element(op.x)
            if of not in (*Q.EIGHT_BIT, i32) or _element(op.y) != f32:
                return
            cls = Q.DequantizeOp
        else:
            return
        p = _constant_params(op)
        if p is None:
            return
        ops = OpList()
        zero_point = (p.zero_point if p.zero_point is not None
                      else ops.const(np.zeros((), G.numpy_dtype(of))))
        if of == i32 and np.any(cast(np.ndarray, G.constant_value(zero_point)) != 0):
            return
        y = ops.add(cls, op.x, op.scale, zero_point,
                    **({} if p.axis is None else {"axis": p.axis}))
        y.name_hint = op.results[0].name_hint
        rewriter.insert(list(ops), InsertPoint.before(op))
        rewriter.replace(op, [], [y])


def fold_qdq(module: ModuleOp) -> bool:
    """Fold every QDQ pattern of `module` that fits a qnn op, then make qnn ops of the
    quantizes and dequantizes left at the float boundaries; whether anything changed."""
    folded = rewrite_module(module, [FoldQdq()])
    return rewrite_module(module, [QdqAsQnn()]) or folded


@dataclass(frozen=True)
class QnnFoldQdqPass(ModulePass):
    name = "qnn-fold-qdq"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fold_qdq(op)

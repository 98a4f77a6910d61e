"""Lowerings of the indexing ops (gathers, scatters, one-hot, triangular masks, depth and
space moves): one loop nest over the result (or, for scatters, over the updates after a
copy of data), each element's source or destination computed from the loop indices.

Index values read from tensors are checked against their dims at run time before any
access (`check_indices`), negative ones wrapped as ONNX says. Scatters apply their
updates in row-major order, so a duplicate index keeps the last update as ONNX's
reference does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, TensorType, i1, i64
from xdsl.ir import Attribute, SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.operands import shape_entries, to_index
from infer.lowering.loop_builder import (
    Index,
    LoopBuilder,
    is_unsigned,
    storage_type,
)
from infer.lowering.runtime_checks import check_indices


def _wrapped(b: LoopBuilder, i: Dim, n: Dim) -> Index:
    """Index i counted from the end of a dim of size n when negative."""
    neg = b.cmpi("slt", b.idx(i), b.idx(0))
    return Index(b, b.select(neg, b.idx(i + n), b.idx(i)))


def _rem(i: Dim, n: int | Dim) -> Dim:
    """i mod n for i >= 0."""
    return i - (i // n) * n


def _scalar_index(s: Lowering, op: graph.GraphOp, ins: list[SSAValue], i: int) -> Dim:
    """Scalar operand i (any integer or float type, rank 0 or 1) as a dim: an int when
    constant, else read from its buffer (a float truncated, as ONNX's reference casts)."""
    value = graph.constant_value(op.operands[i])
    if value is not None:
        return int(value.reshape(-1)[0])
    t = cast(TensorType, op.operands[i].type)
    return _as_index(s.b, s.b.load(ins[i], [0] * len(t.get_shape())), t.element_type)


def _as_index(b: LoopBuilder, v: SSAValue, element: Attribute) -> Index:
    """A number of any type as an `index`: floats truncated (as ONNX's reference casts),
    unsigned integers zero-extended (a u64 past i64's range becomes negative)."""
    if not isinstance(element, IntegerType):
        v = b.insert(arith.FPToSIOp(v, i64)).results[0]
    elif is_unsigned(element) and element.width.data < 64:
        v = b.insert(arith.ExtUIOp(v, i64)).results[0]
    return to_index(b, v)


def _combine(b: LoopBuilder, reduction: str, old: SSAValue, new: SSAValue, unsigned: bool
             ) -> SSAValue:
    if old.type == i1:  # bools as numpy combines them: add and max are or, mul and min and
        op = arith.OrIOp if reduction in ("add", "max") else arith.AndIOp
        return b.insert(op(old, new)).results[0]
    if reduction == "add":
        return b.add(old, new)
    if reduction == "mul":
        return b.mul(old, new)
    if reduction == "max":
        return b.max(old, new, unsigned)
    if reduction == "min":
        return b.min(old, new, unsigned)
    return new


def _copy(b: LoopBuilder, src: SSAValue, dst: SSAValue) -> None:
    with b.loop_nest(b.dims(src)) as ivs:
        b.store(b.load(src, ivs), dst, ivs)


@lowers(graph.GatherElementsOp)
def _gather_elements(s: Lowering, op: graph.GatherElementsOp, ins: list[SSAValue]
                     ) -> list[SSAValue]:
    b = s.b
    data, indices = ins
    x = b.dims(data)
    axis = graph.normalize_axis(op.axis.value.data, len(x), "axis")
    (out,) = s.alloc_results(op, ins)
    check_indices(b, indices, x[axis], to_index)
    with b.loop_nest(b.dims(out)) as ivs:
        src: list[Dim | SSAValue] = list(ivs)
        src[axis] = _wrapped(b, to_index(b, b.load(indices, ivs)), x[axis])
        b.store(b.load(data, src), out, ivs)
    return [out]


@lowers(graph.ScatterElementsOp, graph.ScatterOp)
def _scatter_elements(s: Lowering, op: graph.ScatterElementsOp, ins: list[SSAValue]
                      ) -> list[SSAValue]:
    b = s.b
    data, indices, updates = ins
    x = b.dims(data)
    axis = graph.normalize_axis(op.axis.value.data, len(x), "axis")
    reduction = op.reduction.data
    (out,) = s.alloc_results(op, ins)
    check_indices(b, indices, x[axis], to_index)
    _copy(b, data, out)
    unsigned = is_unsigned(cast(TensorType, op.data.type).element_type)
    with b.loop_nest(b.dims(indices)) as ivs:
        dst: list[Dim | SSAValue] = list(ivs)
        dst[axis] = _wrapped(b, to_index(b, b.load(indices, ivs)), x[axis])
        new = b.load(updates, ivs)
        if reduction != "none":
            new = _combine(b, reduction, b.load(out, dst), new, unsigned)
        b.store(new, out, dst)
    return [out]


@lowers(graph.TensorScatterOp)
def _tensor_scatter(s: Lowering, op: graph.TensorScatterOp, ins: list[SSAValue]
                    ) -> list[SSAValue]:
    b = s.b
    past, update = ins[0], ins[1]
    x, u = b.dims(past), b.dims(update)
    axis = op.sequence_axis(op.properties, len(x))
    circular = op.mode.data == "circular"
    (out,) = s.alloc_results(op, ins)
    if len(ins) > 2 and not circular:  # each start leaves room for the update
        check_indices(b, ins[2], x[axis] - u[axis] + 1, to_index, lo=0)
    _copy(b, past, out)
    with b.loop_nest(u) as ivs:
        pos: Dim = Index(b, ivs[axis])
        if len(ins) > 2:
            pos = pos + to_index(b, b.load(ins[2], [ivs[0]]))
        if circular:  # numpy's floor modulo: a negative start wraps from the end
            n = b.idx(x[axis])
            r = b.insert(arith.RemSIOp(b.idx(pos), n)).results[0]
            neg = b.cmpi("slt", r, b.idx(0))
            pos = Index(b, b.select(neg, b.insert(arith.AddiOp(r, n)).results[0], r))
        dst: list[Dim | SSAValue] = list(ivs)
        dst[axis] = pos
        b.store(b.load(update, ivs), out, dst)
    return [out]


def _index_tuple(b: LoopBuilder, indices: SSAValue, at: Sequence[SSAValue], x: list[Dim]
                 ) -> list[Dim]:
    """The wrapped entries of indices[at..., :], entry j indexing a dim of size x[j]."""
    return [_wrapped(b, to_index(b, b.load(indices, [*at, j])), n) for j, n in enumerate(x)]


@lowers(graph.ScatterNDOp)
def _scatter_nd(s: Lowering, op: graph.ScatterNDOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    data, indices, updates = ins
    x = b.dims(data)
    idx = b.dims(indices)
    k = cast(int, idx[-1])
    (out,) = s.alloc_results(op, ins)
    check_indices(b, indices, x[:k], to_index)
    _copy(b, data, out)
    unsigned = is_unsigned(cast(TensorType, op.data.type).element_type)
    r = len(idx) - 1
    with b.loop_nest(idx[:-1]) as ivs:
        prefix = _index_tuple(b, indices, ivs, x[:k])
        with b.loop_nest(x[k:]) as rest:
            dst = [*prefix, *rest]
            new = b.load(updates, [*ivs[:r], *rest])
            if op.reduction.data != "none":
                new = _combine(b, op.reduction.data, b.load(out, dst), new, unsigned)
            b.store(new, out, dst)
    return [out]


@lowers(graph.GatherNDOp)
def _gather_nd(s: Lowering, op: graph.GatherNDOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    data, indices = ins
    x = b.dims(data)
    idx = b.dims(indices)
    nb = op.batch_dims.value.data
    k = cast(int, idx[-1])
    (out,) = s.alloc_results(op, ins)
    check_indices(b, indices, x[nb : nb + k], to_index)
    r = len(idx) - 1
    with b.loop_nest(b.dims(out)) as ivs:
        at = _index_tuple(b, indices, ivs[:r], x[nb : nb + k])
        b.store(b.load(data, [*ivs[:nb], *at, *ivs[r:]]), out, ivs)
    return [out]


@lowers(graph.TriluOp)
def _trilu(s: Lowering, op: graph.TriluOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    k = _scalar_index(s, op, ins, 1) if len(ins) > 1 else 0
    (out,) = s.alloc_results(op, ins)
    t = cast(TensorType, op.output.type)
    zero = b.const(0, storage_type(t.element_type))
    pred = "sge" if op.upper.value.data else "sle"
    with b.loop_nest(b.dims(out)) as ivs:
        diag = Index(b, ivs[-1]) - Index(b, ivs[-2])  # the element's diagonal, j - i
        keep = b.cmpi(pred, b.idx(diag), b.idx(k))
        b.store(b.select(keep, b.load(ins[0], ivs), zero), out, ivs)
    return [out]


@lowers(graph.OneHotOp)
def _one_hot(s: Lowering, op: graph.OneHotOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Indices outside [-depth, depth) match no position: all off values, as ONNX says."""
    b = s.b
    indices, _, values = ins
    depth = _scalar_index(s, op, ins, 1)
    D.require(D.AT_LEAST, depth, 1, "depth")
    (dims,) = s.out_dims(op, ins)
    axis = graph.normalize_axis(op.axis.value.data, len(dims), "axis")
    dims[axis] = depth
    t = cast(TensorType, op.output.type)
    out = s.alloc(s.typed_dims(dims, t), t.element_type)
    off, on = b.load(values, [0]), b.load(values, [1])
    element = cast(TensorType, op.indices.type).element_type
    with b.loop_nest(b.dims(out)) as ivs:
        i = _as_index(b, b.load(indices, [*ivs[:axis], *ivs[axis + 1:]]), element)
        if not is_unsigned(element):  # an unsigned index never counts from the end
            i = _wrapped(b, i, depth)
        hot = b.cmpi("eq", b.idx(i), ivs[axis])
        b.store(b.select(hot, on, off), out, ivs)
    return [out]


@lowers(graph.EyeLikeOp)
def _eye_like(s: Lowering, op: graph.EyeLikeOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    (out,) = s.alloc_results(op, ins)
    element = storage_type(cast(TensorType, op.output.type).element_type)
    one, zero = b.const(1, element), b.const(0, element)
    with b.loop_nest(b.dims(out)) as (i, j):
        on = b.cmpi("eq", b.idx(Index(b, j) - Index(b, i)), b.idx(op.k.value.data))
        b.store(b.select(on, one, zero), out, [i, j])
    return [out]


@lowers(graph.DepthToSpaceOp, graph.SpaceToDepthOp)
def _block_move(s: Lowering, op: graph.DepthToSpaceOp, ins: list[SSAValue]
                ) -> list[SSAValue]:
    """One nest over the space-side tensor (n, c, h * bs + i, w * bs + j), whose element
    is the depth-side's (n, channel, h, w): channel (i * bs + j) * C + c in DCR order,
    c * bs * bs + i * bs + j in CRD."""
    b = s.b
    (out,) = s.alloc_results(op, ins)
    bs = op.blocksize.value.data
    space, depth = (out, ins[0]) if type(op).TO_SPACE else (ins[0], out)
    c_space = b.dims(space)[1]
    with b.loop_nest(b.dims(space)) as (n, c, y, x):
        h, w = Index(b, y) // bs, Index(b, x) // bs
        i, j = _rem(Index(b, y), bs), _rem(Index(b, x), bs)
        if op.mode.data == "CRD":
            channel = Index(b, c) * (bs * bs) + (i * bs + j)
        else:
            channel = (i * bs + j) * c_space + c
        at_depth = [n, channel, h, w]
        if type(op).TO_SPACE:
            b.store(b.load(depth, at_depth), space, [n, c, y, x])
        else:
            b.store(b.load(space, [n, c, y, x]), depth, at_depth)
    return [out]


@lowers(graph.ReverseSequenceOp)
def _reverse_sequence(s: Lowering, op: graph.ReverseSequenceOp, ins: list[SSAValue]
                      ) -> list[SSAValue]:
    b = s.b
    x, lens = ins
    bax, tax = op.batch_axis.value.data, op.time_axis.value.data
    steps = b.dims(x)[tax]
    (out,) = s.alloc_results(op, ins)
    check_indices(b, lens, steps + 1, to_index, lo=0)  # a length in [0, steps]
    with b.loop_nest(b.dims(out)) as ivs:
        n = to_index(b, b.load(lens, [ivs[bax]]))
        t = Index(b, ivs[tax])
        inside = b.cmpi("slt", b.idx(t), b.idx(n))
        src: list[Dim | SSAValue] = list(ivs)
        src[tax] = b.select(inside, b.idx(n - 1 - t), b.idx(t))
        b.store(b.load(x, src), out, ivs)
    return [out]


@lowers(graph.TileOp)
def _tile(s: Lowering, op: graph.TileOp, ins: list[SSAValue]) -> list[SSAValue]:
    """out[i...] = input[i mod dim...]; repeats read at run time when not constant (each
    checked not negative), so is the result's size."""
    b = s.b
    x = b.dims(ins[0])
    (dims,) = s.out_dims(op, ins)
    if any(d is D.DYN for d in dims):
        reps = shape_entries(s, op, ins, 1)
        D.require(D.EQUAL, len(reps), len(x), "repeats' length and the input's rank")
        dims = [d * r for d, r in zip(x, reps, strict=True)]
    t = cast(TensorType, op.output.type)
    out = s.alloc(s.typed_dims(dims, t), t.element_type)
    with b.loop_nest(b.dims(out)) as ivs:
        src = [_rem(Index(b, iv), n) for iv, n in zip(ivs, x, strict=True)]
        b.store(b.load(ins[0], src), out, ivs)
    return [out]


# -- data-dependent sizes: a counting pass sizes the result, a second pass fills it ------


def _is_set(b: LoopBuilder, v: SSAValue) -> SSAValue:
    """v != 0 (NaN is: unordered compare), as i1."""
    if graph.is_float(v.type):
        return b.cmpf("une", v, b.const(0.0, v.type))
    return b.cmpi("ne", v, b.const(0, v.type))


def _count(b: LoopBuilder, buf: SSAValue, dims: Sequence[Dim]) -> Index:
    """How many elements of buf within `dims` are non-zero."""
    one, zero = b.idx(1), b.idx(0)

    def add(ivs: list[SSAValue], c: list[SSAValue]) -> list[SSAValue]:
        bump = b.select(_is_set(b, b.load(buf, ivs)), one, zero)
        return [b.insert(arith.AddiOp(c[0], bump)).results[0]]

    return Index(b, b.fold(dims, [zero], add)[0])


def _next(b: LoopBuilder, k: SSAValue, cond: SSAValue) -> SSAValue:
    """k + 1 where cond, else k."""
    return b.select(cond, b.insert(arith.AddiOp(k, b.idx(1))).results[0], k)


@lowers(graph.NonZeroOp)
def _non_zero(s: Lowering, op: graph.NonZeroOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    x = b.dims(ins[0])
    t = cast(TensorType, op.output.type)
    out = s.alloc(s.typed_dims([len(x), _count(b, ins[0], x)], t), t.element_type)

    def put(ivs: list[SSAValue], c: list[SSAValue]) -> list[SSAValue]:
        cond = _is_set(b, b.load(ins[0], ivs))
        with b.if_(cond):
            for d, iv in enumerate(ivs):
                b.store(b.insert(arith.IndexCastOp(iv, i64)).results[0], out, [d, c[0]])
        return [_next(b, c[0], cond)]

    b.fold(x, [b.idx(0)], put)
    return [out]


@lowers(graph.CompressOp)
def _compress(s: Lowering, op: graph.CompressOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Each selected slice of input copied to the next free one of the result; without
    an axis, element j of the flattened input is input[unravel(j)]."""
    b = s.b
    x, cond = ins
    dims = b.dims(x)
    (n,) = b.dims(cond)
    (out_dims,) = s.out_dims(op, ins)  # checks the condition's length
    t = cast(TensorType, op.output.type)
    axis = None if op.axis is None else graph.normalize_axis(op.axis.value.data,
                                                               len(dims), "axis")
    count = _count(b, cond, [n])
    if axis is None:
        out = s.alloc(s.typed_dims([count], t), t.element_type)
    else:
        out_dims[axis] = count
        out = s.alloc(s.typed_dims(out_dims, t), t.element_type)

    def put(ivs: list[SSAValue], c: list[SSAValue]) -> list[SSAValue]:
        (j,) = ivs
        keep = _is_set(b, b.load(cond, [j]))
        with b.if_(keep):
            if axis is None:
                at: list[Dim] = []
                rest: Dim = Index(b, j)
                for d in reversed(dims):
                    at.insert(0, _rem(rest, d))
                    rest = rest // d
                b.store(b.load(x, at), out, [c[0]])
            else:
                with b.loop_nest([*dims[:axis], *dims[axis + 1:]]) as other:
                    src = [*other[:axis], j, *other[axis:]]
                    b.store(b.load(x, src), out, [*other[:axis], c[0], *other[axis:]])
        return [_next(b, c[0], keep)]

    b.fold([n], [b.idx(0)], put)
    return [out]

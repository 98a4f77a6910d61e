"""Shape manipulation → views of the input's buffer, or copy loops over the output.

Reshape, Flatten, Squeeze and Unsqueeze only change sizes: they become a
`memref.reinterpret_cast` of the input (identity strides, no copy) registered as an alias,
so the buffer lives until its last view is dead. The other ops write a fresh buffer with
one loop nest over the output (innermost loop over its last dim, contiguous stores);
Concat and Split loop over each input / output slab instead. A concat whose inputs are
contiguous slabs of its result (an image's channel blocks) has the kernels that make them
write their slabs in place, and copies only the rest (`concat_placements`). Constant
operands (shapes, axes, slice bounds) are read at compile time through the ops' shape
functions. A shape operand of Reshape, Expand or ConstantOfShape, or a scalar of Range,
made by an inlined `shape.of` is its map evaluated on the source tensor's `memref.dim`s
(see `shape_dialect`); any other non-constant one is read from its buffer at run time.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import cast

from xdsl.dialects import arith, memref
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    AnyFloat,
    MemRefType,
    NoneAttr,
    TensorType,
    f64,
    i8,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from infer.abi import ARENA_ALIGNMENT
from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.operands import (
    dims_from_buffer,
    float_scalar,
    int_scalar,
    runtime_axes_dims,
    select_dim,
    shape_entries,
    to_index,
    view,
)
from infer.lowering.graph_ops.shape_dialect import inline_shape
from infer.lowering.llvm_descriptor import element_byte_size
from infer.lowering.loop_builder import Index, LoopBuilder, storage_type
from infer.lowering.runtime_checks import check_indices

# -- helpers ---------------------------------------------------------------------------


def _is_neg(b: LoopBuilder, d: Dim) -> SSAValue:
    return b.cmpi("slt", b.idx(d), b.idx(0))


def _clamp(b: LoopBuilder, d: Dim, lo: Dim, hi: Dim) -> Dim:
    if all(isinstance(v, int) for v in (d, lo, hi)):
        return min(max(cast(int, d), cast(int, lo)), cast(int, hi))
    return Index(b, b.min(b.max(b.idx(d), b.idx(lo)), b.idx(hi)))


def _is_known(dims: Sequence[Dim]) -> bool:
    """False when the shape function gave up (`DYN`) on some dim."""
    return all(d is not D.DYN for d in dims)


@lowers(graph.FlattenOp, graph.SqueezeOp, graph.UnsqueezeOp)
def _view_of_result(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[SSAValue]:
    """Reshape/Flatten/Squeeze/Unsqueeze with sizes from the op's shape function, or from
    axes read at run time."""
    if isinstance(op, graph.AxesOp) and len(ins) > 1 \
            and graph.constant_value(op.operands[1]) is None:
        dims = runtime_axes_dims(s, op, ins)
    else:
        (dims,) = s.out_dims(op, ins)
    return [view(s, ins[0], dims, op.results[0].type)]


def out_dims_of_shape_user(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[Dim]:
    """The result dims of `op` from its shape function, like `Lowering.out_dims`, except
    that an inlined `shape.of` operand is passed as its evaluated entries (run-time index
    values where dynamic), the way type inference sees it (`graph.SymbolicShape`)."""
    assert isinstance(op, graph.GraphOp)
    dims: list[list[Dim]] = []
    consts: list[object] = []
    for v, buf in zip(op.operands, ins, strict=True):
        entries = inline_shape(s, buf)
        if entries is None:
            dims.append(s.b.dims(buf))
            consts.append(graph.constant_value(v))
        else:  # no buffer: the operand's type gives its length
            dims.append(graph.dims_of(v.type))
            consts.append(graph.SymbolicShape(tuple(entries)))
    return type(op).output_dims(op.properties, dims, consts)[0]  # type: ignore[arg-type]


def _fresh(s: Lowering, op: Operation, dims: Sequence[Dim], i: int = 0) -> SSAValue:
    t = op.results[i].type
    assert isinstance(t, TensorType)
    return s.alloc(s.typed_dims(dims, t), t.element_type)


# -- views -----------------------------------------------------------------------------


@lowers(graph.ReshapeOp)
def _reshape(s: Lowering, op: graph.ReshapeOp, ins: list[SSAValue]) -> list[SSAValue]:
    dims = out_dims_of_shape_user(s, op, ins)
    if not _is_known(dims):  # a shape tensor computed by some op: ONNX's rules at run time
        dims = _runtime_reshape_dims(s.b, s.b.dims(ins[0]), ins[1], len(dims), op)
    return [view(s, ins[0], dims, op.results[0].type)]


def _runtime_reshape_dims(
    b: LoopBuilder, x: list[Dim], shape: SSAValue, n: int, op: graph.ReshapeOp
) -> list[Dim]:
    """ONNX's reshape rules on a shape read at run time: 0 copies x's dim, -1 is inferred."""
    allowzero = op.allowzero.value.data
    raw = dims_from_buffer(b, shape, n)
    out: list[Dim] = []
    for i, r in enumerate(raw):
        out.append(select_dim(b, b.cmpi("eq", r.value, b.idx(0)), x[i], r)
                   if not allowzero and i < len(x) else r)
    is_infer = [b.cmpi("eq", b.idx(d), b.idx(-1)) for d in out]
    known: Dim = 1
    inferred_count: Dim = 0
    for k, (d, inf) in enumerate(zip(out, is_infer, strict=True)):
        D.require(D.AT_LEAST, d, -1, f"shape entry {k}")
        known = known * select_dim(b, inf, 1, d)
        inferred_count = inferred_count + select_dim(b, inf, 1, 0)
    if b.checks is not None:
        count, one = b.idx(inferred_count), b.idx(1)
        b.checks.check(b.cmpi("sle", count, one), count, one,
                       "{a} shape entries are -1, at most {b} may be")
    # With a -1, the other entries' count divides the total next (none: it may be 0).
    D.require(D.AT_LEAST, known, inferred_count, "element count of the given entries")
    total = D.product(x)
    inferred = total // Index(b, b.max(b.idx(known), b.idx(1)))
    dims = [select_dim(b, inf, inferred, d) for d, inf in zip(out, is_infer, strict=True)]
    D.require(D.EQUAL, total, D.product(dims), "element counts")
    return dims


# -- copies ----------------------------------------------------------------------------


@lowers(graph.TransposeOp)
def _transpose(s: Lowering, op: graph.TransposeOp, ins: list[SSAValue]) -> list[SSAValue]:
    """out[i_0, ..., i_n] = in[j] with j[perm[k]] = i_k; loops follow the output."""
    b = s.b
    (out,) = s.alloc_results(op, ins)
    perm = graph.TransposeOp.permutation(op.properties, len(b.dims(ins[0])))
    with b.loop_nest(b.dims(out)) as ivs:
        src = [ivs[perm.index(j)] for j in range(len(perm))]
        b.store(b.load(ins[0], src), out, ivs)
    return [out]


@lowers(graph.ShapeOp)
def _shape(s: Lowering, op: graph.ShapeOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    (out,) = s.alloc_results(op, ins)
    x = b.dims(ins[0])
    start, end = graph.ShapeOp.bounds(op.properties, len(x))
    for k in range(start, end):
        d = x[k]
        v = b.const(d, i64) if isinstance(d, int) else \
            b.insert(arith.IndexCastOp(b.idx(d), i64)).results[0]
        b.store(v, out, [k - start])
    return [out]


@lowers(graph.SizeOp)
def _size(s: Lowering, op: graph.SizeOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    (out,) = s.alloc_results(op, ins)
    n = D.product(b.dims(ins[0]))
    v = b.const(n, i64) if isinstance(n, int) else \
        b.insert(arith.IndexCastOp(b.idx(n), i64)).results[0]
    b.store(v, out, [])
    return [out]


@lowers(graph.GatherOp)
def _gather(s: Lowering, op: graph.GatherOp, ins: list[SSAValue]) -> list[SSAValue]:
    """out[a, j, c] = data[a, wrap(indices[j]), c]; negative indices count from the end."""
    b = s.b
    data, indices = ins
    x = b.dims(data)
    axis = _axis(op, len(x))
    check_indices(b, indices, x[axis], to_index)
    (out,) = s.alloc_results(op, ins)
    r = len(b.dims(indices))
    with b.loop_nest(b.dims(out)) as ivs:
        i = to_index(b, b.load(indices, ivs[axis : axis + r]))
        wrapped = select_dim(b, _is_neg(b, i), i + x[axis], i)
        src = [*ivs[:axis], b.idx(wrapped), *ivs[axis + r :]]
        b.store(b.load(data, src), out, ivs)
    return [out]


def slice_bounds(b: LoopBuilder, n: Dim, start: Dim, end: Dim, step: int,
                 run_step: Dim | None = None) -> tuple[Dim, Dim]:
    """(first index, element count) of data[start:end:step] along a dim of size n.

    Python's slice rules: negative bounds count from the end, then clamp to [0, n] for a
    positive step and to [-1, n - 1] for a negative one. Folds when all are static; a
    bound read at run time is wrapped and clamped there. With `run_step` (a step known
    only at run time), `step` is its assumed sign (1 or -1) and the count divides by it.
    """
    if run_step is None and all(isinstance(v, int) for v in (n, start, end)):
        first, stop, st = slice(cast(int, start), cast(int, end), step).indices(cast(int, n))
        return first, len(range(first, stop, st))

    def normalize(v: Dim, lo: Dim, hi: Dim) -> Dim:
        if isinstance(v, int):
            return _clamp(b, n + v if v < 0 else v, lo, hi)
        return _clamp(b, select_dim(b, _is_neg(b, v), n + v, v), lo, hi)

    if step > 0:
        first, stop = normalize(start, 0, n), normalize(end, 0, n)
        span = stop - first
    else:
        first, stop = normalize(start, 0, n - 1), normalize(end, -1, n - 1)
        span = first - stop
    if run_step is None:
        count = D.ceil_div(span, abs(step))
    else:  # |step| is the step's own value or its negation (the sign assumed)
        mag = Index(b, b.idx(run_step)) if step > 0 else 0 - Index(b, b.idx(run_step))
        one = b.idx(1)
        safe = Index(b, b.max(b.idx(mag), one))  # the unassumed sign's branch: unused
        count = (span + safe - 1) // safe
    return first, _clamp(b, count, 0, n)


@lowers(graph.SliceOp)
def _slice(s: Lowering, op: graph.SliceOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    x = b.dims(ins[0])
    consts = [graph.constant_value(o) for o in op.operands]
    spec = graph.SliceOp.normalized(x, consts)
    if spec is None:
        firsts, out_dims, steps = _runtime_slice(s, op, ins, x)
    else:
        firsts, out_dims, steps = [0] * len(x), list(x), [1] * len(x)
        for a, start, end, step in spec:
            firsts[a], out_dims[a] = slice_bounds(b, x[a], start, end, step)
            steps[a] = step
    out = _fresh(s, op, out_dims)
    with b.loop_nest(b.dims(out)) as ivs:
        src = [b.idx(f + Index(b, iv) * st) for iv, f, st in zip(ivs, firsts, steps, strict=True)]
        b.store(b.load(ins[0], src), out, ivs)
    return [out]


def _runtime_slice(s: Lowering, op: graph.SliceOp, ins: list[SSAValue], x: list[Dim]
                   ) -> tuple[list[Dim], list[Dim], list[Dim]]:
    """(first index, count, step) per dim when some of starts, ends, axes and steps are
    computed at run time (PyTorch's chunk: ends = (C + 1) / 2 from Shape; ONNX's own
    cases feed all four): each dim takes the entries whose axis is it (wrapped), else the
    whole dim; bounds are clamped for the step's sign, chosen at run time if need be."""
    b = s.b
    rank = len(x)
    starts, ends, axes, steps = (shape_entries(s, op, ins, i, sizes=False) for i in range(1, 5))
    if not len(starts) == len(ends) == len(axes) == len(steps):
        raise UnsupportedError("graph.slice starts, ends, axes and steps differ in length")
    firsts: list[Dim] = [0] * rank
    counts: list[Dim] = list(x)
    strides: list[Dim] = [1] * rank
    checks = b.checks
    for k, (a, st) in enumerate(zip(axes, steps, strict=True)):
        if checks is not None and not isinstance(a, int):
            ai, lo, hi = b.idx(a), b.idx(-rank), b.idx(rank)
            ok = b.insert(arith.AndIOp(b.cmpi("sge", ai, lo), b.cmpi("slt", ai, hi))).results[0]
            checks.check(ok, ai, hi, f"axes entry {k} {{a}} is out of range for rank {{b}}")
        if isinstance(st, int):
            if st == 0:
                raise UnsupportedError("graph.slice step must not be 0")
        elif checks is not None:
            si, zero = b.idx(st), b.idx(0)
            checks.check(b.cmpi("ne", si, zero), si, zero, f"steps entry {k} {{a}} is {{b}}")
    for d in range(rank):
        first, count, stride = firsts[d], counts[d], strides[d]
        for a, start, end, st in zip(axes, starts, ends, steps, strict=True):
            if isinstance(a, int):
                if (a + rank if a < 0 else a) != d:
                    continue
                f, c, t = _dim_bounds(b, x[d], start, end, st)
                first, count, stride = f, c, t
            else:  # this entry slices dim d when its axis, wrapped, is d
                ai = b.idx(a)
                hit = b.insert(arith.OrIOp(b.cmpi("eq", ai, b.idx(d)),
                                           b.cmpi("eq", ai, b.idx(d - rank)))).results[0]
                f, c, t = _dim_bounds(b, x[d], start, end, st)
                first, count, stride = (select_dim(b, hit, f, first), select_dim(b, hit, c, count),
                                        select_dim(b, hit, t, stride))
        firsts[d], counts[d], strides[d] = first, count, stride
    return firsts, counts, strides


def _dim_bounds(b: LoopBuilder, n: Dim, start: Dim, end: Dim, step: Dim
                ) -> tuple[Dim, Dim, Dim]:
    """`slice_bounds` with a step that may be known only at run time: both signs'
    bounds, chosen by the step's (a zero step fails its check before use)."""
    if isinstance(step, int):
        return (*slice_bounds(b, n, start, end, step), step)
    pos = slice_bounds(b, n, start, end, 1, step)
    neg = slice_bounds(b, n, start, end, -1, step)
    up = b.cmpi("sgt", b.idx(step), b.idx(0))
    return select_dim(b, up, pos[0], neg[0]), select_dim(b, up, pos[1], neg[1]), step


def _axis(op: graph.GatherOp | graph.ConcatOp | graph.SplitOp, rank: int) -> int:
    """The op's axis in [0, rank)."""
    a = op.axis.value.data
    return a + rank if a < 0 else a


@lowers(graph.ConcatOp)
def _concat(s: Lowering, op: graph.ConcatOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Each input is copied into its slab of the output, at a running offset on `axis`;
    but an input a kernel wrote there already (`concat_placements`) is not."""
    b = s.b
    placed = s.concat_buffers.get(op)
    (out,) = s.alloc_results(op, ins) if placed is None else (placed[1],)
    axis = _axis(op, len(b.dims(out)))
    offset: Dim = 0
    for v, value in zip(ins, op.operands, strict=True):
        dims = b.dims(v)
        if value not in s.in_place:
            _copy_slab(b, dims, axis, v, 0, out, offset)
        offset = offset + dims[axis]
    return [out]


def concat_placements(ops: Sequence[Operation]) -> dict[SSAValue, tuple[Operation, int]]:
    """The inputs of concats among `ops` that their producers may write in place: value
    -> (its concat, byte offset in the concat's result). A concat qualifies when its
    result is static and its inputs are contiguous slabs of it (every dim before the
    axis is 1: an image's channel blocks in NCHWc); an input, when the concat is its only
    use and its slab starts at a multiple of the arena's alignment (kernels take aligned
    buffers). Whether it is written in place is its producer's lowering's choice
    (`destination`): a kernel call does; what is not is copied."""
    out: dict[SSAValue, tuple[Operation, int]] = {}
    for op in ops:
        t = op.results[0].type if isinstance(op, graph.ConcatOp) else None
        if not (isinstance(t, TensorType) and t.has_static_shape()):
            continue
        shape = t.get_shape()
        axis = _axis(cast(graph.ConcatOp, op), len(shape))
        if any(n != 1 for n in shape[:axis]):
            continue
        slab = prod(shape[axis + 1:]) * element_byte_size(t.element_type)
        start = 0
        for v in op.operands:
            vt = v.type
            assert isinstance(vt, TensorType)
            if (isinstance(v.owner, Operation) and v.has_one_use()
                    and start * slab % ARENA_ALIGNMENT == 0):
                out[v] = (op, start * slab)
            start += vt.get_shape()[axis]
    return out


def destination(s: Lowering, value: SSAValue, t: MemRefType) -> SSAValue:
    """The buffer a kernel writes graph value `value` (of static buffer type `t`) into:
    its slab of its concat's buffer when `concat_placements` placed it, else its own."""
    placed = s.placements.get(value)
    if placed is None:
        return s.alloc(list(t.get_shape()), t.element_type)
    concat, offset = placed
    if concat not in s.concat_buffers:
        ct = cast(TensorType, concat.results[0].type)
        nbytes = prod(ct.get_shape()) * element_byte_size(ct.element_type)
        buf = s.alloc([nbytes], i8)
        whole = MemRefType(storage_type(ct.element_type), ct.get_shape())
        s.concat_buffers[concat] = (buf, _byte_view(s, buf, 0, whole))
    s.in_place.add(value)
    return _byte_view(s, s.concat_buffers[concat][0], offset, t)


def _byte_view(s: Lowering, buf: SSAValue, offset: int, t: MemRefType) -> SSAValue:
    view = s.b.insert(memref.ViewOp(buf, s.b.idx(offset), [], t)).results[0]
    return s.alias(view, of=buf)


# The longest row copied as one vector (LLVM splits it into the target's registers).
_ROW_VECTOR = 64


def _copy_slab(b: LoopBuilder, dims: Sequence[Dim], axis: int, src: SSAValue, src_offset: Dim,
               dst: SSAValue, dst_offset: Dim) -> None:
    """dst[..., i + dst_offset, ...] = src[..., i + src_offset, ...] (the offsets on
    `axis`) for every index within `dims`. A static last dim other than the axis is
    contiguous in both and moves as one vector per row (a channel block of NCHWc), so the
    copy needs no help from LLVM's vectorizers (which cannot tell that the two buffers do
    not overlap once the copy is outlined)."""
    last = len(dims) - 1
    n = dims[last] if last >= 0 else None
    element = cast(MemRefType, src.type).element_type
    rows = (axis != last and isinstance(n, int) and 1 < n <= _ROW_VECTOR
            and all(isinstance(cast(MemRefType, v.type).layout, NoneAttr) for v in (src, dst))
            and (getattr(element, "bitwidth", None) or 0) >= 8)  # i1 vectors: bit-packed
    # Iterations are independent: rows (or elements) spread over the threads.
    with b.parallel_nest(dims[:last] if rows else dims, n if rows and isinstance(n, int)
                         else 1) as ivs:
        at_src: list[Dim | SSAValue] = list(ivs) + ([0] if rows else [])
        at_dst = list(at_src)
        at_src[axis] = b.idx(src_offset + Index(b, ivs[axis]))
        at_dst[axis] = b.idx(dst_offset + Index(b, ivs[axis]))
        if rows:
            assert isinstance(n, int)
            b.vstore(b.vload(src, at_src, n), dst, at_dst)
        else:
            b.store(b.load(src, at_src), dst, at_dst)


@lowers(graph.SplitOp)
def _split(s: Lowering, op: graph.SplitOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Each output copies its slab of the input, at a running offset on `axis`. Sizes
    given as a run-time tensor are read from it and checked to add up to the dim."""
    b = s.b
    x = b.dims(ins[0])
    axis = _axis(op, len(x))
    if len(ins) > 1 and graph.constant_value(op.operands[1]) is None:
        sizes = shape_entries(s, op, ins, 1)  # each checked not to be negative
        if len(sizes) != len(op.results):
            raise UnsupportedError(f"'{op.name}' has {len(sizes)} sizes for "
                                   f"{len(op.results)} outputs")
        D.require(D.EQUAL, sum(sizes, start=0), x[axis], "split sizes' sum and the split dim")
        outs = []
        for size, res in zip(sizes, op.results, strict=True):
            t = cast(TensorType, res.type)
            dims = [size if i == axis else d for i, d in enumerate(x)]
            outs.append(s.alloc(s.typed_dims(dims, t), t.element_type))
    else:
        outs = s.alloc_results(op, ins)
    offset: Dim = 0
    for out in outs:
        dims = b.dims(out)
        _copy_slab(b, dims, axis, ins[0], offset, out, 0)
        offset = offset + dims[axis]
    return outs


def expand_dim(b: LoopBuilder, x: Dim, e: Dim) -> Dim:
    """Expand's output size from input dim `x` and shape entry `e` (ONNX: they are equal
    or one of them is 1). Two dims known only at run time are compared there, so that
    an input of size 1 broadcasts and an entry 0 gives an empty output."""
    D.require(D.BROADCAST, x, e, "input dims and shape entries")
    if isinstance(e, int):
        return x if e == 1 else e
    if isinstance(x, int):
        return e if x == 1 else x
    if x == e:  # the same index value
        return x
    return select_dim(b, b.cmpi("eq", b.idx(e), b.idx(1)), x, e)


@lowers(graph.ExpandOp)
def _expand(s: Lowering, op: graph.ExpandOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Broadcast copy: input dims statically 1 are read at index 0. A dynamic input dim
    that is not the output's own size may be 1 at run time (even facing a static output
    dim): it is read at `i * (dim != 1)`, the factor computed before the loops."""
    b = s.b
    x = b.dims(ins[0])
    entries = shape_entries(s, op, ins, 1)
    rank = max(len(x), len(entries))
    lead = rank - len(x)
    xs: list[Dim] = [1] * lead + list(x)
    es: list[Dim] = [1] * (rank - len(entries)) + entries
    dims = [expand_dim(b, d, e) for d, e in zip(xs, es, strict=True)]
    out = _fresh(s, op, dims)
    one, zero = b.idx(1), b.idx(0)
    unless_unit = {i: b.select(b.cmpi("ne", b.idx(d), one), one, zero)
                   for i, d in enumerate(x) if not isinstance(d, int) and d != dims[lead + i]}
    with b.loop_nest(b.dims(out)) as ivs:
        src: list[Dim | SSAValue] = []
        for i, d in enumerate(x):
            iv = ivs[lead + i]
            if i in unless_unit:
                src.append(b.insert(arith.MuliOp(iv, unless_unit[i])).results[0])
            else:
                src.append(0 if d == 1 else iv)
        b.store(b.load(ins[0], src), out, ivs)
    return [out]


@lowers(graph.ConstantOfShapeOp)
def _constant_of_shape(s: Lowering, op: graph.ConstantOfShapeOp, ins: list[SSAValue]
                       ) -> list[SSAValue]:
    b = s.b
    dims = out_dims_of_shape_user(s, op, ins)
    if not _is_known(dims):
        dims = shape_entries(s, op, ins, 0)
    out = _fresh(s, op, dims)
    t = op.results[0].type
    assert isinstance(t, TensorType)
    fill = op.value.get_values()[0] if op.value is not None else 0  # ONNX: a zero
    element = storage_type(t.element_type)  # ui8 200 becomes i8 -56: the same bits
    with b.loop_nest(b.dims(out)) as ivs:
        b.store(b.const(fill, element), out, ivs)
    return [out]


def _as_element(b: LoopBuilder, d: Dim, element: Attribute) -> SSAValue:
    if isinstance(d, int):
        return b.const(d, element)
    return b.insert(arith.IndexCastOp(b.idx(d), element)).results[0]


def _int_range_length(b: LoopBuilder, start: Dim, limit: Dim, delta: Dim) -> Dim:
    """`graph.range_length` on run-time values; a zero delta known only at run time (an
    error in ONNX) gives an empty range rather than a division by zero."""
    if isinstance(delta, int):
        return graph.range_length(start, limit, delta)
    zero = b.cmpi("eq", b.idx(delta), b.idx(0))
    return select_dim(b, zero, 0, graph.range_length(start, limit, select_dim(b, zero, 1, delta)))


def _float_range_length(b: LoopBuilder, start: SSAValue, limit: SSAValue, delta: SSAValue
                        ) -> Index:
    """ceil((limit - start) / delta) as onnxruntime computes it (the difference in the
    element type, the quotient in double), then fptosi. NaN, a quotient <= 0 and a zero
    delta (±inf here) give an empty range."""
    diff = b.sub(limit, start)
    if diff.type != f64:
        diff, delta = (b.insert(arith.ExtFOp(v, f64)).results[0] for v in (diff, delta))
    q = b.unary(xmath.CeilOp, b.div(diff, delta))
    zero = b.const(0.0, f64)
    ok = b.insert(arith.AndIOp(b.cmpf("ogt", q, zero), b.cmpf("one", delta, zero))).results[0]
    n = b.select(ok, b.insert(arith.FPToSIOp(q, i64)).results[0], b.const(0, i64))
    return to_index(b, n)


@lowers(graph.RangeOp)
def _range(s: Lowering, op: graph.RangeOp, ins: list[SSAValue]) -> list[SSAValue]:
    """y[i] = start + i * delta. The length is the type's when static, else computed at
    run time from the scalars: index arithmetic on integers (on the source's memref.dims
    when they come from a `shape.of`), a float division for floats."""
    b = s.b
    t = cast(TensorType, op.results[0].type)
    element = storage_type(t.element_type)
    (n,) = graph.dims_of(t)
    if graph.is_float(element):
        start, delta = float_scalar(s, op, ins, 0), float_scalar(s, op, ins, 2)
        if not isinstance(n, int):
            n = _float_range_length(b, start, float_scalar(s, op, ins, 1), delta)
    else:
        start_d, delta_d = int_scalar(s, op, ins, 0), int_scalar(s, op, ins, 2)
        if not isinstance(n, int):
            n = _int_range_length(b, start_d, int_scalar(s, op, ins, 1), delta_d)
        start, delta = _as_element(b, start_d, element), _as_element(b, delta_d, element)
    out = _fresh(s, op, [n])
    with b.loop_nest(b.dims(out)) as ivs:
        if graph.is_float(element):
            k = b.insert(arith.IndexCastOp(ivs[0], i64)).results[0]
            k = b.insert(arith.SIToFPOp(k, cast(AnyFloat, element))).results[0]
        else:
            k = b.insert(arith.IndexCastOp(ivs[0], element)).results[0]
        b.store(b.add(start, b.mul(k, delta)), out, ivs)
    return [out]

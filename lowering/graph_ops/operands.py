"""An op's operands as values its lowering computes with: integer scalars as run-time
`index` dims, the entries of a 1-D shape operand (constant, an inlined `shape.of`, or
loaded from its buffer), scalar operands, and views of a buffer with other sizes. Every
family of lowerings reads operands this way (shape_ops, reductions, indexing, ...)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, memref_type
from infer.lowering.graph_ops.shape_dialect import inline_shape
from infer.lowering.loop_builder import Index, LoopBuilder, index


def to_index(b: LoopBuilder, v: SSAValue) -> Index:
    """An integer scalar (i32/i64, signed) as a run-time `index` dim."""
    return Index(b, b.insert(arith.IndexCastOp(v, index)).results[0])


def dims_from_buffer(b: LoopBuilder, buf: SSAValue, n: int) -> list[Index]:
    """The n entries of a 1-D integer shape buffer, read at run time."""
    return [to_index(b, b.load(buf, [i])) for i in range(n)]


def select_dim(b: LoopBuilder, cond: SSAValue, x: Dim, y: Dim) -> Index:
    return Index(b, b.select(cond, b.idx(x), b.idx(y)))


def view(s: Lowering, src: SSAValue, dims: Sequence[Dim], t: Attribute) -> SSAValue:
    """`src`'s buffer seen with sizes `dims` (row-major strides), as a value of type `t`.

    Every buffer of this lowering is contiguous from offset 0, so the view is too."""
    b = s.b
    dims = s.typed_dims(dims, t)
    strides: list[Dim] = []
    running: Dim = 1
    for d in reversed(dims):
        strides.append(running)
        running = running * d
    strides.reverse()

    def mixed(ds: Sequence[Dim]) -> list[SSAValue | int]:
        return [d if isinstance(d, int) else b.idx(d) for d in ds]

    op = memref.ReinterpretCastOp.from_dynamic(
        src, [0], mixed(dims), mixed(strides), memref_type(t)
    )
    return s.alias(b.insert(op).results[0], of=src)


def runtime_axes_dims(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[Dim]:
    """Squeeze's or Unsqueeze's result dims for axes (operand 1) read at run time, also
    those of a reduction without keepdims, seen as a squeeze: each axis is checked
    to be in range and named once (and a squeezed dim to be 1); dim i of the longer shape
    is an axis or, counting the non-axes before it, a dim of the shorter one."""
    b = s.b
    x = b.dims(ins[0])
    axes = shape_entries(s, op, ins, 1, sizes=False)
    unsqueeze = isinstance(op, graph.UnsqueezeOp)
    rank = len(x) + len(axes) if unsqueeze else len(x)
    zero, one = b.idx(0), b.idx(1)
    for k, a in enumerate(axes):
        D.require(D.AT_LEAST, a, -rank, f"axes entry {k}")
        D.require(D.AT_LEAST, rank - 1, a, f"axes entry {k}")
    wrapped = [b.insert(arith.RemSIOp(b.idx(a + rank), b.idx(rank))).results[0] for a in axes]
    is_axis: list[SSAValue] = []
    for i in range(rank):
        named: Dim = 0
        for w in wrapped:
            named = named + Index(b, b.select(b.cmpi("eq", w, b.idx(i)), one, zero))
        D.require(D.AT_LEAST, 1, named, f"the number of axes entries naming dim {i}")
        is_axis.append(b.cmpi("eq", b.idx(named), one))
    out: list[Dim] = [] if unsqueeze else [0] * (rank - len(axes))
    kept_before: Dim = 0  # the non-axis dims before dim i
    for i in range(rank):
        not_axis = Index(b, b.select(is_axis[i], zero, one))
        if unsqueeze:  # dim i is 1, or x's dim number kept_before
            picked: Dim = x[0] if x else 1
            for j in range(1, len(x)):
                picked = select_dim(b, b.cmpi("eq", b.idx(kept_before), b.idx(j)), x[j], picked)
            out.append(select_dim(b, is_axis[i], 1, picked))
        else:  # a squeezed x[i] must be 1; a kept one is output dim number kept_before
            D.require(D.EQUAL, select_dim(b, is_axis[i], x[i], 1), 1, f"squeezed dim {i} and 1")
            for m in range(len(out)):
                hit = b.cmpi("eq", b.idx(kept_before), b.idx(m))
                take = b.insert(arith.AndIOp(hit, b.cmpi("eq", b.idx(not_axis), one))).results[0]
                out[m] = select_dim(b, take, x[i], out[m])
        kept_before = kept_before + not_axis
    return out


def shape_entries(s: Lowering, op: Operation, ins: list[SSAValue], i: int,
                  sizes: bool = True) -> list[Dim]:
    """The entries of `op`'s 1-D shape operand i: ints when it is a constant, the map
    evaluated inline when it is an inlined `shape.of`, else loaded from its buffer (and,
    when they are `sizes`, checked not to be negative)."""
    entries = inline_shape(s, ins[i])
    if entries is not None:
        return entries
    value = graph.constant_value(op.operands[i])
    if value is not None:
        return [int(x) for x in value.reshape(-1)]
    (n,) = cast(TensorType, op.operands[i].type).get_shape()
    if n < 0:
        raise UnsupportedError(f"'{op.name}' needs a shape operand of static length")
    entries = dims_from_buffer(s.b, ins[i], n)
    for k, e in enumerate(entries if sizes else []):
        D.require(D.AT_LEAST, e, 0, f"shape entry {k}")
    return list(entries)


def scalar_index(op: Operation, i: int) -> list[Dim]:
    """The index of a scalar operand's one element (rank 0 or 1)."""
    return [0] * len(cast(TensorType, op.operands[i].type).get_shape())


def int_scalar(s: Lowering, op: Operation, ins: list[SSAValue], i: int) -> Dim:
    """`op`'s integer scalar operand i (Range's bounds, an axis) as a dim: an int when
    it is a constant, the map evaluated on the source's dims when it is an inlined
    `shape.of`, else loaded."""
    entries = inline_shape(s, ins[i])
    if entries is not None:
        return entries[0]
    value = graph.constant_value(op.operands[i])
    if value is not None:
        return int(value.reshape(-1)[0])
    return to_index(s.b, s.b.load(ins[i], scalar_index(op, i)))


def float_scalar(s: Lowering, op: Operation, ins: list[SSAValue], i: int) -> SSAValue:
    """`op`'s float scalar operand i: a constant when it is one, else loaded."""
    value = graph.constant_value(op.operands[i])
    t = cast(TensorType, op.operands[i].type)
    if value is not None:
        return s.b.const(float(value.reshape(-1)[0]), t.element_type)
    return s.b.load(ins[i], scalar_index(op, i))

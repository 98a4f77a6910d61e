"""Sequences known only at run time, packed in four tensors.

A sequence whose length or members are not known when importing (a sequence graph input,
one a Loop carries, one whose position or chunk size is computed at run time) is
`PackedSequence`: its elements' values one after another in one 1-D tensor, their
offsets, their shapes one after another and the offsets of those (the layout
runtime/structured.py describes, whose numpy side passes such inputs and outputs). The
sequence ops on it are ONNX nodes on those tensors, imported like any other: the element
at a position is two Gathers (which fail at run time on a position out of range), two
Slices and a Reshape; an insert or erase is Slices and Concats with the offsets after the
position moved. Elements may differ in shape and in rank; reading one as a tensor needs
its rank known when compiling (the sequence's declared or inserted elements'), and a
Reshape to that rank checks it at run time.

The ops with a loop in their meaning (ConcatFromSequence, SequenceMap and SplitToSequence
of run-time lengths) are ONNX Loops over positions, built as nodes and imported by the
Loop importer, which carries packed sequences.
"""

from __future__ import annotations

from typing import cast

import numpy as np
import onnx
from onnx import helper
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, SSAValue

from infer.dialects import graph as G
from infer.frontend.import_context import ImportContext
from infer.frontend.onnx_values import PackedSequence, Sequence, StaticSequence

# The opset of the nodes built here (Reshape's allowzero, ReduceProd's axes input).
HELPER_OPSET = 21
_END = np.iinfo(np.int64).max  # a Slice end past any dim
PACKED_TENSORS = 4
# The rank of a sequence known to have no elements (or a Loop's, known so far only to
# start with none): joined with any rank, that rank.
NO_ELEMENTS = -1


def rank_of(t: SSAValue) -> int:
    return cast(TensorType, t.type).get_num_dims()


def joined_rank(a: int | None, b: int | None) -> int | None:
    """The elements' rank of a sequence that is either of two."""
    if a == NO_ELEMENTS:
        return b
    return a if b in (a, NO_ELEMENTS) else None


class Emit:
    """ONNX nodes of HELPER_OPSET added on the importer's values, named under one prefix
    (so that a run-time error names the sequence op they are built for)."""

    def __init__(self, ctx: ImportContext, label: str):
        self.ctx = ctx
        self.prefix = ctx.prefix(label)
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"{self.prefix}{self.count}"

    def bind(self, value: object) -> str:
        """`value` (a tensor, sequence or optional) under a fresh name."""
        name = self.fresh()
        self.ctx.values[name] = value  # type: ignore[assignment]
        return name

    def const(self, value: np.ndarray) -> str:
        """A constant under a fresh name."""
        return self.bind(self.ctx.constant(value))

    def ints(self, *values: int) -> str:
        return self.const(np.array(values, np.int64))

    def scalar(self, value: int) -> str:
        return self.const(np.array(value, np.int64))

    def byte(self, value: int) -> str:
        return self.const(np.array(value, np.uint8))

    def __call__(self, op_type: str, *inputs: str, label: str | None = None,
                 **attrs: object) -> str:
        return self.node(op_type, list(inputs), 1, label, **attrs)[0]

    def node(self, op_type: str, inputs: list[str], outputs: int, label: str | None = None,
             **attrs: object) -> list[str]:
        """The node's outputs; its name is the prefix and `label` (what a run-time check
        in it is about), else its first output's."""
        names = [self.fresh() for _ in range(outputs)]
        self.ctx.consumed |= set(names)
        name = self.prefix + label if label else names[0]
        self.ctx.import_node(0, helper.make_node(op_type, inputs, names, name=name,
                                                  **attrs), HELPER_OPSET)
        return names

    def value(self, name: str) -> SSAValue:
        return cast(SSAValue, self.ctx.values[name])

    def packed(self, names: list[str], element: Attribute, rank: int | None
               ) -> PackedSequence:
        return PackedSequence.of([self.value(n) for n in names], element, rank)

    def index(self, name: str) -> str:
        """A position (one integer) as a scalar int64."""
        return self("Reshape", self("Cast", name, to=onnx.TensorProto.INT64), self.ints())

    def at(self, tensor: str, position: str) -> str:
        """tensor[position] of a 1-D tensor (a sequence's offsets: checked to be a
        position in the sequence), a 1-element 1-D tensor."""
        return self("Unsqueeze", self("Gather", tensor, position, label="position"),
                    self.ints(0))


def pack(e: Emit, seq: StaticSequence) -> PackedSequence:
    """A sequence known when importing as a packed one."""
    ranks = {rank_of(t) for t in seq.elements}
    rank = ranks.pop() if len(ranks) == 1 else NO_ELEMENTS if not ranks else None
    if not seq.elements:
        return empty(e, seq.element)
    names = [e.bind(t) for t in seq.elements]
    flat = [e("Reshape", n, e.ints(-1)) for n in names]
    sizes = [e("ReduceProd", e("Shape", n), keepdims=1) for n in names]
    offsets = e("CumSum", e("Concat", e.ints(0), *sizes, axis=0), e.ints(0))
    dims = e("Concat", e.const(np.zeros(0, np.int64)),
             *(e("Shape", n) for n in names), axis=0)
    dim_offsets = e.ints(*np.cumsum([0, *(rank_of(t) for t in seq.elements)]).tolist())
    return e.packed([e("Concat", *flat, axis=0), offsets, dims, dim_offsets],
                    seq.element, rank)


def as_packed(e: Emit, seq: Sequence) -> PackedSequence:
    """`seq` packed (itself when it is already)."""
    return seq if isinstance(seq, PackedSequence) else pack(e, seq)


def length(e: Emit, seq: PackedSequence) -> str:
    """The sequence's length, a scalar int64."""
    return e("Sub", e("Size", e.bind(seq.offsets)), e.scalar(1))


def element_at(e: Emit, seq: PackedSequence, position: str, rank: int) -> str:
    """The element at `position` (ONNX's: negative counts from the back), of `rank`."""
    data, offsets, dims, dim_offsets = (e.bind(t) for t in seq.tensors)
    p = e.index(position)

    def span(bounds: str) -> tuple[str, str]:
        first = e("Slice", bounds, e.ints(0), e.ints(-1))
        rest = e("Slice", bounds, e.ints(1), e.ints(_END))
        return e.at(first, p), e.at(rest, p)

    start, end = span(offsets)
    shape_start, shape_end = span(dim_offsets)
    shape = e("Reshape", e("Slice", dims, shape_start, shape_end), e.ints(rank),
              label=f"element of rank {rank}")
    return e("Reshape", e("Slice", data, start, end), shape, allowzero=1)


def insert(e: Emit, seq: PackedSequence, tensor: str, position: str | None) -> PackedSequence:
    """The sequence with `tensor` inserted before `position` (at the back when None)."""
    data, offsets, dims, dim_offsets = (e.bind(t) for t in seq.tensors)
    n = length(e, seq)
    if position is None:
        p = n
    else:  # in [-n, n]; anything else becomes n + 1, which the Gathers below reject
        p, zero = e.index(position), e.scalar(0)
        p = e("Where", e("Less", p, zero), e("Add", p, n), p)
        p = e("Where", e("Less", p, zero), e("Add", n, e.scalar(1)), p)
    at = e("Unsqueeze", p, e.ints(0))
    after = e("Add", at, e.ints(1))
    t_rank = rank_of(e.value(tensor))

    def spliced(values: str, bounds: str, part: str, size: str) -> tuple[str, str]:
        cut = e.at(bounds, p)
        joined = e("Concat", e("Slice", values, e.ints(0), cut), part,
                   e("Slice", values, cut, e.ints(_END)), axis=0)
        moved = e("Concat", e("Slice", bounds, e.ints(0), after),
                  e("Add", e("Slice", bounds, at, e.ints(_END)), size), axis=0)
        return joined, moved

    shape = e("Shape", tensor)
    new_data, new_offsets = spliced(data, offsets, e("Reshape", tensor, e.ints(-1)),
                                    e("ReduceProd", shape, keepdims=1))
    new_dims, new_dim_offsets = spliced(dims, dim_offsets, shape, e.ints(t_rank))
    rank = joined_rank(seq.rank, t_rank)
    return e.packed([new_data, new_offsets, new_dims, new_dim_offsets], seq.element, rank)


def erase(e: Emit, seq: PackedSequence, position: str | None) -> PackedSequence:
    """The sequence without the element at `position` (the last when None)."""
    data, offsets, dims, dim_offsets = (e.bind(t) for t in seq.tensors)
    p = e.index(position) if position is not None else e.scalar(-1)
    n = length(e, seq)
    at = e("Unsqueeze", e("Where", e("Less", p, e.scalar(0)), e("Add", p, n), p), e.ints(0))
    after = e("Add", at, e.ints(1))

    def cut(values: str, bounds: str) -> tuple[str, str]:
        first = e("Slice", bounds, e.ints(0), e.ints(-1))
        rest = e("Slice", bounds, e.ints(1), e.ints(_END))
        start, end = e.at(first, p), e.at(rest, p)  # the Gathers check the position
        kept = e("Concat", e("Slice", values, e.ints(0), start),
                 e("Slice", values, end, e.ints(_END)), axis=0)
        moved = e("Concat", e("Slice", bounds, e.ints(0), at),
                  e("Sub", e("Slice", bounds, after, e.ints(_END)), e("Sub", end, start)),
                  axis=0)
        return kept, moved

    new_data, new_offsets = cut(data, offsets)
    new_dims, new_dim_offsets = cut(dims, dim_offsets)
    return e.packed([new_data, new_offsets, new_dims, new_dim_offsets], seq.element,
                    seq.rank)


def require(e: Emit, holds: str, value: str, what: str) -> str:
    """`value` unchanged, computed only after a check that fails at run time unless
    `holds` (a bool) is true: a Gather of position 1 from one element, named `what`."""
    checked = e("Gather", e.ints(0), e("Where", holds, e.scalar(0), e.scalar(1)), label=what)
    return e("Reshape", value, e("Add", e("Shape", value), checked), allowzero=1)


# -- the ops with a loop in their meaning, as ONNX Loops over positions -------------------

def loop_body(e: Emit, body_nodes: list[onnx.NodeProto], step: str, carried_in: list[str],
              outputs: list[str], initializers: list[onnx.TensorProto] | None = None
              ) -> onnx.GraphProto:
    """The body of a Loop that runs to its trip count: its iteration number named `step`,
    its carried values `carried_in`, its `outputs` the next carried values then the
    stacked ones."""
    cond, keep = e.fresh(), e.fresh()
    return helper.make_graph(
        [helper.make_node("Identity", [cond], [keep]), *body_nodes], e.fresh(),
        [helper.make_tensor_value_info(step, onnx.TensorProto.INT64, []),
         helper.make_tensor_value_info(cond, onnx.TensorProto.BOOL, []),
         *(helper.make_value_info(n, onnx.TypeProto()) for n in carried_in)],
        [helper.make_tensor_value_info(keep, onnx.TensorProto.BOOL, []),
         *(helper.make_value_info(n, onnx.TypeProto()) for n in outputs)],
        initializer=initializers)


def loop_over(e: Emit, count: str, carried: list[str], body_nodes: list[onnx.NodeProto],
              step: str, carried_in: list[str], carried_out: list[str],
              initializers: list[onnx.TensorProto] | None = None,
              scans: list[str] | None = None) -> list[str]:
    """An ONNX Loop of `count` iterations (its iteration number named `step` in the body)
    carrying `carried` (named `carried_in` in the body, `carried_out` after it) and
    stacking the body's values `scans` (one row per iteration); its results."""
    outputs = [*carried_out, *(scans or [])]
    body = loop_body(e, body_nodes, step, carried_in, outputs, initializers)
    return e.node("Loop", [count, e.const(np.array(True)), *carried], len(outputs), body=body)


def concat_from(e: Emit, seq: PackedSequence, axis: int, new_axis: bool) -> str:
    """ConcatFromSequence: the first element, then each next one concatenated to it."""
    name = e.bind(seq)
    first = e("SequenceAt", name, e.scalar(0))
    i, acc, nxt = e.fresh(), e.fresh(), e.fresh()
    at, element, out = e.fresh(), e.fresh(), e.fresh()
    one = e.scalar(1)
    nodes = [helper.make_node("Add", [i, one], [at]),
             helper.make_node("SequenceAt", [name, at], [element])]
    if new_axis:
        first = e("Unsqueeze", first, e.ints(axis))
        nodes.append(helper.make_node("Unsqueeze", [element, e.ints(axis)], [nxt]))
        element = nxt
    nodes.append(helper.make_node("Concat", [acc, element], [out], axis=axis))
    count = e("Sub", length(e, seq), one)
    return loop_over(e, count, [first], nodes, i, [acc], [out])[0]


def split_to(e: Emit, x: str, starts: str, ends: str, count: str, axis: int,
             squeeze: bool, element: Attribute) -> PackedSequence:
    """SplitToSequence's parts: x[starts[i]:ends[i]] along `axis` for i < count (squeezed
    if `squeeze`), a sequence."""
    i, acc, out = e.fresh(), e.fresh(), e.fresh()
    start, end, part, squeezed = e.fresh(), e.fresh(), e.fresh(), e.fresh()
    zero = e.ints(0)
    axes = e.ints(axis)
    nodes = [helper.make_node("Gather", [starts, i], [start + "s"]),
             helper.make_node("Unsqueeze", [start + "s", zero], [start]),
             helper.make_node("Gather", [ends, i], [end + "s"]),
             helper.make_node("Unsqueeze", [end + "s", zero], [end]),
             helper.make_node("Slice", [x, start, end, axes], [part])]
    if squeeze:
        nodes.append(helper.make_node("Squeeze", [part, axes], [squeezed]))
        part = squeezed
    nodes.append(helper.make_node("SequenceInsert", [acc, part], [out]))
    result = loop_over(e, count, [e.bind(empty(e, element))], nodes, i, [acc], [out])[0]
    return cast(PackedSequence, e.ctx.values[result])


def sequence_map(e: Emit, inputs: list[str], sequences: list[bool], body: onnx.GraphProto,
                 elements: list[Attribute]) -> list[PackedSequence]:
    """SequenceMap: per position of the (packed) sequence inputs, the body on their
    elements and the tensor inputs; each output inserted into a sequence of `elements`."""
    first = cast(PackedSequence, e.ctx.values[inputs[0]])
    i = e.fresh()
    ins = [e.fresh() for _ in body.output]
    outs = [e.fresh() for _ in body.output]
    nodes = [helper.make_node("SequenceAt" if seq else "Identity",
                              [name, i] if seq else [name], [vi.name])
             for name, seq, vi in zip(inputs, sequences, body.input, strict=True)]
    nodes += body.node
    nodes += [helper.make_node("SequenceInsert", [acc, o.name], [out])
              for acc, o, out in zip(ins, body.output, outs, strict=True)]
    results = loop_over(e, length(e, first), [e.bind(empty(e, t)) for t in elements],
                         nodes, i, ins, outs, list(body.initializer))
    return [cast(PackedSequence, e.ctx.values[r]) for r in results]


def empty(e: Emit, element: Attribute) -> PackedSequence:
    """A sequence of no `element` tensors."""
    none = e.const(np.zeros(0, np.int64))
    return e.packed([e.const(np.zeros(0, G.numpy_dtype(element))),
                     e.ints(0), none, e.ints(0)], element, NO_ELEMENTS)

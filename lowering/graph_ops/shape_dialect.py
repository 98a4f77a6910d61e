"""`shape.of` → scalar index arithmetic on the input's `memref.dim`s.

The map is evaluated with the same `Dim` arithmetic as the graph ops' shape functions
(static dims fold to constants, dynamic ones become `arith` ops on `index` values), so
no kernel ever computes a shape. Where it is evaluated depends on its users:

  - every user takes it as its shape operand (Reshape, Expand, ConstantOfShape), or as
    a scalar operand of Range: the `shape.of` is inlined (`_evaluated_by_users`), has no
    buffer, and each user evaluates the map on the source tensor's dims where it needs
    the sizes or values (`inline_shape`);
  - some user needs the i64 tensor itself (it is returned, or feeds an op that reads its
    data): the entries are stored into a small integer buffer, which the users read.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from infer.dialects import graph, shape
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, inlined_if, lowers
from infer.lowering.loop_builder import storage_type

# Ops whose lowering evaluates a `shape.of` fed to them, by the indices of such operands
# (Range's start, limit and delta are scalars, a 0-d `shape.of` each).
EVALUATES_SHAPE_OPERAND: dict[type[Operation], tuple[int, ...]] = {
    graph.ReshapeOp: (1,),
    graph.ExpandOp: (1,),
    graph.ConstantOfShapeOp: (0,),
    graph.RangeOp: (0, 1, 2),
}


@inlined_if
def _evaluated_by_users(op: Operation) -> bool:
    """Whether `op` is a `shape.of` that every user evaluates itself (no buffer)."""
    return isinstance(op, shape.OfOp) and all(
        use.index in EVALUATES_SHAPE_OPERAND.get(type(use.operation), ())
        for use in op.result.uses
    )


def inline_shape(s: Lowering, v: SSAValue) -> list[Dim] | None:
    """The entries of the shape operand `v` (as the user's lowering sees it) when it is an
    inlined `shape.of`: the map evaluated here on the source buffer's dims, ints where
    static and `memref.dim` + index arithmetic where dynamic. None for any other value."""
    if v not in s.inlined:
        return None
    producer, bufs = s.inlined[v]
    if not isinstance(producer, shape.OfOp):
        return None
    return producer.evaluate(s.b.dims(bufs[0]))


@lowers(shape.OfOp)
def _shape_of(s: Lowering, op: shape.OfOp, ins: list[SSAValue]) -> list[SSAValue]:
    """A `shape.of` some user needs as a tensor: its entries stored into a buffer."""
    b = s.b
    t = cast(TensorType, op.result.type)
    element = storage_type(t.element_type)
    out = s.alloc(list(t.get_shape()), t.element_type)
    for k, d in enumerate(op.evaluate(b.dims(ins[0]))):
        v = b.const(d, element) if isinstance(d, int) else \
            b.insert(arith.IndexCastOp(b.idx(d), element)).results[0]
        b.store(v, out, [k] if t.get_shape() else [])
    return [out]

"""`shape.of` → scalar index arithmetic on the input's `memref.dim`s, stored into a small
integer buffer.

The map is evaluated with the same `Dim` arithmetic as the graph ops' shape functions
(static dims fold to constants, dynamic ones become `arith` ops on `index` values), so
no kernel ever computes a shape: consumers (Reshape, ConstantOfShape) read the entries.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from infer.dialects import shape
from infer.lowering.graph_to_loops import Lowering, LoweringFn
from infer.lowering.loop_builder import storage_type


def _shape_of(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[SSAValue]:
    assert isinstance(op, shape.OfOp)
    b = s.b
    t = cast(TensorType, op.result.type)
    element = storage_type(t.element_type)
    out = s.alloc(list(t.get_shape()), t.element_type)
    for k, d in enumerate(op.evaluate(b.dims(ins[0]))):
        v = b.const(d, element) if isinstance(d, int) else \
            b.insert(arith.IndexCastOp(b.idx(d), element)).results[0]
        b.store(v, out, [k] if t.get_shape() else [])
    return [out]


LOWERINGS: dict[type[Operation], LoweringFn] = {
    shape.OfOp: _shape_of,
}

"""`graph.constant` → a `memref.global` holding its data (the weights), read in place."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, lowers


@lowers(graph.ConstantOp)
def _constant(s: Lowering, op: graph.ConstantOp, ins: list[SSAValue]) -> list[SSAValue]:
    if op.value is None:
        raise UnsupportedError(
            "a graph.constant was printed with elided weights and has no data; "
            "print with --keep-weights to compile it"
        )
    t = op.output.type
    assert isinstance(t, TensorType)
    if 0 in t.get_shape():  # nothing to read (e.g. empty axes); a global would need data
        return [s.alloc(list(t.get_shape()), t.element_type)]
    return [s.global_constant(op.value)]

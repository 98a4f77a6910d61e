"""If outputs whose branches give different ranks.

ONNX lets an If's branches give tensors of different ranks: the output has the rank of
the branch taken. A compiled function has one type per value, so an output whose ranks
differ is refused, with one exception that ONNX's own function bodies produce (AffineGrid
gives a scalar step in one branch and a [1] in the other): the higher-rank value is the
lower-rank one with leading dims of 1 (the same elements). The If's result then takes the
higher rank (the other branch's value unsqueezed to it), which is exact for a consumer
whose result cannot tell the two apart:

  * an elementwise op that broadcasts it against another operand of at least that rank
    (numpy's broadcasting prepends the 1s itself), and
  * CastLike's second operand (only its element type is read).

The importer keeps such results as rank choices and refuses any other use, a graph output
and a Loop or Scan body's output among them. A branch of an enclosing If may give one: the
enclosing If's result is one too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

import onnx
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, SSAValue

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import OpBuilder
from infer.frontend.onnx_values import Value

# ONNX's elementwise ops whose result's shape is all operands' broadcast shape.
BROADCASTING = frozenset({
    "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Sum", "Mean", "Equal", "Less",
    "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or", "Xor", "Where", "BitShift",
    "BitwiseAnd", "BitwiseOr", "BitwiseXor"})


@dataclass(frozen=True)
class RankChoice:
    """An If result whose branches give ranks `ranks` (lower, higher): where it comes
    from, for the error of a use that depends on the rank."""

    node: str  # "If node 'name'" or "If node #i"
    output: str
    ranks: tuple[int, int]

    def refusal(self) -> str:
        low, high = self.ranks
        return (f"'{self.output}', output of {self.node}, has rank {low} or {high} by the "
                "branch taken")


def widened(a: TensorType, b: TensorType) -> int | None:
    """Which of two branch types (0 or 1) is lower in rank when it is the other with
    leading dims of 1 dropped (the other dims joined as `G.joined_type` does), else None."""
    if a.element_type != b.element_type or a.get_num_dims() == b.get_num_dims():
        return None
    low, high = (0, 1) if a.get_num_dims() < b.get_num_dims() else (1, 0)
    lo, hi = (a, b)[low], (a, b)[high]
    extra = hi.get_num_dims() - lo.get_num_dims()
    if any(d != 1 for d in hi.get_shape()[:extra]):
        return None
    padded = TensorType(lo.element_type, [1] * extra + list(lo.get_shape()))
    return low if G.joined_type([padded, hi]) is not None else None


def unsqueezed(block: Block, value: SSAValue, rank: int) -> SSAValue:
    """`value` with leading dims of 1 up to `rank`, at the end of `block` (before its
    terminator is added)."""
    extra = rank - cast(TensorType, value.type).get_num_dims()
    b = OpBuilder(block, 1, [True])
    return cast(SSAValue, b.emit1(G.UnsqueezeOp, value, b.ints(list(range(extra)))))


def refused_use(node: onnx.NodeProto, values: dict[str, Value],
                initializers: Mapping[str, onnx.TensorProto],
                choices: dict[SSAValue, RankChoice]) -> str | None:
    """Why `node` cannot read a rank choice among its inputs (None when it reads none or
    its result does not depend on the rank: the module docstring). An initializer not
    yet used is not among `values`: its rank is its dims'."""
    chosen = [(k, v) for k, n in enumerate(node.input)
              if isinstance(v := values.get(n), SSAValue) and v in choices]
    if not chosen:
        return None
    if node.op_type == "CastLike" and [k for k, _ in chosen] == [1]:
        return None
    if node.op_type in BROADCASTING:
        ranks = [_rank(n, values, initializers) for n in node.input
                 if n and not (isinstance(values.get(n), SSAValue) and values[n] in choices)]
        need = max(cast(TensorType, v.type).get_num_dims() for _, v in chosen)
        if any(r is not None and r >= need for r in ranks):
            return None
    return f"input {choices[chosen[0][1]].refusal()}, and this op's result depends on which"


def _rank(name: str, values: dict[str, Value],
          initializers: Mapping[str, onnx.TensorProto]) -> int | None:
    """The rank of the tensor `name` (None when it is not one: a sequence...)."""
    v = values.get(name)
    if isinstance(v, SSAValue) and isinstance(v.type, TensorType):
        return v.type.get_num_dims()
    if v is None and name in initializers:
        return len(initializers[name].dims)
    return None

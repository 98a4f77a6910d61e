"""`plan-loops{outline=B}`: how graph-to-loops will lower each op, decided here and
written on the op, so that `infer-opt` shows what will run (one pass decides, the lowering
applies, each tested alone, as `select-conv-tile` does for the register tile):

    %0 = graph.add %a, %b {lowering = "in_user"} : ...   computed in its user's loop nest
    %1 = graph.relu %0 : ...                             lowered where it stands
    %2 = graph.conv %x, %w {lowering = "kernel"} : ...   a call to a shared kernel

`in_user`: the op is computed inside its users' lowerings and gets no buffer, wherever its
family allows it (`@inlined_if`): an elementwise op in the loop nest of its only reader,
elementwise and of its shape, so a chain of them becomes one loop nest; a `shape.of`
whose users all evaluate it on the source's dims.
`kernel` (with `outline`): an op of a class registered with `outline=True` (convs, pools,
matmuls) whose operands all have buffers becomes a call to one private function per
distinct signature. A CNN repeats the same conv many times; LLVM then compiles each loop
nest once (resnet50 at level 3: compile time halved). Without `outline`, loop nests stay
inline, easier to read in tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from infer.lowering.graph_ops import (
    IN_USER,
    KERNEL,
    LOWERING_ATTR,
    OUTLINED,
    may_compute_in_users,
)


def plan_ops(ops: Iterable[Operation], outline: bool) -> None:
    """Write (or clear) the `lowering` mark of each op of one function body."""
    ops = list(ops)
    for op in ops:
        op.attributes.pop(LOWERING_ATTR, None)
        for region in op.regions:  # the branches of graph.if: planned on their own
            plan_ops(region.block.ops, outline)
    # A value read inside a region is computed where it stands (the region's ops are
    # lowered on their own).
    in_user = {op for op in ops if may_compute_in_users(op) and all(
        u.operation.parent_block() is op.parent_block() for r in op.results for u in r.uses)}
    for op in in_user:
        op.attributes[LOWERING_ATTR] = StringAttr(IN_USER)
    if not outline:
        return
    for op in ops:
        # A kernel takes buffers: an operand computed in this op's lowering has none.
        if type(op) in OUTLINED and not any(v.owner in in_user for v in op.operands):
            op.attributes[LOWERING_ATTR] = StringAttr(KERNEL)


@dataclass(frozen=True)
class PlanLoopsPass(ModulePass):
    """Mark the ops that graph-to-loops computes in their users or outlines (module doc)."""

    name = "plan-loops"

    outline: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in op.body.block.ops:
            if isinstance(f, func.FuncOp) and f.body.blocks:
                plan_ops(f.body.block.ops, self.outline)

"""`graph.if` as blocks of the function.

    cf.cond_br %c, ^then, ^else
  ^then:  the then region's ops lowered ...   cf.br ^merge(%t : memref<?x4xf32>)
  ^else:  the else region's ops lowered ...   cf.br ^merge(%e : memref<?x4xf32>)
  ^merge(%y: memref<?x4xf32>):  the rest of the function

Blocks rather than `scf.if` because a run-time check inside a branch ends its block with
a branch to the function's failing path (runtime_checks), which an `scf.if` region
cannot do. Each branch gives fresh buffers (copies of what it only reads, such as the
function's values it captures) that the merge block's arguments own from then on.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import cf, memref
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, SSAValue
from xdsl.rewriter import InsertPoint

from infer.dialects import graph
from infer.lowering.graph_ops.base import Lowering, lowers, memref_type


@lowers(graph.IfOp)
def _if(s: Lowering, op: graph.IfOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    emit = s.emit_region  # (a branch's own ifs set it anew)
    assert emit is not None, "graph.if is lowered by graph-to-loops' emission walk"
    cond = ins[0]
    c = b.load(cond, [0] * len(cast(MemRefType, cond.type).get_shape()))
    region = b.point.block.parent
    assert region is not None
    merge = Block(arg_types=[memref_type(r.type) for r in op.results])
    branches = [Block(), Block()]
    b.insert(cf.ConditionalBranchOp(c, branches[0], [], branches[1], []))
    checks = b.checks
    done = set(checks.done) if checks is not None else set()
    for block, branch in zip(branches, op.branches(), strict=True):
        region.add_block(block)
        b.point = InsertPoint.at_end(block)
        if checks is not None:  # a check made in one branch does not hold in the other
            checks.done = set(done)
        results = emit(list(branch.block.ops), set(s.owned))
        # Owned by the merge block's arguments from here on: not freed on a failing path
        # of the other branch or later.
        s.freed.update(results)
        results = [v if v.type == t else b.insert(memref.CastOp.get(v, t)).results[0]
                   for v, t in zip(results, merge.arg_types, strict=True)]
        b.insert(cf.BranchOp(merge, *results))
    if checks is not None:
        checks.done = done
    region.add_block(merge)
    b.point = InsertPoint.at_end(merge)
    s.owned.update(merge.args)
    return list(merge.args)

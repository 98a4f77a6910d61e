"""Running a set of rewrite patterns over a module, as every graph transform does: xDSL's
greedy walker, with the source location of a replaced op (its ONNX node name, set by the
importer) kept on the ops whose results replace it, so that errors and run-time checks
of later stages still name the node."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp, UnknownLoc
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
)


def _keep_location(op: Operation, new_results: Sequence[SSAValue | None]) -> None:
    """A new op takes the location of the op it replaces, or of the op of its own kind
    that it absorbs with it (a conv with the relu after it is still the conv's node)."""
    for r in new_results:
        owner = r.owner if r is not None else None
        if not isinstance(owner, Operation) or not isinstance(owner.location, UnknownLoc):
            continue
        absorbed = [v.owner for v in op.operands
                    if isinstance(v.owner, Operation) and v.owner.name == owner.name]
        owner.location = absorbed[0].location if absorbed else op.location


def rewrite_module(module: ModuleOp, patterns: Sequence[RewritePattern]) -> bool:
    """Apply `patterns` greedily until none applies; whether anything changed."""
    listener = PatternRewriterListener(operation_replacement_handler=[_keep_location])
    walker = PatternRewriteWalker(GreedyRewritePatternApplier(list(patterns)),
                                  listener=listener)
    return walker.rewrite_module(module)

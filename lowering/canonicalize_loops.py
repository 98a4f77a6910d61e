"""canonicalize-loops: xDSL's `canonicalize` for the loop IR graph-to-loops makes, without
its constant hoisting.

xDSL's canonicalize moves the constants of a loop body out of the loop (scf.for's
RehoistConstInLoops), one loop level per round of the whole module, and repeats rounds
until nothing changes: on resnet50 that was six rounds and 70% of the pass. Constants
left inside a loop cost nothing (an LLVM constant is an operand, not an instruction);
CSE merges those of one block. Every other pattern, the folding and the dead-code
removal are canonicalize's.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.traits import HasCanonicalizationPatternsTrait
from xdsl.transforms.canonicalization_patterns.scf import RehoistConstInLoops
from xdsl.transforms.dead_code_elimination import region_dce


class _Canonicalization(RewritePattern):
    """The op's canonicalization patterns, but the constant hoisting."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        patterns = [p for trait in op.get_traits_of_type(HasCanonicalizationPatternsTrait)
                    for p in trait.get_patterns(type(op))
                    if not isinstance(p, RehoistConstInLoops)]
        if len(patterns) == 1:
            patterns[0].match_and_rewrite(op, rewriter)
        elif patterns:
            GreedyRewritePatternApplier(patterns).match_and_rewrite(op, rewriter)


@dataclass(frozen=True)
class CanonicalizeLoopsPass(ModulePass):
    name = "canonicalize-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = GreedyRewritePatternApplier([_Canonicalization()], ctx=ctx,
                                              folding_enabled=True)
        PatternRewriteWalker(pattern, post_walk_func=region_dce).rewrite_module(op)

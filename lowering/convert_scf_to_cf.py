"""`convert-scf-to-cf`: xDSL's lowering of scf.for / scf.if / scf.index_switch to branches,
keeping a loop's NO_UNROLL_ATTR mark on its back-edge branch (where LLVM looks for it)."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    op_type_rewrite_pattern,
)
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering, SwitchLowering

from infer.abi import NO_UNROLL_ATTR


class MarkedForLowering(ForLowering):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, for_op: scf.ForOp, rewriter: PatternRewriter, /):
        mark = for_op.attributes.get(NO_UNROLL_ATTR)
        entry, header = for_op.parent_block(), for_op.body.first_block
        super().match_and_rewrite(for_op, rewriter)
        if mark is None or header is None:
            return
        # The body's first block became the loop header: of the branches to it, the one
        # outside the block the loop was in is the back edge.
        for use in header.uses:
            if isinstance(use.operation, cf.BranchOp) and use.operation.parent_block() is not entry:
                use.operation.attributes[NO_UNROLL_ATTR] = mark


@dataclass(frozen=True)
class ConvertScfToCfPass(ModulePass):
    name = "convert-scf-to-cf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier(
            [SwitchLowering(), IfLowering(), MarkedForLowering()])).rewrite_module(op)

"""`convert-cf-to-llvm`: cf.br / cf.cond_br to llvm.br / llvm.cond_br.

Block arguments of branch targets take their LLVM types here (index -> i64, memref ->
descriptor); an unrealized cast at the top of each block hands the old type to users not
converted yet. Entry blocks belong to `convert-func-to-llvm`.
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf, llvm
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter

from infer.abi import NO_UNROLL_ATTR
from infer.lowering.llvm_descriptor import Emitter, convert_type


def convert_block_arguments(block: Block) -> None:
    """Gives `block`'s arguments their LLVM types, casting back for existing users."""
    point = InsertPoint.at_start(block)
    for arg in list(block.args):
        original = arg.type
        target = convert_type(original)
        if target == original:
            continue
        new_arg = Rewriter.replace_value_with_new_type(arg, target)
        cast = UnrealizedConversionCastOp.get([new_arg], [original])
        Rewriter.insert_op(cast, point)
        new_arg.replace_uses_with_if(cast.results[0], lambda use, c=cast: use.operation is not c)


class BranchToLLVM(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        emit = Emitter(rewriter)
        match op:
            case cf.BranchOp():
                args = [emit.to_llvm(v) for v in op.arguments]
                new = llvm.BrOp(op.successor, *args)
                if NO_UNROLL_ATTR in op.attributes:  # a loop's back edge keeps its mark
                    new.attributes[NO_UNROLL_ATTR] = op.attributes[NO_UNROLL_ATTR]
                rewriter.replace(op, new)
            case cf.ConditionalBranchOp():
                then_args = [emit.to_llvm(v) for v in op.then_arguments]
                else_args = [emit.to_llvm(v) for v in op.else_arguments]
                new = llvm.CondBrOp(
                    emit.to_llvm(op.cond), op.then_block, then_args, op.else_block, else_args
                )
                rewriter.replace(op, new)
            case _:
                pass


@dataclass(frozen=True)
class ConvertCfToLLVMPass(ModulePass):
    name = "convert-cf-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        targets: dict[Block, None] = {}
        for inner in op.walk():
            if isinstance(inner, cf.BranchOp | cf.ConditionalBranchOp):
                targets.update(dict.fromkeys(inner.successors))
        for block in targets:
            convert_block_arguments(block)
        PatternRewriteWalker(BranchToLLVM(), apply_recursively=False).rewrite_module(op)

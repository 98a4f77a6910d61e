"""The compilation pipeline, stage by stage, each stage a list of named passes.

    ONNX ──import──► graph ──LOWER_TO_LOOPS──► memref + scf ──lower_to_llvm──► llvm ──► JIT

Every stage runs in-process on IR objects; `infer-opt -p` runs the same passes on text.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

from infer.passes import PASSES

# graph → buffers and loops, then the cleanups that make the loop IR readable and small.
LOWER_TO_LOOPS = ["graph-to-loops", "canonicalize", "cse"]


def make_passes(names: list[str]) -> list[ModulePass]:
    return [PASSES[n]()() for n in names]


def run_passes(module: ModuleOp, ctx: Context, names: list[str]) -> None:
    PassPipeline(tuple(make_passes(names))).apply(ctx, module)

"""The compilation pipeline, stage by stage, each stage a list of named passes.

    ONNX ──import──► graph ──graph-optimize──► graph ──LOWER_TO_LOOPS──► memref + scf
         ──lower_to_llvm──► llvm ──► JIT

Every stage runs in-process on IR objects; `infer-opt -p` runs the same passes on text.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

from infer.passes import PASSES


def graph_optimize_passes(level: int) -> list[str]:
    """The graph stage: `graph-optimize{level=N}` (nothing at level 0)."""
    if not 0 <= level <= 3:
        raise ValueError(f"opt_level must be 0..3, got {level}")
    return [f"graph-optimize{{level={level}}}"] if level else []


# graph → buffers and loops, then the cleanups that make the loop IR readable and small.
# Repeated kernels (the same conv many times) are outlined into shared functions.
LOWER_TO_LOOPS = ["graph-to-loops{outline=true}", "canonicalize", "cse"]


def make_passes(names: list[str]) -> list[ModulePass]:
    """Passes from their names, with options as in `-p`: `graph-optimize{level=1}`."""
    return list(PassPipeline.parse_spec(PASSES, ",".join(names)).passes) if names else []


def run_passes(module: ModuleOp, ctx: Context, names: list[str]) -> None:
    PassPipeline(tuple(make_passes(names))).apply(ctx, module)

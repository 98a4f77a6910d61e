"""`graph-optimize{level=N}`: the graph-level optimization pipeline, in onnxruntime's levels.

    level 0  nothing
    level 1  basic: first qnn-fold-qdq (DequantizeLinear → op → QuantizeLinear as qnn ops,
             before folding makes float constants of the dequantized weights; `qdq=false`
             skips it, as the compile pipeline does, which folds before qnn-canonicalize
             and must not make qnn ops after it), then constant folding (numpy), the ops'
             canonicalization patterns (identity/dropout, no-op cast/reshape, reshape and
             transpose chains, x+0, x*1, ...), CSE and DCE
    level 2  extended: level 1 + the fusion patterns of PATTERN_MODULES (conv/gemm
             epilogues, transformer patterns, shape-computation fusion)
    level 3  level 2, then layout: convs whose channels fill whole blocks of `block`
             channels switch to the blocked NCHWc layout, with the ops between them
             (transforms/layout.py)

Each round runs the basic patterns to a fixed point, then (level >= 2) the fusions with the
basic patterns beside them, each followed by CSE and DCE, until a round changes nothing:
folding after fusion matters (a fused conv's new weights are themselves foldable). The
layout phase runs once the fusions are done: fusion patterns match NCHW ops, and a conv
already wrapped in reorders would hide its BatchNormalization or activation from them.

The block is a target choice, so it is an option: the API passes the host's (one vector
register of f32, codegen/target.py); without it the pass uses nchwc_packing.BLOCK, 8
channels (AVX2).

    infer-opt model.onnx -p 'graph-optimize{level=1}'
    infer-opt model.onnx -p 'graph-optimize{level=3 block=16}'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    RewritePattern,
)
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.transforms.dead_code_elimination import region_dce

from infer.transforms import fusion, shape_fusion, transformer_fusion
from infer.transforms.constant_folding import folding_patterns
from infer.transforms.layout import check_block, layout_patterns
from infer.transforms.nchwc_packing import BLOCK
from infer.transforms.qnn_fold_qdq import fold_qdq
from infer.transforms.rewrite import rewrite_module

MAX_LEVEL = 3

# Modules contributing fusion patterns; each exports `patterns(level: int) ->
# list[RewritePattern]`.
PATTERN_MODULES = [fusion, transformer_fusion, shape_fusion]

# A safety net: every round must remove or rewrite something, so this is never reached
# on a sane pattern set; a pair of patterns undoing each other stops here.
MAX_ROUNDS = 16


def basic_patterns() -> list[RewritePattern]:
    """Level 1: folding, and every op's canonicalization patterns (through its traits)."""
    return [*folding_patterns(), CanonicalizationRewritePattern()]


def contributed_patterns(level: int) -> list[RewritePattern]:
    """The fusion patterns of every module in PATTERN_MODULES."""
    return [p for module in PATTERN_MODULES for p in module.patterns(level)]


def op_counts(module: ModuleOp) -> Counter[str]:
    """How many ops of each name the functions of `module` hold (their terminators aside)."""
    counts: Counter[str] = Counter()
    for f in module.body.block.ops:
        if isinstance(f, func.FuncOp):
            for op in f.walk():
                if op is not f and not isinstance(op, func.ReturnOp):
                    counts[op.name] += 1
    return counts


def _rewrite(module: ModuleOp, patterns: list[RewritePattern]) -> bool:
    changed = rewrite_module(module, patterns)
    before = sum(op_counts(module).values())
    cse(module)
    region_dce(module.body)
    return changed or sum(op_counts(module).values()) != before


def check_options(level: int, block: int, what: str = "graph-optimize") -> None:
    """Refuse a level or block that `what` (a pass taking them) cannot run."""
    if not 0 <= level <= MAX_LEVEL:
        raise ValueError(f"{what}: level must be 0..{MAX_LEVEL}, got {level}")
    check_block(block)


def optimize(module: ModuleOp, level: int = 2, block: int = BLOCK, qdq: bool = True) -> None:
    """Optimize the graph-level `module` in place at `level` (0..3); level 3 blocks convs
    by `block` channels; with `qdq`, QDQ patterns become qnn ops first."""
    check_options(level, block)
    if level == 0:
        return
    if qdq:
        fold_qdq(module)
    basic = basic_patterns()
    extended = [*contributed_patterns(level), *basic] if level >= 2 else []
    for _ in range(MAX_ROUNDS):
        changed = _rewrite(module, basic)
        if extended:
            changed |= _rewrite(module, extended)
        if not changed:
            break
    if level >= 3:
        optimize_layout(module, block)


def optimize_layout(module: ModuleOp, block: int = BLOCK) -> None:
    """The layout phase of level 3: convs blocked by `block` channels, reorders moved and
    cancelled."""
    check_block(block)
    patterns = [*layout_patterns(block), *basic_patterns()]
    for _ in range(MAX_ROUNDS):
        if not _rewrite(module, patterns):
            return


@dataclass(frozen=True)
class NchwcLayoutPass(ModulePass):
    """The layout phase of graph-optimize level 3 alone (with the basic patterns that
    cancel reorder pairs and clean up)."""

    name = "nchwc-layout"

    block: int = BLOCK  # channels per block

    def __post_init__(self) -> None:
        check_block(self.block)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        optimize_layout(op, self.block)


@dataclass(frozen=True)
class GraphOptimizePass(ModulePass):
    """Graph optimization at `level` 0 (none), 1 (basic), 2 (extended), 3 (layout, convs
    blocked by `block` channels); `qdq`: fold QDQ patterns into qnn ops first."""

    name = "graph-optimize"

    level: int = 2
    block: int = BLOCK
    qdq: bool = True

    def __post_init__(self) -> None:
        check_options(self.level, self.block)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        optimize(op, self.level, self.block, self.qdq)

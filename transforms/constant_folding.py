"""Constant folding: a graph op whose operands are all `graph.constant` becomes a constant.

The values come from the ops' numpy semantics (their `numpy` methods, called by
`dialects/graph/evaluate.py`). This also turns the light models' `ConstantOfShape` weights
into real constants: a fill that ran on every inference becomes a weight bound once.

    infer-opt model.onnx -p constant-folding
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
)

from infer.dialects import graph as G
from infer.dialects.graph.evaluate import can_evaluate, evaluate
from infer.transforms.rewrite import rewrite_module

# Folded results above this many elements (512 MiB of f32) stay computed at run time: a
# constant that size costs more memory than it saves. Below it, even a weight filled by
# ConstantOfShape (VGG19's 25088 x 4096 FC layer) is cheaper folded once than refilled on
# every run.
MAX_FOLDED_ELEMENTS = 2**27


def _fits(op: Operation, limit: int) -> bool:
    for r in op.results:
        t = r.type
        if not isinstance(t, TensorType) or not t.has_static_shape():
            return False
        if math.prod(t.get_shape()) > limit:
            return False
    return True


def _replace_with_constants(
    op: Operation, values: list[np.ndarray], rewriter: PatternRewriter
) -> None:
    consts = [G.ConstantOp(v) for v in values]
    for c, old in zip(consts, op.results, strict=True):
        c.output.name_hint = old.name_hint
    rewriter.replace(op, consts, [c.output for c in consts])


@dataclass
class FoldConstantOperands(RewritePattern):
    """# f(constant a, constant b, ...) -> constant f(a, b, ...)"""

    max_elements: int = MAX_FOLDED_ELEMENTS

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, G.ConstantOp) or not can_evaluate(op):
            return
        values = [G.constant_value(v) for v in op.operands]
        if any(v is None for v in values) or not _fits(op, self.max_elements):
            return
        try:
            results = evaluate(op, [v for v in values if v is not None])
        except (ValueError, ZeroDivisionError, FloatingPointError):
            return  # leave it to the kernel (and its run-time checks)
        _replace_with_constants(op, results, rewriter)


class FoldStaticShape(RewritePattern):
    """# shape(x: tensor<2x3xf32>) -> constant [2, 3] (only the dims it reads need be static);
    size(x: tensor<2x3xf32>) -> constant 6"""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, (G.ShapeOp, G.SizeOp)):
            return
        t = op.data.type
        assert isinstance(t, TensorType)
        dims = list(t.get_shape())
        if isinstance(op, G.SizeOp):
            if all(d >= 0 for d in dims):
                _replace_with_constants(op, [np.array(math.prod(dims), np.int64)], rewriter)
            return
        start, end = G.ShapeOp.bounds(op.properties, len(dims))
        picked = dims[start:end]
        if any(d < 0 for d in picked):
            return
        _replace_with_constants(op, [np.array(picked, dtype=np.int64)], rewriter)


def folding_patterns() -> list[RewritePattern]:
    return [FoldConstantOperands(), FoldStaticShape()]


@dataclass(frozen=True)
class ConstantFoldingPass(ModulePass):
    """Fold every graph op computable from constants, to a fixed point."""

    name = "constant-folding"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_module(op, folding_patterns())

"""Lowering of `graph.tree_ensemble`: blocks of rows in parallel; in a block tree by tree
(its nodes stay in cache for every row of the block), a few rows at a time walked together
from its root for its depth bound (a leaf's children are itself, so a
walk that reaches it early stays), each step one load of the child picked by how the
feature compares; then each leaf's weights folded into its row's targets. MIN and MAX
keep a flag per target for whether any leaf gave it a weight (a target none did is 0)."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, lowers, operand_element
from infer.lowering.graph_ops.gemm import row_tiles
from infer.lowering.graph_ops.index import as_dim, imin
from infer.lowering.loop_builder import Index, LoopBuilder, index

i8 = IntegerType(8)


def _at(b: LoopBuilder, buf: SSAValue, idx: list[SSAValue]) -> SSAValue:
    """An i64 element of `buf` as an index."""
    return b.insert(arith.IndexCastOp(b.load(buf, idx), index)).results[0]


# Rows walked side by side: independent chains of dependent loads, which the core
# overlaps (one walk alone waits on each load); rows per parallel block.
ROWS_TOGETHER = 4
BLOCK_ROWS = 64


@lowers(graph.TreeEnsembleOp)
def _tree_ensemble(s: Lowering, op: graph.TreeEnsembleOp, ins: list[SSAValue]
                   ) -> list[SSAValue]:
    b = s.b
    (out,) = s.alloc_results(op, ins)  # checks x's features against the nodes'
    x, feature, threshold, nxt, roots, depth, start, target, weight = ins
    rows, trees = b.dims(x)[0], b.dims(roots)[0]
    targets = op.targets.value.data
    aggregate = op.aggregate.data
    t = operand_element(op, 8)
    extreme = aggregate in ("MIN", "MAX")
    seen = s.alloc([rows, targets], i8) if extreme else None
    outcome = [b.idx(k) for k in range(len(graph.BRANCHES))]

    def step(r: SSAValue, n: SSAValue) -> SSAValue:
        """Node n's child for row r: next[n, k], k by how the feature compares."""
        v = b.load(x, [r, _at(b, feature, [n])])
        th = b.load(threshold, [n])
        k = outcome[3]
        for i, pred in reversed(list(enumerate(("olt", "oeq", "ogt")))):
            k = b.select(b.cmpf(pred, v, th), outcome[i], k)
        return _at(b, nxt, [n, k])

    def add_leaf(r: SSAValue, leaf: SSAValue) -> None:
        lo = _at(b, start, [leaf])
        hi = _at(b, start, [b.insert(arith.AddiOp(leaf, b.idx(1))).results[0]])
        with b.loop(Index(b, lo), Index(b, hi)) as e:
            k = _at(b, target, [e])
            w = b.load(weight, [e])
            acc = b.load(out, [r, k])
            if not extreme:
                b.store(b.add(acc, w), out, [r, k])
            else:
                assert seen is not None
                first = b.cmpi("eq", b.load(seen, [r, k]), b.const(0, i8))
                # onnxruntime's `w < score ? w : score` (MIN), `w > score ...` (MAX)
                better = b.cmpf("olt" if aggregate == "MIN" else "ogt", w, acc)
                take = b.insert(arith.OrIOp(first, better)).results[0]
                b.store(b.select(take, w, acc), out, [r, k])
                b.store(b.const(1, i8), seen, [r, k])

    def walk(tree: SSAValue, i: Dim, height: int) -> None:
        """One tree for rows i .. i + height, their walks interleaved."""
        at = [b.idx(as_dim(b, i) + h) for h in range(height)]
        root = _at(b, roots, [tree])
        leaves = b.reduce_loop(0, Index(b, _at(b, depth, [tree])), [root] * height,
                               lambda _, nodes: [step(r, n) for r, n in zip(at, nodes,
                                                                         strict=True)])
        for r, leaf in zip(at, leaves, strict=True):
            add_leaf(r, leaf)

    # a step is ~10 operations; trees of a forest are some tens of nodes deep at most
    work = BLOCK_ROWS * (trees if isinstance(trees, int) else 64) * 8 * 10
    blocks = (rows + (BLOCK_ROWS - 1)) // BLOCK_ROWS if isinstance(rows, int) else \
        (Index(b, b.idx(rows)) + (BLOCK_ROWS - 1)) // BLOCK_ROWS
    with b.parallel([blocks], work) as (block,):
        lo = Index(b, block) * BLOCK_ROWS
        hi = imin(b, lo + BLOCK_ROWS, rows)
        with b.loop(lo, hi) as r, b.loop(0, targets) as k:
            b.store(b.const(0.0, t), out, [r, k])
            if seen is not None:
                b.store(b.const(0, i8), seen, [r, k])
        # tree by tree over the block's rows: a tree's nodes stay in cache for them all
        with b.loop(0, trees) as tree:
            row_tiles(b, lo, hi, ROWS_TOGETHER, lambda i, h: walk(tree, i, h))
        if aggregate == "AVERAGE":
            count = b.insert(arith.IndexCastOp(b.idx(trees), IntegerType(64))).results[0]
            n_trees = b.insert(arith.SIToFPOp(count, t)).results[0]
            with b.loop(lo, hi) as r, b.loop(0, targets) as k:
                b.store(b.div(b.load(out, [r, k]), n_trees), out, [r, k])
    if seen is not None:
        s.free(seen)
    return [out]

"""Lowering of `graph.tree_ensemble`: the rows in parallel; per row, each tree walked from
its root for its depth bound (a leaf's children are itself, so a walk that reaches it
early stays), one select chain per step picking the child by how the feature compares;
then the leaf's weights folded into the row's targets. MIN and MAX keep a flag per target
for whether any leaf gave it a weight (a target none did is 0)."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.lowering.graph_ops.base import Lowering, lowers, operand_element
from infer.lowering.loop_builder import Index, LoopBuilder, index

i8 = IntegerType(8)


def _at(b: LoopBuilder, buf: SSAValue, idx: list[SSAValue]) -> SSAValue:
    """An i64 element of `buf` as an index."""
    return b.insert(arith.IndexCastOp(b.load(buf, idx), index)).results[0]


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
    zero = b.const(0.0, t)
    extreme = aggregate in ("MIN", "MAX")
    seen = s.alloc([rows, targets], i8) if extreme else None
    # a step is ~10 operations; trees of a forest are some tens of nodes deep at most
    work = max(1, (trees if isinstance(trees, int) else 64) * 8 * 10)
    with b.parallel([rows], work) as (r,):
        with b.loop(0, targets) as k:
            b.store(zero, out, [r, k])
            if seen is not None:
                b.store(b.const(0, i8), seen, [r, k])
        with b.loop(0, trees) as tree:

            def step(_: SSAValue, node: list[SSAValue]) -> list[SSAValue]:
                n = node[0]
                v = b.load(x, [r, _at(b, feature, [n])])
                th = b.load(threshold, [n])
                child = _at(b, nxt, [n, b.idx(3)])
                for k, pred in reversed(list(enumerate(("olt", "oeq", "ogt")))):
                    child = b.select(b.cmpf(pred, v, th), _at(b, nxt, [n, b.idx(k)]), child)
                return [child]

            root = _at(b, roots, [tree])
            (leaf,) = b.reduce_loop(0, Index(b, _at(b, depth, [tree])), [root], step)
            lo = _at(b, start, [leaf])
            hi = _at(b, start, [b.insert(arith.AddiOp(leaf, b.idx(1))).results[0]])
            with b.loop(Index(b, lo), Index(b, hi)) as e:
                k = _at(b, target, [e])
                w = b.load(weight, [e])
                acc = b.load(out, [r, k])
                if aggregate in ("SUM", "AVERAGE"):
                    b.store(b.add(acc, w), out, [r, k])
                else:
                    assert seen is not None
                    first = b.cmpi("eq", b.load(seen, [r, k]), b.const(0, i8))
                    # onnxruntime's `w < score ? w : score` (MIN), `w > score ...` (MAX)
                    better = b.cmpf("olt" if aggregate == "MIN" else "ogt", w, acc)
                    take = b.insert(arith.OrIOp(first, better)).results[0]
                    b.store(b.select(take, w, acc), out, [r, k])
                    b.store(b.const(1, i8), seen, [r, k])
        if aggregate == "AVERAGE":
            count = b.insert(arith.IndexCastOp(b.idx(trees), IntegerType(64))).results[0]
            n_trees = b.insert(arith.SIToFPOp(count, t)).results[0]
            with b.loop(0, targets) as k:
                b.store(b.div(b.load(out, [r, k]), n_trees), out, [r, k])
    if seen is not None:
        s.free(seen)
    return [out]

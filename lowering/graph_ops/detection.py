"""Lowering of NonMaxSuppression: per batch and class, the boxes sorted by score (a
stable merge sort), then one greedy pass keeping each candidate that no kept box
overlaps past the IoU threshold. Kept box indices go to a scratch [batches, classes, m]
buffer (m = min(boxes, max_output)), whose counts size the result, filled last.

The IoU is ONNX's reference arithmetic, operation for operation and without contraction
into FMAs, so that a ratio at the threshold decides as it does there."""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, TensorType, i64
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.sorting import argsort
from infer.lowering.loop_builder import Index, LoopBuilder, index

i1 = IntegerType(1)


class _Exact:
    """Float arithmetic with no fast-math flags (each operation rounded on its own)."""

    def __init__(self, b: LoopBuilder):
        self.b = b

    def add(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.b.insert(arith.AddfOp(x, y)).results[0]

    def sub(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.b.insert(arith.SubfOp(x, y)).results[0]

    def mul(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.b.insert(arith.MulfOp(x, y)).results[0]

    def div(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.b.insert(arith.DivfOp(x, y)).results[0]


def _or(b: LoopBuilder, *xs: SSAValue) -> SSAValue:
    acc = xs[0]
    for x in xs[1:]:
        acc = b.insert(arith.OrIOp(acc, x)).results[0]
    return acc


def _extent(b: LoopBuilder, f: _Exact, box: list[SSAValue], centered: bool, axis: int
            ) -> tuple[SSAValue, SSAValue]:
    """(min, max) of a box along x (axis 1) or y (axis 0)."""
    if centered:  # [x_center, y_center, width, height]
        c, half = box[1 - axis], f.div(box[3 - axis], b.const(2.0, box[0].type))
        return f.sub(c, half), f.add(c, half)
    lo, hi = box[axis], box[axis + 2]
    swap = b.cmpf("oge", lo, hi)  # the reference's max_min: (rhs, lhs) when lhs >= rhs
    return b.select(swap, hi, lo), b.select(swap, lo, hi)


def _suppresses(b: LoopBuilder, boxes: SSAValue, batch: SSAValue, i: SSAValue,
                j: SSAValue, centered: bool, threshold: SSAValue) -> SSAValue:
    """Whether boxes i and j of `batch` overlap with IoU > threshold (as i1)."""
    f = _Exact(b)
    b1 = [b.load(boxes, [batch, i, k]) for k in range(4)]
    b2 = [b.load(boxes, [batch, j, k]) for k in range(4)]
    (x1min, x1max), (x2min, x2max) = (_extent(b, f, bx, centered, 1) for bx in (b1, b2))
    (y1min, y1max), (y2min, y2max) = (_extent(b, f, bx, centered, 0) for bx in (b1, b2))
    ix_min, ix_max = b.max(x1min, x2min), b.min(x1max, x2max)
    iy_min, iy_max = b.max(y1min, y2min), b.min(y1max, y2max)
    inter = f.mul(f.sub(ix_max, ix_min), f.sub(iy_max, iy_min))
    area1 = f.mul(f.sub(x1max, x1min), f.sub(y1max, y1min))
    area2 = f.mul(f.sub(x2max, x2min), f.sub(y2max, y2min))
    union = f.sub(f.add(area1, area2), inter)
    zero = b.const(0.0, inter.type)
    # the reference's early "no"s; ordered compares are false for NaN, as its are
    no = _or(b, b.cmpf("ole", ix_max, ix_min), b.cmpf("ole", iy_max, iy_min),
             b.cmpf("ole", inter, zero), b.cmpf("ole", area1, zero),
             b.cmpf("ole", area2, zero), b.cmpf("ole", union, zero))
    over = b.cmpf("ogt", f.div(inter, union), threshold)
    return b.insert(arith.AndIOp(b.insert(arith.XOrIOp(no, b.const(1, i1))).results[0],
                                 over)).results[0]


def _scalar(b: LoopBuilder, buf: SSAValue) -> SSAValue:
    return b.load(buf, [0] * len(b.dims(buf)))


@lowers(graph.NonMaxSuppressionOp)
def _non_max_suppression(s: Lowering, op: graph.NonMaxSuppressionOp, ins: list[SSAValue]
                         ) -> list[SSAValue]:
    b = s.b
    s.out_dims(op, ins)  # checks the dims' relations
    boxes, scores = ins[0], ins[1]
    batches, n, _ = b.dims(boxes)
    classes = b.dims(scores)[1]
    centered = bool(op.center_point_box.value.data)
    limit = b.insert(arith.IndexCastOp(_scalar(b, ins[2]), index)).results[0]
    limit = b.insert(arith.MaxSIOp(limit, b.idx(0))).results[0]  # not positive: none
    m = Index(b, b.insert(arith.MinSIOp(limit, b.idx(n))).results[0])
    iou = _scalar(b, ins[3])
    score_min = _scalar(b, ins[4]) if len(ins) > 4 else None

    kept = s.alloc([batches, classes, m], i64)
    counts = s.alloc([batches, classes], i64)
    with b.loop_nest([batches, classes]) as (bi, ci):

        def before(p: SSAValue, q: SSAValue) -> SSAValue:
            return b.cmpf("ogt", b.load(scores, [bi, ci, p]), b.load(scores, [bi, ci, q]))

        order = argsort(s, n, before)

        def consider(t: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
            box = b.insert(arith.IndexCastOp(b.load(order, [t]), index)).results[0]
            room = b.cmpi("slt", c[0], b.idx(m))
            if score_min is not None:
                passes = b.cmpf("ogt", b.load(scores, [bi, ci, box]), score_min)
                room = b.insert(arith.AndIOp(room, passes)).results[0]

            def check(k: SSAValue, hit: list[SSAValue]) -> list[SSAValue]:
                other = b.insert(arith.IndexCastOp(b.load(kept, [bi, ci, k]), index))
                return [_or(b, hit[0], _suppresses(b, boxes, bi, box, other.results[0],
                                                   centered, iou))]

            # only the kept boxes are read: none when there is no room
            upto = b.select(room, c[0], b.idx(0))
            (hit,) = b.reduce_loop(0, Index(b, upto), [b.const(0, i1)], check)
            keep = b.insert(arith.AndIOp(room, b.insert(arith.XOrIOp(
                hit, b.const(1, i1))).results[0])).results[0]
            with b.if_(keep):
                b.store(b.insert(arith.IndexCastOp(box, i64)).results[0], kept, [bi, ci, c[0]])
            return [b.select(keep, b.insert(arith.AddiOp(c[0], b.idx(1))).results[0], c[0])]

        (count,) = b.reduce_loop(0, n, [b.idx(0)], consider)
        b.store(b.insert(arith.IndexCastOp(count, i64)).results[0], counts, [bi, ci])
        s.free(order)

    def count_at(bi: SSAValue, ci: SSAValue) -> SSAValue:
        return b.insert(arith.IndexCastOp(b.load(counts, [bi, ci]), index)).results[0]

    def add(ivs: list[SSAValue], c: list[SSAValue]) -> list[SSAValue]:
        return [b.insert(arith.AddiOp(c[0], count_at(*ivs))).results[0]]

    (total,) = b.fold([batches, classes], [b.idx(0)], add)
    t = cast(TensorType, op.selected.type)
    out = s.alloc(s.typed_dims([Index(b, total), 3], t), i64)

    def put(ivs: list[SSAValue], c: list[SSAValue]) -> list[SSAValue]:
        bi, ci = ivs
        with b.loop(0, Index(b, count_at(bi, ci))) as k:
            row = b.insert(arith.AddiOp(c[0], k)).results[0]
            for col, v in enumerate((bi, ci)):
                b.store(b.insert(arith.IndexCastOp(v, i64)).results[0], out, [row, col])
            b.store(b.load(kept, [bi, ci, k]), out, [row, 2])
        return [b.insert(arith.AddiOp(c[0], count_at(bi, ci))).results[0]]

    b.fold([batches, classes], [b.idx(0)], put)
    s.free(kept)
    s.free(counts)
    return [out]


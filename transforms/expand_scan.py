"""expand-scan: each `graph.scan` as the `graph.loop` that ONNX's definition of Scan
describes, before lowering.

    %s, %ys = graph.scan %s0, %xs {... scan_input_directions = array<i64: 1>,
                                       scan_output_axes = array<i64: 1> ...} {body}
  becomes
    %shape = graph.shape %xs
    %count = graph.gather %shape, <scan axis>           the trip count (the longest
                                                         input's, when there are several)
    %s, %rows = graph.loop %count, %true, %s0 {
    ^bb0(%i, %c, %s_in):
      %x = graph.gather %xs, %i (or count - 1 - %i when reversed) {axis = <scan axis>}
      <body, its slice argument replaced by %x>
      graph.yield %c, <next states>, <rows>
    }
    %ys = graph.transpose (graph.slice %rows reversed, when the output is) to its axis

The loop stacks each scan output's rows on a new first axis in iteration order; a
reversed output is read back to front, and one whose axis is not the first has it moved
there. The body's ops move into the loop unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, i1, i64
from xdsl.ir import Block, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from infer.dialects import graph as G
from infer.dialects.graph.build import OpList


def expand(scan: G.ScanOp) -> None:
    """Replace `scan` by its loop and the ops around it."""
    n = scan.states
    in_axes, in_dirs, out_axes, out_dirs = scan.axes()
    states, xs = list(scan.inputs[:n]), list(scan.inputs[n:])
    before = OpList()
    # The longest scan input's length: with inputs of different lengths (invalid), some
    # iteration's gather is out of range and fails the run instead of reading a prefix.
    counts = [before.add(G.GatherOp, before.add(G.ShapeOp, x),
                    before.const(np.array(ax, np.int64)), axis=0)
              for x, ax in zip(xs, in_axes, strict=True)]
    count = counts[0] if len(counts) == 1 else before.add(G.MaxOp, *counts)
    go = before.const(np.array(True))
    last = (before.add(G.SubOp, count, before.const(np.array(1, np.int64)))
            if any(in_dirs) else None)

    body = scan.body.block
    args = list(body.args)
    block = Block(arg_types=[TensorType(i64, []), TensorType(i1, []),
                             *(a.type for a in args[:n])])
    i = block.args[0]
    i.name_hint, block.args[1].name_hint = "i", "go"
    inside = OpList()
    reversed_i = inside.add(G.SubOp, cast(SSAValue, last), i) if last is not None else None
    for a, x, ax, rev in zip(args[n:], xs, in_axes, in_dirs, strict=True):
        a.replace_all_uses_with(inside.add(G.GatherOp, x, reversed_i if rev else i, axis=ax))
    for a, new in zip(args[:n], block.args[2:], strict=True):
        a.replace_all_uses_with(new)
    block.add_ops(inside)
    yielded = scan.yielded()
    for op in list(body.ops):
        op.detach()
        if isinstance(op, G.YieldOp):
            op.erase()
            continue
        block.add_op(op)
    block.add_op(G.YieldOp([block.args[1], *yielded]))

    finals = [cast(TensorType, r.type) for r in scan.outs[:n]]
    stacked = []
    for r, ax in zip(scan.outs[n:], out_axes, strict=True):
        t = cast(TensorType, r.type)
        shape_ = t.get_shape()
        stacked.append(TensorType(t.element_type, [shape_[ax], *shape_[:ax], *shape_[ax + 1:]]))
    loop = G.LoopOp(count, go, states, [*finals, *stacked], block)
    after = OpList()
    results = list(loop.results[:n])
    for rows, ax, rev in zip(loop.results[n:], out_axes, out_dirs, strict=True):
        v: SSAValue = rows
        if rev:  # the last iteration's row first
            ints = [after.const(np.array([x], np.int64))
                    for x in (-1, np.iinfo(np.int64).min, 0, -1)]
            v = after.add(G.SliceOp, v, *ints)
        if ax:
            r = cast(TensorType, v.type).get_num_dims()
            v = after.add(G.TransposeOp, v, perm=[*range(1, ax + 1), 0, *range(ax + 1, r)])
        results.append(v)
    Rewriter.insert_op([*before, loop, *after], InsertPoint.before(scan))
    for old, new in zip(scan.outs, results, strict=True):
        old.replace_all_uses_with(new)
    loop.location = scan.location
    Rewriter.erase_op(scan)


@dataclass(frozen=True)
class ExpandScanPass(ModulePass):
    name = "expand-scan"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Outer scans first: an inner one moves into its loop and is expanded there.
        while scans := [o for o in op.walk() if isinstance(o, G.ScanOp)]:
            expand(scans[0])

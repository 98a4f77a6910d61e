"""`graph.channel_shuffle` → one copy loop nest: y[n, i*g + j, ...] = x[n, j*(C/g) + i, ...].

The loops run over (n, i, j, spatial...) so the innermost loops copy contiguous spatial
rows of one input channel into one output channel; no index division is needed.
"""

from __future__ import annotations

from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.loop_builder import Index


@lowers(graph.ChannelShuffleOp)
def _channel_shuffle(s: Lowering, op: graph.ChannelShuffleOp, ins: list[SSAValue]
                     ) -> list[SSAValue]:
    b = s.b
    (out,) = s.alloc_results(op, ins)
    x = b.dims(ins[0])
    g = op.groups.value.data
    per_group = x[1] // g
    with b.parallel_nest([x[0], per_group, g, *x[2:]]) as ivs:
        n, i, j, rest = ivs[0], Index(b, ivs[1]), Index(b, ivs[2]), ivs[3:]
        src = b.idx(j * per_group + i)
        dst = b.idx(i * g + j)
        b.store(b.load(ins[0], [n, src, *rest]), out, [n, dst, *rest])
    return [out]

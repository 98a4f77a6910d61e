"""Scaled dot-product attention → one loop nest over (batch..., query row), one score row.

For each batch position and query row i, with a scratch row s of N scores (one per row,
so rows run on any thread and the M x N score matrix never exists):

    s[j] = scale * q_i . k_j + mask[i, j],  m = max_j s[j]     (pass 1)
    s[j] = exp(s[j] - m),                    l = sum_j s[j]     (pass 2)
    y_i  = sum_j (s[j] / l) * v_j                               (pass 3)

Innermost loops are contiguous: the dot product runs along q_i and k_j (rows of K); when K
arrives transposed ([..., D, N]) the scores accumulate as s += q_i[d] * K^T[d, :] instead;
pass 3 runs along v_j and y_i.
"""

from __future__ import annotations

from xdsl.dialects import math, memref
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.lowering.graph_ops.base import Lowering, element_type, lowers, optional
from infer.lowering.graph_ops.index import broadcast_index
from infer.lowering.loop_builder import REDUCE, static_product


@lowers(graph.AttentionOp)
def _attention(s: Lowering, op: graph.AttentionOp, ins: list[SSAValue]) -> list[SSAValue]:
    (y,) = s.alloc_results(op, ins)
    b = s.b
    q, k, v = ins[:3]
    (mask,) = optional(ins, 3)
    k_t = bool(op.k_transposed.value.data)
    scale = op.scale.value.data
    et = element_type(op)
    qd, kd, vd, yd = b.dims(q), b.dims(k), b.dims(v), b.dims(y)
    md = b.dims(mask) if mask is not None else []
    nb = len(yd) - 2
    m, dv, depth = yd[-2], yd[-1], qd[-1]
    n = kd[-1] if k_t else kd[-2]
    zero = b.const(0.0, et)
    scale_c = b.const(scale, et)
    # One query row an iteration, on any thread: each with a scratch row of its own.
    with b.parallel([*yd[:nb], m], static_product([n], 3 * depth if isinstance(depth, int)
                                                  else 64)) as (*bt, i):
        row = b.alloc([n], et)  # freed below: not a result the lowering tracks
        qb, kb, vb = (broadcast_index(bt, d[:-2]) for d in (qd, kd, vd))

        def masked(j: SSAValue, sc: SSAValue) -> SSAValue:
            if mask is None:
                return sc
            return b.add(sc, b.load(mask, broadcast_index([*bt, i, j], md)))

        # pass 1: the scores of row i and their max
        if k_t:
            with b.loop(0, n) as j:
                b.store(zero, row, [j])
            with b.loop(0, depth) as d:
                qv = b.mul(b.load(q, [*qb, i, d]), scale_c)
                with b.loop(0, n) as j:
                    acc = b.add(b.load(row, [j]), b.mul(qv, b.load(k, [*kb, d, j])))
                    b.store(acc, row, [j])

            def score(j: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
                sc = masked(j, b.load(row, [j]))
                b.store(sc, row, [j])
                return [b.max(c[0], sc)]
        else:

            def score(j: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
                def dot(d: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
                    prod = b.mul(b.load(q, [*qb, i, d]), b.load(k, [*kb, j, d]), REDUCE)
                    return [b.add(acc[0], prod, REDUCE)]

                (qk,) = b.reduce_loop(0, depth, [zero], dot)
                sc = masked(j, b.mul(qk, scale_c))
                b.store(sc, row, [j])
                return [b.max(c[0], sc)]

        (mx,) = b.reduce_loop(0, n, [b.const(float("-inf"), et)], score)

        # pass 2: exp(s - max) in place, and the sum
        def exp_sum(j: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
            e = b.unary(math.ExpOp, b.sub(b.load(row, [j]), mx))
            b.store(e, row, [j])
            return [b.add(c[0], e, REDUCE)]

        (total,) = b.reduce_loop(0, n, [zero], exp_sum)
        inv = b.div(b.const(1.0, et), total)

        # pass 3: y_i = sum_j p_j v_j, the Dv loop innermost
        with b.loop(0, dv) as c:
            b.store(zero, y, [*bt, i, c])
        with b.loop(0, n) as j:
            p = b.mul(b.load(row, [j]), inv)
            with b.loop(0, dv) as c:
                acc = b.add(b.load(y, [*bt, i, c]), b.mul(p, b.load(v, [*vb, j, c])))
                b.store(acc, y, [*bt, i, c])
        b.insert(memref.DeallocOp.get(row))
    return [y]

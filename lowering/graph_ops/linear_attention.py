"""Lowering of LinearAttention: the recurrence of `graph.linear_attention` step by step,
per batch and KV head, on the state held in the `present_state` result buffer (f32 after
widen-half); a [d_v] scratch row holds the delta rule's corrected value."""

from __future__ import annotations

import math as pymath
from collections.abc import Callable
from typing import cast

from xdsl.dialects import math
from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.loop_builder import Index, LoopBuilder
from infer.lowering.runtime_checks import op_label


def _dot(b: LoopBuilder, n: Dim, term: Callable[[SSAValue], SSAValue]) -> SSAValue:
    """sum over d in [0, n) of term(d)."""
    return b.fold([n], [b.const(0.0, f32)], lambda ivs, c: [b.add(c[0], term(ivs[0]))])[0]


@lowers(graph.LinearAttentionOp)
def _linear_attention(s: Lowering, op: graph.LinearAttentionOp, ins: list[SSAValue]
                      ) -> list[SSAValue]:
    b = s.b
    props = op.properties
    q, k, v = ins[:3]
    extra = dict(zip(op.roles(props), ins[3:], strict=True))
    dims = [b.dims(x) for x in ins]
    dk, dv = op.head_dims(props, dims)
    out, state = s.alloc_results(op, ins)
    if any(cast(TensorType, r.type).element_type != f32 for r in op.results):
        raise UnsupportedError(f"{op_label(op)}: computes in f32 only (f16 and bf16 are "
                               "widened to it; an f64 state is not supported)")
    batch, steps = dims[0][0], dims[0][1]
    hq, hkv = op.q_num_heads.value.data, op.kv_num_heads.value.data
    group = hq // hkv
    scale = op.scale.value.data or 1.0 / pymath.sqrt(dk)
    decay_per_dim = "decay" in extra and b.dims(extra["decay"])[2] != hkv
    beta_per_head = "beta" in extra and b.dims(extra["beta"])[2] != 1
    row = s.alloc([dv], f32) if "beta" in extra else None

    with b.loop_nest([batch, hkv]) as (n, h):
        with b.loop_nest([dk, dv]) as (d, m):
            init = (b.load(extra["past_state"], [n, h, d, m]) if "past_state" in extra
                    else b.const(0.0, f32))
            b.store(init, state, [n, h, d, m])
        with b.loop(0, steps) as t:
            hk = Index(b, h) * dk
            hv = Index(b, h) * dv

            def key(d: SSAValue) -> SSAValue:
                return b.load(k, [n, t, hk + Index(b, d)])

            if "decay" in extra:
                with b.loop_nest([dk, dv]) as (d, m):
                    at = hk + Index(b, d) if decay_per_dim else h
                    g = b.unary(math.ExpOp, b.load(extra["decay"], [n, t, at]))
                    b.store(b.mul(b.load(state, [n, h, d, m]), g), state, [n, h, d, m])

            def value(m: SSAValue) -> SSAValue:
                return b.load(v, [n, t, hv + Index(b, m)])

            if row is not None:
                beta = b.load(extra["beta"], [n, t, h if beta_per_head else 0])
                with b.loop(0, dv) as m:
                    seen = _dot(b, dk, lambda d: b.mul(b.load(state, [n, h, d, m]), key(d)))
                    b.store(b.mul(beta, b.sub(value(m), seen)), row, [m])

                def value(m: SSAValue) -> SSAValue:  # noqa: F811 - the corrected value
                    return b.load(row, [m])

            with b.loop_nest([dk, dv]) as (d, m):
                b.store(b.add(b.load(state, [n, h, d, m]), b.mul(key(d), value(m))), state,
                        [n, h, d, m])
            with b.loop_nest([group, dv]) as (g, m):
                head = Index(b, h) * group + Index(b, g)
                qd = head * dk
                o = _dot(b, dk, lambda d: b.mul(b.load(q, [n, t, qd + Index(b, d)]),
                                                b.load(state, [n, h, d, m])))
                b.store(b.mul(o, b.const(scale, f32)), out, [n, t, head * dv + Index(b, m)])
    if row is not None:
        s.free(row)
    return [out, state]

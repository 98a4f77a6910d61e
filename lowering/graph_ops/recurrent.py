"""Lowering of `graph.recurrence` (RNN, GRU, LSTM after their input GEMM): per direction
and batch row, the state in scratch rows ([H]), each valid step's gates computed from the
step's input projection, the state times R^T and the biases, then the state updated; the
gate functions are the scalar bodies of graph.ACTIVATIONS. Steps at or past the row's
sequence length stay zero in y; a row of length 0 gives zero final states."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.elementwise import activation
from infer.lowering.graph_ops.shape_ops import to_index
from infer.lowering.loop_builder import Index, LoopBuilder
from infer.lowering.runtime_checks import check_indices

Gate = Callable[[LoopBuilder, SSAValue], SSAValue]


@lowers(graph.RecurrenceOp)
def _recurrence(s: Lowering, op: graph.RecurrenceOp, ins: list[SSAValue]
                ) -> list[SSAValue]:
    b = s.b
    props = op.properties
    kind = op.kind.data
    xw, r, rb = ins[:3]
    extra = dict(zip(op.roles(props), ins[3:], strict=True))
    dirs, steps, batch, _ = b.dims(xw)
    hidden = cast(int, b.dims(r)[2])
    et = cast(MemRefType, xw.type).element_type
    results = s.alloc_results(op, ins)
    y, y_h = results[:2]
    zero, one = b.const(0.0, et), b.const(1.0, et)
    clip = op.clip.value.data
    lens = extra.get("sequence_lens")
    if lens is not None:  # a length past the steps would read past xw
        check_indices(b, lens, Index(b, b.idx(steps)) + 1, to_index, lo=0)
    acts = [activation(name, params) for name, params in op.activation_list(props)]
    per_dir = graph.ACTIVATION_COUNT[kind]
    h_row, new_row = s.alloc([hidden], et), s.alloc([hidden], et)
    c_row = s.alloc([hidden], et) if kind == "lstm" else None
    g_row = s.alloc([graph.GATES[kind] * hidden], et) if kind == "gru" else None

    def clipped(v: SSAValue) -> SSAValue:
        if not clip:
            return v
        return b.min(b.max(v, b.const(-clip, et)), b.const(clip, et))

    for d in range(cast(int, dirs)):
        reverse = op.direction.data == "reverse" or d == 1
        f, g, h = (acts[d * per_dir:(d + 1) * per_dir] + [None, None])[:3]
        with b.loop(0, batch) as n:
            with b.loop(0, hidden) as k:
                for row, role in ((h_row, "initial_h"), (c_row, "initial_c")):
                    if row is not None:
                        init = extra.get(role)
                        b.store(zero if init is None else b.load(init, [d, n, k]), row, [k])
            with b.loop_nest([steps, hidden]) as (t, k):
                b.store(zero, y, [t, d, n, k])
            length: Dim = steps if lens is None else to_index(b, b.load(lens, [n]))
            with b.loop(0, length) as step:
                t = (Index(b, b.idx(length)) - 1 - Index(b, step)).value if reverse else step

                def dot(j: Dim, state: Callable[[SSAValue], SSAValue], d: int = d) -> SSAValue:
                    """sum over k of state(k) * R[d, j, k]."""
                    return b.fold([hidden], [zero], lambda ivs, c: [b.add(c[0], b.mul(
                        state(ivs[0]), b.load(r, [d, j, ivs[0]])))])[0]

                def held(k: SSAValue) -> SSAValue:
                    return b.load(h_row, [k])

                def pre(j: Dim, d: int = d, t: SSAValue = t) -> SSAValue:
                    """The gate row j's input: xw + Rb + H R^T."""
                    return b.add(b.add(b.load(xw, [d, t, n, j]), b.load(rb, [d, j])),
                                 dot(j, held))

                def at(gate: int, k: SSAValue) -> Index:
                    return Index(b, k) + gate * hidden

                if kind == "rnn":
                    with b.loop(0, hidden) as k:
                        b.store(f(b, clipped(pre(k))), new_row, [k])
                elif kind == "gru":
                    _gru_step(s, op, f, g, clipped, pre, dot, at, xw, rb, (d, t, n),
                              h_row, new_row, cast(SSAValue, g_row), hidden, one)
                else:
                    _lstm_step(s, op, f, g, h, clipped, pre, at, extra.get("peepholes"), d,
                               h_row, new_row, cast(SSAValue, c_row), hidden, one)
                with b.loop(0, hidden) as k:
                    v = b.load(new_row, [k])
                    b.store(v, h_row, [k])
                    b.store(v, y, [t, d, n, k])
            # a row of no steps ends with zero states (as onnxruntime), not the initial
            empty = b.cmpi("eq", b.idx(length), b.idx(0))
            with b.loop(0, hidden) as k:
                b.store(b.select(empty, zero, b.load(h_row, [k])), y_h, [d, n, k])
                if c_row is not None:
                    b.store(b.select(empty, zero, b.load(c_row, [k])), results[2], [d, n, k])
    for row in (h_row, new_row, c_row, g_row):
        if row is not None:
            s.free(row)
    return results


def _gru_step(s: Lowering, op: graph.RecurrenceOp, f: Gate, g: Gate, clipped, pre, dot, at,
              xw: SSAValue, rb: SSAValue, dtn: tuple, h_row: SSAValue, new_row: SSAValue,
              g_row: SSAValue, hidden: int, one: SSAValue) -> None:
    """z and r, then the candidate h (r applied before R_h, or after with
    linear_before_reset), then H = (1 - z) h + z H, into new_row."""
    b = s.b
    d, t, n = dtn
    with b.loop(0, 2 * hidden) as j:
        b.store(f(b, clipped(pre(j))), g_row, [j])
    with b.loop(0, hidden) as k:
        jh = at(2, k)
        base = b.load(xw, [d, t, n, jh])
        bias = b.load(rb, [d, jh])
        if op.linear_before_reset.value.data:
            gated = b.mul(b.load(g_row, [at(1, k)]),
                          b.add(dot(jh, lambda m: b.load(h_row, [m])), bias))
            cand = b.add(base, gated)
        else:
            reset = dot(jh, lambda m: b.mul(b.load(g_row, [at(1, m)]), b.load(h_row, [m])))
            cand = b.add(b.add(base, bias), reset)
        hh = g(b, clipped(cand))
        z = b.load(g_row, [k])
        b.store(b.add(b.mul(b.sub(one, z), hh), b.mul(z, b.load(h_row, [k]))), new_row, [k])


def _lstm_step(s: Lowering, op: graph.RecurrenceOp, f: Gate, g: Gate, h: Gate, clipped, pre,
               at, peepholes: SSAValue | None, d: int, h_row: SSAValue, new_row: SSAValue,
               c_row: SSAValue, hidden: int, one: SSAValue) -> None:
    """Gates i, o, f, c (ONNX's order) with peepholes P = (P_i, P_o, P_f); C updated in
    place (each k reads only its own), H into new_row."""
    b = s.b

    def peep(gate: int, k: SSAValue, c: SSAValue, v: SSAValue) -> SSAValue:
        if peepholes is None:
            return v
        return b.add(v, b.mul(b.load(peepholes, [d, at(gate, k)]), c))

    with b.loop(0, hidden) as k:
        c_old = b.load(c_row, [k])
        i = f(b, clipped(peep(0, k, c_old, pre(at(0, k)))))
        if op.input_forget.value.data:
            forget = b.sub(one, i)
        else:
            forget = f(b, clipped(peep(2, k, c_old, pre(at(2, k)))))
        cand = g(b, clipped(pre(at(3, k))))
        c_new = b.add(b.mul(forget, c_old), b.mul(i, cand))
        o = f(b, clipped(peep(1, k, c_new, pre(at(1, k)))))
        b.store(c_new, c_row, [k])
        b.store(b.mul(o, h(b, c_new)), new_row, [k])

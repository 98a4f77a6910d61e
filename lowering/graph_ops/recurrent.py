"""Lowering of `graph.recurrence` (RNN, GRU, LSTM after their input GEMM): per direction
and batch row, the state in scratch rows ([H]), each valid step's gates computed from the
step's input projection, the state times R^T and the biases, then the state updated; the
gate functions are the scalar bodies of graph.ACTIVATIONS. Steps at or past the row's
sequence length stay zero in y; a row of length 0 gives zero final states."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.elementwise import activation
from infer.lowering.graph_ops.operands import to_index
from infer.lowering.loop_builder import Index, LoopBuilder
from infer.lowering.runtime_checks import check_indices

Gate = Callable[[LoopBuilder, SSAValue], SSAValue]


@lowers(graph.RecurrenceOp)
def _recurrence(s: Lowering, op: graph.RecurrenceOp, ins: list[SSAValue]
                ) -> list[SSAValue]:
    """Per direction its batch rows' steps (`_direction`); the scratch rows freed last."""
    rec = _Recurrence.of(s, op, ins)
    per_dir = graph.ACTIVATION_COUNT[rec.kind]
    for d in range(rec.dirs):
        f, g, h = (rec.acts[d * per_dir:(d + 1) * per_dir] + [None, None])[:3]
        _direction(rec, d, f, g, h)
    for row in (rec.h_row, rec.new_row, rec.c_row, rec.g_row):
        if row is not None:
            s.free(row)
    return rec.results


@dataclass
class _Recurrence:
    """One `graph.recurrence` being lowered: its operands and results, gate functions,
    scratch rows ([H]; c_row for LSTM's cell, g_row for GRU's gates) and constants."""

    s: Lowering
    op: graph.RecurrenceOp
    kind: str
    xw: SSAValue  # the input projection [dirs, steps, batch, gates * H]
    r: SSAValue
    rb: SSAValue
    extra: dict[str, SSAValue]  # the optional operands, by role
    dirs: int
    steps: Dim
    batch: Dim
    hidden: int
    et: Attribute
    results: list[SSAValue]
    zero: SSAValue
    one: SSAValue
    lens: SSAValue | None
    acts: list[Gate]
    h_row: SSAValue
    new_row: SSAValue
    c_row: SSAValue | None
    g_row: SSAValue | None

    @staticmethod
    def of(s: Lowering, op: graph.RecurrenceOp, ins: list[SSAValue]) -> _Recurrence:
        b = s.b
        props = op.properties
        kind = op.kind.data
        xw, r, rb = ins[:3]
        extra = dict(zip(op.roles(props), ins[3:], strict=True))
        dirs, steps, batch, _ = b.dims(xw)
        hidden = cast(int, b.dims(r)[2])
        et = cast(MemRefType, xw.type).element_type
        results = s.alloc_results(op, ins)
        zero, one = b.const(0.0, et), b.const(1.0, et)
        lens = extra.get("sequence_lens")
        if lens is not None:  # a length past the steps would read past xw
            check_indices(b, lens, Index(b, b.idx(steps)) + 1, to_index, lo=0)
        acts = [activation(name, params) for name, params in op.activation_list(props)]
        h_row, new_row = s.alloc([hidden], et), s.alloc([hidden], et)
        c_row = s.alloc([hidden], et) if kind == "lstm" else None
        g_row = s.alloc([graph.GATES[kind] * hidden], et) if kind == "gru" else None
        return _Recurrence(s, op, kind, xw, r, rb, extra, cast(int, dirs), steps, batch,
                           hidden, et, results, zero, one, lens, acts, h_row, new_row, c_row,
                           g_row)

    def clipped(self, v: SSAValue) -> SSAValue:
        """v clipped to [-clip, clip] where the op sets clip."""
        clip = self.op.clip.value.data
        if not clip:
            return v
        b = self.s.b
        return b.min(b.max(v, b.const(-clip, self.et)), b.const(clip, self.et))

    def dot(self, d: int, j: Dim, state: Callable[[SSAValue], SSAValue]) -> SSAValue:
        """sum over k of state(k) * R[d, j, k]."""
        b = self.s.b
        return b.fold([self.hidden], [self.zero], lambda ivs, c: [b.add(c[0], b.mul(
            state(ivs[0]), b.load(self.r, [d, j, ivs[0]])))])[0]

    def pre(self, d: int, t: SSAValue, n: SSAValue, j: Dim) -> SSAValue:
        """The gate row j's input: xw + Rb + H R^T."""
        b = self.s.b
        return b.add(b.add(b.load(self.xw, [d, t, n, j]), b.load(self.rb, [d, j])),
                     self.dot(d, j, lambda k: b.load(self.h_row, [k])))

    def at(self, gate: int, k: SSAValue) -> Index:
        """Row k of gate number `gate` in the stacked gates."""
        return Index(self.s.b, k) + gate * self.hidden


def _direction(rec: _Recurrence, d: int, f: Gate, g: Gate | None, h: Gate | None) -> None:
    """Direction d, per batch row: the state from the initial one, the valid steps, the
    final states."""
    b, zero, hidden, y, y_h = rec.s.b, rec.zero, rec.hidden, rec.results[0], rec.results[1]
    reverse = rec.op.direction.data == "reverse" or d == 1
    with b.loop(0, rec.batch) as n:
        with b.loop(0, hidden) as k:
            for row, role in ((rec.h_row, "initial_h"), (rec.c_row, "initial_c")):
                if row is not None:
                    init = rec.extra.get(role)
                    b.store(zero if init is None else b.load(init, [d, n, k]), row, [k])
        with b.loop_nest([rec.steps, hidden]) as (t, k):
            b.store(zero, y, [t, d, n, k])
        length: Dim = rec.steps if rec.lens is None else to_index(b, b.load(rec.lens, [n]))
        with b.loop(0, length) as step:
            t = (Index(b, b.idx(length)) - 1 - Index(b, step)).value if reverse else step
            _step(rec, d, t, n, f, g, h)
        # a row of no steps ends with zero states (as onnxruntime), not the initial
        empty = b.cmpi("eq", b.idx(length), b.idx(0))
        with b.loop(0, hidden) as k:
            b.store(b.select(empty, zero, b.load(rec.h_row, [k])), y_h, [d, n, k])
            if rec.c_row is not None:
                b.store(b.select(empty, zero, b.load(rec.c_row, [k])), rec.results[2],
                        [d, n, k])


def _step(rec: _Recurrence, d: int, t: SSAValue, n: SSAValue, f: Gate, g: Gate | None,
          h: Gate | None) -> None:
    """Step t of batch row n: the new state into new_row, then into the state and y."""
    b = rec.s.b
    if rec.kind == "rnn":
        with b.loop(0, rec.hidden) as k:
            b.store(f(b, rec.clipped(rec.pre(d, t, n, k))), rec.new_row, [k])
    elif rec.kind == "gru":
        _gru_step(rec, f, cast(Gate, g), d, t, n)
    else:
        _lstm_step(rec, f, cast(Gate, g), cast(Gate, h), d, t, n)
    with b.loop(0, rec.hidden) as k:
        v = b.load(rec.new_row, [k])
        b.store(v, rec.h_row, [k])
        b.store(v, rec.results[0], [t, d, n, k])


def _gru_step(rec: _Recurrence, f: Gate, g: Gate, d: int, t: SSAValue, n: SSAValue) -> None:
    """z and r, then the candidate h (r applied before R_h, or after with
    linear_before_reset), then H = (1 - z) h + z H, into new_row."""
    b, hidden, h_row, at = rec.s.b, rec.hidden, rec.h_row, rec.at
    g_row = cast(SSAValue, rec.g_row)
    with b.loop(0, 2 * hidden) as j:
        b.store(f(b, rec.clipped(rec.pre(d, t, n, j))), g_row, [j])
    with b.loop(0, hidden) as k:
        jh = at(2, k)
        base = b.load(rec.xw, [d, t, n, jh])
        bias = b.load(rec.rb, [d, jh])
        if rec.op.linear_before_reset.value.data:
            gated = b.mul(b.load(g_row, [at(1, k)]),
                          b.add(rec.dot(d, jh, lambda m: b.load(h_row, [m])), bias))
            cand = b.add(base, gated)
        else:
            reset = rec.dot(d, jh, lambda m: b.mul(b.load(g_row, [at(1, m)]),
                                                   b.load(h_row, [m])))
            cand = b.add(b.add(base, bias), reset)
        hh = g(b, rec.clipped(cand))
        z = b.load(g_row, [k])
        b.store(b.add(b.mul(b.sub(rec.one, z), hh), b.mul(z, b.load(h_row, [k]))),
                rec.new_row, [k])


def _lstm_step(rec: _Recurrence, f: Gate, g: Gate, h: Gate, d: int, t: SSAValue,
               n: SSAValue) -> None:
    """Gates i, o, f, c (ONNX's order) with peepholes P = (P_i, P_o, P_f); C updated in
    place (each k reads only its own), H into new_row."""
    b, at, clipped, one = rec.s.b, rec.at, rec.clipped, rec.one
    c_row = cast(SSAValue, rec.c_row)
    peepholes = rec.extra.get("peepholes")

    def pre(j: Dim) -> SSAValue:
        return rec.pre(d, t, n, j)

    def peep(gate: int, k: SSAValue, c: SSAValue, v: SSAValue) -> SSAValue:
        if peepholes is None:
            return v
        return b.add(v, b.mul(b.load(peepholes, [d, at(gate, k)]), c))

    with b.loop(0, rec.hidden) as k:
        c_old = b.load(c_row, [k])
        i = f(b, clipped(peep(0, k, c_old, pre(at(0, k)))))
        if rec.op.input_forget.value.data:
            forget = b.sub(one, i)
        else:
            forget = f(b, clipped(peep(2, k, c_old, pre(at(2, k)))))
        cand = g(b, clipped(pre(at(3, k))))
        c_new = b.add(b.mul(forget, c_old), b.mul(i, cand))
        o = f(b, clipped(peep(1, k, c_new, pre(at(1, k)))))
        b.store(c_new, c_row, [k])
        b.store(b.mul(o, h(b, c_new)), rec.new_row, [k])

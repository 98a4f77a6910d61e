"""Lowering of `graph.recurrence` (RNN, GRU, LSTM after their input GEMM), per direction:
the state of every batch row in scratch ([N, H]: H, and C for LSTM), then step by step

    P[n, :] = Rb                                   every row
    P[n, :] += H[n, :] R^T                         one register-blocked GEMM over the rows
    gates of row n from xw[t_n, n, :] + P[n, :]    rows with a step left; H and C in place

R arrives as R^T in panels of 16 columns (`rt`, [dirs, panels, H, 16]: each panel one
contiguous stream over k): gemm.py's `gemm_tile` keeps a tile of rows x vectors of P in
registers (8 accumulators: one row by four panels, two rows by two, three or four rows by
one) and
reads each vector of R^T once per tile of rows (a batch of 4 reads R once a step, not 4
times). The columns past gates * H are zeros in rt and unread in P. GRU's candidate
without linear_before_reset needs (r * H) R_h^T: a second GEMM over its columns once r is
known. Row n's step s is its time step t_n = s (reverse: len_n - 1 - s); a row whose
length is reached takes no more steps (its P is computed and not read), steps at or past
it stay zero in y, and a row of length 0 ends with zero states. The gate functions are
the scalar bodies of graph.ACTIVATIONS."""

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
from infer.lowering.graph_ops.gemm import gemm_tile, row_tiles
from infer.lowering.graph_ops.index import as_dim
from infer.lowering.graph_ops.operands import to_index
from infer.lowering.loop_builder import Index, LoopBuilder, tile_lanes
from infer.lowering.runtime_checks import check_indices

Gate = Callable[[LoopBuilder, SSAValue], SSAValue]
_ROWS = 4  # batch rows of a GEMM tile; the last rows take a tile of their own height
_ACCUMULATORS = 8  # vectors of a tile: rows x vectors, enough to keep both FMA units busy


@lowers(graph.RecurrenceOp)
def _recurrence(s: Lowering, op: graph.RecurrenceOp, ins: list[SSAValue]
                ) -> list[SSAValue]:
    """Per direction its steps (`_direction`); the scratch freed last."""
    rec = _Recurrence.of(s, op, ins)
    per_dir = graph.ACTIVATION_COUNT[rec.kind]
    for d in range(rec.dirs):
        f, g, h = (rec.acts[d * per_dir:(d + 1) * per_dir] + [None, None])[:3]
        _direction(rec, d, f, g, h)
    for buf in (rec.h, rec.c, rec.p, rec.rh, rec.q):
        if buf is not None:
            s.free(buf)
    return rec.results


@dataclass
class _Recurrence:
    """One `graph.recurrence` being lowered: its operands and results, gate functions,
    the state (h, and c for LSTM: [N, H]), the step's gate sums p ([N, panels * width])
    and, for GRU's reset before R_h, r * H (rh, [N, H]) and its product with R_h^T (q,
    as p)."""

    s: Lowering
    op: graph.RecurrenceOp
    kind: str
    xw: SSAValue  # the input projection [dirs, steps, batch, gates * H]
    rt: SSAValue  # R^T in panels [dirs, panels, H, width]
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
    panels: int
    h: SSAValue
    c: SSAValue | None
    p: SSAValue
    rh: SSAValue | None
    q: SSAValue | None

    @staticmethod
    def of(s: Lowering, op: graph.RecurrenceOp, ins: list[SSAValue]) -> _Recurrence:
        b = s.b
        props = op.properties
        kind = op.kind.data
        xw, rt, rb = ins[:3]
        extra = dict(zip(op.roles(props), ins[3:], strict=True))
        dirs, steps, batch, gh = b.dims(xw)
        _, panels, hidden, width = b.dims(rt)
        et = cast(MemRefType, xw.type).element_type
        results = s.alloc_results(op, ins)
        zero, one = b.const(0.0, et), b.const(1.0, et)
        lens = extra.get("sequence_lens")
        if lens is not None:  # a length past the steps would read past xw
            check_indices(b, lens, Index(b, b.idx(steps)) + 1, to_index, lo=0)
        acts = [activation(name, params) for name, params in op.activation_list(props)]
        state, sums = [batch, hidden], [batch, cast(int, panels) * cast(int, width)]
        reset_first = kind == "gru" and not op.linear_before_reset.value.data
        return _Recurrence(
            s, op, kind, xw, rt, rb, extra, cast(int, dirs), steps, batch, cast(int, hidden),
            et, results, zero, one, lens, acts, cast(int, panels), s.alloc(state, et),
            s.alloc(state, et) if kind == "lstm" else None, s.alloc(sums, et),
            s.alloc(state, et) if reset_first else None,
            s.alloc(sums, et) if reset_first else None)

    def clipped(self, v: SSAValue) -> SSAValue:
        """v clipped to [-clip, clip] where the op sets clip."""
        clip = self.op.clip.value.data
        if not clip:
            return v
        b = self.s.b
        return b.min(b.max(v, b.const(-clip, self.et)), b.const(clip, self.et))

    def pre(self, d: int, t: SSAValue, n: SSAValue, j: Dim) -> SSAValue:
        """Gate row j's input: xw + P (Rb + H R^T)."""
        b = self.s.b
        return b.add(b.load(self.xw, [d, t, n, j]), b.load(self.p, [n, j]))

    def at(self, gate: int, k: SSAValue) -> Index:
        """Row k of gate number `gate` in the stacked gates."""
        return Index(self.s.b, k) + gate * self.hidden

    def gemm(self, d: int, state: SSAValue, out: SSAValue, p0: int, p1: int) -> None:
        """out[:, panels p0:p1] += state R^T[d, panels p0:p1] for every batch row: tiles
        of up to _ROWS rows by _ACCUMULATORS / rows vectors, of several whole panels (one
        stream each) or of parts of one."""
        b, width = self.s.b, graph.RECURRENCE_PANEL
        lanes = tile_lanes(self.et)
        per_panel = max(1, width // lanes)

        def kernel(n0: Dim, rows: int, parts: list[tuple[Dim, int]]) -> None:
            """The tile of rows [n0, n0 + rows) by the vectors (panel, vector) `parts`."""
            sources = [([d, p], v * lanes) for p, v in parts]
            dests = [(out, lambda r, p=p, v=v: [as_dim(b, n0) + r,
                                                as_dim(b, p) * width + v * lanes])
                     for p, v in parts]
            with b.kept_loops():
                gemm_tile(b, state, lambda r: [as_dim(b, n0) + r], self.rt, [], 0,
                          self.hidden, lanes, dests, rows, sources)

        def tile(n0: Dim, rows: int) -> None:
            vectors = max(1, _ACCUMULATORS // rows)
            if vectors < per_panel:  # parts of a panel
                with b.loop(p0, p1) as p:
                    for v0 in range(0, per_panel, vectors):
                        kernel(n0, rows, [(Index(b, p), v) for v in range(v0, v0 + vectors)])
                return
            group = vectors // per_panel  # whole panels at a time
            groups, left = divmod(p1 - p0, group)
            if groups:
                with b.loop(0, groups) as g:
                    first = Index(b, g) * group + p0
                    kernel(n0, rows, [(first + j, v) for j in range(group)
                                      for v in range(per_panel)])
            if left:
                kernel(n0, rows, [(p0 + groups * group + j, v) for j in range(left)
                                  for v in range(per_panel)])

        row_tiles(b, 0, self.batch, _ROWS, tile)

    def length(self, n: SSAValue) -> Dim:
        """Row n's steps: its sequence length, or all."""
        b = self.s.b
        return self.steps if self.lens is None else to_index(b, b.load(self.lens, [n]))

    def each_active_row(self, d: int, step: SSAValue,
                        body: Callable[[SSAValue, SSAValue], None]) -> None:
        """body(n, t) for each row n with a step `step` left in direction d, t its time
        step."""
        b = self.s.b
        reverse = self.op.direction.data == "reverse" or d == 1
        with b.loop(0, self.batch) as n:
            length = self.length(n)
            with b.if_(b.cmpi("ult", step, b.idx(length))):
                t = (Index(b, b.idx(length)) - 1 - Index(b, step)).value if reverse else step
                body(n, t)


def _direction(rec: _Recurrence, d: int, f: Gate, g: Gate | None, h: Gate | None) -> None:
    """Direction d: every row's state from the initial one, the steps, the final states."""
    b, zero, hidden, y, y_h = rec.s.b, rec.zero, rec.hidden, rec.results[0], rec.results[1]
    with b.loop_nest([rec.batch, hidden]) as (n, k):
        for buf, role in ((rec.h, "initial_h"), (rec.c, "initial_c")):
            if buf is not None:
                init = rec.extra.get(role)
                b.store(zero if init is None else b.load(init, [d, n, k]), buf, [n, k])
    if rec.lens is not None:  # steps past a row's length stay zero
        with b.loop_nest([rec.steps, rec.batch, hidden]) as (t, n, k):
            b.store(zero, y, [t, d, n, k])
    with b.loop(0, rec.steps) as step:
        _step(rec, d, step, f, g, h)
    with b.loop_nest([rec.batch, hidden]) as (n, k):
        length = rec.length(n)
        empty = b.cmpi("eq", b.idx(length), b.idx(0))
        b.store(b.select(empty, zero, b.load(rec.h, [n, k])), y_h, [d, n, k])
        if rec.c is not None:
            b.store(b.select(empty, zero, b.load(rec.c, [n, k])), rec.results[2], [d, n, k])


def _step(rec: _Recurrence, d: int, step: SSAValue, f: Gate, g: Gate | None,
          h: Gate | None) -> None:
    """Step `step` of every row: P = Rb + H R^T (for GRU's candidate, Q = (r H) R_h^T
    once r is known), then each active row's gates, its new state in place and into y."""
    b, hidden, width = rec.s.b, rec.hidden, graph.RECURRENCE_PANEL
    gh = graph.GATES[rec.kind] * hidden
    with b.loop_nest([rec.batch, gh]) as (n, j):
        b.store(b.load(rec.rb, [d, j]), rec.p, [n, j])
    if rec.rh is None:
        rec.gemm(d, rec.h, rec.p, 0, rec.panels)
    else:  # GRU's candidate reads (r * H) R_h^T
        rec.gemm(d, rec.h, rec.p, 0, -(-2 * hidden // width))
        rh, q = rec.rh, cast(SSAValue, rec.q)

        def reset(n: SSAValue, t: SSAValue) -> None:
            with b.loop(0, hidden) as k:
                r = f(b, rec.clipped(rec.pre(d, t, n, rec.at(1, k))))
                b.store(b.mul(r, b.load(rec.h, [n, k])), rh, [n, k])

        rec.each_active_row(d, step, reset)
        first = 2 * hidden // width
        with b.loop_nest([rec.batch, (rec.panels - first) * width]) as (n, j):
            b.store(rec.zero, q, [n, Index(b, j) + first * width])
        rec.gemm(d, rh, q, first, rec.panels)

    def update(n: SSAValue, t: SSAValue) -> None:
        with b.loop(0, hidden) as k:
            if rec.kind == "rnn":
                new = f(b, rec.clipped(rec.pre(d, t, n, k)))
            elif rec.kind == "gru":
                new = _gru(rec, f, cast(Gate, g), d, t, n, k)
            else:
                new = _lstm(rec, f, cast(Gate, g), cast(Gate, h), d, t, n, k)
            b.store(new, rec.h, [n, k])
            b.store(new, rec.results[0], [t, d, n, k])

    rec.each_active_row(d, step, update)


def _gru(rec: _Recurrence, f: Gate, g: Gate, d: int, t: SSAValue, n: SSAValue,
         k: SSAValue) -> SSAValue:
    """The new H[n, k]: z, the candidate h (r applied before R_h, already in P, or after
    with linear_before_reset), then (1 - z) h + z H."""
    b, at = rec.s.b, rec.at
    z = f(b, rec.clipped(rec.pre(d, t, n, k)))
    if rec.rh is None:  # linear_before_reset: xw_h + r * (H R_h^T + Rb_h)
        r = f(b, rec.clipped(rec.pre(d, t, n, at(1, k))))
        cand = b.add(b.load(rec.xw, [d, t, n, at(2, k)]),
                     b.mul(r, b.load(rec.p, [n, at(2, k)])))
    else:  # xw_h + Rb_h + (r * H) R_h^T
        j = at(2, k)
        cand = b.add(b.add(b.load(rec.xw, [d, t, n, j]), b.load(rec.rb, [d, j])),
                     b.load(cast(SSAValue, rec.q), [n, j]))
    hh = g(b, rec.clipped(cand))
    return b.add(b.mul(b.sub(rec.one, z), hh), b.mul(z, b.load(rec.h, [n, k])))


def _lstm(rec: _Recurrence, f: Gate, g: Gate, h: Gate, d: int, t: SSAValue, n: SSAValue,
          k: SSAValue) -> SSAValue:
    """The new H[n, k] from gates i, o, f, c (ONNX's order) with peepholes
    P = (P_i, P_o, P_f); C[n, k] updated in place."""
    b, at, clipped, one = rec.s.b, rec.at, rec.clipped, rec.one
    c = cast(SSAValue, rec.c)
    peepholes = rec.extra.get("peepholes")

    def pre(j: Dim) -> SSAValue:
        return rec.pre(d, t, n, j)

    def peep(gate: int, cell: SSAValue, v: SSAValue) -> SSAValue:
        if peepholes is None:
            return v
        return b.add(v, b.mul(b.load(peepholes, [d, at(gate, k)]), cell))

    c_old = b.load(c, [n, k])
    i = f(b, clipped(peep(0, c_old, pre(at(0, k)))))
    if rec.op.input_forget.value.data:
        forget = b.sub(one, i)
    else:
        forget = f(b, clipped(peep(2, c_old, pre(at(2, k)))))
    cand = g(b, clipped(pre(at(3, k))))
    c_new = b.add(b.mul(forget, c_old), b.mul(i, cand))
    o = f(b, clipped(peep(1, c_new, pre(at(1, k)))))
    b.store(c_new, c, [n, k])
    return b.mul(o, h(b, c_new))

"""graph.matmul_packed → a cache-blocked GEMM around a register-blocked vector kernel, and
graph.pack_panels, which lays out its right operand at run time.

B comes packed in panels Bp [..., P, K, NR] (pack-matmul): the NR columns of a panel are
NR / L vectors of L lanes, contiguous for every k. Per batch position (A's and Bp's batch
dims broadcast), the kernel computes an MR x NR tile of Y in MR * NR / L accumulator
vectors kept in registers:

    acc[r, v] = Y[i + r, j + v*L : j + v*L + L]                    r < MR, v < NR / L
    for k in [k0, k0 + kc):
        b[v] = Bp[p, k, v*L : v*L + L]              NR / L vector loads, each used MR times
        a = broadcast(A[i + r, k])                  one load per row, used NR / L times
        acc[r, v] = fma(a, b[v], acc[r, v])
    Y[i + r, j + v*L : ...] = acc[r, v]

Around it the loops of the classic blocked GEMM (Goto / BLIS), with the sizes of the op's
`block = array<i64: MC, KC, NC>` (select-gemm-blocking): for each NC columns (whole
panels), each KC of the contraction and each MC rows, every panel runs the kernel down the
MC rows. The KC x NR slice of the panel stays in L1 across those rows, the MC x KC block
of A in L2. Y is filled with the bias (or 0) first, every KC slice adds into it, and a
fused activation runs over the finished Y of the batch position (an O(M N) pass beside the
O(M N K) product, so the kernel is the same for every slice).

Remainders: M % MR rows run a kernel of that many rows (chosen at run time for a dynamic
M); the last panel's columns beyond N are zeros in Bp and are not stored: its whole
vectors are stored to Y, a vector straddling N to a scratch [M, L] copied into Y's last
columns at the end. Nothing reads or writes outside A, Bp, the bias or Y.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias, cast

from xdsl.dialects import memref
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, element_type, lowers, optional
from infer.lowering.graph_ops.elementwise import Epilogue, epilogue, result_dims
from infer.lowering.graph_ops.index import as_dim, broadcast_index, ceil_div, floor_div, imin
from infer.lowering.graph_ops.window import collapse
from infer.lowering.loop_builder import LoopBuilder, static_product

# Where vector v of a kernel's tile lives: a buffer and the index of row r's vector.
Dest: TypeAlias = "tuple[SSAValue, Callable[[int], list[Dim | SSAValue]]]"


def gemm_tile(b: LoopBuilder, a: SSAValue, a_row: Callable[[int], list[Dim | SSAValue]],
              bp: SSAValue, panel: list[Dim | SSAValue], k0: Dim, k1: Dim, lanes: int,
              dests: Sequence[Dest], rows: int,
              sources: Sequence[tuple[list[Dim | SSAValue], Dim]] | None = None) -> None:
    """Y tile += A[rows, k0:k1] @ Bp[*panel, k0:k1, :len(dests) vectors], see the module
    doc. a_row(r): the index of A's row r without its k. `sources`, when given, places
    each vector v of B elsewhere: at Bp[*prefix, k, column] for its (prefix, column) (a
    tile over several panels, or part of one)."""
    where = sources or [(panel, v * lanes) for v in range(len(dests))]
    accs = [b.vload(buf, at(r), lanes) for r in range(rows) for buf, at in dests]

    def step(kv: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        # Bp may hold f16 (a weight stored as f16): widened to the accumulators' type.
        et = cast(VectorType, accs[0].type).element_type
        bv = [b.widen(b.vload(bp, [*prefix, kv, column], lanes), et)
              for prefix, column in where]
        out = list(carried)
        for r in range(rows):
            av = b.splat(b.widen(b.load(a, [*a_row(r), kv]), et), lanes)
            for v, w in enumerate(bv):
                out[r * len(bv) + v] = b.fma(av, w, out[r * len(bv) + v])
        return out

    accs = b.reduce_loop(k0, k1, accs, step)
    for i, acc in enumerate(accs):
        buf, at = dests[i % len(dests)]
        b.vstore(acc, buf, at(i // len(dests)))


def row_tiles(b: LoopBuilder, i0: Dim, i1: Dim, rows: int,
              kernel: Callable[[Dim, int], None]) -> None:
    """kernel(i, height) over rows [i0, i1): whole tiles of `rows`, then the remainder's
    tile (at run time, the kernel of each height, the one of the remainder's running)."""
    i0, i1 = as_dim(b, i0), as_dim(b, i1)
    tiles_end = i0 + floor_div(b, i1 - i0, rows) * rows
    with b.loop(i0, tiles_end, rows) as i:
        kernel(i, rows)
    rest = i1 - tiles_end
    if isinstance(rest, int):
        if rest:
            kernel(tiles_end, rest)
        return
    for h in range(1, rows):
        with b.if_(b.cmpi("eq", b.idx(rest), b.idx(h))):
            kernel(tiles_end, h)


def _blocks(b: LoopBuilder, extent: Dim, size: int, body: Callable[[Dim, Dim], None]
            ) -> None:
    """body(lo, hi) for each block [lo, hi) of `size` in [0, extent): called once, with
    static bounds, when one block covers a static extent."""
    if isinstance(extent, int) and extent <= size:
        body(0, extent)
        return
    with b.loop(0, extent, size) as lo:
        body(as_dim(b, lo), imin(b, as_dim(b, lo) + size, extent))


@lowers(graph.MatMulPackedOp, outline=True)
def _matmul_packed(s: Lowering, op: graph.MatMulPackedOp, ins: list[SSAValue]
                   ) -> list[SSAValue]:
    b = s.b
    a, bp = ins[:2]
    (bias,) = optional(ins, 2)
    ad, pd = b.dims(a), b.dims(bp)
    yd = result_dims(s, op, [ad, pd])
    y = y_rows = s.alloc(yd, element_type(op))
    if len(ad) > 2 and len(pd) == 3:
        # Weights without batch dims: one GEMM over A's batch dims and rows together, not a
        # GEMM per batch position (a [L, N, K] activation of batch N = 1 would make L
        # one-row products, each reading every panel).
        flat_a = collapse(b, a, 0, len(ad) - 1)
        if flat_a is not None:  # y is a new buffer: contiguous
            y_rows = cast(SSAValue, collapse(b, y, 0, len(yd) - 1))
            a, ad, yd = flat_a, b.dims(flat_a), b.dims(y_rows)
    gemm = _PackedMatMul.of(b, op, a, bp, bias, y_rows, ad, pd, yd)
    if gemm.full_panels:
        gemm.full_panel_groups()
    if gemm.full_panels < gemm.panels:
        gemm.last_panel()
    return [y]


@dataclass
class _PackedMatMul:
    """The loops of one packed matmul around `gemm_tile` (the module doc): its operands,
    the register tile (`rows` x `vectors` of `lanes`), the cache blocks and the panels."""

    b: LoopBuilder
    a: SSAValue
    bp: SSAValue
    bias: SSAValue | None
    y: SSAValue
    ad: list[Dim]
    pd: list[Dim]
    batch: list[Dim]
    act: Epilogue | None
    rows: int
    lanes: int
    mc: int  # rows of a block: whole register tiles
    kc: int
    n: int
    nc_panels: int  # panels of an NC block
    element: Attribute
    zero: SSAValue  # a vector of zeros
    row_blocks: Dim

    @staticmethod
    def of(b: LoopBuilder, op: graph.MatMulPackedOp, a: SSAValue, bp: SSAValue,
           bias: SSAValue | None, y: SSAValue, ad: list[Dim], pd: list[Dim], yd: list[Dim]
           ) -> _PackedMatMul:
        rows, vectors = op.register_tile()
        mc, kc, nc = op.cache_blocks()
        width = cast(int, pd[-1])
        if width % vectors:
            raise UnsupportedError(f"graph.matmul_packed: panels of {width} columns do not "
                                   f"split into {vectors} vectors")
        lanes = width // vectors
        mc = max(rows, mc - mc % rows)
        k = pd[-2]
        kc = min(kc, k) if isinstance(k, int) else kc
        et = element_type(op)
        zero = b.const(0.0, VectorType(et, [lanes]))
        return _PackedMatMul(b, a, bp, bias, y, ad, pd, yd[:-2], epilogue(op), rows, lanes,
                             mc, kc, op.n.value.data, max(1, nc // width), et, zero,
                             ceil_div(b, ad[-2], mc))

    @property
    def width(self) -> int:
        return cast(int, self.pd[-1])

    @property
    def panels(self) -> int:
        return cast(int, self.pd[-3])

    @property
    def last(self) -> int:
        """Columns of the last panel."""
        return self.n - (self.panels - 1) * self.width

    @property
    def full_panels(self) -> int:
        return self.panels if self.last == self.width else self.panels - 1

    @property
    def rows_max(self) -> int:
        m = self.ad[-2]
        return min(self.mc, m) if isinstance(m, int) else self.mc

    def rows_of(self, ib: SSAValue) -> tuple[Dim, Dim]:
        """The rows [i0, i1) of row block ib: static when there is one."""
        m = self.ad[-2]
        if self.row_blocks == 1:
            return 0, m
        i0 = as_dim(self.b, ib) * self.mc
        return i0, imin(self.b, i0 + self.mc, m)

    def batch_indices(self, bt: list[SSAValue]
                      ) -> tuple[list[Dim | SSAValue], list[Dim | SSAValue]]:
        return (broadcast_index(bt, self.ad[:-2], self.batch),
                broadcast_index(bt, self.pd[:-3], self.batch))

    def row_tiles(self, ab: list[Dim | SSAValue], pb: list[Dim | SSAValue],
                  p: SSAValue | int, dests_at: Callable[[Dim], list[Dest]], i0: Dim, i1: Dim,
                  k0: Dim, k1: Dim) -> None:
        """The kernel over rows [i0, i1) of panel p: whole tiles, then the remainder."""
        b, rows = self.b, self.rows

        def kernel(i: Dim, height: int) -> None:
            gemm_tile(b, self.a, lambda r: [*ab, as_dim(b, i) + r], self.bp, [*pb, p], k0, k1,
                    self.lanes, dests_at(i), height)

        row_tiles(b, i0, i1, rows, kernel)

    def fill(self, bt: list[SSAValue], i0: Dim, i1: Dim, j0: Dim, j1: Dim) -> None:
        """Y[rows i0:i1, columns j0:j1] = bias (or 0): the kernels add every KC slice."""
        b = self.b
        with b.loop(i0, i1) as i, b.loop(j0, j1) as j:
            b.store(b.load(self.bias, [j]) if self.bias is not None else
                    b.const(0.0, self.element), self.y, [*bt, i, j])

    def activate(self, bt: list[SSAValue], i0: Dim, i1: Dim, j0: Dim, j1: Dim) -> None:
        b = self.b
        if self.act is not None:
            with b.loop(i0, i1) as i, b.loop(j0, j1) as j:
                b.store(self.act(b, b.load(self.y, [*bt, i, j])), self.y, [*bt, i, j])

    def full_panel_groups(self) -> None:
        """The full panels. Independent pieces of Y for the threads: each batch position's
        MC row blocks times groups of at most NC full panels (8 groups or more when the
        panels allow it)."""
        b, width, lanes, full = self.b, self.width, self.lanes, self.full_panels
        group = max(1, min(self.nc_panels, -(-full // 8)))
        groups = -(-full // group)
        k = self.pd[-2]
        work = static_product([k], 2 * self.rows_max * group * width)
        with b.parallel([*self.batch, groups, self.row_blocks], work) as (*bt, g, ib):
            ab, pb = self.batch_indices(bt)
            i0, i1 = self.rows_of(ib)
            p0, p1 = (0, full) if groups == 1 else (
                as_dim(b, g) * group, imin(b, as_dim(b, g) * group + group, full))
            self.fill(bt, i0, i1, p0 * width, p1 * width)

            def slice_k(k0: Dim, k1: Dim) -> None:
                with b.loop(p0, p1) as p:
                    self.row_tiles(ab, pb, p, lambda r0, p=p: [
                        (self.y, lambda r, r0=r0, v=v, p=p: [
                            *bt, as_dim(b, r0) + r, as_dim(b, p) * width + v * lanes])
                        for v in range(width // lanes)], i0, i1, k0, k1)

            _blocks(b, k, self.kc, slice_k)
            self.activate(bt, i0, i1, p0 * width, p1 * width)

    def last_panel(self) -> None:
        """The last panel's rows: its whole vectors into Y, a vector straddling N into a
        scratch of the block's rows (one per iteration), copied to Y's last columns."""
        b, lanes, n, rows_max = self.b, self.lanes, self.n, self.rows_max
        last_whole, straddle = divmod(self.last, lanes)
        edge_col = (self.panels - 1) * self.width
        k = self.pd[-2]
        work = static_product([k], 2 * rows_max * self.width)
        with b.parallel([*self.batch, self.row_blocks], work) as (*bt, ib):
            ab, pb = self.batch_indices(bt)
            i0, i1 = self.rows_of(ib)
            self.fill(bt, i0, i1, edge_col, n)
            scratch = b.alloc([rows_max, lanes], self.element) if straddle else None
            if scratch is not None:
                init = b.vload(self.bias, [edge_col + last_whole * lanes], lanes) if (
                    self.bias is not None) else self.zero
                with b.loop(0, i1 - i0) as r:
                    b.vstore(init, scratch, [r, 0])

            def edge_dests(r0: Dim) -> list[Dest]:
                dests: list[Dest] = [
                    (self.y, lambda r, v=v: [*bt, as_dim(b, r0) + r, edge_col + v * lanes])
                    for v in range(last_whole)]
                if scratch is not None:
                    dests.append((scratch, lambda r: [as_dim(b, r0) - i0 + r, 0]))
                return dests

            _blocks(b, k, self.kc, lambda k0, k1: self.row_tiles(
                ab, pb, self.panels - 1, edge_dests, i0, i1, k0, k1))
            if scratch is not None:
                col = edge_col + last_whole * lanes
                with b.loop(i0, i1) as i, b.loop(0, straddle) as j:
                    b.store(b.load(scratch, [as_dim(b, i) - i0, j]), self.y,
                            [*bt, i, as_dim(b, j) + col])
                b.insert(memref.DeallocOp.get(scratch))
            self.activate(bt, i0, i1, edge_col, n)


@lowers(graph.PackPanelsOp)
def _pack_panels(s: Lowering, op: graph.PackPanelsOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Bp[..., p, k, c] = B[..., k, p * W + c] (B[..., p * W + c, k] transposed), zeros
    past N: the full panels are a copy, the last one reads only its columns below N.
    Transposed, k runs innermost, along B's rows."""
    (y,) = s.alloc_results(op, ins)
    b = s.b
    src = ins[0]
    yd = b.dims(y)
    trans = bool(op.transposed.value.data)
    n = cast(int, b.dims(src)[-2 if trans else -1])
    k, width = yd[-2], cast(int, yd[-1])
    full, last = divmod(n, width)
    zero = b.const(0.0, element_type(op))
    with b.loop_nest(yd[:-3]) as bt:
        def copy(p: Dim, c_end: int) -> None:
            def one(kv: SSAValue, c: SSAValue) -> None:
                j = p * width + as_dim(b, c)
                b.store(b.load(src, [*bt, j, kv] if trans else [*bt, kv, j]), y,
                        [*bt, p, kv, c])

            if trans:
                with b.loop(0, c_end) as c, b.loop(0, k) as kv:
                    one(kv, c)
            else:
                with b.loop(0, k) as kv, b.loop(0, c_end) as c:
                    one(kv, c)

        with b.loop(0, full) as p:
            copy(as_dim(b, p), width)
        if last:
            copy(full, last)
            with b.loop(0, k) as kv, b.loop(last, width) as c:
                b.store(zero, y, [*bt, full, kv, c])
    return [y]

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
from typing import TypeAlias, cast

from xdsl.dialects import memref
from xdsl.dialects.builtin import VectorType
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, element_type, lowers, optional
from infer.lowering.graph_ops.elementwise import epilogue, result_dims
from infer.lowering.graph_ops.index import as_dim, broadcast_index, ceil_div, floor_div, imin
from infer.lowering.loop_builder import LoopBuilder, static_product

# Where vector v of a kernel's tile lives: a buffer and the index of row r's vector.
Dest: TypeAlias = "tuple[SSAValue, Callable[[int], list[Dim | SSAValue]]]"


def _kernel(b: LoopBuilder, a: SSAValue, a_row: Callable[[int], list[Dim | SSAValue]],
            bp: SSAValue, panel: list[Dim | SSAValue], k0: Dim, k1: Dim, lanes: int,
            dests: Sequence[Dest], rows: int) -> None:
    """Y tile += A[rows, k0:k1] @ Bp[*panel, k0:k1, :len(dests) vectors], see the module
    doc. a_row(r): the index of A's row r without its k."""
    accs = [b.vload(buf, at(r), lanes) for r in range(rows) for buf, at in dests]

    def step(kv: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        # Bp may hold f16 (a weight stored as f16): widened to the accumulators' type.
        et = cast(VectorType, accs[0].type).element_type
        bv = [b.widen(b.vload(bp, [*panel, kv, v * lanes], lanes), et)
              for v in range(len(dests))]
        out = list(carried)
        for r in range(rows):
            av = b.splat(b.load(a, [*a_row(r), kv]), lanes)
            for v, w in enumerate(bv):
                out[r * len(bv) + v] = b.fma(av, w, out[r * len(bv) + v])
        return out

    accs = b.reduce_loop(k0, k1, accs, step)
    for i, acc in enumerate(accs):
        buf, at = dests[i % len(dests)]
        b.vstore(acc, buf, at(i // len(dests)))


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
    et = element_type(op)
    y = s.alloc(yd, et)
    panels, width = cast(int, pd[-3]), cast(int, pd[-1])
    k = pd[-2]
    n = op.n.value.data
    rows, vectors = op.register_tile()
    mc, kc, nc = op.cache_blocks()
    if width % vectors:
        raise UnsupportedError(f"graph.matmul_packed: panels of {width} columns do not "
                               f"split into {vectors} vectors")
    lanes = width // vectors
    mc = max(rows, mc - mc % rows)  # whole register tiles per row block
    kc = min(kc, k) if isinstance(k, int) else kc
    nc_panels = max(1, nc // width)
    m = ad[-2]
    batch = yd[:-2]
    act = epilogue(op)
    # The last panel: its whole vectors, and the lanes of a vector straddling N.
    last = n - (panels - 1) * width
    last_whole, straddle = divmod(last, lanes)
    full_panels = panels if last == width else panels - 1
    edge_col = (panels - 1) * width
    zero = b.const(0.0, VectorType(et, [lanes]))
    # Independent pieces of Y for the threads: each batch position's MC row blocks times
    # groups of at most NC full panels (8 groups or more when the panels allow it).
    row_blocks = ceil_div(b, m, mc)
    group = max(1, min(nc_panels, -(-full_panels // 8)))
    rows_max = min(mc, m) if isinstance(m, int) else mc

    def rows_of(ib: SSAValue) -> tuple[Dim, Dim]:
        """The rows [i0, i1) of row block ib: static when there is one."""
        if row_blocks == 1:
            return 0, m
        i0 = as_dim(b, ib) * mc
        return i0, imin(b, i0 + mc, m)

    def batch_indices(bt: list[SSAValue]) -> tuple[list[Dim | SSAValue], list[Dim | SSAValue]]:
        return broadcast_index(bt, ad[:-2], batch), broadcast_index(bt, pd[:-3], batch)

    def row_tiles(ab: list[Dim | SSAValue], pb: list[Dim | SSAValue], p: SSAValue | int,
                  dests_at: Callable[[Dim], list[Dest]], i0: Dim, i1: Dim, k0: Dim,
                  k1: Dim) -> None:
        """The kernel over rows [i0, i1) of panel p: whole tiles, then the remainder."""
        def a_row(i: Dim) -> Callable[[int], list[Dim | SSAValue]]:
            return lambda r: [*ab, as_dim(b, i) + r]

        i0, i1 = as_dim(b, i0), as_dim(b, i1)
        tiles_end = i0 + floor_div(b, i1 - i0, rows) * rows
        with b.loop(i0, tiles_end, rows) as i:
            _kernel(b, a, a_row(i), bp, [*pb, p], k0, k1, lanes, dests_at(i), rows)
        rest = i1 - tiles_end
        if isinstance(rest, int):
            if rest:
                _kernel(b, a, a_row(tiles_end), bp, [*pb, p], k0, k1, lanes,
                        dests_at(tiles_end), rest)
            return
        for h in range(1, rows):  # a run-time remainder: the kernel of its height
            with b.if_(b.cmpi("eq", b.idx(rest), b.idx(h))):
                _kernel(b, a, a_row(tiles_end), bp, [*pb, p], k0, k1, lanes,
                        dests_at(tiles_end), h)

    def fill(bt: list[SSAValue], i0: Dim, i1: Dim, j0: Dim, j1: Dim) -> None:
        """Y[rows i0:i1, columns j0:j1] = bias (or 0): the kernels add every KC slice."""
        with b.loop(i0, i1) as i, b.loop(j0, j1) as j:
            b.store(b.load(bias, [j]) if bias is not None else b.const(0.0, et), y,
                    [*bt, i, j])

    def activate(bt: list[SSAValue], i0: Dim, i1: Dim, j0: Dim, j1: Dim) -> None:
        if act is not None:
            with b.loop(i0, i1) as i, b.loop(j0, j1) as j:
                b.store(act(b, b.load(y, [*bt, i, j])), y, [*bt, i, j])

    if full_panels:
        groups = -(-full_panels // group)
        work = static_product([k], 2 * rows_max * group * width)
        with b.parallel([*batch, groups, row_blocks], work) as (*bt, g, ib):
            ab, pb = batch_indices(bt)
            i0, i1 = rows_of(ib)
            p0, p1 = (0, full_panels) if groups == 1 else (
                as_dim(b, g) * group, imin(b, as_dim(b, g) * group + group, full_panels))
            fill(bt, i0, i1, p0 * width, p1 * width)

            def slice_k(k0: Dim, k1: Dim) -> None:
                with b.loop(p0, p1) as p:
                    row_tiles(ab, pb, p, lambda r0, p=p: [
                        (y, lambda r, r0=r0, v=v, p=p: [*bt, as_dim(b, r0) + r,
                                                        as_dim(b, p) * width + v * lanes])
                        for v in range(vectors)], i0, i1, k0, k1)

            _blocks(b, k, kc, slice_k)
            activate(bt, i0, i1, p0 * width, p1 * width)
    if full_panels < panels:
        # The last panel's rows: its whole vectors into Y, a vector straddling N into a
        # scratch of the block's rows (one per iteration), copied to Y's last columns.
        work = static_product([k], 2 * rows_max * width)
        with b.parallel([*batch, row_blocks], work) as (*bt, ib):
            ab, pb = batch_indices(bt)
            i0, i1 = rows_of(ib)
            fill(bt, i0, i1, edge_col, n)
            scratch = b.alloc([rows_max, lanes], et) if straddle else None
            if scratch is not None:
                init = b.vload(bias, [edge_col + last_whole * lanes], lanes) if (
                    bias is not None) else zero
                with b.loop(0, i1 - i0) as r:
                    b.vstore(init, scratch, [r, 0])

            def edge_dests(r0: Dim) -> list[Dest]:
                dests: list[Dest] = [
                    (y, lambda r, v=v: [*bt, as_dim(b, r0) + r, edge_col + v * lanes])
                    for v in range(last_whole)]
                if scratch is not None:
                    dests.append((scratch, lambda r: [as_dim(b, r0) - i0 + r, 0]))
                return dests

            _blocks(b, k, kc, lambda k0, k1: row_tiles(ab, pb, panels - 1, edge_dests,
                                                       i0, i1, k0, k1))
            if scratch is not None:
                col = edge_col + last_whole * lanes
                with b.loop(i0, i1) as i, b.loop(0, straddle) as j:
                    b.store(b.load(scratch, [as_dim(b, i) - i0, j]), y,
                            [*bt, i, as_dim(b, j) + col])
                b.insert(memref.DeallocOp.get(scratch))
            activate(bt, i0, i1, edge_col, n)
    return [y]


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

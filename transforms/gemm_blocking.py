"""`select-gemm-blocking{l1=B l2=B l3=B}`: the cache blocks of every packed matmul, chosen
from its shape and the target's cache sizes (bytes), written on the op, where its
lowering reads them (lowering/graph_ops/gemm.py):

    graph.matmul_packed %a, %bp {block = array<i64: MC, KC, NC>, tile = ...} : ...

As in BLIS: the KC x NR slice of a B panel, which the kernel reads again for every MR rows,
takes half of L1 (the rest: A's rows and the tile of Y); the MC x KC block of A, read
again for every panel, half of L2; the KC x NC block of B half of L3. KC splits K into
equal slices (no short last slice), MC is whole register tiles and at most M's, NC whole
panels and at most N's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, TensorType, i64
from xdsl.passes import ModulePass

from infer.dialects import graph as G

# Cache sizes (L1, L2, L3 bytes) where the target is not given: a small x86-64 core's.
CACHES = (32 * 1024, 512 * 1024, 8 * 1024 * 1024)


def gemm_blocks(m: int | None, k: int | None, n: int, width: int, rows: int, itemsize: int,
                caches: tuple[int, int, int]) -> tuple[int, int, int]:
    """(MC, KC, NC) for an [m, k] x [k, n] product (None: a dynamic dim) in panels of
    `width` columns, register tiles of `rows` rows and elements of `itemsize` bytes."""
    l1, l2, l3 = caches
    kc = max(8, l1 // 2 // (width * itemsize))
    if k is not None:
        kc = -(-k // -(-k // kc))
    mc = max(rows, l2 // 2 // (kc * itemsize) // rows * rows)
    if m is not None:
        mc = min(mc, -(-m // rows) * rows)
    nc = max(width, l3 // 2 // (kc * itemsize) // width * width)
    return mc, kc, min(nc, -(-n // width) * width)


@dataclass(frozen=True)
class SelectGemmBlockingPass(ModulePass):
    """Write `block` on every graph.matmul_packed for caches of l1 / l2 / l3 bytes."""

    name = "select-gemm-blocking"

    l1: int = CACHES[0]
    l2: int = CACHES[1]
    l3: int = CACHES[2]

    def __post_init__(self) -> None:
        if min(self.l1, self.l2, self.l3) < 1024:
            raise ValueError(f"select-gemm-blocking: cache sizes must be >= 1024 bytes, got "
                             f"{self.l1}, {self.l2}, {self.l3}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for mm in op.walk():
            if not isinstance(mm, G.MatMulPackedOp):
                continue
            a, bp = cast(TensorType, mm.A.type), cast(TensorType, mm.B.type)
            m = a.get_shape()[-2]
            _, k, width = bp.get_shape()[-3:]
            rows, _ = mm.register_tile()
            itemsize = a.element_type.bitwidth // 8  # type: ignore[attr-defined]
            blocks = gemm_blocks(None if m < 0 else m, None if k < 0 else k, mm.n.value.data,
                                 width, rows, itemsize, (self.l1, self.l2, self.l3))
            mm.attributes[G.GEMM_BLOCK_ATTR] = DenseArrayBase.from_list(i64, list(blocks))

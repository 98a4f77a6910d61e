"""`select-int8-tile{l2=B}`: the register tile and the cache block of every integer kernel
(qnn.conv_requant, qnn.matmul_requant), written on the op once qnn-legalize has chosen its
form, where lowering/graph_ops/qnn_int8.py reads them:

    qnn.conv_requant ... {kernel = "pairs", lanes = 8, tile = array<i64: 6, 2>,
                          block = array<i64: 262144>}

The tile (rows, vectors) is the form's measured one for its lanes (qnn.CONV_TILES and
MATMUL_TILES: the lanes say the register file, 32 with AVX-512's 16 lanes, else 16); a
conv's block is the bytes of packed pixels its row tiles run over together, half of L2.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, i64
from xdsl.passes import ModulePass

from infer.dialects import qnn as Q
from infer.transforms.gemm_blocking import CACHES


def pixel_block(l2: int) -> int:
    """Bytes of packed pixels a conv block holds for an L2 of `l2` bytes: half of it."""
    return l2 // 2


@dataclass(frozen=True)
class SelectInt8TilePass(ModulePass):
    """Write `tile` on every legalized integer kernel and `block` on its convs for an L2
    cache of `l2` bytes (see the module doc)."""

    name = "select-int8-tile"

    l2: int = CACHES[1]

    def __post_init__(self) -> None:
        if self.l2 < 1024:
            raise ValueError(f"select-int8-tile: l2 must be >= 1024 bytes, got {self.l2}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in op.walk():
            if not isinstance(kernel, Q.ConvRequantOp | Q.MatMulRequantOp):
                continue
            if kernel.lanes is None:
                raise ValueError(f"select-int8-tile: {kernel.name} has no kernel form "
                                 "(run qnn-legalize first)")
            tile = kernel.DEFAULT_TILES[kernel.lanes.value.data]
            kernel.properties["tile"] = DenseArrayBase.from_list(i64, list(tile))
            if isinstance(kernel, Q.ConvRequantOp):
                kernel.properties["block"] = DenseArrayBase.from_list(
                    i64, [pixel_block(self.l2)])

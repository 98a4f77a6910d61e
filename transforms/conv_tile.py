"""`select-conv-tile{registers=R}`: the register tile of every blocked conv, chosen for the
target and written on the op, where graph-to-loops reads it (one pass decides, the
lowering applies, each tested alone, as IREE splits its lowering strategy):

    graph.conv_nchwc %x, %w {tile = array<i64: outputs, blocks>} : ...

The kernel keeps outputs x blocks accumulator vectors, one weight vector per output block
and one broadcast input in registers: outputs * blocks + blocks + 1 <= R. Two blocks let
each broadcast input feed two FMAs. Outputs are capped at 6, the tile measured fastest on
AVX2 (R = 16: 6 x 2 in 15 registers); AVX-512's 32 registers would fit 14 x 2, which is a
candidate to measure before the cap is raised for it.

It also writes the register tile of every pointwise graph.conv (the small-GEMM kernel of
lowering/graph_ops/conv_pointwise.py): `pointwise_tile = array<i64: accumulators, lanes>`,
all registers but four (the broadcasts and a load) as accumulators, at most 12 (AVX2's,
the measured one), of 8 lanes.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, i64
from xdsl.passes import ModulePass

from infer.dialects import graph as G

# The AVX2 tile (graph.DEFAULT_TILE) is the cap on outputs and the preferred blocks.
MAX_OUTPUTS, BLOCKS = G.DEFAULT_TILE
# Vector registers where the target is not given: AVX2's 16.
REGISTERS = 16


def pointwise_tile(registers: int) -> tuple[int, int]:
    """(accumulators, lanes) of a pointwise conv's tile for `registers` vector registers."""
    accumulators, lanes = G.DEFAULT_POINTWISE_TILE
    return max(1, min(accumulators, registers - 4)), lanes


def conv_tile(registers: int, max_outputs: int = MAX_OUTPUTS) -> tuple[int, int]:
    """(outputs, output blocks) of the register tile for `registers` vector registers, at
    most `max_outputs` outputs (the GEMM kernel's tile is this one, of rows x vectors)."""
    for blocks in (BLOCKS, 1):
        outputs = min(max_outputs, (registers - blocks - 1) // blocks)
        if outputs >= 1:
            return outputs, blocks
    raise ValueError(f"select-conv-tile: {registers} vector registers hold no tile (needs >= 3)")


@dataclass(frozen=True)
class SelectConvTilePass(ModulePass):
    """Write `tile` on every graph.conv_nchwc and `pointwise_tile` on every pointwise
    graph.conv for a target with `registers` vector registers (see the module doc)."""

    name = "select-conv-tile"

    registers: int = REGISTERS

    def __post_init__(self) -> None:
        conv_tile(self.registers)  # refuses a register count that holds no tile

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tile = DenseArrayBase.from_list(i64, list(conv_tile(self.registers)))
        pointwise = DenseArrayBase.from_list(i64, list(pointwise_tile(self.registers)))
        for conv in op.walk():
            if isinstance(conv, G.ConvNchwcOp):
                conv.attributes[G.TILE_ATTR] = tile
            elif isinstance(conv, G.ConvOp) and conv.is_pointwise():
                conv.attributes[G.POINTWISE_TILE_ATTR] = pointwise

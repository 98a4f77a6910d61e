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

`select-conv-rows{edge-width=E}` then cuts each static output row of a blocked conv into
those tiles, `row_tiles = array<i64: size, count, kind, ...>` (graph.conv_nchwc): never a
tile of one output beside full ones where it can be helped, since one output keeps too
few FMA chains in flight (at 7x7 and 14x14 the edge outputs taken one at a time were a
third of a 3x3 conv's time, a 7-wide 1x1 conv's last output a seventh). Interiors are
split into tiles of about equal size (14 outputs of tiles of 6: 5 + 5 + 4); rows of at
most E outputs cut their edges into one or two edge tiles whose taps are chosen
statically (7 outputs: 4 + 3; 14 with a padded edge each side: 4 + 6 + 4); wider rows
take their few edge outputs one at a time (little of their time, less code to compile).
A row whose padding reaches deeper than an edge tile keeps no attribute. A pointwise conv
(kernel 1, strides 1, no padding) with rows of fewer than E outputs and at least
FLAT_ITERATIONS tiles of output blocks to share among threads takes its spatial dims as
one row (`flat_rows`): its tiles run across row ends (ResNet-50's last stage, 7 x 7:
tiles of 6 over 49 outputs instead of 4 + 3 per row).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, TensorType, UnitAttr, i64
from xdsl.passes import ModulePass

from infer.dialects import graph as G

# The AVX2 tile (graph.DEFAULT_TILE) is the cap on outputs and the preferred blocks.
MAX_OUTPUTS, BLOCKS = G.DEFAULT_TILE
# Vector registers where the target is not given: AVX2's 16.
REGISTERS = 16
# Rows of at most this many outputs take edge tiles (the module doc).
EDGE_WIDTH = 16
# A pointwise conv's rows are flattened only with at least this many parallel iterations
# (images x tiles of output blocks) left: flat rows take the rows' share of the threads.
FLAT_ITERATIONS = 8

Run = tuple[int, int, int]  # (size, count, kind) of graph.conv_nchwc's row_tiles


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


def row_tiles(out_w: int, lo: int, hi: int, outputs: int, edge_width: int = EDGE_WIDTH
              ) -> list[Run] | None:
    """A row of `out_w` outputs whose interior is [lo, hi) in tiles of at most `outputs`
    (the module doc), or None where edge tiles would have to repeat."""
    if out_w == 0:
        return None
    if lo == 0 and hi == out_w:
        return _even(out_w, outputs)
    if out_w > edge_width:
        if hi <= lo:
            return None
        return ([(1, lo, G.ROW_SINGLE)] if lo else []) + _even(hi - lo, outputs) + (
            [(1, out_w - hi, G.ROW_SINGLE)] if hi < out_w else [])
    # the fewest full tiles that leave at most two tiles' worth for the edges
    full = max(0, -(-(out_w - 2 * outputs) // outputs))
    rest = out_w - full * outputs
    left = rest if rest <= outputs else -(-rest // 2)
    runs = []
    for start, size, count in ((0, left, 1), (left, outputs, full),
                               (left + full * outputs, rest - left, 1)):
        if size and count:
            edge = start < lo or start + size * count > hi
            if edge and count > 1:
                return None
            runs.append((size, count, G.ROW_EDGE if edge else G.ROW_TILE))
    return runs


def _even(outputs: int, tile: int) -> list[Run]:
    """`outputs` interior outputs in tiles of about equal size: two runs at most."""
    n = -(-outputs // tile)
    size, extra = divmod(outputs, n)
    return [run for run in ((size + 1, extra, G.ROW_TILE), (size, n - extra, G.ROW_TILE))
            if run[1]]


@dataclass(frozen=True)
class SelectConvRowsPass(ModulePass):
    """Write `row_tiles` on every graph.conv_nchwc of a static row, for its register tile
    (see the module doc); rows of at most `edge_width` outputs take edge tiles."""

    name = "select-conv-rows"

    edge_width: int = EDGE_WIDTH

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for conv in op.walk():
            if not isinstance(conv, G.ConvNchwcOp):
                continue
            if self._flatten(conv):
                conv.attributes[G.FLAT_ROWS_ATTR] = UnitAttr()
            else:
                conv.attributes.pop(G.FLAT_ROWS_ATTR, None)
            row = conv.row_interior()
            runs = None if row is None else row_tiles(*row, conv.tile_shape()[1],
                                                       self.edge_width)
            if runs is None:
                conv.attributes.pop(G.ROW_TILES_ATTR, None)
            else:
                conv.attributes[G.ROW_TILES_ATTR] = DenseArrayBase.from_list(
                    i64, [v for run in runs for v in run])

    def _flatten(self, conv: G.ConvNchwcOp) -> bool:
        """Whether `conv` takes its spatial dims as one row (the module doc)."""
        if not conv.can_flatten_rows():
            return False
        y = cast(TensorType, conv.Y.type).get_shape()
        blocks = conv.tile_shape()[0]
        return y[-2] < self.edge_width and max(y[0], 1) * (y[1] // blocks) >= FLAT_ITERATIONS

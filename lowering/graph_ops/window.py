"""Sliding windows over the spatial dims of convs and pools (NCHW or blocked NCHWc), and
flattened spatial planes.

A window of output position o along a dim starts at o*s - pb and has taps t < k at input
positions start + t*d. Padding is never materialized: each lowering loops over the valid
taps of the outer dims (computed once per output row, `Window.taps_at` + `Taps.loop`) and
over the valid outputs (`Window.outputs`) or valid taps (`Window.taps`) of the last dim.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, IntegerAttr, MemRefType, NoneAttr, i64
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim, product
from infer.lowering.graph_ops.index import as_dim, ceil_div, floor_div, imax, imin
from infer.lowering.loop_builder import LoopBuilder


@dataclass(frozen=True)
class Window:
    """The static window attributes of a conv or pool, per spatial dim."""

    kernel: list[int]
    strides: list[int]
    dilations: list[int]
    pads: list[int]  # [begin..., end...]
    # no window passes the input's end (no end pad, floor mode): the upper bound of the
    # valid taps is the kernel size, with no index arithmetic
    exact_end: list[bool]
    ceil: bool = False

    @staticmethod
    def of_conv(op: graph.ConvLikeOp, kernel: list[int]) -> Window:
        n = len(kernel)
        strides, dilations, pads = graph.spatial_attrs(op.properties, n, kernel)
        return Window(kernel, strides, dilations, pads, [pads[n + i] == 0 for i in range(n)])

    @staticmethod
    def of_pool(op: graph.PoolOp) -> Window:
        kernel = list(op.kernel_shape.get_values())
        n = len(kernel)
        strides, dilations, pads = graph.spatial_attrs(op.properties, n, kernel)
        ceil = bool(op.ceil_mode.value.data)
        exact_end = [pads[n + i] == 0 and not ceil for i in range(n)]
        return Window(kernel, strides, dilations, pads, exact_end, ceil)

    def start(self, b: LoopBuilder, i: int, o: Dim | SSAValue) -> Dim:
        """The first input position of output o's window along dim i."""
        return as_dim(b, o) * self.strides[i] - self.pads[i]

    def taps(self, b: LoopBuilder, i: int, start: Dim, size: Dim) -> tuple[Dim, Dim]:
        """Taps [lo, hi) of dim i's window starting at `start` whose position
        start + t*d lies in [0, size)."""
        k, d, pb = self.kernel[i], self.dilations[i], self.pads[i]
        lo: Dim = 0 if pb == 0 else imax(b, 0, ceil_div(b, 0 - start, d))
        hi: Dim = k if self.exact_end[i] else imin(b, k, floor_div(b, size - 1 - start, d) + 1)
        return lo, hi

    def outputs(self, b: LoopBuilder, i: int, off: Dim, out: Dim, size: Dim) -> tuple[Dim, Dim]:
        """Outputs [lo, hi) along dim i for which a tap at offset `off` (t*d - pb; position
        o*s + off) lies in [0, size)."""
        s, pb = self.strides[i], self.pads[i]
        lo: Dim = 0 if pb == 0 else imax(b, 0, ceil_div(b, 0 - off, s))
        hi: Dim = out if self.exact_end[i] else imin(b, out, floor_div(b, size - 1 - off, s) + 1)
        return lo, hi

    def taps_at(self, b: LoopBuilder, outs: Sequence[Dim | SSAValue], sizes: Sequence[Dim]
                ) -> Taps:
        """The windows of output position `outs` along the first len(outs) dims (input
        sizes `sizes`): their starts and valid tap ranges."""
        starts = [self.start(b, i, o) for i, o in enumerate(outs)]
        ranges = [self.taps(b, i, st, sizes[i]) for i, st in enumerate(starts)]
        return Taps(starts, ranges, self.dilations)

    def padded_taps(self, b: LoopBuilder, i: int, start: Dim, sizes: Sequence[Dim]) -> Dim:
        """Taps of dim i's window starting at `start` inside the padded input, whose
        spatial sizes are `sizes`."""
        if not self.ceil:  # in floor mode no window passes the end padding
            return self.kernel[i]
        # taps whose position start + t*d lies in [-pb, size + pe): all from t = 0 on
        end = sizes[i] + self.pads[len(self.kernel) + i] - 1 - start
        return imin(b, self.kernel[i], floor_div(b, end, self.dilations[i]) + 1)

    def count(self, b: LoopBuilder, taps: Taps, sizes: Sequence[Dim], include_pad: bool
              ) -> Dim:
        """An average pool's divisor over the dims of `taps`: the taps inside the input,
        or with `include_pad` inside the padded input."""
        count: Dim = 1
        for i, (st, (lo, hi)) in enumerate(zip(taps.starts, taps.ranges, strict=True)):
            count = count * (self.padded_taps(b, i, st, sizes) if include_pad else hi - lo)
        return count


Body = Callable[[list[SSAValue], list[Dim], list[SSAValue]], list[SSAValue]]


@dataclass(frozen=True)
class Taps:
    """The windows of one output position along some dims: their starts and valid tap
    ranges [lo, hi)."""

    starts: list[Dim]
    ranges: list[tuple[Dim, Dim]]
    dilations: list[int]

    def loop(self, b: LoopBuilder, carried: list[SSAValue], body: Body) -> list[SSAValue]:
        """Loops over the valid taps of each dim, outermost first, carrying `carried`
        (scf.for iter_args; none for loops that accumulate in memory); innermost,
        body(taps, positions, carried) builds the rest and returns the next carried."""

        def level(i: int, taps: list[SSAValue], pos: list[Dim], c: list[SSAValue]
                  ) -> list[SSAValue]:
            if i == len(self.ranges):
                return body(taps, pos, c)

            def tap(t: SSAValue, ct: list[SSAValue]) -> list[SSAValue]:
                p = self.starts[i] + as_dim(b, t) * self.dilations[i]
                return level(i + 1, [*taps, t], [*pos, p], ct)

            return b.reduce_loop(*self.ranges[i], c, tap)

        return level(0, [], [], carried)


def flatten_from(b: LoopBuilder, buf: SSAValue, axis: int) -> SSAValue | None:
    """A view of `buf` with dims axis.. collapsed into one, or None if it has a layout.

    Small spatial planes (7x7 in ResNet's last stage) make short rows; one flattened loop
    of 49 vectorizes where seven loops of 7 do not.
    """
    rank = len(cast(MemRefType, buf.type).get_shape())
    return collapse(b, buf, axis, rank) if rank - axis >= 2 else None


def collapse(b: LoopBuilder, buf: SSAValue, first: int, end: int) -> SSAValue | None:
    """A view of `buf` with dims first..end-1 collapsed into one, or None if it has a
    layout (a strided view is not contiguous across those dims)."""
    t = buf.type
    assert isinstance(t, MemRefType)
    shape = list(t.get_shape())
    if not isinstance(t.layout, NoneAttr):
        return None
    group = shape[first:end]
    flat = DYNAMIC_INDEX if DYNAMIC_INDEX in group else cast(int, product(group))
    groups = [[i] for i in range(first)] + [list(range(first, end))] + [
        [i] for i in range(end, len(shape))]
    reassoc = ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])
    op = memref.CollapseShapeOp.build(
        operands=[buf],
        result_types=[MemRefType(t.element_type, [*shape[:first], flat, *shape[end:]])],
        properties={"reassociation": reassoc},
    )
    return b.insert(op).results[0]

"""Ops of the blocked channel layout (NCHWc), introduced by graph-optimize level 3, and
their layout in numpy (the reference that constant folding and tests use)."""

from __future__ import annotations

from abc import ABC
from math import prod
from typing import ClassVar, cast

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    TensorType,
)
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.dims import DYN
from infer.dialects.graph.base import TRAITS, GraphOp, spatial_attrs, tile_sizes, window_out
from infer.dialects.graph.elementwise import apply_activation
from infer.dialects.graph.nn import ConvLikeOp, PoolOp, check_summand
from infer.dialects.graph.numpy_semantics import conv_nchw
from infer.dialects.graph.types import int_attr

# ---------------------------------------------------------------------------------------
# Blocked channel layout (NCHWc), introduced by graph-optimize level 3
#
# A blocked tensor [N, C/c, *spatial, c] holds channel k*c + j at [:, k, ..., j]: the c
# channels of a block are contiguous, so a kernel computes c output channels as one
# vector (c = 16 with AVX-512, 8 with AVX2) with every input pixel broadcast once per
# block. The layout pass (transforms/layout.py) converts convs whose channels divide by
# c (and image stems, which read their few input channels in NCHW), lets elementwise
# ops, pooling, BatchNormalization and channel concats work on the blocked tensors in
# between, and reorders back where an op needs NCHW.
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class ToNchwcOp(GraphOp):
    """[N, C, *spatial] -> [N, C/block, *spatial, block]; C must divide by `block`."""

    name = "graph.to_nchwc"
    ONNX_OP: ClassVar[str | None] = None  # made by the layout pass, as the ops below
    X = operand_def(TensorType)
    Y = result_def(TensorType)
    block = prop_def(IntegerAttr)
    traits = TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        c = cls.prop(props, "block")
        if len(x) < 3 or c < 1:
            raise ValueError(f"needs rank >= 3 and block >= 1, got {D.format_shape(x)}, {c}")
        if not isinstance(x[1], int) or x[1] % c:
            raise ValueError(f"channels {x[1]} must be static and divide by the block {c}")
        return [[x[0], x[1] // c, *x[2:], c]]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return to_blocked(x, self.block.value.data)


@irdl_op_definition
class FromNchwcOp(GraphOp):
    """[N, C/c, *spatial, c] -> [N, C, *spatial]: back to plain NCHW."""

    name = "graph.from_nchwc"
    ONNX_OP: ClassVar[str | None] = None
    X = operand_def(TensorType)
    Y = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(x) < 4 or not isinstance(x[1], int) or not isinstance(x[-1], int):
            raise ValueError(f"expects a blocked tensor [N, C/c, ..., c], got {D.format_shape(x)}")
        return [[x[0], x[1] * x[-1], *x[2:-1]]]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return from_blocked(x)


# The register tile a blocked conv's kernel uses, chosen per target (select-conv-tile),
# and the tile of a conv without one: 6 outputs x 2 output blocks, the fastest measured
# on AVX2 (12 accumulators, 2 weight vectors and one broadcast input in 16 registers).
TILE_ATTR = "tile"
DEFAULT_TILE = (6, 2)
# How each output row (along the last spatial dim) is cut into register tiles, chosen by
# select-conv-rows: `row_tiles = array<i64: size, count, kind, ...>`, runs from output 0
# on of `count` tiles of `size` outputs, of a kind: ROW_TILE (interior outputs, every tap
# inside the input), ROW_EDGE (one tile touching the padding, its taps chosen statically)
# or ROW_SINGLE (outputs of size 1 touching the padding, taps computed per output). A
# conv without it (a dynamic row) takes single outputs at its ends and tiles between.
ROW_TILES_ATTR = "row_tiles"
ROW_TILE, ROW_EDGE, ROW_SINGLE = 0, 1, 2
# A pointwise conv (every kernel dim 1, strides 1, no padding) of static spatial dims may
# take them as one row (`flat_rows`, a unit attribute, select-conv-rows): output pixel p
# reads input pixel p, so tiles run on across row ends (7x7: tiles of 6 over 49 outputs,
# not 4 + 3 per row); its `row_tiles` then cut that row.
FLAT_ROWS_ATTR = "flat_rows"


@irdl_op_definition
class ConvNchwcOp(ConvLikeOp):
    """graph.conv on blocked tensors: X [N, C/c, *sp, c] -> Y [N, M/c, *osp, c].

    W is packed [M/c, Cg/ci, *kernel, ci, c] where Cg = C/group is the input channels of a
    group and ci = min(c, Cg) (ci = 1 for a depthwise conv): output channel m of input
    channel j (within m's group) tap t has weight W[m // c, j // ci, t, j % ci, m % c].
    B is [M] as in graph.conv; the optional summand Z is blocked like Y. Properties are
    graph.conv's (strides, pads, dilations, group, activation).

    X may also be plain NCHW [N, C, *sp] (rank W's - 2; group 1, ci = Cg = C, W packed
    [M/c, 1, *kernel, C, c]): y[n, m, o] = sum_{j, t} W[m // c, 0, t, j, m % c] *
    x[n, j, o*s - p + t*d]. That is the image stem, whose few channels fill no block: it
    reads its input as is and writes blocked.

    The discardable attribute `tile = array<i64: outputs, blocks>` (TILE_ATTR), written by
    select-conv-tile for the target, is the kernel's register tile; `row_tiles`
    (ROW_TILES_ATTR, select-conv-rows) how each output row is cut into such tiles.
    """

    name = "graph.conv_nchwc"
    ONNX_OP: ClassVar[str | None] = None

    def _shapes(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        x, w = (cast(TensorType, v.type).get_shape() for v in (self.X, self.W))
        return x, w

    def is_plain(self) -> bool:
        """X is NCHW (the image stem), not blocked."""
        x, w = self._shapes()
        return len(x) == len(w) - 2

    def is_depthwise(self) -> bool:
        """One blocked input channel per group and as many outputs as inputs."""
        x, w = self._shapes()
        group = self.group.value.data
        return (not self.is_plain() and w[-2] == 1 and x[1] * x[-1] == group
                and w[0] * w[-1] == group)

    def register_tile(self) -> tuple[int, int]:
        """(outputs, output blocks) of the register tile: accumulators for that many outputs
        of that many channel blocks, their weight vectors and one broadcast input. The
        `tile` attribute (select-conv-tile), else DEFAULT_TILE."""
        return tile_sizes(self, TILE_ATTR, DEFAULT_TILE, "outputs, blocks")

    def tile_shape(self) -> tuple[int, int]:
        """(output blocks, outputs) of one tile of this conv. Blocks share each broadcast
        input, so a depthwise conv (no input to share) takes one, as does a group of
        several whose blocks do not divide by the tile's; with fewer blocks, more outputs
        keep as many FMA chains in flight (one block x 12: +9% measured), but a depthwise
        conv is bound by its input loads and keeps the tile's outputs. One group (a dense
        conv) keeps the tile's blocks whatever its count: the lowering runs the blocks
        left over as a tile of their own (SqueezeNet's 1000-channel 1x1 conv, 125 blocks
        of 8: 15% faster as 62 pairs and one than as 125 single blocks)."""
        outputs, blocks = self.register_tile()
        if self.is_depthwise():
            return 1, outputs
        w = self._shapes()[1]
        group = 1 if self.is_plain() else self.group.value.data
        ob = blocks if group == 1 or (w[0] // group) % blocks == 0 else 1
        return ob, outputs * blocks // ob

    def can_flatten_rows(self) -> bool:
        """A dense pointwise conv (kernel 1, strides 1, no padding) of blocked input with
        static spatial dims: its spatial dims can be one row (FLAT_ROWS_ATTR)."""
        x, w = self._shapes()
        n = len(w) - 4
        kernel = list(w[2:-2])
        strides, _, pads = spatial_attrs(self.properties, n, kernel)
        return (not self.is_plain() and not self.is_depthwise() and set(kernel) == {1}
                and set(strides) == {1} and not any(pads) and min(x[2:-1]) > 0)

    def flat_rows(self) -> bool:
        """Whether the spatial dims are one row (FLAT_ROWS_ATTR, verified possible)."""
        if FLAT_ROWS_ATTR not in self.attributes:
            return False
        if not self.can_flatten_rows():
            raise VerifyException(f"'{self.name}' {FLAT_ROWS_ATTR} needs a pointwise conv "
                                  "(kernel 1, strides 1, no padding) of blocked input "
                                  "with static spatial dims")
        return True

    def row_interior(self) -> tuple[int, int, int] | None:
        """(outputs, lo, hi) of a static output row: outputs [lo, hi) have every tap of the
        last spatial dim inside the input (ow*s - pad >= 0, ow*s - pad + (k-1)*d < in_w).
        None when the row or the input's width is dynamic. With flat rows, the row is
        every spatial position."""
        x, w = self._shapes()
        y = cast(TensorType, self.Y.type).get_shape()
        n = len(w) - 4
        if self.flat_rows():
            return prod(y[2:-1]), 0, prod(y[2:-1])
        last = -1 if self.is_plain() else -2
        in_w, out_w = x[last], y[-2]
        if in_w < 0 or out_w < 0:  # dynamic
            return None
        kernel = list(w[2:-2])
        strides, dilations, pads = spatial_attrs(self.properties, n, kernel)
        k, s, d, pad = kernel[-1], strides[-1], dilations[-1], pads[n - 1]
        lo = min(-(-pad // s), out_w)
        hi = max(lo, min(out_w, (in_w - 1 + pad - (k - 1) * d) // s + 1))
        return out_w, lo, hi

    def row_tiles(self) -> list[tuple[int, int, int]] | None:
        """The `row_tiles` runs as (size, count, kind), or None without the attribute."""
        attr = self.attributes.get(ROW_TILES_ATTR)
        if attr is None:
            return None
        values = attr.get_values() if isinstance(attr, DenseArrayBase) else ()
        runs = [cast(tuple[int, int, int], tuple(values[i:i + 3]))
                for i in range(0, len(values), 3)]
        row = self.row_interior()
        problem = (
            "needs a static row" if row is None
            else "is not array<i64: size, count, kind, ...>" if not values or len(values) % 3
            else "has a run of size or count < 1 or an unknown kind"
            if any(size < 1 or count < 1 or kind not in (ROW_TILE, ROW_EDGE, ROW_SINGLE)
                   for size, count, kind in runs)
            else "has an edge run of several tiles or single outputs of size > 1"
            if any((kind == ROW_EDGE and count > 1) or (kind == ROW_SINGLE and size > 1)
                   for size, count, kind in runs)
            else f"covers {sum(s * c for s, c, _ in runs)} outputs of a row of {row[0]}"
            if sum(s * c for s, c, _ in runs) != row[0] else None)
        if problem is not None:
            raise VerifyException(f"'{self.name}' {ROW_TILES_ATTR} {problem}, got {attr}")
        return runs

    def verify_(self) -> None:
        super().verify_()
        self.register_tile()
        self.flat_rows()
        self.row_tiles()

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, w = dims[0], dims[1]
        n = len(w) - 4
        plain = len(x) == n + 2  # an NCHW input [N, C, *sp]
        if n < 1 or len(x) != n + (2 if plain else 3):
            raise ValueError(
                f"X {D.format_shape(x)} and W {D.format_shape(w)} are not a blocked (or NCHW) "
                "input [N, C/c, *sp, c] and packed weights [M/c, Cg/ci, *k, ci, c]"
            )
        if not all(isinstance(d, int) for d in [x[1], *w, *([] if plain else [x[-1]])]):
            raise ValueError("channels, blocks and weights must be static")
        mb, cgb, ci, co = cast(int, w[0]), cast(int, w[1]), cast(int, w[-2]), cast(int, w[-1])
        c = co if plain else cast(int, x[-1])
        cin = cast(int, x[1]) * (1 if plain else c)
        g = cls.prop(props, "group")
        if plain and (g != 1 or cgb != 1 or ci != cin):
            raise ValueError(
                f"W {D.format_shape(w)} does not pack an NCHW input of {cin} channels "
                f"[M/c, 1, *k, {cin}, c] (group 1 only)"
            )
        if co != c or g < 1 or cin % g or cgb * ci * g != cin or (mb * c) % g:
            raise ValueError(
                f"W {D.format_shape(w)} does not pack {cin} input channels in {g} groups "
                f"with block {c}"
            )
        if len(dims) >= 3 and (len(dims[2]) != 1 or dims[2][0] not in (mb * c, DYN)):
            raise ValueError(f"bias {D.format_shape(dims[2])} must be [{mb * c}]")
        kernel = cast(list[int], w[2:-2])
        strides, dilations, pads = spatial_attrs(props, n, kernel)
        spatial = [
            window_out(x[2 + i], kernel[i], strides[i], dilations[i], pads[i], pads[n + i])
            for i in range(n)
        ]
        out = [x[0], mb, *spatial, c]
        check_summand(dims, out)
        return [out]

    def numpy(self, *x: np.ndarray) -> np.ndarray:
        """Converted to NCHW, evaluated as graph.conv, and blocked back."""
        block = x[1].shape[-1]
        # X of rank W's - 2 is already NCHW (the image stem's form).
        data = x[0] if x[0].ndim == x[1].ndim - 2 else from_blocked(x[0])
        plain = [data, unpack_conv_weights(x[1]), *x[2:3]]
        if len(x) > 3:
            plain.append(from_blocked(x[3]))
        return to_blocked(apply_activation(self, conv_nchw(self, plain)), block)


class PoolNchwcOp(PoolOp, ABC):
    """A pool of PoolOp's attributes on a blocked tensor [N, C/c, *sp, c]."""

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(x) < 4:
            raise ValueError(f"input {D.format_shape(x)} must be blocked [N, C/c, *sp, c]")
        (y,) = super().output_dims(props, [x[:-1]], consts)
        return [[*y, x[-1]]]

    def pooled_blocked(self, x: np.ndarray, is_max: bool) -> np.ndarray:
        """The pool of blocked x: converted to NCHW, pooled, and blocked back."""
        return to_blocked(self.pooled(from_blocked(x), is_max), x.shape[-1])


@irdl_op_definition
class MaxPoolNchwcOp(PoolNchwcOp):
    name = "graph.max_pool_nchwc"
    ONNX_OP: ClassVar[str | None] = None

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return self.pooled_blocked(x, True)


@irdl_op_definition
class AveragePoolNchwcOp(PoolNchwcOp):
    name = "graph.average_pool_nchwc"
    ONNX_OP: ClassVar[str | None] = None
    count_include_pad = prop_def(IntegerAttr, default_value=int_attr(0))

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return self.pooled_blocked(x, False)


# ---------------------------------------------------------------------------------------
# The layout in numpy
# ---------------------------------------------------------------------------------------


def to_blocked(x: np.ndarray, block: int) -> np.ndarray:
    """[N, C, *sp] -> [N, C/block, *sp, block]."""
    n, c, *sp = x.shape
    assert c % block == 0, (c, block)
    y = x.reshape(n, c // block, block, *sp)
    return np.ascontiguousarray(np.moveaxis(y, 2, -1))


def from_blocked(x: np.ndarray) -> np.ndarray:
    """[N, C/c, *sp, c] -> [N, C, *sp]."""
    n, cb, *sp, c = x.shape
    return np.ascontiguousarray(np.moveaxis(x, -1, 2)).reshape(n, cb * c, *sp)


def unpack_conv_weights(w: np.ndarray) -> np.ndarray:
    """The inverse of pack_conv_weights, blocked input or not ([M/c, 1, *k, C, c] of an
    NCHW input is the case ci = Cg)."""
    mb, cgb, *k, ci, c = w.shape
    nk = len(k)
    # (mb, cgb, *k, ci, co) -> (mb, co, cgb, ci, *k)
    order = [0, 3 + nk, 1, 2 + nk, *range(2, 2 + nk)]
    return np.ascontiguousarray(w.transpose(order)).reshape(mb * c, cgb * ci, *k)


__all__ = [
    "TILE_ATTR",
    "DEFAULT_TILE",
    "ROW_TILES_ATTR",
    "FLAT_ROWS_ATTR",
    "ROW_TILE",
    "ROW_EDGE",
    "ROW_SINGLE",
    "ToNchwcOp",
    "FromNchwcOp",
    "ConvNchwcOp",
    "PoolNchwcOp",
    "MaxPoolNchwcOp",
    "AveragePoolNchwcOp",
    "to_blocked",
    "from_blocked",
    "unpack_conv_weights",
]

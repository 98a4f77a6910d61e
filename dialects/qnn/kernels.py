"""The two ops the integer kernels compute (qnn.conv_requant, qnn.matmul_requant), which
qnn-canonicalize makes of a requantized conv or matmul by constant weights, and the
kernel forms qnn-legalize packs their weights in."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    f32,
    i32,
)
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects import graph as G
from infer.dialects.graph.base import TRAITS, GraphOp
from infer.dialects.graph.numpy_semantics import conv_nchw
from infer.dialects.qnn.base import check_quantized

# The integer kernel forms qnn-legalize picks (the lowering's `kernel` property):
#   vnni   four u8 x s8 products summed into each i32 lane (vpdpbusd): x as u8 (s8 x is
#          x + 128, the bias less 128 * sum(w)), w in s8
#   pairs  two i16 x i16 products summed into each i32 lane (vpmaddwd): x and w widened
#          to i16, so no product saturates (vpmaddubsw's u8 x s8 pairs would)
KERNELS = {"vnni": 4, "pairs": 2}  # form -> 8/16-bit values per i32 lane
LANES = (4, 8, 16)  # i32 lanes of a vector register: SSE, AVX2, AVX-512
# The register tile (rows, vectors) by lanes where select-int8-tile wrote none: rows x
# vectors accumulators + the vectors loaded + one broadcast fit the registers (32 with
# AVX-512, 16 below), the sizes measured fastest.
CONV_TILES = {16: (4, 4), 8: (6, 2), 4: (6, 2)}
MATMUL_TILES = {16: (4, 4), 8: (2, 4), 4: (2, 4)}
# The bytes of packed pixels the conv's row tiles run over together (kept in L2: half
# of a 512 KiB one) where select-int8-tile wrote none.
PIXEL_BLOCK = 256 * 1024


def packed_words(k: int, kernel: str) -> int:
    """i32 words holding k values of one row in `kernel`'s form (zeros pad the last)."""
    return -(-k // KERNELS[kernel])


class _RequantizedProductOp(GraphOp):
    """What qnn.conv_requant and qnn.matmul_requant share (see each): an 8-bit x, integer
    weights w, an int32 bias, an f32 multiplier per output channel (or one), the result's
    8-bit zero point (a scalar whose type the result has), and as properties x's zero
    point, the clamp [lo, hi] and, once qnn-legalize has packed w, the kernel form."""

    x = operand_def(TensorType)
    w = operand_def(TensorType)
    bias = operand_def(TensorType)
    multiplier = operand_def(TensorType)
    y_zero_point = operand_def(TensorType)
    y = result_def(TensorType)
    x_zero_point = prop_def(IntegerAttr)
    lo = prop_def(IntegerAttr)
    hi = prop_def(IntegerAttr)
    kernel = opt_prop_def(StringAttr)
    lanes = opt_prop_def(IntegerAttr)
    # (rows, vectors) of the kernel's register tile, chosen by select-int8-tile
    tile = opt_prop_def(DenseArrayBase)
    traits = TRAITS
    DEFAULT_TILES: ClassVar[dict[int, tuple[int, int]]]

    @classmethod
    def check(cls, props, types):
        x, w, bias, mult, zp = types
        check_quantized(cls, x, "x")
        check_quantized(cls, zp, "y_zero_point")
        if zp.get_num_dims() != 0:
            raise VerifyException(f"'{cls.name}': y_zero_point must be a scalar, got {zp}")
        kernel = props.get("kernel")
        want = IntegerType(16) if kernel is None else i32
        if w.element_type != want:
            raise VerifyException(f"'{cls.name}': w must be {want} "
                                  f"({'packed' if kernel else 'before qnn-legalize'}), got {w}")
        if kernel is not None and (kernel.data not in KERNELS or "lanes" not in props
                                   or props["lanes"].value.data not in LANES):
            raise VerifyException(f"'{cls.name}': kernel must be one of {sorted(KERNELS)} "
                                  f"with lanes one of {LANES}")
        for name, count in (("tile", 2), ("block", 1)):
            sizes = props[name].get_values() if name in props else [1] * count
            if len(sizes) != count or any(not isinstance(v, int) or v < 1 for v in sizes):
                raise VerifyException(f"'{cls.name}': {name} must be array<i64> of {count} "
                                      f"positive size{'s' if count > 1 else ''}")
        if bias.element_type != i32 or bias.get_num_dims() != 1:
            raise VerifyException(f"'{cls.name}': bias must be 1-D int32, got {bias}")
        if mult.element_type != f32 or mult.get_num_dims() != 1:
            raise VerifyException(f"'{cls.name}': multiplier must be 1-D f32, got {mult}")
        lo, hi = G.QUANTIZED_RANGES[zp.element_type]
        clamp = (props["lo"].value.data, props["hi"].value.data)
        if not lo <= clamp[0] <= clamp[1] <= hi:
            raise VerifyException(f"'{cls.name}': the clamp {list(clamp)} must lie in "
                                  f"[{lo}, {hi}]")

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[4]]

    def register_tile(self) -> tuple[int, int]:
        """(rows, vectors) of the kernel's register tile: `tile`, else DEFAULT_TILES by
        the form's lanes."""
        if self.tile is not None:
            rows, vectors = self.tile.get_values()
            return int(rows), int(vectors)
        assert self.lanes is not None, f"{self.name}: no kernel form (run qnn-legalize)"
        return self.DEFAULT_TILES[self.lanes.value.data]

    def x_offset(self) -> int:
        """What the kernel adds to x: 128 where the vnni form reads s8 x as u8."""
        signed = self.x.type.element_type == IntegerType(8)  # type: ignore[attr-defined]
        return 128 if signed and self.kernel is not None and self.kernel.data == "vnni" else 0

    def requantized(self, acc: np.ndarray, mult: np.ndarray, zp: np.ndarray) -> np.ndarray:
        """clamp(round_half_even(f32(acc) * multiplier) + y_zero_point, lo, hi)."""
        v = np.rint(acc.astype(np.int32).astype(np.float32) * mult)
        return np.clip(v + np.float32(zp), self.lo.value.data, self.hi.value.data)

    def unpacked(self, w: np.ndarray, k: int) -> np.ndarray:
        """Rows of k weights from packed i32 rows [..., words]: the inverse of
        qnn-legalize's packing."""
        if self.kernel is None:
            return w.astype(np.int64)
        per = KERNELS[self.kernel.data]
        values = w.view(np.int8 if per == 4 else np.int16)
        return values.reshape(*w.shape[:-1], -1)[..., :k].astype(np.int64)


def channels_inner(channels: int, kernel: str, strides: list[int]) -> bool:
    """Whether a packed conv's k runs over (tap, channel), channels innermost, so that a
    word holds channels of one tap (what the kernel reading x in place needs: unit
    strides, whole words of channels), rather than over (channel, tap)."""
    return all(v == 1 for v in strides) and channels % KERNELS[kernel] == 0


def conv_words(channels: int, taps: int, kernel: str, strides: list[int]) -> int:
    """i32 words of one output channel's weights packed in `kernel`'s form."""
    if channels_inner(channels, kernel, strides):
        return taps * channels // KERNELS[kernel]
    return packed_words(channels * taps, kernel)


@irdl_op_definition
class ConvRequantOp(_RequantizedProductOp):
    """clamp(round_half_even(f32(acc) * multiplier) + y_zero_point, lo, hi) with
    acc = sum over each window of x * w + bias in int32, x padded with x_zero_point (so a
    bias that folds -x_zero_point * sum(w) gives conv(x - x_zero_point, w) + b exactly).
    w is [M, C/group, *kernel_shape] in i16 (qnn-canonicalize's w - w_zero_point); packed
    by qnn-legalize, [M, words] in i32, the row's C/group * prod(kernel) values in
    `kernel`'s form, k over (channel, tap), or (tap, channel) where `channels_inner`.
    bias and multiplier are [M] (multiplier may be [1])."""

    name = "qnn.conv_requant"
    ONNX_OP: ClassVar[str | None] = None  # made by qnn-canonicalize
    kernel_shape = prop_def(DenseArrayBase)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    dilations = opt_prop_def(DenseArrayBase)
    group = prop_def(IntegerAttr, default_value=G.int_attr(1))
    # bytes of packed pixels that every row tile runs over while they stay in L2
    block = opt_prop_def(DenseArrayBase)
    DEFAULT_TILES: ClassVar[dict[int, tuple[int, int]]] = CONV_TILES

    def pixel_block(self) -> int:
        """Bytes of packed pixels a block holds: `block`, else PIXEL_BLOCK."""
        return int(self.block.get_values()[0]) if self.block is not None else PIXEL_BLOCK

    def channels_inner(self) -> bool:
        """Whether packed w's k runs over (tap, channel) (see `channels_inner`)."""
        assert self.kernel is not None
        cg = self.x.type.get_shape()[1] // self.group.value.data  # type: ignore[attr-defined]
        strides = list(self.strides.get_values()) if self.strides else [1]
        return channels_inner(cg, self.kernel.data, strides)  # type: ignore[arg-type]

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, w, bias, mult = dims[:4]
        kernel = list(cls.prop(props, "kernel_shape"))
        group = cls.prop(props, "group")
        cg = x[1] // group if isinstance(x[1], int) else x[1]
        if isinstance(x[1], int) and x[1] % group:
            raise ValueError(f"input channels {x[1]} not divisible by group {group}")
        expect = 2 if "kernel" in props else 2 + len(kernel)
        if len(w) != expect:
            raise ValueError(f"w {D.format_shape(w)} must have rank {expect}")
        if "kernel" in props:
            words = conv_words(int(cg), int(np.prod(kernel)), props["kernel"].data,
                               cls.prop(props, "strides") or [1] * len(kernel))
            if w[1] != words:
                raise ValueError(f"w {D.format_shape(w)} must hold {words} words a row")
        elif w[2:] != kernel:
            raise ValueError(f"w {D.format_shape(w)} must have the kernel {kernel}")
        out = G.ConvOp._conv_dims(props, [x, [w[0], cg, *kernel]])
        if bias != [w[0]] or mult not in ([1], [w[0]]):
            raise ValueError(f"bias {D.format_shape(bias)} and multiplier "
                             f"{D.format_shape(mult)} must be [{w[0]}] (multiplier: or [1])")
        return out

    def numpy(self, x: np.ndarray, w: np.ndarray, bias: np.ndarray, mult: np.ndarray,
              zp: np.ndarray) -> np.ndarray:
        kernel = list(self.kernel_shape.get_values())
        cg = x.shape[1] // self.group.value.data
        taps = int(np.prod(kernel))
        if self.kernel is not None and self.channels_inner():
            words = self.unpacked(w, w.shape[1] * KERNELS[self.kernel.data])
            w = words.reshape(w.shape[0], *kernel, -1)[..., :cg]
            w = np.moveaxis(w, -1, 1)
        else:
            w = self.unpacked(w, cg * taps).reshape(w.shape[0], cg, *kernel)
        zx = self.x_zero_point.value.data + self.x_offset()
        x = x.astype(np.int64) + self.x_offset()
        acc = conv_nchw(self, [x - zx, w]).astype(np.int64)  # type: ignore[arg-type]
        shape = (-1, *([1] * (x.ndim - 2)))
        acc = acc + (zx * w.reshape(w.shape[0], -1).sum(1) + bias).reshape(shape)
        return self.requantized(acc, mult.reshape(shape), zp)


@irdl_op_definition
class MatMulRequantOp(_RequantizedProductOp):
    """clamp(round_half_even(f32(x @ w + bias) * multiplier) + y_zero_point, lo, hi), the
    product in int32: x [..., M, K], w [K, N] in i16 (w - w_zero_point); packed by
    qnn-legalize, panels [P, words, lanes] in i32 (column j in panel j // lanes, the
    column's K values in `kernel`'s form), bias and multiplier then [P * lanes] (zeros
    past N). Before, bias is [N] and the multiplier [N] or [1]."""

    name = "qnn.matmul_requant"
    ONNX_OP: ClassVar[str | None] = None  # made by qnn-canonicalize
    n = prop_def(IntegerAttr)
    DEFAULT_TILES: ClassVar[dict[int, tuple[int, int]]] = MATMUL_TILES

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, w, bias, mult = dims[:4]
        n = cls.prop(props, "n")
        if len(x) < 2:
            raise ValueError(f"x {D.format_shape(x)} must have rank >= 2")
        if "kernel" in props:
            lanes = props["lanes"].value.data
            k = x[-1]
            if len(w) != 3 or w[2] != lanes or w[0] != -(-n // lanes) or (
                    isinstance(k, int) and w[1] != packed_words(k, props["kernel"].data)):
                raise ValueError(f"w {D.format_shape(w)} must be panels [P, words, {lanes}] "
                                 f"of {n} columns")
            width = w[0] * lanes
            if bias != [width] or mult != [width]:
                raise ValueError(f"bias and multiplier must be [{width}]")
        else:
            if len(w) != 2 or w[1] != n or (isinstance(x[-1], int) and w[0] != x[-1]):
                raise ValueError(f"w {D.format_shape(w)} must be [K, {n}]")
            if bias != [n] or mult not in ([1], [n]):
                raise ValueError(f"bias {D.format_shape(bias)} and multiplier "
                                 f"{D.format_shape(mult)} must be [{n}] (multiplier: or [1])")
        return [[*x[:-1], n]]

    def numpy(self, x: np.ndarray, w: np.ndarray, bias: np.ndarray, mult: np.ndarray,
              zp: np.ndarray) -> np.ndarray:
        n, k = self.n.value.data, x.shape[-1]
        if self.kernel is not None:  # panels [P, words, L] -> [K, N]
            w = self.unpacked(np.ascontiguousarray(w.transpose(0, 2, 1)), k)
            w = w.transpose(1, 0, 2).reshape(k, -1)[:, :n]
        acc = (x.astype(np.int64) + self.x_offset()) @ w.astype(np.int64)
        return self.requantized(acc + bias[:n], mult[:n] if mult.size > 1 else mult, zp)


"""`qnn-legalize{vnni=B lanes=L}`: the integer kernel form of every qnn.conv_requant and
qnn.matmul_requant for the target, its weights packed for that form at compile time
(TVM's QNN Legalize: target-friendly dtypes), written on the op as `kernel` and `lanes`:

    vnni   vpdpbusd (AVX512-VNNI at 16 lanes, AVX-VNNI at 8): each i32 lane adds four
           u8 x s8 products of consecutive k, without saturation. x is read as u8: an s8
           x is x + 128, so the bias drops 128 * sum_k(w'). w' = w - w_zero_point must
           fit s8 (symmetric s8 weights do); else the op takes `pairs`.
    pairs  vpmaddwd (AVX-512BW at 16 lanes, AVX2 at 8, SSE2 at 4): each i32 lane adds two
           i16 x i16 products; x and w' are widened to i16, so no product saturates and
           any 8-bit weights fit. (vpmaddubsw, u8 x s8 summed in pairs into i16, would
           saturate: 2 * 255 * 127 > 32767. onnxruntime avoids that by keeping weights in
           7 bits; we widen instead, which keeps every weight exact.)

Packing (k runs over the C/group x kernel taps of a conv's output channel, or matmul's K;
zeros past the end; four s8 or two i16 values per little-endian i32 word):

    conv   w [M, C/g, *k]  ->  [M, words]        row m's k-values in words: over (tap,
                                                 channel) with unit strides and whole
                                                 words of channels, else (channel, tap)
    matmul w [K, N]        ->  [P, words, L]     column j in panel j // L, lane j % L
                               bias, multiplier padded to P * L

The multiplier is given one value per output channel. The decision is the target's
(`Target.int8_kernel`, from the host features, as the NCHWc block is) and the weights';
the kernel that applies it is lowering/graph_ops/qnn_int8.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, StringAttr, TensorType
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from infer.dialects import graph as G
from infer.dialects import qnn as Q

# Where the target is not given: AVX2 (pairs, 8 lanes), as the other passes assume.
LANES = 8


def _wrap32(v: np.ndarray) -> np.ndarray:
    return ((v.astype(np.int64) + 2**31) % 2**32 - 2**31).astype(np.int32)


def _words(values: np.ndarray, kernel: str) -> np.ndarray:
    """[..., k] weights as [..., words] i32: four s8 or two i16 per word, zeros past k."""
    per = Q.KERNELS[kernel]
    k = values.shape[-1]
    padded = np.zeros((*values.shape[:-1], Q.packed_words(k, kernel) * per), np.int64)
    padded[..., :k] = values
    narrow = padded.astype(np.int8 if per == 4 else np.int16)
    return np.ascontiguousarray(narrow).view(np.int32)


def choose_kernel(w: np.ndarray, vnni: bool) -> str:
    """`vnni` where the target has it and w' fits s8, else `pairs`."""
    return "vnni" if vnni and w.min(initial=0) >= -128 and w.max(initial=0) <= 127 else "pairs"


def _signed(v: object) -> bool:
    return cast(TensorType, v).element_type == IntegerType(8)


def _channels_inner(op: Q.ConvRequantOp, kernel: str) -> bool:
    cg = cast(TensorType, op.x.type).get_shape()[1] // op.group.value.data
    strides = [int(v) for v in op.strides.get_values()] if op.strides else [1]
    return Q.channels_inner(cg, kernel, strides)


def legalize(op: Q.ConvRequantOp | Q.MatMulRequantOp, vnni: bool, lanes: int) -> None:
    """Pack `op`'s weights for the kernel form chosen for it (see the module doc)."""
    w, bias, mult = (G.constant_value(v) for v in (op.w, op.bias, op.multiplier))
    if w is None or bias is None or mult is None:
        return  # the verifier of the lowering refuses it: weights must be constants
    kernel = choose_kernel(w, vnni)
    conv = isinstance(op, Q.ConvRequantOp)
    rows = w.reshape(w.shape[0], -1).astype(np.int64) if conv else w.T.astype(np.int64)
    sums = rows.sum(1)  # sum_k(w') per output channel
    bias = bias.astype(np.int64)
    if kernel == "vnni" and _signed(op.x.type):
        bias = bias - 128 * sums  # s8 x is read as the u8 x + 128
    channels = rows.shape[0]
    mult = np.broadcast_to(mult, (channels,)).astype(np.float32)
    if conv and _channels_inner(cast(Q.ConvRequantOp, op), kernel):
        taps_channels = np.moveaxis(w.astype(np.int64), 1, -1)  # [M, *k, C/g]
        packed = _words(taps_channels, kernel).reshape(channels, -1)
    elif conv:
        packed = _words(rows, kernel)
    else:
        panels = -(-channels // lanes)
        cols = np.zeros((panels * lanes, rows.shape[1]), np.int64)
        cols[:channels] = rows
        words = _words(cols, kernel)  # [P * L, words]
        packed = np.ascontiguousarray(words.reshape(panels, lanes, -1).transpose(0, 2, 1))
        bias = np.concatenate([bias, np.zeros(panels * lanes - channels, np.int64)])
        mult = np.concatenate([mult, np.zeros(panels * lanes - channels, np.float32)])
    consts = [G.ConstantOp(packed), G.ConstantOp(_wrap32(bias)), G.ConstantOp(mult)]
    Rewriter.insert_op(consts, InsertPoint.before(op))
    old = [op.w, op.bias, op.multiplier]
    for i, c in enumerate(consts, start=1):
        op.operands[i] = c.output
    op.properties["kernel"] = StringAttr(kernel)
    op.properties["lanes"] = G.int_attr(lanes)
    for v in old:
        if not v.uses and isinstance(v.owner, G.ConstantOp):
            Rewriter.erase_op(v.owner)


@dataclass(frozen=True)
class QnnLegalizePass(ModulePass):
    """The kernel form of every requantized qnn product for a target with (`vnni`) or
    without an int8 dot product and vector registers of `lanes` i32 (see the module doc)."""

    name = "qnn-legalize"

    vnni: bool = False
    lanes: int = LANES

    def __post_init__(self) -> None:
        if self.lanes not in Q.LANES or (self.vnni and self.lanes == 4):
            raise ValueError(f"qnn-legalize: lanes must be one of {Q.LANES} (8 or 16 with "
                             f"vnni), got {self.lanes}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for q in op.walk():
            if isinstance(q, Q.ConvRequantOp | Q.MatMulRequantOp) and q.kernel is None:
                legalize(q, self.vnni, self.lanes)

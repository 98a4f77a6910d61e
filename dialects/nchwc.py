"""The blocked channel layout (NCHWc) in numpy: the reference for the `graph.*_nchwc` ops.

The layout pass packs constant weights with these functions at compile time; constant
folding and tests use them as the ops' semantics.
"""

from __future__ import annotations

import numpy as np

# Channels per block where the host is not asked: one AVX2 vector of f32.
BLOCK = 8


def host_block() -> int:
    """Channels per block on this machine: one vector register of f32 (16 with AVX-512,
    8 with AVX2), as onnxruntime's MlasNchwcGetBlockSize picks it."""
    from infer.codegen.target import host_vector_bits

    return max(host_vector_bits() // 32, BLOCK)


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


def input_block(channels_per_group: int, block: int) -> int:
    """ci of the packed weights: the block, or 1 for a depthwise conv (one input channel
    per group)."""
    return 1 if channels_per_group == 1 else block


def pack_conv_weights(w: np.ndarray, block: int, input_blocked: bool = True) -> np.ndarray:
    """ONNX conv weights [M, Cg, *k] -> [M/c, Cg/ci, *k, ci, c] (graph.conv_nchwc's W).

    With input_blocked=False, for a group-1 conv reading a plain NCHW input:
    [M/c, 1, *k, C, c] (ci = Cg = C, all input channels of a tap contiguous)."""
    m, cg, *k = w.shape
    ci = input_block(cg, block) if input_blocked else cg
    assert m % block == 0 and cg % ci == 0, (w.shape, block)
    v = w.reshape(m // block, block, cg // ci, ci, *k)
    # axes: (mb, co, cgb, ci, *k) -> (mb, cgb, *k, ci, co)
    nk = len(k)
    order = [0, 2, *range(4, 4 + nk), 3, 1]
    return np.ascontiguousarray(v.transpose(order))


def unpack_conv_weights(w: np.ndarray) -> np.ndarray:
    """The inverse of pack_conv_weights, blocked input or not ([M/c, 1, *k, C, c] of an
    NCHW input is the case ci = Cg)."""
    mb, cgb, *k, ci, c = w.shape
    nk = len(k)
    # (mb, cgb, *k, ci, co) -> (mb, co, cgb, ci, *k)
    order = [0, 3 + nk, 1, 2 + nk, *range(2, 2 + nk)]
    return np.ascontiguousarray(w.transpose(order)).reshape(mb * c, cgb * ci, *k)

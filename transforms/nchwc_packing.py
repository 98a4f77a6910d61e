"""Weight packing of the blocked channel layout (NCHWc): how the layout pass lays out
constant conv weights for graph.conv_nchwc (whose docstring states the layout; its
inverse, `unpack_conv_weights`, is the op's numpy semantics in dialects/graph/nchwc.py).
"""

from __future__ import annotations

import numpy as np

# Channels per block where the target is not given: one AVX2 vector of f32.
BLOCK = 8


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

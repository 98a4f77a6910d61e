"""Lowerings of graph ops to loops, one module per op family, each exporting `LOWERINGS`."""

from infer.lowering.graph_ops import (
    attention,
    channel_shuffle,
    conv,
    elementwise,
    layer_norm,
    linalg,
    nchwc,
    normalization,
    pad,
    pool,
    reduction,
    shape_dialect,
    shape_ops,
)

FAMILIES = [elementwise, conv, linalg, normalization, pad, pool, reduction, shape_ops,
            layer_norm, attention, shape_dialect, channel_shuffle, nchwc]

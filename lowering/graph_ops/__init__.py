"""Lowerings of graph ops to loops, one module per op family, each exporting `LOWERINGS`."""

from infer.lowering.graph_ops import (
    conv,
    elementwise,
    linalg,
    normalization,
    pool,
    reduction,
    shape_ops,
)

FAMILIES = [elementwise, conv, linalg, normalization, pool, reduction, shape_ops]

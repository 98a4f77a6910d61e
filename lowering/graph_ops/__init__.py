"""Lowerings of graph ops to loops, one module per op family.

Each family registers its lowerings with `base.lowers` (and elementwise ops their scalar
bodies with `elementwise.scalar`); importing this package imports them all, so that
`LOWERINGS` holds every op class that has a lowering.
"""

from xdsl.ir import Operation

from infer.lowering.graph_ops import (  # noqa: F401 - imported to register their lowerings
    attention,
    channel_shuffle,
    constant,
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
from infer.lowering.graph_ops.base import (
    INLINED_INTO_USER,
    LOWERINGS,
    OUTLINED,
    Lowering,
    LoweringFn,
)

__all__ = ["INLINED_INTO_USER", "LOWERINGS", "OUTLINED", "Lowering", "LoweringFn",
           "lowering_for"]


def lowering_for(cls: type[Operation]) -> LoweringFn | None:
    """The lowering registered for op class `cls`, or None."""
    return LOWERINGS.get(cls)

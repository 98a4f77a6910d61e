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
    control_flow,
    conv,
    conv_transpose,
    cumulative,
    deform_conv,
    detection,
    elementwise,
    gemm,
    indexing,
    layer_norm,
    linalg,
    linear_attention,
    logical,
    nchwc,
    normalization,
    pad,
    pool,
    qnn_int8,
    quantize,
    recurrent,
    reduction,
    shape_dialect,
    shape_ops,
    signal,
    sorting,
    text,
    tree_ensemble,
    vision,
)
from infer.lowering.graph_ops.base import (
    IN_USER,
    INLINED_INTO_USER,
    KERNEL,
    LOWERING_ATTR,
    LOWERINGS,
    OUTLINED,
    Lowering,
    LoweringFn,
)

__all__ = ["IN_USER", "INLINED_INTO_USER", "KERNEL", "LOWERINGS", "LOWERING_ATTR", "OUTLINED",
           "Lowering", "LoweringFn", "may_compute_in_users", "lowering_for"]


def lowering_for(cls: type[Operation]) -> LoweringFn | None:
    """The lowering registered for op class `cls`, or None."""
    return LOWERINGS.get(cls)


def may_compute_in_users(op: Operation) -> bool:
    """Whether `op` may be computed inside its users' lowerings, with no buffer (IN_USER)."""
    return any(pred(op) for pred in INLINED_INTO_USER)

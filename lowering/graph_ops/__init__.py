"""Lowerings of graph ops to loops, one module per op family, each exporting `LOWERINGS`."""

from infer.lowering.graph_ops import elementwise

FAMILIES = [elementwise]

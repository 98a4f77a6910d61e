"""ONNX's control flow at import: an If whose condition is a constant is its taken branch,
else a `graph.if` with both branches as regions.

Ops with subgraphs are imported by the importer itself (`onnx_import`), since a subgraph
reads the enclosing graph's values by name; this table says which ops it takes that way.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Subgraphs:
    """An op the importer imports through its subgraph attributes."""

    op_type: str
    built_from_other_ops: bool = False  # True: only other ops' graph ops stand for it


IF = Subgraphs("If")

# If's versions differ only in the element types they allow
OPS: dict[str, dict[int, Subgraphs]] = {
    "If": dict.fromkeys((1, 11, 13, 16, 19, 21, 23, 24, 25), IF),
}

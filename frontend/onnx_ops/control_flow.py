"""ONNX's ops with subgraphs: If, Loop and Scan.

They are imported by the importer itself (`onnx_subgraphs`), since a subgraph reads the
enclosing graph's values by name; this table says which ops it takes that way.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Subgraphs:
    """An op the importer imports through its subgraph attributes."""

    op_type: str
    built_from_other_ops: bool = False  # True: only other ops' graph ops stand for it


# Their versions after the first (and Scan's after 9) differ only in the element types
# they allow and in how their subgraphs may be typed.
VERSIONS = (1, 11, 13, 16, 19, 21, 23, 24, 25)
OPS: dict[str, dict[int, Subgraphs]] = {
    "If": dict.fromkeys(VERSIONS, Subgraphs("If")),
    "Loop": dict.fromkeys(VERSIONS, Subgraphs("Loop")),
    # Scan 8 (a batch axis first) is built as graph.loops; from 9 on it is graph.scan.
    "Scan": {8: Subgraphs("Scan", built_from_other_ops=True),
             **dict.fromkeys((9, 11, 16, 19, 21, 23, 24, 25), Subgraphs("Scan"))},
}

"""Reading a node's attributes where the importer handles the node itself (ops with
subgraphs, sequences), not through an op function's keyword arguments."""

from __future__ import annotations

import onnx

from infer.errors import InvalidModelError


def graph_attr(node: onnx.NodeProto, name: str) -> onnx.GraphProto:
    found = [a.g for a in node.attribute if a.name == name]
    if not found:
        raise InvalidModelError(f"the '{name}' attribute is missing")
    return found[0]


def ints_attr(node: onnx.NodeProto, name: str, default: list[int]) -> list[int]:
    found = [list(a.ints) for a in node.attribute if a.name == name]
    return found[0] if found else default


def int_attr(node: onnx.NodeProto, name: str, default: int | None = None) -> int | None:
    found = [a.i for a in node.attribute if a.name == name]
    return found[0] if found else default

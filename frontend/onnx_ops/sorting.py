"""ONNX importers: ops that order data (TopK, Unique)."""

from __future__ import annotations

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import OpBuilder, OpFn, Value


def top_k_v1(b: OpBuilder, x: Value, *, k: int, axis: int | None = None) -> list[Value]:
    return b.emit(G.TopKOp, x, b.ints([k]), axis=axis)


def top_k(b: OpBuilder, x: Value, k: Value, *, axis: int | None = None,
          largest: int | None = None, sorted: int = 1) -> list[Value]:  # noqa: A002
    """`sorted` = 0 leaves the order unspecified: the results come sorted anyway."""
    return b.emit(G.TopKOp, x, k, axis=axis, largest=largest)


def unique(b: OpBuilder, x: Value, *, axis: int | None = None,
           sorted: int | None = None) -> list[Value]:  # noqa: A002 - ONNX's name
    return b.emit(G.UniqueOp, x, axis=axis, sorted=sorted)


OPS: dict[str, dict[int, OpFn]] = {
    "TopK": {1: top_k_v1, 10: top_k, 11: top_k, 24: top_k},
    "Unique": {11: unique},
}

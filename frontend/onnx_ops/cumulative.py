"""ONNX importers: cumulative ops: CumSum and CumProd along one axis."""

from __future__ import annotations

from infer.frontend.onnx_ops.builder import OpFn

OPS: dict[str, dict[int, OpFn]] = {}

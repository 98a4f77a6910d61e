"""ONNX importers: sorting-based ops with data-dependent result shapes: Unique."""

from __future__ import annotations

from infer.frontend.onnx_ops.builder import OpFn

OPS: dict[str, dict[int, OpFn]] = {}

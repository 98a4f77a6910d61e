"""ONNX importers: detection post-processing: NonMaxSuppression."""

from __future__ import annotations

from infer.frontend.onnx_ops.builder import OpFn

OPS: dict[str, dict[int, OpFn]] = {}

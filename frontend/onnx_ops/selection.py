"""ONNX importers: selection ops: Hardmax and TopK (the largest or smallest k along an axis)."""

from __future__ import annotations

from infer.frontend.onnx_ops.builder import OpFn

OPS: dict[str, dict[int, OpFn]] = {}

"""ONNX indexing operators: gathers, scatters, one-hot, triangular masks, depth/space moves."""

from __future__ import annotations

from infer.frontend.onnx_ops.builder import OpFn

OPS: dict[str, dict[int, OpFn]] = {}

"""ONNX operators defined by a function body in their schema, imported by expanding that body."""

from __future__ import annotations

from infer.frontend.onnx_ops.builder import OpFn

OPS: dict[str, dict[int, OpFn]] = {}

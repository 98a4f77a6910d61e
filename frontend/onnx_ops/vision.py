"""ONNX vision operators: Resize and Upsample, ConvTranspose, GridSample and their kin."""

from __future__ import annotations

from infer.frontend.onnx_ops.builder import OpFn

OPS: dict[str, dict[int, OpFn]] = {}

"""ONNX importers: signal processing (DFT)."""

from __future__ import annotations

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import OpBuilder, OpFn, Value


def dft_v17(b: OpBuilder, input: Value, dft_length: Value | None = None, *, axis: int = 1,
            inverse: int | None = None, onesided: int | None = None) -> Value:
    return b.emit1(G.DFTOp, input, b.ints([axis]), dft_length, inverse=inverse,
                   onesided=onesided)


def dft(b: OpBuilder, input: Value, dft_length: Value | None = None,
        axis: Value | None = None, *, inverse: int | None = None,
        onesided: int | None = None) -> Value:
    """Opset 20: the axis became an input (possibly computed at run time), default -2."""
    return b.emit1(G.DFTOp, input, b.ints([-2]) if axis is None else axis, dft_length,
                   inverse=inverse, onesided=onesided)


OPS: dict[str, dict[int, OpFn]] = {
    "DFT": {17: dft_v17, 20: dft},
}

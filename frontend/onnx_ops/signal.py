"""ONNX importers: signal processing (DFT, STFT, MelWeightMatrix)."""

from __future__ import annotations

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import (
    NodeError,
    OpBuilder,
    OpFn,
    Unsupported,
    Value,
    dims,
    element_type,
)


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


def stft(b: OpBuilder, signal: Value, frame_step: Value, window: Value | None = None,
         frame_length: Value | None = None, *, onesided: int | None = None) -> Value:
    """The frame length is given, or the window's (static) length."""
    if frame_length is None:
        if window is None:
            raise NodeError("needs a window or a frame_length")
        (n,) = dims(window)
        if not isinstance(n, int):
            raise Unsupported("a window of run-time length without frame_length")
        frame_length = b.ints([n])
    return b.emit1(G.STFTOp, signal, frame_step, frame_length, window, onesided=onesided)


def mel_weight_matrix(b: OpBuilder, num_mel_bins: Value, dft_length: Value,
                      sample_rate: Value, lower_edge_hertz: Value, upper_edge_hertz: Value,
                      *, output_datatype: int = 1) -> Value:
    return b.emit1(G.MelWeightMatrixOp, num_mel_bins, dft_length, sample_rate,
                   lower_edge_hertz, upper_edge_hertz, to=element_type(output_datatype))


OPS: dict[str, dict[int, OpFn]] = {
    "MelWeightMatrix": {17: mel_weight_matrix},
    "DFT": {17: dft_v17, 20: dft},
    "STFT": {17: stft},
}

"""Signal processing: the discrete Fourier transform (DFT) and the short-time one (STFT).

Complex tensors are real ones with a last dim of 2 (real, imaginary), as ONNX has them; a
real signal has a last dim of 1.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType
from xdsl.irdl import (
    AnyAttr,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.dims import DYN, Dim
from infer.dialects.graph.base import TRAITS, GraphOp, const_ints
from infer.dialects.graph.types import int_attr, is_float


def _scalar(c: np.ndarray | None) -> int | None:
    return None if c is None else int(np.asarray(c).reshape(-1)[0])


@irdl_op_definition
class DFTOp(GraphOp):
    """The DFT of `input` along `axis` (an integer scalar, in [-r, -2] or [0, r - 2]),
    zero-padded or cut to `dft_length` (optional scalar; by default the axis' length, or
    2 * (length - 1) for the inverse of a one-sided spectrum).

    inverse: e^{+2 pi i kn / L} / L instead of e^{-2 pi i kn / L}. onesided: a forward
    transform keeps bins 0 .. L / 2 (the rest mirror them for a real signal); an inverse one
    reads such a half spectrum and returns the real signal (last dim 1), numpy's irfft.
    """

    name = "graph.dft"
    ONNX_OP: ClassVar[str | None] = "DFT"
    input = operand_def(TensorType)
    axis = operand_def(TensorType)
    dft_length = var_operand_def(TensorType)
    output = result_def(TensorType)
    inverse = prop_def(IntegerAttr, default_value=int_attr(0))
    onesided = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        x = types[0]
        if not is_float(x.element_type):
            raise VerifyException(f"'graph.dft' needs a float input, got {x.element_type}")
        shape = x.get_shape()
        if len(shape) < 2 or shape[-1] not in (1, 2):
            raise VerifyException("'graph.dft' input's last dim must be 1 (real) or 2 "
                                  f"(complex), got shape {list(shape)}")
        if cls.prop(props, "inverse") and cls.prop(props, "onesided") and shape[-1] != 2:
            raise VerifyException("'graph.dft' inverse of a one-sided spectrum needs a "
                                  "complex input")
        for t, what in zip(types[1:], ("axis", "dft_length"), strict=False):
            if not isinstance(t.element_type, IntegerType) or t.get_shape() not in ((), (1,)):
                raise VerifyException(f"'graph.dft' {what} must be an integer scalar")
        if len(types) > 3:
            raise VerifyException("'graph.dft' takes at most one dft_length operand")

    @classmethod
    def length(cls, props, n: Dim, dft_length: Dim | None) -> tuple[Dim, Dim]:
        """The transform's length L for an axis of n entries, and the output's dim there."""
        inverse, onesided = cls.prop(props, "inverse"), cls.prop(props, "onesided")
        if dft_length is None:
            dft_length = 2 * (n - 1) if inverse and onesided else n
        return dft_length, dft_length // 2 + 1 if onesided and not inverse else dft_length

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        rank = len(x)
        complex_out = 1 if cls.prop(props, "inverse") and cls.prop(props, "onesided") else 2
        given = len(dims) > 2
        length = _scalar(consts[2]) if given else None
        axis = _scalar(consts[1])
        if axis is None:  # each signal dim may be the axis: unchanged only if the length is
            same = not given and not cls.prop(props, "onesided")
            return [[d if same else DYN for d in x[:-1]] + [complex_out]]
        if not -rank <= axis <= rank - 2 or axis == -1:
            raise ValueError(f"axis {axis} is out of range for rank {rank} (the last dim "
                             "holds the complex parts)")
        axis %= rank
        out = list(x[:-1]) + [complex_out]
        if given and length is None:
            length = DYN
        if length is not None and isinstance(length, int) and length < 1:
            raise ValueError(f"dft_length {length} must be at least 1")
        n, out[axis] = cls.length(props, x[axis], length)
        D.require(D.AT_LEAST, n, 1, "the DFT's length")
        return [out]

    def numpy(self, x: np.ndarray, axis: np.ndarray, dft_length: np.ndarray | None = None
              ) -> np.ndarray:
        a = _scalar(axis) % x.ndim
        n, out_n = self.length(self.properties, x.shape[a], _scalar(dft_length))
        signal = x[..., 0] + 1j * x[..., 1] if x.shape[-1] == 2 else x[..., 0]
        signal = signal.astype(np.complex128)
        if self.inverse.value.data and self.onesided.value.data:
            y = np.fft.irfft(signal, n=n, axis=a)[..., None]
        else:
            y = (np.fft.ifft if self.inverse.value.data else np.fft.fft)(signal, n=n, axis=a)
            y = np.take(y, np.arange(out_n), axis=a)
            y = np.stack((y.real, y.imag), axis=-1)
        return y.astype(x.dtype)


@irdl_op_definition
class STFTOp(GraphOp):
    """Frames of `signal` ([batch, length, 1 or 2]) every `frame_step` samples, each
    `frame_length` long and weighted by the optional `window`, then each one's DFT:
    [batch, frames, bins, 2] with frames = (length - frame_length) / frame_step + 1 and
    bins = frame_length / 2 + 1 when onesided, else frame_length."""

    name = "graph.stft"
    ONNX_OP: ClassVar[str | None] = "STFT"
    signal = operand_def(TensorType)
    frame_step = operand_def(TensorType)
    frame_length = operand_def(TensorType)
    window = var_operand_def(TensorType)
    output = result_def(TensorType)
    onesided = prop_def(IntegerAttr, default_value=int_attr(1))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        x = types[0]
        shape = x.get_shape()
        if not is_float(x.element_type) or len(shape) != 3 or shape[-1] not in (1, 2):
            raise VerifyException("'graph.stft' signal must be a float [batch, length, 1 "
                                  f"or 2] tensor, got {x}")
        for t, what in zip(types[1:3], ("frame_step", "frame_length"), strict=True):
            if not isinstance(t.element_type, IntegerType) or t.get_shape() not in ((), (1,)):
                raise VerifyException(f"'graph.stft' {what} must be an integer scalar")
        if len(types) > 3 and (types[3].element_type != x.element_type
                               or len(types[3].get_shape()) != 1):
            raise VerifyException("'graph.stft' window must be 1-D, of the signal's type")

    @classmethod
    def frames(cls, props, n: Dim, step: Dim, length: Dim) -> tuple[Dim, Dim]:
        """The number of frames and of bins."""
        bins = length // 2 + 1 if cls.prop(props, "onesided") else length
        return (n - length) // step + 1, bins

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        step = _scalar(consts[1])
        length = _scalar(consts[2])
        for v, what in ((step, "frame_step"), (length, "frame_length")):
            if v is not None and v < 1:
                raise ValueError(f"{what} {v} must be at least 1")
        if len(dims) > 3:
            if length is not None:
                D.require(D.EQUAL, dims[3][0], length, "the window's length and frame_length")
        frames, bins = cls.frames(props, x[1], DYN if step is None else step,
                                  DYN if length is None else length)
        if isinstance(frames, int) and frames < 1:
            raise ValueError(f"frame_length {length} exceeds the signal's length {x[1]}")
        return [[x[0], frames, bins, 2]]

    def numpy(self, x: np.ndarray, frame_step: np.ndarray, frame_length: np.ndarray,
              window: np.ndarray | None = None) -> np.ndarray:
        step, length = _scalar(frame_step), _scalar(frame_length)
        frames, bins = self.frames(self.properties, x.shape[1], step, length)
        signal = x[..., 0] + 1j * x[..., 1] if x.shape[-1] == 2 else x[..., 0]
        taps = np.arange(frames)[:, None] * step + np.arange(length)
        framed = signal.astype(np.complex128)[:, taps]
        if window is not None:
            framed = framed * window
        y = np.fft.fft(framed, axis=-1)[..., :bins]
        return np.stack((y.real, y.imag), axis=-1).astype(x.dtype)


@irdl_op_definition
class MelWeightMatrixOp(GraphOp):
    """The [dft_length / 2 + 1, num_mel_bins] matrix of triangular filters that maps a
    spectrum's bins to mel bands, as ONNX's reference builds it: num_mel_bins + 2 points
    evenly spaced in mel between the edge frequencies, each moved to the bin
    floor((dft_length + 1) * hertz / sample_rate); filter i rises from point i to point
    i + 1 and falls to point i + 2. The scalars (integers, then the two edge frequencies)
    may be read at run time, and so the result's size."""

    name = "graph.mel_weight_matrix"
    ONNX_OP: ClassVar[str | None] = "MelWeightMatrix"
    num_mel_bins = operand_def(TensorType)
    dft_length = operand_def(TensorType)
    sample_rate = operand_def(TensorType)
    lower_edge_hertz = operand_def(TensorType)
    upper_edge_hertz = operand_def(TensorType)
    output = result_def(TensorType)
    to = prop_def(AnyAttr())
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if any(t.get_shape() not in ((), (1,)) for t in types):
            raise VerifyException(f"'{cls.name}' operands must be scalars")
        if not all(isinstance(t.element_type, IntegerType) for t in types[:3]) or not all(
                is_float(t.element_type) for t in types[3:]):
            raise VerifyException(f"'{cls.name}' takes three integers and two floats")
        if not is_float(props.get("to")):
            raise VerifyException(f"'{cls.name}' output type must be a float type")

    @classmethod
    def output_dims(cls, props, dims, consts):
        mels, length = const_ints(consts, 0), const_ints(consts, 1)
        return [[DYN if length is None else length[0] // 2 + 1,
                 DYN if mels is None else mels[0]]]

    @classmethod
    def output_elements(cls, props, elements):
        return [props["to"]]

    @staticmethod
    def points(mels: int, length: int, rate: int, low: np.ndarray, high: np.ndarray
               ) -> np.ndarray:
        """The filters' corner bins (ONNX's reference arithmetic: the edges' mel values
        in their own type, the rest in f64)."""
        def mel(hertz: np.ndarray) -> np.ndarray:
            return 2595 * np.log1p(hertz / 700) / np.log(10)

        low_mel, high_mel = mel(low.reshape(())), mel(high.reshape(()))
        step = (high_mel - low_mel) / (mels + 2)
        hertz = 700 * np.expm1((np.arange(mels + 2) * step + low_mel) / 2595 * np.log(10))
        return (((length + 1) * hertz) // rate).astype(np.int64)

    def numpy(self, mels: np.ndarray, length: np.ndarray, rate: np.ndarray,
              low: np.ndarray, high: np.ndarray) -> np.ndarray:
        m, n = int(mels.reshape(-1)[0]), int(length.reshape(-1)[0])
        p = self.points(m, n, int(rate.reshape(-1)[0]), low, high)
        out = np.zeros((n // 2 + 1, m))
        for i in range(m):
            lo, mid, hi = p[i], p[i + 1], p[i + 2]
            if mid == lo:
                out[mid, i] = 1
            else:
                out[lo:mid + 1, i] = (np.arange(lo, mid + 1) - lo) / (mid - lo)
            if hi > mid:
                out[mid:hi, i] = (hi - np.arange(mid, hi)) / (hi - mid)
        return out


__all__ = ["MelWeightMatrixOp", "DFTOp", "STFTOp"]

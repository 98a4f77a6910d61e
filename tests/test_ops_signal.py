"""The DFT against numpy's FFT computed in f64 (ONNX's reference is numpy's FFT): every
direction and side, zero-padding and cutting by dft_length, axes fed at run time, and
the errors a bad axis or length gives."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper
from onnx.reference import ReferenceEvaluator

import infer
from infer.errors import InferError

from .helpers import make_model

RNG = np.random.default_rng(0)


def _dft_model(shape, *, onesided=0, inverse=0, axis=None, length=None, runtime=False,
               elem=TP.FLOAT, out_last=2):
    """DFT-20 over x of `shape`; axis and dft_length constants, or inputs if `runtime`."""
    inputs = [("x", elem, shape)]
    inits = []
    names = ["x", "", ""]
    for i, (name, value) in enumerate((("dft_length", length), ("axis", axis)), start=1):
        if value is None:
            continue
        names[i] = name
        if runtime:
            inputs.append((name, TP.INT64, []))
        else:
            inits.append(helper.make_tensor(name, TP.INT64, [], [value]))
    node = helper.make_node("DFT", names, ["y"], onesided=onesided, inverse=inverse)
    out_rank = len(shape)
    return make_model([node], inputs, [("y", elem, [f"d{i}" for i in range(out_rank - 1)]
                                        + [out_last])], inits, opset=20)


def _expected(x, axis, *, onesided=0, inverse=0, length=None):
    signal = x[..., 0] + 1j * x[..., 1] if x.shape[-1] == 2 else x[..., 0].astype(complex)
    a = axis % x.ndim
    if inverse and onesided:
        n = length or 2 * (x.shape[a] - 1)
        return np.fft.irfft(signal, n=n, axis=a)[..., None]
    n = length or x.shape[a]
    y = (np.fft.ifft if inverse else np.fft.fft)(signal, n=n, axis=a)
    if onesided:
        y = np.take(y, np.arange(n // 2 + 1), axis=a)
    return np.stack((y.real, y.imag), -1)


def _close(got, want):
    scale = np.abs(want).max()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6 * scale)


CASES = [  # (shape, axis, onesided, inverse, length)
    ((2, 8, 1), 1, 0, 0, None),
    ((2, 7, 2), -2, 0, 0, None),
    ((1, 6, 5, 2), 1, 0, 1, None),
    ((1, 6, 5, 1), 2, 1, 0, None),
    ((3, 9, 1), 1, 1, 0, 16),
    ((3, 9, 2), 1, 0, 0, 4),
    ((2, 5, 2), 1, 1, 1, None),
    ((2, 5, 2), 1, 1, 1, 9),
    ((2, 6, 2), 1, 1, 1, 4),
    ((4, 3, 2), 0, 0, 1, None),
]


@pytest.mark.parametrize(("shape", "axis", "onesided", "inverse", "length"), CASES)
def test_dft(shape, axis, onesided, inverse, length):
    x = RNG.standard_normal(shape).astype(np.float32)
    m = _dft_model(list(shape), onesided=onesided, inverse=inverse, axis=axis, length=length,
                   out_last=1 if inverse and onesided else 2)
    got = infer.compile(m).run({"x": x})["y"]
    _close(got, _expected(x, axis, onesided=onesided, inverse=inverse, length=length))


def test_dft_runtime_axis_and_length():
    """One compile transforms along whichever axis and length the inputs give."""
    m = _dft_model(["N", "H", "W", 1], onesided=1, axis=1, length=8, runtime=True)
    compiled = infer.compile(m)
    for shape, axis, length in (((1, 6, 4, 1), 1, 8), ((2, 3, 5, 1), 2, 3), ((2, 3, 5, 1), -2, 5)):
        x = RNG.standard_normal(shape).astype(np.float32)
        got = compiled.run({"x": x, "axis": np.array(axis), "dft_length": np.array(length)})
        _close(got["y"], _expected(x, axis, onesided=1, length=length))
    x = RNG.standard_normal((1, 6, 4, 1)).astype(np.float32)
    for axis, length, message in ((3, 4, "axis"), (-1, 4, "axis"), (-5, 4, "axis"),
                                  (1, 0, "length")):
        with pytest.raises(infer.ShapeError, match=message):
            compiled.run({"x": x, "axis": np.array(axis), "dft_length": np.array(length)})


@pytest.mark.parametrize(("dtype", "elem"), [(np.float64, TP.DOUBLE), (np.float16, TP.FLOAT16)])
def test_dft_other_floats(dtype, elem):
    x = RNG.standard_normal((2, 12, 2)).astype(dtype)
    got = infer.compile(_dft_model([2, 12, 2], axis=1, elem=elem)).run({"x": x})["y"]
    assert got.dtype == dtype
    want = _expected(x.astype(np.float64), 1)
    if dtype == np.float16:  # rounded once from the f32 result
        np.testing.assert_allclose(got, want, rtol=2e-3, atol=1e-2)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_dft_refusals():
    with pytest.raises(InferError, match="axis 2 is out of range"):
        infer.compile(_dft_model([2, 4, 1], axis=2))
    with pytest.raises(InferError, match="complex input"):
        infer.compile(_dft_model([2, 4, 1], onesided=1, inverse=1, axis=1, out_last=1))


def _stft_model(length_shape, *, onesided=1, window=None, frame_length=None, last=1):
    inputs = [("x", TP.FLOAT, ["N", "T", last]), ("step", TP.INT64, [])]
    names = ["x", "step", "", ""]
    if window is not None:
        inputs.append(("w", TP.FLOAT, [window]))
        names[2] = "w"
    if frame_length is not None:
        inputs.append(("n", TP.INT64, []))
        names[3] = "n"
    node = helper.make_node("STFT", names, ["y"], onesided=onesided)
    return make_model([node], inputs, [("y", TP.FLOAT, ["N", "F", "K", 2])], opset=17)


def _stft_expected(x, step, length, window, onesided):
    signal = x[..., 0] + 1j * x[..., 1] if x.shape[-1] == 2 else x[..., 0].astype(complex)
    frames = (x.shape[1] - length) // step + 1
    taps = np.arange(frames)[:, None] * step + np.arange(length)
    framed = signal[:, taps] * (1 if window is None else window)
    y = np.fft.fft(framed, axis=-1)[..., : length // 2 + 1 if onesided else length]
    return np.stack((y.real, y.imag), -1)


@pytest.mark.slow
@pytest.mark.parametrize("onesided", [0, 1])
@pytest.mark.parametrize("last", [1, 2])
def test_stft(onesided, last):
    """Frames every `step` samples (fed at run time), windowed or not, at two signal
    lengths from one compile."""
    windowed = _stft_model(None, onesided=onesided, window=8, last=last)
    plain = _stft_model(None, onesided=onesided, frame_length=6, last=last)
    w = np.hanning(8).astype(np.float32)
    for t, step in ((20, 3), (9, 1)):
        x = RNG.standard_normal((2, t, last)).astype(np.float32)
        got = infer.compile(windowed).run({"x": x, "step": np.array(step), "w": w})["y"]
        _close(got, _stft_expected(x, step, 8, w, onesided))
        got = infer.compile(plain).run({"x": x, "step": np.array(step), "n": np.array(6)})["y"]
        _close(got, _stft_expected(x, step, 6, None, onesided))


def test_stft_errors():
    compiled = infer.compile(_stft_model(None, frame_length=6))
    x = RNG.standard_normal((1, 5, 1)).astype(np.float32)
    with pytest.raises(infer.ShapeError, match="frame_length"):
        compiled.run({"x": x, "step": np.array(1), "n": np.array(6)})
    with pytest.raises(infer.ShapeError, match="frame_step"):
        compiled.run({"x": x, "step": np.array(0), "n": np.array(2)})


def _mel_model(output_datatype: int = TP.FLOAT, constant: bool = False):
    names = ["mels", "length", "rate", "low", "high"]
    types = [TP.INT64, TP.INT64, TP.INT64, TP.FLOAT, TP.FLOAT]
    node = helper.make_node("MelWeightMatrix", names, ["y"], output_datatype=output_datatype)
    if constant:
        inits = [helper.make_tensor(n, t, [], [v]) for n, t, v in
                 zip(names, types, [8, 64, 8000, 100.0, 3500.0], strict=True)]
        graph = helper.make_graph([node], "mel", [], [helper.make_tensor_value_info(
            "y", output_datatype, [33, 8])], inits)
    else:
        graph = helper.make_graph([node], "mel", [helper.make_tensor_value_info(n, t, [])
                                                  for n, t in zip(names, types, strict=True)],
                                  [helper.make_tensor_value_info("y", output_datatype,
                                                                 ["bins", "mels"])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _mel_feeds(mels: int, length: int, rate: int, low: float, high: float) -> dict:
    return {"mels": np.array(mels), "length": np.array(length), "rate": np.array(rate),
            "low": np.array(low, np.float32), "high": np.array(high, np.float32)}


@pytest.mark.parametrize("output_datatype", [TP.FLOAT, TP.DOUBLE])
def test_mel_weight_matrix_against_reference(output_datatype: int) -> None:
    """Its size read at run time: several sizes from one compile."""
    model = _mel_model(output_datatype)
    compiled = infer.compile(model)
    for args in [(8, 16, 8192, 0.0, 8192 / 2), (40, 512, 16000, 20.0, 7600.0),
                 (3, 31, 100, 5.0, 40.0), (10, 64, 8000, 0.0, 0.0)]:
        feeds = _mel_feeds(*args)
        (want,) = ReferenceEvaluator(model).run(None, feeds)
        got = compiled.run(feeds)["y"]
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_mel_weight_matrix_of_constants_folds() -> None:
    model = _mel_model(constant=True)
    (want,) = ReferenceEvaluator(model).run(None, {})
    np.testing.assert_allclose(infer.compile(model, opt_level=3).run({})["y"], want,
                               rtol=1e-6)


def test_mel_filters_past_the_spectrum_are_refused_at_run_time() -> None:
    """An upper edge above the Nyquist frequency puts a corner past the last bin."""
    compiled = infer.compile(_mel_model())
    with pytest.raises(infer.ShapeError, match="bin"):
        compiled.run(_mel_feeds(8, 16, 8000, 0.0, 7000.0))

"""The ONNX node cases that infer fails only because their stored reference outputs are
less exact than the case's tolerance (scripts/conformance.py CLOSER_THAN_REFERENCE): for
each, infer's outputs and the reference's are compared with the exact result, computed in
float64 from the same inputs, and infer's must be the closer."""

from __future__ import annotations

import numpy as np
import pytest

import infer.backend

from .test_onnx_conformance import conformance, onnx_cases


def _dft_inverse(x: np.ndarray, axis: int) -> np.ndarray:
    c = np.fft.ifft(x[..., 0].astype(np.float64) + 1j * x[..., 1], axis=axis)
    return np.stack([c.real, c.imag], axis=-1)


def _causal_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    q, k, v = (a.astype(np.float64) for a in (q, k, v))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    allowed = np.tril(np.ones(scores.shape[-2:], bool))  # query i sees keys 0..i
    scores = np.where(allowed, scores, -np.inf)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return (weights / weights.sum(-1, keepdims=True)) @ v


def _exact(name: str, inputs: list[np.ndarray]) -> np.ndarray:
    if name.startswith("test_dft_inverse"):
        axis = int(inputs[1]) if len(inputs) > 1 else 1
        return _dft_inverse(inputs[0], axis)
    return _causal_attention(*inputs)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(conformance.CLOSER_THAN_REFERENCE))
def test_infer_is_closer_to_exact_than_the_reference(name: str) -> None:
    case = onnx_cases()[name]
    rep = infer.backend.prepare(case.model)
    for inputs, (expected,) in conformance.data_sets(case):
        (ours,) = rep.run(inputs)
        exact = _exact(name, inputs)
        ours_err = float(np.abs(ours.astype(np.float64) - exact).max())
        ref_err = float(np.abs(np.asarray(expected, np.float64) - exact).max())
        assert ours_err <= ref_err, f"infer off by {ours_err:.3g}, the reference {ref_err:.3g}"

"""The light model-zoo models: shipped reference outputs, and random weights vs onnxruntime."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

import infer
from infer.model_zoo import dummy_inputs, light_model_path, reference_outputs, with_random_weights

from .helpers import run_onnxruntime

MODELS = ["squeezenet", "resnet50"]


@pytest.mark.parametrize("name", MODELS)
def test_reference_outputs(name: str) -> None:
    """As ONNX's BackendTest runs them, against their reference outputs (rtol 1e-3, atol 1e-5)."""
    path = light_model_path(name)
    model = onnx.load(path)
    outputs = infer.compile(model).run(dummy_inputs(model))
    refs = reference_outputs(path)
    assert refs is not None
    for out, ref in zip(outputs.values(), refs, strict=True):
        np.testing.assert_allclose(out, ref, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("name", MODELS)
def test_random_weights_against_onnxruntime(name: str) -> None:
    """The shipped weights are all 0.02, which hides mis-indexed weights: use random ones."""
    model = with_random_weights(onnx.load(light_model_path(name)), seed=1)
    rng = np.random.default_rng(2)
    feeds = {k: rng.standard_normal(v.shape).astype(np.float32)
             for k, v in dummy_inputs(model).items()}
    ours = infer.compile(model).run(feeds)
    theirs = run_onnxruntime(model, feeds)
    for a, b in zip(ours.values(), theirs, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-5)

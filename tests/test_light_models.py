"""The light model-zoo models against their shipped reference outputs (random weights against
onnxruntime, at every level: tests/test_graph_optimize.py)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

import infer
from infer.model_zoo import dummy_inputs, light_model_path, reference_outputs

# Their shipped weights are all 0.02, which hides transposed weights: one model here, every
# light model with random weights in test_graph_optimize.
MODELS = ["squeezenet"]


@pytest.mark.usefixtures("verify_at_stage_ends")
@pytest.mark.slow
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

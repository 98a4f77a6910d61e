"""Small stand-ins for the models people deploy (a detector, a text detector and
recognizer, a streaming voice detector, a text encoder; see models/make_deploy_models.py):
each compiles once and runs at three input sizes, every output matching onnxruntime's to
1e-3 of the output's scale."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

import infer

from .helpers import run_onnxruntime
from .models.deploy_patterns import PATTERNS, feeds, model_path


@pytest.mark.usefixtures("verify_at_stage_ends")
@pytest.mark.slow
@pytest.mark.parametrize("name", PATTERNS)
def test_pattern_at_three_sizes(name: str) -> None:
    model = onnx.load(model_path(name))
    compiled = infer.compile(model)
    for f in feeds(name):
        ours = compiled.run(f)
        theirs = run_onnxruntime(model, f)
        for (out, a), b in zip(ours.items(), theirs, strict=True):
            size = {k: v.shape for k, v in f.items()}
            assert a.shape == b.shape, f"{out} at {size}: {a.shape} != onnxruntime's {b.shape}"
            scale = max(float(np.abs(b).max()), np.finfo(np.float32).tiny)
            err = float(np.abs(a - b).max()) / scale
            assert err <= 1e-3, f"{out} at {size}: off by {err:.2e} of its scale"

"""LinearAttention (the gated-delta recurrence family) against onnxruntime: every update
rule, grouped and multi-query heads, decay per head or per key dim, beta per head or
shared, with and without a past state, several sequence lengths from one compile, f16."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper

from .helpers import check_against_onnxruntime, make_model

R = np.random.default_rng(0)
B, DK, DV = 2, 4, 3


def _model(rule: str, hq: int, hkv: int, past: bool, decay_last: int, beta_last: int,
           elem: int = TP.FLOAT):
    gated, delta = rule in ("gated", "gated_delta"), rule in ("delta", "gated_delta")
    inputs = [("q", elem, ["b", "t", hq * DK]), ("k", elem, ["b", "t", hkv * DK]),
              ("v", elem, ["b", "t", hkv * DV])]
    names = ["q", "k", "v", "past" if past else "", "decay" if gated else "",
             "beta" if delta else ""]
    if past:
        inputs.append(("past", elem, ["b", hkv, DK, DV]))
    if gated:
        inputs.append(("decay", elem, ["b", "t", decay_last]))
    if delta:
        inputs.append(("beta", elem, ["b", "t", beta_last]))
    while not names[-1]:
        names.pop()
    node = helper.make_node("LinearAttention", names, ["y", "state"], q_num_heads=hq,
                            kv_num_heads=hkv, update_rule=rule)
    return make_model([node], inputs, [("y", elem, ["b", "t", hq * DV]),
                                       ("state", elem, ["b", hkv, DK, DV])], opset=27)


def _feeds(model, t: int, dtype: type) -> dict[str, np.ndarray]:
    feeds = {}
    for vi in model.graph.input:
        dims = [d.dim_value if d.HasField("dim_value") else {"b": B, "t": t}[d.dim_param]
                for d in vi.type.tensor_type.shape.dim]
        x = R.standard_normal(dims) * 0.5
        if vi.name == "decay":
            x = -np.abs(x)  # log-space decay: a factor in (0, 1]
        if vi.name == "beta":
            x = 1 / (1 + np.exp(-x))
        feeds[vi.name] = x.astype(dtype)
    return feeds


@pytest.mark.slow
@pytest.mark.parametrize(("rule", "hq", "hkv", "past", "decay_last", "beta_last"), [
    ("linear", 2, 2, False, 0, 0),
    ("gated", 2, 2, True, 2, 0),
    ("gated", 4, 2, False, 2 * DK, 0),
    ("delta", 2, 1, True, 0, 1),
    ("gated_delta", 4, 2, True, 2 * DK, 2),
    ("gated_delta", 3, 1, False, 1, 1),
])
def test_against_onnxruntime(rule: str, hq: int, hkv: int, past: bool, decay_last: int,
                             beta_last: int) -> None:
    model = _model(rule, hq, hkv, past, decay_last, beta_last)
    feeds = [_feeds(model, t, np.float32) for t in (5, 1, 9)]
    check_against_onnxruntime(model, feeds, rtol=1e-4, atol=1e-5)


def test_f16_computes_in_f32() -> None:
    model = _model("gated_delta", 2, 2, True, 2, 2, TP.FLOAT16)
    check_against_onnxruntime(model, [_feeds(model, 6, np.float16)], rtol=2e-3, atol=2e-3)

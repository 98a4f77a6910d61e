"""f32 exp, erf and tanh as compiled (`approximate-math`: polynomials, vectorized) against float64:
within about one ulp over every range of inputs, and IEEE's special cases exactly."""

from __future__ import annotations

import math

import numpy as np
import pytest
from onnx import TensorProto as TP

import infer

from .helpers import check_against_onnxruntime, node_model

REFERENCE = {"Exp": np.exp, "Erf": np.vectorize(math.erf, otypes=[np.float64]),
             "Tanh": np.tanh}
# inputs over the whole range where the result is neither 0/1 nor overflows, and past it
RANGES = {"Exp": (-110.0, 95.0), "Erf": (-6.0, 6.0), "Tanh": (-10.0, 10.0)}
SPECIAL = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-40, -1e-40, 88.72, 88.73,
                    -103.9, -104.0, 3.92, -3.92, 0.9, -0.9, 9.1, -9.1, 1e30, -1e30],
                   np.float32)


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """|got - want| in units of the last place of want rounded to f32 (subnormal steps
    below the normal range)."""
    with np.errstate(over="ignore"):
        step = np.spacing(np.abs(want.astype(np.float32)))
    step = np.maximum(step, np.float32(2.0**-149))
    return np.abs(got.astype(np.float64) - want) / step


@pytest.mark.parametrize("op", ["Exp", "Erf", "Tanh"])
def test_within_one_ulp_of_float64(op: str) -> None:
    rng = np.random.default_rng(0)
    low, high = RANGES[op]
    x = np.concatenate([np.linspace(low, high, 400_003, dtype=np.float32),
                        rng.standard_normal(50_000).astype(np.float32),
                        (np.float32(10) ** rng.uniform(-38, 0, 50_000)).astype(np.float32)
                        * rng.choice(np.array([-1, 1], np.float32), 50_000)])
    model = node_model(op, [("x", TP.FLOAT, [len(x)])])
    got = infer.compile(model, cache=False).run({"x": x})["y"]
    want = REFERENCE[op](x.astype(np.float64))
    with np.errstate(over="ignore"):
        finite = np.isfinite(want.astype(np.float32))
    errors = _ulps(got[finite], want[finite])
    assert errors.max() <= 1.1, f"{op}({x[finite][errors.argmax()]}): {errors.max():.2f} ulp"
    # where float64's result overflows f32, so does ours
    assert np.all(got[~finite] == np.inf)


@pytest.mark.parametrize("op", ["Exp", "Erf", "Tanh"])
@pytest.mark.parametrize("n", [1, 15, 64])  # scalar code, a vector loop with its tail
def test_special_values(op: str, n: int) -> None:
    x = np.resize(SPECIAL, n * len(SPECIAL)).astype(np.float32)
    model = node_model(op, [("x", TP.FLOAT, [len(x)])])
    got = infer.compile(model, cache=False).run({"x": x})["y"]
    with np.errstate(over="ignore"):
        want = REFERENCE[op](x.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(got, want)  # NaN where NaN, inf, +-0 and +-1 as IEEE
    assert np.array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("op, opset", [("Softmax", 13), ("Gelu", 20)])
def test_ops_built_on_them_match_onnxruntime(op: str, opset: int) -> None:
    x = np.random.default_rng(1).uniform(-12, 12, (4, 67)).astype(np.float32)
    check_against_onnxruntime(node_model(op, [("x", TP.FLOAT, [4, 67])], opset=opset),
                              {"x": x}, rtol=1e-6, atol=1e-7, opt_level=3)


def test_sigmoid_within_three_ulp_of_float64() -> None:
    # (onnxruntime's own logistic approximation is 0.4% off at -12: not the reference)
    x = np.linspace(-87, 20, 100_001, dtype=np.float32)  # results in the normal range
    got = infer.compile(node_model("Sigmoid", [("x", TP.FLOAT, [len(x)])], opset=13),
                        cache=False).run({"x": x})["y"]
    want = 1 / (1 + np.exp(-x.astype(np.float64)))
    assert _ulps(got, want).max() <= 2.5  # exp's ulp, then an add and a divide

"""Cast between element types: the compiled kernel bit for bit against ONNX's reference
(numpy's conversions), with values that round to even, overflow, underflow to subnormals
and zero, and NaN / +-Inf."""

from __future__ import annotations

import numpy as np
import pytest
from onnx.helper import np_dtype_to_tensor_dtype

import infer

from .helpers import node_model

# Ties and near-ties of f16 (65520 rounds up to inf, 65519 down to 65504), f16 subnormals,
# values below the smallest f16 subnormal, signed zeros and the non-finite values.
VALUES = np.array(
    [0.1, -2.5, 1 + 2.0**-11, 1 + 3 * 2.0**-11, 1 + 2.0**-11 + 2.0**-40, 65504, 65519, 65520,
     -1e6, 3e-5, 2.0**-24, 2.0**-25, 2.0**-25 + 2.0**-40, 1e-9, -0.0, 0.0, np.nan, np.inf,
     -np.inf, 1 / 3],
)  # fmt: skip

FLOATS = [np.float16, np.float32, np.float64]


@pytest.mark.parametrize("src", FLOATS, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("dst", FLOATS, ids=lambda t: np.dtype(t).name)
def test_float_casts_round_once(src: type, dst: type) -> None:
    """f64 -> f16 rounds once (a libgcc conversion the JIT resolves), as ONNX's reference
    does; onnxruntime rounds through f32 (1 + 2^-11 + 2^-40 becomes 1.0 there)."""
    x = VALUES.astype(src)
    model = node_model(
        "Cast", [("x", np_dtype_to_tensor_dtype(np.dtype(src)), [x.size])],
        {"to": np_dtype_to_tensor_dtype(np.dtype(dst))}, opset=19,
    )  # fmt: skip
    y = infer.compile(model).run({"x": x})["y"]
    assert y.dtype == np.dtype(dst)
    np.testing.assert_array_equal(y, x.astype(dst))
    assert (np.signbit(y) == np.signbit(x.astype(dst))).all()

"""QuantizeLinear / DequantizeLinear as plain ops against onnxruntime: per tensor, per
axis and blocked scales, with and without zero points, every 8/16-bit integer type,
halfway values (rounded to even), saturation, NaN and Inf, at two sizes from one compile;
the numpy form (constant folding's) agrees with the kernel."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper
from onnx.helper import np_dtype_to_tensor_dtype

import infer
from infer.dialects import graph as G
from infer.dialects.graph.evaluate import evaluate
from infer.frontend.onnx_import import import_model

from .helpers import make_model, run_onnxruntime

R = np.random.default_rng(0)


def _tp(dtype) -> int:
    return np_dtype_to_tensor_dtype(np.dtype(dtype))


def _model(op: str, x_dtype, scale: np.ndarray, zp: np.ndarray | None, out_dtype,
           attrs: dict[str, object], opset: int):
    names = ["x", "s"] + (["z"] if zp is not None else [])
    inputs = [("x", _tp(x_dtype), ["N", 4, 6]), ("s", _tp(scale.dtype), list(scale.shape))]
    if zp is not None:
        inputs.append(("z", _tp(zp.dtype), list(zp.shape)))
    return make_model([helper.make_node(op, names, ["y"], **attrs)], inputs,
                      [("y", _tp(out_dtype), ["N", 4, 6])], opset=opset)


SCALES = {  # (scale shape, attributes)
    "tensor": ((), {}),
    "axis": ((4,), {"axis": 1}),
    "last_axis": ((6,), {"axis": -1}),
    "blocked": ((2, 2, 6), {"axis": 1, "block_size": 3}),
}
QTYPES = [np.uint8, np.int8, np.uint16, np.int16]


def _sizes(layout: str) -> tuple[int, ...]:
    """Batch sizes to run: a blocked scale has x's batch dim, so one size only."""
    return (2,) if layout == "blocked" else (2, 1)


def _run_both(m, feeds_list):
    compiled = infer.compile(m)
    (op,) = [o for o in import_model(m).walk() if isinstance(o, G.QuantizeLinearOp |
                                                                G.DequantizeLinearOp)]
    for feeds in feeds_list:
        got = compiled.run(feeds)["y"]
        (want,) = run_onnxruntime(m, feeds)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        (folded,) = evaluate(op, list(feeds.values()))
        np.testing.assert_array_equal(folded, want)


@pytest.mark.slow
@pytest.mark.parametrize("layout", SCALES)
@pytest.mark.parametrize("qtype", QTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("with_zp", [True, False])
def test_quantize(layout, qtype, with_zp):
    shape, attrs = SCALES[layout]
    scale = np.asarray(R.random(shape) * 0.05 + 0.01, np.float32)
    info = np.iinfo(qtype)
    zp = (np.asarray(R.integers(info.min // 4, info.max // 4 + 1, shape), qtype) if with_zp
          else None)
    m = _model("QuantizeLinear", np.float32, scale, zp, qtype if with_zp else np.uint8, attrs,
               21)
    feeds = []
    for n in _sizes(layout):
        x = (R.standard_normal((n, 4, 6)) * 3).astype(np.float32)
        x.reshape(-1)[:4] = [np.inf, -np.inf, 1e9, -1e9]  # saturate
        x.reshape(-1)[4] = np.float32(scale.reshape(-1)[0]) * np.float32(2.5)  # halfway
        feeds.append({"x": x, "s": scale, **({"z": zp} if with_zp else {})})
    _run_both(m, feeds)


@pytest.mark.parametrize("layout", SCALES)
@pytest.mark.parametrize("qtype", [*QTYPES, np.int32], ids=lambda t: np.dtype(t).name)
def test_dequantize(layout, qtype):
    shape, attrs = SCALES[layout]
    scale = np.asarray(R.random(shape) * 0.05 + 0.01, np.float32)
    info = np.iinfo(qtype)
    lo, hi = max(info.min, -40000), min(info.max, 40000)
    zp = None if qtype == np.int32 else np.asarray(R.integers(lo // 4, hi // 4, shape), qtype)
    m = _model("DequantizeLinear", qtype, scale, zp, np.float32, attrs, 21)
    _run_both(m, [{"x": R.integers(lo, hi, (n, 4, 6)).astype(qtype), "s": scale,
                   **({"z": zp} if zp is not None else {})} for n in _sizes(layout)])


def test_half_precision_scales_and_output_dtype():
    """f16 x and scale quantize through f32; a dequantize to output_dtype f16 from f32
    scales rounds once."""
    scale = np.array([0.02, 0.05, 0.1, 0.03], np.float16)
    m = _model("QuantizeLinear", np.float16, scale, None, np.uint8, {"axis": 1}, 21)
    x = (R.standard_normal((2, 4, 6)) * 2).astype(np.float16)
    _run_both(m, [{"x": x, "s": scale}])
    scale32 = np.array(0.0173, np.float32)
    m = _model("DequantizeLinear", np.int8, scale32, None, np.float16,
               {"output_dtype": TP.FLOAT16}, 23)
    x8 = R.integers(-128, 128, (2, 4, 6)).astype(np.int8)
    got = infer.compile(m).run({"x": x8, "s": scale32})["y"]
    np.testing.assert_array_equal(got, (x8.astype(np.float32) * scale32).astype(np.float16))


def test_bad_layouts_are_refused():
    scale = np.ones(5, np.float32)
    with pytest.raises(infer.InferError, match="scale's length and x's axis dim differ"):
        infer.compile(_model("QuantizeLinear", np.float32, scale, None, np.uint8,
                             {"axis": 1}, 21))

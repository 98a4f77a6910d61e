"""Post-training quantization (`infer.quantize`, `infer-quantize`): the QDQ model it writes
stays as close to the float model as onnxruntime's quantizer gets on the same data, runs
the same in infer as in onnxruntime, and bad calibration data is a clear error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnxruntime.quantization import (
    CalibrationDataReader,
    QuantFormat,
    QuantType,
    quantize_static,
)

import infer
from infer.errors import InputError
from infer.quantization.qdq import activation_params, per_channel_weight
from infer.quantization.ranges import RangeCollector

from .helpers import onnxruntime_int8_is_exact

BIN = Path(sys.executable).parent
R = np.random.default_rng(5)


def _init(name: str, *shape: int, scale: float = 1.0) -> onnx.TensorProto:
    return numpy_helper.from_array((R.standard_normal(shape) * scale).astype(np.float32), name)


def _cnn(opset: int = 17) -> onnx.ModelProto:
    """Conv+Relu twice, a residual Add, global pool, Gemm: what the quantizer covers."""
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c2"], ["r2"]),
             helper.make_node("Conv", ["r2", "w3"], ["c3"], pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["c3", "r2"], ["s"]),
             helper.make_node("GlobalAveragePool", ["s"], ["g"]),
             helper.make_node("Flatten", ["g"], ["f"]),
             helper.make_node("Gemm", ["f", "wf", "bf"], ["y"], transB=1)]
    inits = [_init("w1", 8, 3, 3, 3, scale=0.3), _init("b1", 8),
             _init("w2", 16, 8, 3, 3, scale=0.15), _init("b2", 16),
             _init("w3", 16, 16, 3, 3, scale=0.1), _init("wf", 10, 16, scale=0.3),
             _init("bf", 10)]
    g = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("x", TP.FLOAT,
                                                                       [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TP.FLOAT, [1, 10])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 7
    return m


def _mlp() -> onnx.ModelProto:
    """MatMul + bias Add + Relu + MatMul, a dynamic batch."""
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"]),
             helper.make_node("Add", ["h", "b1"], ["hb"]),
             helper.make_node("Relu", ["hb"], ["r"]),
             helper.make_node("MatMul", ["r", "w2"], ["y"])]
    g = helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", TP.FLOAT,
                                                                       ["N", 32])],
                          [helper.make_tensor_value_info("y", TP.FLOAT, ["N", 8])],
                          [_init("w1", 32, 64, scale=0.2), _init("b1", 64),
                           _init("w2", 64, 8, scale=0.2)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 7
    return m


MODELS = {"cnn": (_cnn(), (3, 16, 16)), "mlp": (_mlp(), (32,))}


def _data(shape: tuple[int, ...], n: int, seed: int = 0) -> np.ndarray:
    """n samples of batch 1; the same for the same seed, whichever test runs first."""
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, 1, *shape)).astype(np.float32)


def _ort(model: onnx.ModelProto | str, xs: np.ndarray) -> np.ndarray:
    src = model if isinstance(model, str) else model.SerializeToString()
    s = ort.InferenceSession(src, providers=["CPUExecutionProvider"])
    return np.concatenate([s.run(None, {"x": x})[0] for x in xs])


def _snr(ref: np.ndarray, q: np.ndarray) -> float:
    return float(10 * np.log10((ref**2).sum() / ((ref - q) ** 2).sum()))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MODELS))
def test_as_close_as_onnxruntimes_quantizer(name: str, tmp_path: Path) -> None:
    model, shape = MODELS[name]
    path, cal = tmp_path / "m.onnx", tmp_path / "cal.npz"
    onnx.save(model, path)
    samples = _data(shape, 32)
    np.savez(cal, x=samples)
    ours = infer.quantize(path, cal, tmp_path / "ours.onnx", progress=False)

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.rows = iter([{"x": s} for s in samples])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.rows, None)

    quantize_static(str(path), str(tmp_path / "ort.onnx"), Reader(),
                    quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    test = _data(shape, 48, seed=1)
    ref = _ort(model, test)
    snr_ours = _snr(ref, _ort(ours, test))
    snr_ort = _snr(ref, _ort(str(tmp_path / "ort.onnx"), test))
    print(f"{name}: SNR infer-quantize {snr_ours:.1f} dB, onnxruntime's quantizer "
          f"{snr_ort:.1f} dB")
    assert snr_ours >= snr_ort - 1.0
    # infer runs the quantized model as onnxruntime does (as ONNX's reference
    # implementation does where onnxruntime's int8 kernels are not exact)
    compiled = infer.compile(ours)
    got = np.concatenate([compiled.run({"x": x})["y"] for x in test])
    if onnxruntime_int8_is_exact():
        want = _ort(ours, test)
    else:
        # (the reference implements DequantizeLinear from opset 19, the same for int8)
        reference = ReferenceEvaluator(onnx.version_converter.convert_version(ours, 19))
        want = np.concatenate([reference.run(None, {"x": x})[0] for x in test])
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.slow
@pytest.mark.parametrize(("method", "activations"), [("percentile", "uint8"),
                                                      ("entropy", "uint8"),
                                                      ("minmax", "int8")])
def test_methods_and_activation_types(method: str, activations: str, tmp_path: Path) -> None:
    model, shape = MODELS["cnn"]
    cal = tmp_path / "cal.npz"
    np.savez(cal, x=_data(shape, 16))
    q = infer.quantize(model, cal, method=method, activations=activations, progress=False)
    zero_points = [numpy_helper.to_array(i) for i in q.graph.initializer
                   if i.name.startswith("x_zero_point")]
    assert [z.dtype for z in zero_points] == [np.dtype(activations)]
    test = _data(shape, 16, seed=1)
    # entropy clips the tails that min-max keeps: a little noisier on data like this
    assert _snr(_ort(model, test), _ort(q, test)) > (20 if method == "entropy" else 30)


def test_an_old_opset_is_converted(tmp_path: Path) -> None:
    cal = tmp_path / "cal.npz"
    np.savez(cal, x=_data((3, 16, 16), 4))
    q = infer.quantize(_cnn(opset=11), cal, progress=False)
    assert q.opset_import[0].version == 13
    assert any(n.op_type == "DequantizeLinear" and n.attribute for n in q.graph.node)


def test_an_ir_version_3_model_is_quantized(tmp_path: Path) -> None:
    # IR version 3 (the light models' ONNX 1.2 files) lists every initializer as an input
    ref = _cnn(opset=9)
    old = onnx.ModelProto()
    old.CopyFrom(ref)
    old.ir_version = 3
    old.graph.input.extend(helper.make_tensor_value_info(i.name, i.data_type, i.dims)
                           for i in old.graph.initializer)
    cal = tmp_path / "cal.npz"
    np.savez(cal, x=_data((3, 16, 16), 4))
    q = infer.quantize(old, cal, progress=False)
    assert q.ir_version >= 7
    test = _data((3, 16, 16), 4, seed=1)
    assert _snr(_ort(ref, test), _ort(q, test)) > 30  # onnxruntime needs IR >= 4


def test_ranges() -> None:
    x = np.concatenate([R.standard_normal(100_000), [60.0]]).astype(np.float32)
    ranges = {}
    for method in ("minmax", "percentile", "entropy"):
        c = RangeCollector(method, percentile=99.9)
        for p in range(c.passes):
            for chunk in np.array_split(x, 4):
                c.add(chunk, p)
        ranges[method] = c.range()
    assert ranges["minmax"] == (float(x.min()), 60.0)
    assert 2.5 < ranges["percentile"][1] < 4.5 and -4.5 < ranges["percentile"][0] < -2.5
    assert 2.0 < ranges["entropy"][1] < 20.0  # the outlier clipped
    positive = RangeCollector("minmax")
    positive.add(np.array([2.0, 3.0], np.float32), 0)
    assert positive.range() == (0.0, 3.0)  # 0 is always representable
    p = activation_params(-1.0, 3.0, "uint8")
    assert p.zero_point == 64 and abs(p.scale - 4 / 255) < 1e-9


def test_weights_per_channel() -> None:
    w = R.standard_normal((4, 3, 2, 2)).astype(np.float32)
    w[2] = 0
    q, scale = per_channel_weight(w, 0)
    assert q.dtype == np.int8 and np.abs(q).max() == 127
    np.testing.assert_allclose(scale[[0, 1, 3]], np.abs(w[[0, 1, 3]]).max(axis=(1, 2, 3)) / 127)
    assert scale[2] == 1.0 and not q[2].any()
    np.testing.assert_allclose(q * scale[:, None, None, None], w, atol=scale.max() / 2 + 1e-7)


@pytest.mark.parametrize(("arrays", "message"), [
    ({"image": np.zeros((2, 1, 3, 16, 16), np.float32)},
     "no model input named 'image'; missing input 'x' (the model's inputs: x)"),
    ({"x": np.zeros((2, 1, 3, 16, 16), np.float64)},
     "input 'x' is float64, the model's is float32"),
    ({"x": np.zeros((2, 1, 3, 8, 8), np.float32)},
     "input 'x' of shape (1, 3, 8, 8) per sample; the model's is (1, 3, 16, 16)"),
    ({"x": np.zeros((2, 3), np.float32)}, "input 'x' has rank 2; the model's input has rank 4"),
    ({"x": np.zeros((0, 3, 16, 16), np.float32)}, "holds no sample"),
])
def test_bad_calibration_data(arrays: dict[str, np.ndarray], message: str,
                              tmp_path: Path) -> None:
    cal = tmp_path / "cal.npz"
    np.savez(cal, **arrays)
    with pytest.raises(InputError) as err:
        infer.quantize(MODELS["cnn"][0], cal, tmp_path / "q.onnx", progress=False)
    assert message in str(err.value)
    assert not (tmp_path / "q.onnx").exists()


def test_a_folder_of_npz_files(tmp_path: Path) -> None:
    folder = tmp_path / "cal"
    folder.mkdir()
    with pytest.raises(InputError, match="no .npz file in the folder"):
        infer.quantize(MODELS["mlp"][0], folder, progress=False)
    for i in range(3):  # rows of the input's rank: a dynamic batch takes them one by one
        np.savez(folder / f"{i}.npz", x=R.standard_normal((5, 32)).astype(np.float32))
    q = infer.quantize(MODELS["mlp"][0], folder, progress=False)
    assert sum(n.op_type == "QuantizeLinear" for n in q.graph.node) == 4  # x, h, r, y


@pytest.mark.slow
def test_command_line(tmp_path: Path) -> None:
    model, shape = MODELS["cnn"]
    path, cal, out = tmp_path / "m.onnx", tmp_path / "cal.npz", tmp_path / "q.onnx"
    onnx.save(model, path)
    np.savez(cal, x=_data(shape, 8))
    r = subprocess.run([str(BIN / "infer-quantize"), str(path), "--calibration", str(cal),
                        "--out", str(out), "--method", "entropy"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "calibrating (2/2)" in r.stderr and f"wrote {out}" in r.stdout
    onnx.checker.check_model(onnx.load(out))
    np.savez(cal, y=_data(shape, 8))
    bad = tmp_path / "bad.onnx"
    r = subprocess.run([str(BIN / "infer-quantize"), str(path), "--calibration", str(cal),
                        "--out", str(bad)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and not bad.exists()
    assert "no model input named 'y'" in r.stderr

"""The command-line tools: results, and one-line errors with a non-zero exit on bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

from .helpers import make_model

BIN = Path(sys.executable).parent


def run(tool: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BIN / tool), *args], input=stdin, capture_output=True, text=True, timeout=300
    )


def _relu_model(tmp_path: Path) -> Path:
    """A saved one-node Relu model on a [2, 3] float input."""
    model = make_model(
        [helper.make_node("Relu", ["x"], ["y"])],
        [("x", TensorProto.FLOAT, [2, 3])],
        [("y", TensorProto.FLOAT, [2, 3])],
    )
    path = tmp_path / "relu.onnx"
    onnx.save(model, path)
    return path


def test_infer_opt_malformed_ir() -> None:
    r = run("infer-opt", "-", stdin="func.func @f() { %x = graph.relu }")
    assert r.returncode == 1
    assert "operand expected" in r.stderr
    assert "Traceback" not in r.stderr


def test_infer_opt_verifier_error() -> None:
    ir = """func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %c = graph.add %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  func.return %c : tensor<2x3xf32>
}"""
    r = run("infer-opt", "-", stdin=ir)
    assert r.returncode == 1
    assert "do not broadcast" in r.stderr
    assert "Traceback" not in r.stderr


def test_infer_opt_bad_pass_option() -> None:
    r = run("infer-opt", "-", "-p", "cse{bogus=1}", stdin="")
    assert r.returncode == 1
    assert r.stderr.startswith("infer-opt: error:")
    assert "Traceback" not in r.stderr


def test_infer_run_broken_model(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"this is not a protobuf")
    r = run("infer-run", str(bad))
    assert r.returncode == 1
    assert r.stderr.startswith("infer-run: error:") and len(r.stderr.strip().splitlines()) == 1


def test_infer_run_compare_and_bench(tmp_path: Path) -> None:
    path = _relu_model(tmp_path)
    x = tmp_path / "x.npy"
    np.save(x, np.array([[-1, 2, -3], [4, -5, 6]], np.float32))
    r = run("infer-run", str(path), "--input", f"x={x}", "--compare", "onnxruntime", "--bench", "3")
    assert r.returncode == 0, r.stderr
    assert "onnxruntime output 'y': max |diff| = 0" in r.stdout
    assert "ratio infer/onnxruntime" in r.stdout
    assert "top 5" in r.stdout and "5: 6" in r.stdout


def test_infer_run_wrong_input_shape(tmp_path: Path) -> None:
    path = _relu_model(tmp_path)
    x = tmp_path / "x.npy"
    np.save(x, np.zeros((3, 3), np.float32))
    r = run("infer-run", str(path), "--input", f"x={x}")
    assert r.returncode == 1
    assert "input 'x': dim 0 must be 2" in r.stderr


def test_infer_run_report(tmp_path: Path) -> None:
    r = run("infer-run", str(_relu_model(tmp_path)), "--opt-level", "1", "--report")
    assert r.returncode == 0, r.stderr
    assert "op counts before and after graph-optimize{level=1}:" in r.stdout
    assert "graph.relu" in r.stdout


def test_infer_opt_compile_pipeline(tmp_path: Path) -> None:
    """`-p compile` runs infer.compile's pipeline: the graph comes out as the llvm dialect."""
    r = run("infer-opt", str(_relu_model(tmp_path)), "-p", "compile{level=2 block=8}")
    assert r.returncode == 0, r.stderr
    assert "llvm.func @_infer_packed_main" in r.stdout
    assert "graph." not in r.stdout and "func.func" not in r.stdout

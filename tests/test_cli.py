"""`infer-run`: PASS/FAIL per output against references, exit codes, input checks before
compiling, the benchmark table, and one-line errors with no traceback."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from infer.model_zoo import light_model_path

from .helpers import make_model, sigint_as_a_terminal_sends_it

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


def _save(tmp_path: Path, name: str, a: np.ndarray) -> str:
    path = tmp_path / f"{name}.npy"
    np.save(path, a)
    return str(path)


def _one_line_error(r: subprocess.CompletedProcess, message: str) -> None:
    assert r.returncode == 1, r.stderr
    assert r.stderr == f"infer-run: error: {message}\n"


@pytest.mark.slow
def test_compare_and_bench(tmp_path: Path) -> None:
    path = _relu_model(tmp_path)
    x = _save(tmp_path, "x", np.array([[-1, 2, -3], [4, -5, 6]], np.float32))
    r = run("infer-run", str(path), "--input", f"x={x}", "--compare", "onnxruntime",
            "--bench", "3", "--threads", "2")  # fmt: skip
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "  y: float32[2, 3], min 0, max 6" in lines
    assert "    top 5 (flat index: value): 5: 6, 3: 4, 1: 2, 0: 0, 2: 0" in lines
    i = next(i for i, s in enumerate(lines) if s.startswith("against onnxruntime"))
    assert lines[i].endswith("(rtol 0.001, atol 1e-07):")
    assert lines[i + 1] == "  y: PASS  max abs diff 0, max rel diff 0"
    assert ("latency in ms over 3 block-timed runs (infer and onnxruntime on 2 threads each):"
            in lines)
    header = next(s for s in lines if "median" in s and "p90" in s).split()
    assert header == ["min", "median", "mean", "p90", "inferences/s"]
    rows = {s.split()[0]: s.split()[1:] for s in lines if s.startswith(("  infer ", "  onnx"))}
    t_min, t_med, t_mean, t_p90, rate = map(float, rows["infer"])
    assert t_min <= t_med <= t_p90 and t_min <= t_mean
    # inferences/s is 1000 / mean, within the rounding of both printed numbers
    assert 1e3 / (t_mean + 5e-4) - 0.05 <= rate <= 1e3 / max(t_mean - 5e-4, 1e-9) + 0.05
    assert len(rows["onnxruntime"]) == 5
    assert any(s.startswith("  median ratio infer/onnxruntime: ") for s in lines)


@pytest.mark.slow
def test_nan_and_inf_compare_equal(tmp_path: Path) -> None:
    """x/x is NaN and log(x) is -inf where x is 0 (the default input starts at 0): both
    sides agree there, so both outputs PASS, with no RuntimeWarning."""
    model = make_model(
        [helper.make_node("Div", ["x", "x"], ["q"]), helper.make_node("Log", ["x"], ["l"])],
        [("x", TensorProto.FLOAT, [2, 3])],
        [("q", TensorProto.FLOAT, [2, 3]), ("l", TensorProto.FLOAT, [2, 3])],
    )
    onnx.save(model, tmp_path / "m.onnx")
    r = run("infer-run", str(tmp_path / "m.onnx"), "--compare", "onnxruntime")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "  q: PASS  max abs diff 0, max rel diff 0" in r.stdout.splitlines()
    assert any(s.startswith("  l: PASS  max abs diff ") for s in r.stdout.splitlines())
    assert r.stderr == ""


def _write_reference(model: Path, ref: np.ndarray) -> None:
    (model.parent / f"{model.stem}_output_0.pb").write_bytes(
        numpy_helper.from_array(ref).SerializeToString())


@pytest.mark.slow
def test_reference_outputs_fail_with_status_2(tmp_path: Path) -> None:
    """Reference outputs next to the model are compared; a mismatch is FAIL, exit 2."""
    path = _relu_model(tmp_path)
    ref = (np.arange(6, dtype=np.float32) / 6).reshape(2, 3)  # relu of the default input
    ref[1, 2] += 0.5
    _write_reference(path, ref)
    r = run("infer-run", str(path))
    assert r.returncode == 2, r.stderr
    lines = r.stdout.splitlines()
    assert "against the reference outputs next to the model (rtol 0.001, atol 1e-07):" in lines
    assert "  y: FAIL  max abs diff 0.5, max rel diff 0.375" in lines
    # The same difference passes at a tolerance that covers it.
    r = run("infer-run", str(path), "--atol", "0.6")
    assert r.returncode == 0, r.stderr
    assert "  y: PASS  max abs diff 0.5, max rel diff 0.375" in r.stdout.splitlines()


@pytest.mark.slow
def test_reference_of_another_shape_fails(tmp_path: Path) -> None:
    path = _relu_model(tmp_path)
    _write_reference(path, np.zeros((3, 2), np.float32))
    r = run("infer-run", str(path))
    assert r.returncode == 2
    assert "  y: FAIL (shape (2, 3) != reference (3, 2))" in r.stdout.splitlines()


def _unsupported_model(tmp_path: Path) -> Path:
    """Inputs a:[2, 3] float and b:[N, 4] int64 into an op infer cannot import: an input
    error reported for it proves the inputs were checked before compiling."""
    node = helper.make_node("ImageDecoder", ["a"], ["y"])
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("b", TensorProto.INT64, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, None)],
    )  # fmt: skip
    path = tmp_path / "image_decoder.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)]), path)
    return path


@pytest.mark.slow
def test_inputs_checked_before_compiling(tmp_path: Path) -> None:
    path = str(_unsupported_model(tmp_path))
    a = _save(tmp_path, "a", np.zeros((2, 3), np.float32))
    b = _save(tmp_path, "b", np.zeros((5, 4), np.int64))
    cases = {
        ("--input", f"c={a}"): "unknown input name 'c'; the model's inputs are 'a', 'b'",
        ("--input", f"a={a}"): "missing input 'b' (int64[N, 4])",
        ("--input", f"a={b}", "--input", f"b={b}"):
            "input 'a': expected dtype float32, got int64",
        ("--input", f"a={a}", "--input", f"b={_save(tmp_path, 'b1', np.zeros(4, np.int64))}"):
            "input 'b': expected rank 2 int64[N, 4], got shape (4,)",
        ("--input", f"a={_save(tmp_path, 'a1', np.zeros((3, 3), np.float32))}",
         "--input", f"b={b}"):
            "input 'a': dim 0 must be 2 (float32[2, 3]), got shape (3, 3)",
    }  # fmt: skip
    for args, message in cases.items():
        _one_line_error(run("infer-run", path, *args), message)
    # Inputs that fit get as far as the compile, which refuses the op.
    r = run("infer-run", path, "--input", f"a={a}", "--input", f"b={b}")
    assert r.returncode == 1 and "ImageDecoder" in r.stderr


@pytest.mark.slow
def test_bad_input_arguments(tmp_path: Path) -> None:
    path = str(_relu_model(tmp_path))
    _one_line_error(run("infer-run", path, "--input", "x"),
                    "--input expects NAME=FILE.npy, got 'x'")  # fmt: skip
    missing = tmp_path / "none.npy"
    r = run("infer-run", path, "--input", f"x={missing}")
    assert r.returncode == 1
    assert r.stderr.startswith(f"infer-run: error: cannot read input 'x' from '{missing}': ")
    assert len(r.stderr.splitlines()) == 1


def test_broken_model(tmp_path: Path) -> None:
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"this is not a protobuf")
    r = run("infer-run", str(bad))
    assert r.returncode == 1
    assert r.stderr.startswith(f"infer-run: error: cannot read ONNX model '{bad}': ")
    assert len(r.stderr.splitlines()) == 1


@pytest.mark.slow
def test_usage_errors_are_one_line(tmp_path: Path) -> None:
    path = str(_relu_model(tmp_path))
    _one_line_error(run("infer-run", path, "--rtol", "-1"),
                    "--rtol and --atol must be >= 0 (see --help)")  # fmt: skip
    _one_line_error(run("infer-run", path, "--bench", "x"),
                    "argument --bench: invalid int value: 'x' (see --help)")  # fmt: skip
    _one_line_error(run("infer-run", path, "--threads", "-1"),
                    "--threads, --bench and --top must be >= 0 (see --help)")  # fmt: skip
    _one_line_error(run("infer-run"), "the following arguments are required: model (see --help)")


@pytest.mark.slow
def test_report(tmp_path: Path) -> None:
    r = run("infer-run", str(_relu_model(tmp_path)), "--opt-level", "1", "--report")
    assert r.returncode == 0, r.stderr
    assert "op counts before and after graph-optimize{level=1}:" in r.stdout
    assert "graph.relu" in r.stdout


@pytest.mark.slow
def test_interrupt_during_compile() -> None:
    """Ctrl-C while the light DenseNet-121 compiles (a minute and more) exits 130 with one line."""
    p = subprocess.Popen([str(BIN / "infer-run"), str(light_model_path("densenet121"))],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=sigint_as_a_terminal_sends_it)  # fmt: skip
    time.sleep(6)  # past the imports, inside the compile
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert err == "infer-run: interrupted\n"


@pytest.mark.slow
def test_verbose_prints_stage_times(tmp_path: Path) -> None:
    from infer import progress

    r = run("infer-run", str(_relu_model(tmp_path)), "-v")
    assert r.returncode == 0, r.stderr
    stages = [m[1] for m in re.finditer(r"^infer: (.+?) +\d+\.\d{3} s$", r.stderr, re.M)]
    assert stages == [*progress.STAGES, "total"]


@pytest.mark.slow
def test_a_reader_that_leaves_early_is_no_error(tmp_path: Path) -> None:
    """`infer-run ... | head`: the output's reader goes away; no traceback, status 141."""
    model = make_model([helper.make_node("Relu", ["x"], ["y"])],
                       [("x", TensorProto.FLOAT, [100, 1000])],
                       [("y", TensorProto.FLOAT, [100, 1000])])
    path = tmp_path / "big.onnx"
    onnx.save(model, path)
    p = subprocess.Popen([str(BIN / "infer-run"), str(path), "--top", "100000"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.read(10)
    p.stdout.close()
    assert p.wait(timeout=300) == 141
    assert p.stderr.read() == b""


def test_outputs_listed_twice_are_compared_twice(tmp_path: Path, capsys) -> None:
    """Each graph output where the graph lists it, against its reference file and
    onnxruntime's list (run in-process: a compile of one node)."""
    from infer.tools.infer_run import main

    model = make_model(
        [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Neg", ["y"], ["z"])],
        [("x", TensorProto.FLOAT, [2, 3])],
        [(n, TensorProto.FLOAT, [2, 3]) for n in ("y", "z", "y", "x")],
    )
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    x = (np.arange(6, dtype=np.float32) / 6).reshape(2, 3)  # the default input
    for i, ref in enumerate((x, -x, x, x)):
        (tmp_path / f"m_output_{i}.pb").write_bytes(
            numpy_helper.from_array(ref).SerializeToString())
    with pytest.raises(SystemExit) as exit_status:
        main([str(path), "--compare", "onnxruntime", "--top", "0", "--no-cache"])
    lines = capsys.readouterr().out.splitlines()
    assert exit_status.value.code == 0, lines
    assert lines[lines.index("outputs:") + 1:][:4] == [
        "  y: float32[2, 3], min 0, max 0.833333", "  z: float32[2, 3], min -0.833333, max -0",
        "  y: float32[2, 3], min 0, max 0.833333", "  x: float32[2, 3], min 0, max 0.833333"]
    assert [s.split(":")[0] for s in lines if "PASS" in s] == ["  y", "  z", "  y", "  x"] * 2

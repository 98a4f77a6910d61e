"""`infer-opt`: located one-line diagnostics with exit status 1 and no traceback, its
help, version and pass timings."""

from __future__ import annotations

from pathlib import Path

from .test_cli import _relu_model, run


def test_malformed_ir() -> None:
    r = run("infer-opt", "-", stdin="func.func @f() { %x = graph.relu }")
    assert r.returncode == 1
    assert "operand expected" in r.stderr
    assert "Traceback" not in r.stderr


def test_bad_pass_option() -> None:
    r = run("infer-opt", "-", "-p", "cse{bogus=1}", stdin="")
    assert r.returncode == 1
    assert r.stderr.startswith("infer-opt: error:")
    assert "Traceback" not in r.stderr


def test_compile_pipeline(tmp_path: Path) -> None:
    """`-p compile` runs infer.compile's pipeline: the graph comes out as the llvm dialect."""
    r = run("infer-opt", str(_relu_model(tmp_path)), "-p", "compile{level=2 block=8}")
    assert r.returncode == 0, r.stderr
    assert "llvm.func @_infer_packed_main" in r.stdout
    assert "graph." not in r.stdout and "func.func" not in r.stdout

"""Feedback while compiling: stage times with verbose=True, a status line on a terminal,
silence otherwise, and Ctrl-C passing through as KeyboardInterrupt."""

from __future__ import annotations

import io

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper

import infer
from infer import api, progress
from infer.progress import CompileProgress

from .helpers import make_model

STAGE_LINES = ["import", "graph optimize", "lower to loops", "lower to llvm",
               "llvm optimize + jit", "total"]  # fmt: skip


@pytest.fixture(scope="module")
def relu_model():
    node = helper.make_node("Relu", ["x"], ["y"])
    return make_model([node], [("x", TP.FLOAT, ["N", 4])], [("y", TP.FLOAT, ["N", 4])])


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_verbose_prints_each_stage_time(relu_model, capsys) -> None:
    compiled = infer.compile(relu_model, verbose=True)
    err = capsys.readouterr().err.splitlines()
    assert [line.split("  ")[0].removeprefix("infer: ").strip() for line in err] == STAGE_LINES
    times = [float(line.split()[-2]) for line in err]
    assert all(t >= 0 for t in times)
    assert times[-1] == pytest.approx(sum(times[:-1]), abs=4e-3)  # printed rounded to 1 ms
    x = np.array([[-1, 2, -3, 4]], np.float32)
    np.testing.assert_array_equal(compiled.run({"x": x})["y"], np.maximum(x, 0))


@pytest.mark.parametrize("verbose", [None, False])
def test_silent_without_terminal_or_when_asked(relu_model, capsys, verbose) -> None:
    infer.compile(relu_model, verbose=verbose)  # pytest's stderr is not a terminal
    assert capsys.readouterr().err == ""


def test_status_line_on_a_terminal() -> None:
    term = _Terminal()
    stages = CompileProgress(None, term)
    for name in progress.STAGES:
        with stages.stage(name):
            pass
    stages.done()
    shown = term.getvalue()
    assert "infer: compiling [1/5] import ..." in shown
    assert "infer: compiling [5/5] llvm optimize + jit ..." in shown
    assert shown.endswith("\r\033[K") and "\n" not in shown  # cleared, nothing left behind
    assert [name for name, _, _ in stages.times] == list(progress.STAGES)
    assert CompileProgress(False, _Terminal()).status is False


def test_keyboard_interrupt_propagates(relu_model, monkeypatch) -> None:
    def interrupted(module, target, forked):
        raise KeyboardInterrupt

    monkeypatch.setattr(api, "compile_code", interrupted)
    term = _Terminal()
    monkeypatch.setattr(progress.sys, "stderr", term)
    with pytest.raises(KeyboardInterrupt):
        infer.compile(relu_model)
    # The status line is ended, so the CLI's one-line message starts on a fresh line.
    assert term.getvalue().endswith("llvm optimize + jit ...\n")

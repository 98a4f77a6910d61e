"""`python -m infer` and `infer.__version__`."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from onnx import TensorProto as TP
from onnx import helper

import infer

from .helpers import make_model

ROOT = Path(__file__).parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "infer", *args], capture_output=True,
                          text=True, timeout=300)


def test_version_is_the_packages() -> None:
    with open(ROOT / "pyproject.toml", "rb") as f:
        project = tomllib.load(f)["project"]
    assert project["name"] == "infer-compiler" and project["dynamic"] == ["version"]
    assert infer.__version__ == version("infer-compiler")  # as installed, from version.py
    assert re.fullmatch(r"\d+\.\d+\.\d+", infer.__version__)
    done = _run("--version")
    assert (done.returncode, done.stdout) == (0, f"infer {infer.__version__}\n")


def test_usage_and_unknown_command() -> None:
    done = _run()
    assert done.returncode == 0 and done.stdout.startswith(f"infer {infer.__version__}:")
    assert "python -m infer run MODEL.onnx" in done.stdout
    done = _run("build")
    assert done.returncode == 2
    assert done.stderr == ("python -m infer: unknown command 'build' (commands: run, opt, "
                           "compile, quantize, cache)\n")


def _scripts() -> dict[str, str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]["scripts"]


def test_every_installed_command_is_a_python_m_infer_command() -> None:
    from infer.__main__ import TOOLS

    assert {f"infer-{name}": f"{module}:main" for name, module in TOOLS.items()} == _scripts()


@pytest.mark.parametrize("script", sorted(_scripts()))
def test_each_command_runs_by_name(script: str) -> None:
    """`python -m infer NAME --help` is the infer-NAME command's help."""
    done = _run(script.removeprefix("infer-"), "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:") and "--help" in done.stdout


def test_demo_refuses_an_unknown_model_in_one_line() -> None:
    """Before any setup: the name is checked first."""
    done = subprocess.run(["bash", str(ROOT / "scripts" / "demo.sh"), "resnet"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    from infer.model_zoo import LIGHT_MODELS

    assert done.stderr == ("demo.sh: unknown model 'resnet'; the light models are: "
                           + ", ".join(LIGHT_MODELS) + "\n")


@pytest.mark.slow
def test_commands_dispatch(tmp_path: Path) -> None:
    model = make_model([helper.make_node("Relu", ["x"], ["y"])], [("x", TP.FLOAT, [2, 3])],
                       [("y", TP.FLOAT, [2, 3])])
    path = tmp_path / "relu.onnx"
    path.write_bytes(model.SerializeToString())
    done = _run("opt", str(path))
    assert done.returncode == 0 and "graph.relu" in done.stdout
    done = _run("run", str(path))
    assert done.returncode == 0, done.stderr
    assert "y" in done.stdout
    done = _run("compile", str(path))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "relu.infer").read_bytes().startswith(b"\x89INFER")

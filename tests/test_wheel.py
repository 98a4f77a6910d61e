"""The wheel a user installs: built from the files git tracks (as a fresh clone has them),
installed into a new virtual environment with no source tree on its path, it compiles and
runs a model, saves and loads an artifact, and its command-line tools work.

The new environment gets infer only from the wheel; its dependencies (xdsl, llvmlite, onnx,
numpy, ...) are the test environment's, reached through a .pth file, so that installing
downloads nothing (building does: pip's isolated build fetches setuptools). A .pth file's
folders are not site folders, so the editable install of infer in the test environment
stays invisible there."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent

SCRIPT = """
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto as TP, helper

import infer

here = Path.cwd()
assert Path(infer.__file__).is_relative_to(sys.prefix), infer.__file__  # the wheel's copy
assert infer.__version__ == version("infer-compiler"), infer.__version__
graph = helper.make_graph(
    [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
     helper.make_node("Relu", ["c"], ["y"])], "g",
    [helper.make_tensor_value_info("x", TP.FLOAT, [1, 8, 16, 16])],
    [helper.make_tensor_value_info("y", TP.FLOAT, [1, 8, 16, 16])],
    [onnx.numpy_helper.from_array(np.full((8, 8, 3, 3), 0.01, np.float32), "w")])
onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]),
          here / "m.onnx")
x = np.random.default_rng(0).standard_normal((1, 8, 16, 16), dtype=np.float32)
model = infer.compile(str(here / "m.onnx"), cache=False)
y = model.run({"x": x})["y"]
model.save(str(here / "m.infer"))
again = infer.load(str(here / "m.infer")).run({"x": x})["y"]
assert np.array_equal(y, again) and y.shape == (1, 8, 16, 16) and (y >= 0).all()
print("ok", infer.__version__)
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built by pip from a copy of the tracked files."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=False)
    if tracked.returncode != 0:
        pytest.fail(f"git ls-files failed in {ROOT}: {tracked.stderr.decode()}")
    source = tmp_path_factory.mktemp("clone")
    for name in tracked.stdout.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(source),
                           "-w", str(out)], capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr
    (built,) = out.glob("infer_compiler-*.whl")
    return built


@pytest.mark.slow
def test_the_wheel_holds_every_package(wheel: Path) -> None:
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    shipped = {n.rsplit("/", 1)[0] for n in names if n.endswith("/__init__.py")}
    here = {"infer"} | {"infer/" + str(p.parent.relative_to(ROOT))
                        for p in ROOT.glob("*/**/__init__.py")
                        if p.parts[len(ROOT.parts)] not in {"tests", ".venv", "build"}}
    assert shipped == here
    for extension in ("_thread_pool", "_entry_call"):
        assert any(n.startswith(f"infer/codegen/{extension}") and n.endswith(".so")
                   for n in names)
    assert not [n for n in names if n.startswith(("infer/tests/", "infer/setup.py"))]


@pytest.mark.slow
def test_installed_wheel_compiles_runs_and_loads(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                           "-q", "--no-deps", str(wheel)], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True)
    Path(site.stdout.strip(), "test_dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n")
    work = tmp_path / "work"
    work.mkdir()
    clean = {"PATH": f"{env_dir / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path),
             "INFER_CACHE_DIR": ""}
    done = subprocess.run([str(python), "-c", SCRIPT], cwd=work, env=clean,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ")
    done = subprocess.run([str(env_dir / "bin" / "infer-run"), "m.onnx"], cwd=work, env=clean,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "y" in done.stdout

"""The compile cache: a second compile of a model is a load; options, targets and models
that differ are entries of their own; damaged entries are compiled again; writers do not
corrupt each other; the least recently used entries go when the cache is over its cap."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer import api
from infer.runtime import cache as cache_module
from infer.runtime.cache import CompileCache, default_directory, parse_size

from .helpers import make_model

R = np.random.default_rng(2)


def _model(scale: float = 1.0) -> onnx.ModelProto:
    w = numpy_helper.from_array(np.full((8, 64), scale, np.float32), "w")
    return make_model([helper.make_node("MatMul", ["x", "w"], ["y"]),
                       helper.make_node("Relu", ["y"], ["z"])],
                      [("x", TP.FLOAT, ["N", 8])], [("z", TP.FLOAT, ["N", 64])], [w])


FEEDS = {"x": R.standard_normal((3, 8)).astype(np.float32)}


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("INFER_CACHE_DIR", str(directory))
    monkeypatch.delenv("INFER_CACHE_SIZE", raising=False)
    return directory


def _no_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        pytest.fail("compiled, though the cache holds the model")

    monkeypatch.setattr(api, "compile_timed", refuse)


def _entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.infer"))


def test_a_second_compile_is_a_load(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = infer.compile(_model())
    (entry,) = _entries(cache_dir)
    _no_compile(monkeypatch)
    second = infer.compile(_model())
    np.testing.assert_array_equal(second.run(FEEDS)["z"], first.run(FEEDS)["z"])
    # a session, and the model given as a path, are hits too
    path = cache_dir.parent / "m.onnx"
    onnx.save(_model(), path)
    (z,) = infer.InferenceSession(str(path)).run(None, FEEDS)
    np.testing.assert_array_equal(z, first.run(FEEDS)["z"])
    assert _entries(cache_dir) == [entry]


@pytest.mark.slow
def test_other_options_models_and_targets_are_other_entries(cache_dir: Path) -> None:
    infer.compile(_model())
    infer.compile(_model(), opt_level=1)
    infer.compile(_model(2.0))
    infer.compile(_model(), nchwc_block=8 if api._block(None) != 8 else 16)
    assert len(_entries(cache_dir)) == 4


@pytest.mark.slow
def test_an_edited_compiler_is_another_entry(cache_dir: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A working tree edited between two compiles keeps its version: its sources' hash
    keys the entry, so the second compile is not served the first one's code."""
    infer.compile(_model())
    monkeypatch.setattr(cache_module, "compiler_fingerprint", lambda: "edited")
    infer.compile(_model())
    assert len(_entries(cache_dir)) == 2


def test_the_compiler_fingerprint_is_its_sources(tmp_path: Path) -> None:
    (tmp_path / "lowering").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "lowering" / "conv.py").write_text("A = 1\n")
    (tmp_path / "tests" / "test_conv.py").write_text("B = 1\n")
    before = cache_module.sources_fingerprint(tmp_path)
    (tmp_path / "tests" / "test_conv.py").write_text("B = 2\n")  # not the compiler
    assert cache_module.sources_fingerprint(tmp_path) == before
    (tmp_path / "lowering" / "conv.py").write_text("A = 2\n")
    assert cache_module.sources_fingerprint(tmp_path) != before


@pytest.mark.slow
def test_off_switches(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    infer.compile(_model(), cache=False)
    infer.InferenceSession(_model().SerializeToString(), cache=False)
    assert not cache_dir.exists()
    monkeypatch.setenv("INFER_CACHE_DIR", "")
    infer.compile(_model())
    assert not cache_dir.exists()


@pytest.mark.slow
def test_a_damaged_entry_is_compiled_again(cache_dir: Path) -> None:
    expected = infer.compile(_model()).run(FEEDS)["z"]
    (entry,) = _entries(cache_dir)
    good = entry.read_bytes()
    for damaged in (good[:-7], good[:40], b"", good[:200] + bytes([good[200] ^ 1]) + good[201:]):
        entry.write_bytes(damaged)
        np.testing.assert_array_equal(infer.compile(_model()).run(FEEDS)["z"], expected)
        np.testing.assert_array_equal(infer.load(entry).run(FEEDS)["z"], expected)


@pytest.mark.slow
def test_least_recently_used_entries_go_over_the_cap(cache_dir: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    infer.compile(_model(1.0))
    (one,) = _entries(cache_dir)
    size = one.stat().st_size
    monkeypatch.setenv("INFER_CACHE_SIZE", str(int(size * 2.5)))
    infer.compile(_model(2.0))
    os.utime(one, (1, 1))  # the oldest use, but then it is used again:
    infer.compile(_model(1.0))
    (two,) = set(_entries(cache_dir)) - {one}
    infer.compile(_model(3.0))  # three do not fit: the least recently used (2.0) goes
    assert one.exists() and not two.exists() and len(_entries(cache_dir)) == 2


def test_an_unwritable_cache_still_compiles(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("INFER_CACHE_DIR", str(blocker / "cache"))
    assert infer.compile(_model()).run(FEEDS)["z"].shape == (3, 64)


_WORKER = """
import sys, numpy as np, infer
sys.path.insert(0, {root!r})
from tests.test_cache import _model, FEEDS
z = infer.compile(_model()).run(FEEDS)["z"]
np.save(sys.argv[1], z)
"""


@pytest.mark.slow
def test_processes_compiling_the_same_model_at_once(cache_dir: Path, tmp_path: Path) -> None:
    root = str(Path(__file__).parents[1])  # the repository, whose tests/ this is
    script = _WORKER.format(root=root)
    env = {**os.environ, "INFER_CACHE_DIR": str(cache_dir)}
    procs = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path / f"z{i}.npy")],
                              env=env, stderr=subprocess.PIPE, text=True) for i in range(3)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    outs = [np.load(tmp_path / f"z{i}.npy") for i in range(3)]
    for z in outs:
        np.testing.assert_array_equal(z, outs[0])
    (entry,) = _entries(cache_dir)
    assert sorted(p.name for p in cache_dir.iterdir()) == [entry.name]  # no temporary left
    np.testing.assert_array_equal(infer.load(entry).run(FEEDS)["z"], outs[0])


def test_where_the_cache_is(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("INFER_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_directory() == tmp_path / "infer"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_directory() == Path.home() / ".cache" / "infer"
    monkeypatch.setenv("INFER_CACHE_DIR", " ")
    assert default_directory() is None and CompileCache.from_environment() is None


def test_sizes() -> None:
    assert [parse_size(s) for s in ("1048576", "500M", "2G", "1.5k", "3MB")] == [
        1 << 20, 500 << 20, 2 << 30, 1536, 3 << 20]
    for bad in ("lots", "-1G", ""):
        with pytest.raises(ValueError, match="INFER_CACHE_SIZE"):
            parse_size(bad)
    assert cache_module.DEFAULT_SIZE == 2 << 30


def test_compile_to_file_uses_the_cache(cache_dir: Path, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """infer-compile's API reads and fills the entries `compile` does: the file written
    from a hit is the file a compile writes."""
    path = tmp_path / "model.onnx"
    onnx.save(_model(), path)
    infer.compile_to_file(path, tmp_path / "first.infer")
    (entry,) = _entries(cache_dir)
    infer.compile_to_file(path, tmp_path / "uncached.infer", cache=False)
    assert _entries(cache_dir) == [entry]
    _no_compile(monkeypatch)
    infer.compile_to_file(path, tmp_path / "hit.infer")
    infer.compile(path)  # the same entry
    assert (tmp_path / "hit.infer").read_bytes() == (tmp_path / "first.infer").read_bytes()
    np.testing.assert_array_equal(infer.load(tmp_path / "hit.infer").run(FEEDS)["z"],
                                  np.maximum(FEEDS["x"] @ np.ones((8, 64), np.float32), 0))


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "infer", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, **env})


@pytest.mark.slow
def test_infer_compile_no_cache(cache_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    onnx.save(_model(), path)
    env = {"INFER_CACHE_DIR": str(cache_dir)}
    done = _cli("compile", str(path), "--no-cache", env=env)
    assert done.returncode == 0, done.stderr
    assert _entries(cache_dir) == [] and (tmp_path / "model.infer").exists()
    done = _cli("compile", str(path), "-o", str(tmp_path / "again.infer"), env=env)
    assert done.returncode == 0, done.stderr
    assert len(_entries(cache_dir)) == 1


def test_cache_info_and_clear(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INFER_CACHE_SIZE", "300M")
    assert infer.cache_info() == cache_module.CacheInfo(cache_dir, 0, 0, 300 << 20)
    infer.compile(_model())
    infer.compile(_model(2.0))
    info = infer.cache_info()
    assert (info.directory, info.entries, info.limit) == (cache_dir, 2, 300 << 20)
    assert info.size == sum(p.stat().st_size for p in _entries(cache_dir)) > 0
    assert str(info) == (f"compile cache: {cache_dir}: 2 entries, {info.size:,} bytes "
                         f"(limit {300 << 20:,}: INFER_CACHE_SIZE)")
    assert infer.clear_cache() == 2
    assert _entries(cache_dir) == [] and infer.cache_info().entries == 0
    monkeypatch.setenv("INFER_CACHE_DIR", "")
    assert str(infer.cache_info()) == "compile cache: off (INFER_CACHE_DIR is empty)"
    assert infer.clear_cache() == 0


def test_python_m_infer_cache_list_and_clear(cache_dir: Path) -> None:
    infer.compile(_model())
    env = {"INFER_CACHE_DIR": str(cache_dir), "INFER_CACHE_SIZE": "1G"}
    done = _cli("cache", "list", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"compile cache: {cache_dir}: 1 entries, ")
    done = _cli("cache", "clear", env=env)
    assert (done.returncode, done.stdout) == (0, f"removed 1 entries from {cache_dir}\n")
    assert _entries(cache_dir) == []
    done = _cli("cache", "purge", env=env)
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert "invalid choice: 'purge'" in done.stderr


def test_an_artifact_session_imports_no_compiler(tmp_path: Path) -> None:
    """Opening a compiled model takes the runtime only: neither onnx nor xDSL nor LLVM."""
    infer.compile(_model(), cache=False).save(tmp_path / "m.infer")
    code = ("import sys, numpy as np, infer\n"
            f"s = infer.InferenceSession({str(tmp_path / 'm.infer')!r})\n"
            "s.run(None, {'x': np.ones((2, 8), np.float32)})\n"
            "s.get_inputs(), s.get_outputs()\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'onnx', 'xdsl', "
            "'llvmlite'}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr

"""Compiling for another CPU than this one: a portable x86-64 level or a named CPU. The
target decides the instructions LLVM may use and the pipeline's choices read off it (the
NCHWc block, the register tile); code for a CPU with a feature this one lacks is written
to a file, never run here, and refused when loaded here."""

from __future__ import annotations

from pathlib import Path

import llvmlite.binding as llvm
import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer.api import resolve_target
from infer.codegen import emit_assembly
from infer.codegen import jit as jit_module
from infer.codegen.target import Target, host_target, named_target
from infer.context import make_context
from infer.errors import ArtifactError
from infer.frontend.onnx_import import import_model
from infer.pipeline import compile_passes, run_passes

from .helpers import make_model

R = np.random.default_rng(1)


W = R.standard_normal((32, 16, 3, 3)).astype(np.float32)


def _conv_model() -> onnx.ModelProto:
    w = numpy_helper.from_array(W, "w")
    return make_model([helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1]),
                       helper.make_node("Relu", ["y"], ["z"])],
                      [("x", TP.FLOAT, [1, 16, 14, 14])], [("z", TP.FLOAT, [1, 32, 14, 14])],
                      [w])


FEEDS = {"x": R.standard_normal((1, 16, 14, 14)).astype(np.float32)}


def test_levels_turn_on_their_features_and_off_the_rest() -> None:
    v3, v4 = named_target("x86-64-v3"), named_target("x86-64-v4")
    assert {"avx2", "fma", "f16c"} <= v3.enabled() and "avx512f" not in v3.enabled()
    assert "-avx512f" in v3.features.split(",")
    assert {"avx512f", "avx512bw", "avx512vl"} <= v4.enabled()
    assert (v3.nchwc_block(), v3.vector_registers()) == (8, 16)
    assert (v4.nchwc_block(), v4.vector_registers()) == (16, 32)
    # every feature LLVM knows here is named, on or off
    known = set(llvm.get_host_cpu_features())
    assert {f[1:] for f in v3.features.split(",")} == known
    assert named_target("host") == host_target() == resolve_target(None)
    assert Target.from_json(v3.to_json()) == v3


def test_unknown_target_names_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown target CPU 'pentium9': one of host, x86-64"):
        named_target("pentium9")


def _assembly(target: Target) -> str:
    module = import_model(_conv_model())
    run_passes(module, make_context(),
               compile_passes(3, target.nchwc_block(), target.vector_registers()))
    return emit_assembly(module, target)


def test_the_target_bounds_the_instructions() -> None:
    """x86-64-v3 code uses 256-bit registers and no AVX-512 ones; x86-64-v4 code, blocked
    by 16 channels, uses 512-bit ones (whatever this CPU is: it runs neither)."""
    v3 = _assembly(named_target("x86-64-v3"))
    assert "%ymm" in v3 and "%zmm" not in v3
    assert "%zmm" in _assembly(named_target("x86-64-v4"))


@pytest.mark.skipif(named_target("x86-64-v3").missing_on_host() != [],
                    reason="this CPU is below x86-64-v3")
def test_a_level_this_cpu_has_runs_like_the_host_code() -> None:
    ours = infer.compile(_conv_model(), target="x86-64-v3").run(FEEDS)["z"]
    host = infer.compile(_conv_model()).run(FEEDS)["z"]
    np.testing.assert_allclose(ours, host, rtol=1e-5, atol=1e-5)


def _lacking() -> Target:
    """This CPU's target plus an x86 feature it lacks."""
    host = host_target()
    lacks = next(f for f, on in llvm.get_host_cpu_features().items() if not on)
    return Target(host.triple, host.cpu, host.features.replace(f"-{lacks}", f"+{lacks}"))


def test_code_for_a_cpu_this_one_is_not_is_written_never_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = _lacking()
    (missing,) = target.missing_on_host()
    with pytest.raises(ValueError, match=f"has feature '{missing}', which this CPU lacks"):
        infer.compile(_conv_model(), target=target)
    path = tmp_path / "other.infer"
    infer.compile_to_file(_conv_model(), path, target=target)

    def refuse(*args: object) -> None:
        pytest.fail("the code was mapped")

    monkeypatch.setattr(jit_module, "ObjectModule", refuse)
    with pytest.raises(ArtifactError, match=f"with feature '{missing}', which this CPU"):
        infer.load(path)


@pytest.mark.parametrize(("name", "form"), [
    ("x86-64", (False, 4)), ("x86-64-v3", (False, 8)), ("x86-64-v4", (False, 16)),
    ("cascadelake", (True, 16)), ("znver4", (True, 16))])
def test_int8_kernel_form_read_off_the_features(name: str, form: tuple[bool, int]) -> None:
    """qnn-legalize's form: vpdpbusd with AVX512-VNNI, else vpmaddwd at the widest integer
    vectors (SSE2, AVX2, AVX-512BW)."""
    assert named_target(name).int8_kernel() == form


def test_avx_vnni_without_avx512_takes_8_lanes() -> None:
    host = host_target()
    features = "+avx2,+avxvnni,-avx512f,-avx512bw,-avx512vnni"
    assert Target(host.triple, "alderlake", features).int8_kernel() == (True, 8)

"""Compiled models saved to one file and loaded without compiling: the same outputs and
run-time errors as the JIT-compiled model, copies that do not share weights, and every
kind of damage to every part of the file refused before any code is mapped."""

from __future__ import annotations

import gc
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import onnx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer.codegen import jit as jit_module
from infer.codegen.jit import unpack_objects
from infer.errors import ArtifactError, InputError, ShapeError
from infer.runtime import artifact, compiled_model

from .helpers import make_model

R = np.random.default_rng(0)
BIN = Path(sys.executable).parent


def _floats(*shape: int) -> np.ndarray:
    return R.standard_normal(shape).astype(np.float32)


def _conv_model() -> onnx.ModelProto:
    """Conv + bias + Relu, with weights large enough to be bound by symbol."""
    w = numpy_helper.from_array(_floats(16, 3, 3, 3), "w")
    b = numpy_helper.from_array(_floats(16), "b")
    return make_model(
        [helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["y"], ["z"])],
        [("x", TP.FLOAT, [1, 3, 12, 12])], [("z", TP.FLOAT, [1, 16, 12, 12])], [w, b])


def _dynamic_model() -> onnx.ModelProto:
    """(a + b) @ w with run-time batch dims that must broadcast: a run-time check."""
    w = numpy_helper.from_array(_floats(4, 80), "w")
    return make_model(
        [helper.make_node("Add", ["a", "b"], ["s"], name="n"),
         helper.make_node("MatMul", ["s", "w"], ["y"])],
        [("a", TP.FLOAT, ["N", 4]), ("b", TP.FLOAT, ["M", 4])], [("y", TP.FLOAT, [None, 80])],
        [w])


def _sequence_model() -> onnx.ModelProto:
    """A sequence input of any length and shapes, and a sequence output."""
    nodes = [helper.make_node("SequenceLength", ["s"], ["n"]),
             helper.make_node("SequenceInsert", ["s", "x"], ["grown"]),
             helper.make_node("ConcatFromSequence", ["s"], ["joined"], axis=1)]
    graph = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_sequence_value_info("s", TP.FLOAT, [2, None]),
         helper.make_tensor_value_info("x", TP.FLOAT, [2, 2])],
        [helper.make_tensor_value_info("n", TP.INT64, []),
         helper.make_tensor_sequence_value_info("grown", TP.FLOAT, None),
         helper.make_tensor_value_info("joined", TP.FLOAT, [2, None])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


MODELS = {
    "conv": (_conv_model, [{"x": _floats(1, 3, 12, 12)}]),
    "dynamic": (_dynamic_model, [{"a": _floats(3, 4), "b": _floats(1, 4)},
                                 {"a": _floats(5, 4), "b": _floats(5, 4)}]),
    "sequence": (_sequence_model, [{"s": [_floats(2, 3), _floats(2, 1)], "x": _floats(2, 2)},
                                   {"s": [_floats(2, 5)], "x": _floats(2, 2)}]),
}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory
             ) -> dict[str, tuple[infer.CompiledModel, Path]]:
    """Each model compiled once and saved; compile and load times printed."""
    out = {}
    root = tmp_path_factory.mktemp("artifacts")
    for name, (make, _) in MODELS.items():
        t0 = time.perf_counter()
        model = infer.compile(make())
        t1 = time.perf_counter()
        path = root / f"{name}.infer"
        model.save(path)
        t2 = time.perf_counter()
        infer.load(path)
        t3 = time.perf_counter()
        print(f"{name}: compile {t1 - t0:.3f} s, save {t2 - t1:.3f} s, load {t3 - t2:.4f} s")
        out[name] = (model, path)
    return out


def _same(ours: object, theirs: object) -> None:
    """Equal outputs, bit for bit: arrays, lists of arrays, None."""
    if isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs, strict=True):
            _same(a, b)
        return
    assert isinstance(ours, np.ndarray) and isinstance(theirs, np.ndarray)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MODELS))
def test_loaded_model_gives_the_jit_models_outputs(compiled, name: str) -> None:
    jit, path = compiled[name]
    loaded = infer.load(path)
    assert loaded.input_names == jit.input_names
    assert loaded.output_names == jit.output_names
    assert loaded.inputs == jit.inputs and loaded.outputs == jit.outputs
    assert loaded.structured == jit.structured
    assert loaded.structured_inputs == jit.structured_inputs
    for feeds in MODELS[name][1]:
        expected = jit.run(feeds)
        got = loaded.run(feeds)
        assert list(got) == list(expected)
        for k in expected:
            _same(got[k], expected[k])


def test_loaded_model_raises_the_same_run_time_errors(compiled) -> None:
    jit, path = compiled["dynamic"]
    loaded = infer.load(path)
    assert loaded.checks is not None and loaded.checks == jit.checks
    feeds = {"a": _floats(2, 4), "b": _floats(5, 4)}  # 2 and 5 do not broadcast
    with pytest.raises(ShapeError) as expected:
        jit.run(feeds)
    with pytest.raises(ShapeError) as got:
        loaded.run(feeds)
    assert str(got.value) == str(expected.value)
    assert "dims do not broadcast: 2 and 5" in str(got.value)
    with pytest.raises(InputError, match=r"input 'a': expected rank 2"):
        loaded.run({"a": _floats(4), "b": _floats(1, 4)})


def test_copies_bind_their_own_weights(compiled) -> None:
    """Two loaded copies and the JIT-compiled model: each binds its weight symbols under
    a prefix of its own, so changing one copy's weights changes only its outputs."""
    jit, path = compiled["conv"]
    first, second = infer.load(path), infer.load(path)
    prefixes = {m.native.symbol_prefix for m in (jit, first, second)}
    assert len(prefixes) == 3
    feeds = MODELS["conv"][1][0]
    before = jit.run(feeds)["z"]
    weights = first.native.weights()
    assert weights and all(w.ctypes.data % 64 == 0 for w in weights.values())
    for w in weights.values():
        w[...] = 0
    assert not np.array_equal(first.run(feeds)["z"], before)
    _same(second.run(feeds)["z"], before)
    _same(jit.run(feeds)["z"], before)
    del first
    gc.collect()
    _same(second.run(feeds)["z"], before)


def test_a_loaded_model_saves_again(compiled, tmp_path: Path) -> None:
    jit, path = compiled["dynamic"]
    again = tmp_path / "again.infer"
    infer.load(path).save(again)
    feeds = MODELS["dynamic"][1][0]
    _same(infer.load(again).run(feeds)["y"], jit.run(feeds)["y"])


def test_sections_repack_to_the_same_bytes(compiled) -> None:
    """`pack_artifact(read_sections(data)) == data`: the tampering tests below change one
    field and nothing else."""
    data = compiled["conv"][1].read_bytes()
    sections = artifact.read_sections(data)
    assert list(sections) == list(artifact.SECTIONS)
    assert all(obj[:4] == b"\x7fELF" for obj in unpack_objects(sections["object"]))
    assert artifact.pack_artifact(sections) == data


# -- damage: every part of the file, truncated and flipped


def _regions(data: bytes) -> dict[str, tuple[int, int]]:
    """(start, end) of each header field, the manifest, each section and the seal."""
    manifest = artifact.read_manifest(data)
    out = {"header.magic": (0, 8), "header.version": (8, 12), "header.seal_size": (12, 16),
           "header.manifest_size": (16, 24), "header.manifest_sha256": (24, 56),
           "header.seal_sha256": (56, 88), "manifest": (88, manifest[0].offset)}
    out.update({s.name: (s.offset, s.offset + s.size) for s in manifest})
    out["seal"] = (manifest[-1].offset + manifest[-1].size, len(data))
    assert out["header.seal_sha256"][1] == artifact.HEADER_SIZE
    return out


REGIONS = ["header.magic", "header.version", "header.seal_size", "header.manifest_size",
           "header.manifest_sha256", "header.seal_sha256", "manifest", *artifact.SECTIONS,
           "seal"]
# What a flipped byte in each is refused as (a regular expression).
FLIPPED = {"header.magic": r"not an infer artifact \(wrong magic bytes\)",
           # the low byte: an older version; a high one: no version infer writes
           "header.version": rf"artifact format version {artifact.FORMAT_VERSION ^ 1}, this"
                             r"|: corrupted header \(format version field "
                             r"reads \d+, which no infer writes",
           "header.seal_size": r"truncated: the seal ends at byte|1 bytes after the seal",
           "header.manifest_size": r"corrupt manifest \(SHA-256 mismatch\)",
           "header.manifest_sha256": r"corrupt manifest \(SHA-256 mismatch\)",
           "header.seal_sha256": r"corrupt seal \(SHA-256 mismatch\)",
           "manifest": r"corrupt manifest \(SHA-256 mismatch\)",
           "seal": r"corrupt seal \(SHA-256 mismatch\)",
           **{s: f"corrupt section '{s}' \\(SHA-256 mismatch\\)" for s in artifact.SECTIONS}}
# Each kind of file: unsigned (an empty seal: nothing to damage there) and signed.
DAMAGED = [(kind, region) for kind in ("unsigned", "signed") for region in REGIONS
           if (kind, region) != ("unsigned", "seal")]
HMAC_SECRET = b"a shared secret of 32 bytes!!!!!"
ED25519_KEY = Ed25519PrivateKey.generate()
ED25519_PUBLIC = ED25519_KEY.public_key().public_bytes(
    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


@pytest.fixture
def nothing_mapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails the test if an artifact's code is mapped."""
    def refuse(*args: object) -> None:
        pytest.fail("the artifact's code was mapped")

    monkeypatch.setattr(jit_module, "ObjectModule", refuse)


def _refused(data: bytes, path: Path, reason: str) -> None:
    path.write_bytes(data)
    with pytest.raises(ArtifactError) as err:
        infer.load(path)
    message = str(err.value)
    assert message.startswith(f"cannot load '{path}': ")
    assert reason in message or re.search(reason, message), message
    assert "\n" not in message


@pytest.fixture(scope="module")
def files(compiled, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The conv model's artifact unsigned, and signed with an Ed25519 key."""
    jit, path = compiled["conv"]
    signed = tmp_path_factory.mktemp("signed") / "conv.infer"
    jit.save(signed, sign_key=ED25519_KEY)
    return {"unsigned": path, "signed": signed}


@pytest.mark.parametrize("kind", ["unsigned", "signed"])
def test_every_region_is_listed(files, kind: str) -> None:
    regions = _regions(files[kind].read_bytes())
    assert sorted(regions) == sorted(REGIONS)
    assert max(end for _, end in regions.values()) == files[kind].stat().st_size
    assert (regions["seal"][1] > regions["seal"][0]) == (kind == "signed")


@pytest.mark.parametrize("where", ["start", "middle"])
@pytest.mark.parametrize(("kind", "region"), DAMAGED)
def test_truncated_in_each_region_is_refused(files, tmp_path: Path, nothing_mapped,
                                             kind: str, region: str, where: str) -> None:
    data = files[kind].read_bytes()
    start, end = _regions(data)[region]
    assert end > start
    cut = start if where == "start" else (start + end) // 2
    _refused(data[:cut], tmp_path / "cut.infer",
             "truncated" if cut or region != "header.magic" else "truncated: 0 bytes")


@pytest.mark.parametrize("where", ["first", "middle", "last"])
@pytest.mark.parametrize(("kind", "region"), DAMAGED)
def test_a_flipped_byte_in_each_region_is_refused(files, tmp_path: Path, nothing_mapped,
                                                  kind: str, region: str, where: str) -> None:
    data = bytearray(files[kind].read_bytes())
    start, end = _regions(bytes(data))[region]
    at = {"first": start, "middle": (start + end) // 2, "last": end - 1}[where]
    if region == "header.manifest_size":
        at = start  # the low byte: a size a little off, not one past the end of the file
    data[at] ^= 0x01
    _refused(bytes(data), tmp_path / "flipped.infer", FLIPPED[region])
    if kind == "signed":  # and so with the key: the hashes fail before the signature
        with pytest.raises(ArtifactError, match=FLIPPED[region]):
            compiled_model.artifact_from_bytes(bytes(data), verify_key=ED25519_PUBLIC)


@pytest.mark.parametrize("kind", ["unsigned", "signed"])
def test_extra_bytes_at_the_end_are_refused(files, tmp_path: Path, nothing_mapped,
                                            kind: str) -> None:
    data = files[kind].read_bytes()
    _refused(data + b"\0", tmp_path / "long.infer", "1 bytes after the seal")


def test_other_files_are_refused(tmp_path: Path, nothing_mapped) -> None:
    _refused(_conv_model().SerializeToString(), tmp_path / "model.infer", "wrong magic bytes")
    _refused(b"", tmp_path / "empty.infer", "truncated: 0 bytes")
    with pytest.raises(ArtifactError, match=r"^cannot read artifact '.*missing.infer': No such"):
        infer.load(tmp_path / "missing.infer")


def _tampered(data: bytes, section: str, **changes: object) -> bytes:
    """The artifact with fields of a JSON section changed and its hashes made to match, as
    an artifact from another infer or machine would be."""
    sections = artifact.read_sections(data)
    fields = json.loads(sections[section])
    fields.update(changes)
    sections[section] = json.dumps(fields).encode()
    return artifact.pack_artifact(sections)


def test_another_format_version_is_refused(compiled, tmp_path: Path, nothing_mapped) -> None:
    data = bytearray(compiled["conv"][1].read_bytes())
    struct.pack_into("<I", data, 8, artifact.FORMAT_VERSION + 1)
    _refused(bytes(data), tmp_path / "v.infer",
             f"artifact format version {artifact.FORMAT_VERSION + 1}, this infer reads "
             f"version {artifact.FORMAT_VERSION}")


def test_a_damaged_version_field_is_a_corrupted_header(compiled, tmp_path: Path,
                                                       nothing_mapped) -> None:
    data = bytearray(compiled["conv"][1].read_bytes())
    data[10] = 0xFF
    _refused(bytes(data), tmp_path / "v.infer", "corrupted header (format version field reads "
             f"{0xFF0000 + artifact.FORMAT_VERSION}, which no infer writes; this infer reads "
             f"version {artifact.FORMAT_VERSION})")


def test_another_infer_version_is_refused(compiled, tmp_path: Path, nothing_mapped) -> None:
    data = _tampered(compiled["conv"][1].read_bytes(), "meta", infer_version="0.0.1")
    _refused(data, tmp_path / "old.infer",
             f"made by infer 0.0.1, this is infer {infer.__version__}")


def test_a_cpu_without_a_feature_the_code_uses_is_refused(compiled, tmp_path: Path,
                                                          nothing_mapped) -> None:
    data = compiled["conv"][1].read_bytes()
    target = json.loads(artifact.read_sections(data)["target"])
    features = target["features"] + ",+not-on-this-cpu"
    _refused(_tampered(data, "target", cpu="future-cpu", features=features),
             tmp_path / "cpu.infer",
             "compiled for a CPU (future-cpu) with feature 'not-on-this-cpu', which this CPU")
    _refused(_tampered(data, "target", triple="aarch64-unknown-linux-gnu"),
             tmp_path / "arch.infer", "compiled for aarch64-unknown-linux-gnu, this machine is")


def test_another_cpu_name_with_the_same_features_loads(compiled, tmp_path: Path) -> None:
    """The code needs the CPU's features, not its name."""
    jit, path = compiled["conv"]
    other = tmp_path / "renamed.infer"
    other.write_bytes(_tampered(path.read_bytes(), "target", cpu="another-cpu"))
    feeds = MODELS["conv"][1][0]
    _same(infer.load(other).run(feeds)["z"], jit.run(feeds)["z"])


# -- signatures


def _public_pem(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.PEM,
                                         serialization.PublicFormat.SubjectPublicKeyInfo)


def _private_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


@pytest.mark.parametrize("verify", ["public pem", "private pem", "key object"])
def test_a_signed_artifact_loads_with_its_key(files, verify: str) -> None:
    key = {"public pem": ED25519_PUBLIC, "private pem": _private_pem(ED25519_KEY),
           "key object": ED25519_KEY.public_key()}[verify]
    feeds = MODELS["conv"][1][0]
    _same(infer.load(files["signed"], verify_key=key).run(feeds)["z"],
          infer.load(files["signed"]).run(feeds)["z"])


def test_hmac_signed_artifact(compiled, tmp_path: Path, nothing_mapped) -> None:
    jit, _ = compiled["conv"]
    path = tmp_path / "hmac.infer"
    jit.save(path, sign_key=HMAC_SECRET)
    artifact.read_artifact(path.read_bytes(), verify_key=HMAC_SECRET)  # verifies
    _refused_with_key(path.read_bytes(), tmp_path, HMAC_SECRET[:-1] + b"?",
                      "signed with another key")
    _refused_with_key(path.read_bytes(), tmp_path, ED25519_PUBLIC,
                      "signed with hmac-sha256, the verify key is for ed25519")
    with pytest.raises(ValueError, match="an HMAC secret of 8 bytes: at least 16"):
        jit.save(tmp_path / "short.infer", sign_key=b"12345678")
    assert not (tmp_path / "short.infer").exists()


def _refused_with_key(data: bytes, tmp_path: Path, key: object, reason: str) -> None:
    path = tmp_path / "checked.infer"
    path.write_bytes(data)
    with pytest.raises(ArtifactError) as err:
        infer.load(path, verify_key=key)
    assert str(err.value) == f"cannot load '{path}': {reason}"


def test_unsigned_or_otherwise_signed_artifacts_are_refused_with_a_key(
        files, tmp_path: Path, nothing_mapped) -> None:
    signed = files["signed"].read_bytes()
    _refused_with_key(files["unsigned"].read_bytes(), tmp_path, ED25519_PUBLIC,
                      "not signed, and a verify key was given")
    _refused_with_key(signed, tmp_path, _public_pem(Ed25519PrivateKey.generate()),
                      "signed with another key")
    _refused_with_key(signed, tmp_path, HMAC_SECRET,
                      "signed with ed25519, the verify key is for hmac-sha256")


def test_a_section_changed_with_its_hashes_rewritten_fails_the_signature(
        files, tmp_path: Path, nothing_mapped) -> None:
    """What the hashes cannot catch, the key does: every section changed in turn and its
    hashes (manifest, header) made to match, the old seal kept."""
    data = files["signed"].read_bytes()
    seal = data[_regions(data)["seal"][0]:]
    for name in artifact.SECTIONS:
        sections = artifact.read_sections(data)
        sections[name] = sections[name][:-1] + bytes([sections[name][-1] ^ 1])
        forged = artifact.pack_artifact(sections)  # unsigned, hashes right
        header = bytearray(forged[:artifact.HEADER_SIZE])
        struct.pack_into("<I", header, 12, len(seal))
        header[56:88] = hashlib.sha256(seal).digest()
        forged = bytes(header) + forged[artifact.HEADER_SIZE:] + seal
        artifact.read_sections(forged)  # every hash matches: only the key tells
        _refused_with_key(forged, tmp_path, ED25519_PUBLIC, "bad signature")
        _refused_with_key(artifact.pack_artifact(sections), tmp_path, ED25519_PUBLIC,
                          "not signed, and a verify key was given")


def test_bad_keys_are_clear_errors(compiled, tmp_path: Path) -> None:
    jit, _ = compiled["conv"]
    with pytest.raises(ValueError, match="signing needs the Ed25519 private key"):
        jit.save(tmp_path / "x.infer", sign_key=ED25519_PUBLIC)
    with pytest.raises(ValueError, match="unreadable PEM key"):
        jit.save(tmp_path / "x.infer", sign_key=b"-----BEGIN PRIVATE KEY-----\nnonsense\n")
    with pytest.raises(ValueError, match="a key must be PEM or secret bytes"):
        jit.save(tmp_path / "x.infer", sign_key=42)
    assert not list(tmp_path.iterdir())


# -- writing


def test_a_failed_save_leaves_the_old_file(compiled, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    jit, path = compiled["conv"]
    target = tmp_path / "model.infer"
    target.write_bytes(b"old")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space left"):
        jit.save(target)
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.infer"]
    monkeypatch.undo()
    jit.save(target)
    assert target.read_bytes().startswith(artifact.MAGIC)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.infer"]


def test_f16_weights_halve_the_weights_and_compute_in_f32(compiled, tmp_path: Path) -> None:
    jit, path = compiled["conv"]
    half = tmp_path / "half.infer"
    jit.save(half, weights="f16")
    full_sections = artifact.read_sections(path.read_bytes())
    half_sections = artifact.read_sections(half.read_bytes())
    full_index, half_index = (json.loads(x["weight_index"]) for x in (full_sections,
                                                                        half_sections))
    assert sum(e[5] for e in half_index) * 2 == sum(e[5] for e in full_index)
    assert {e[2] for e in half_index} == {"float16"}
    loaded = infer.load(half)
    ours, theirs = loaded.native.weights(), jit.native.weights()
    assert ours.keys() == theirs.keys()
    for name, w in ours.items():  # f32 in memory, holding the f16-rounded values
        assert w.dtype == np.float32
        np.testing.assert_array_equal(w, theirs[name].astype(np.float16).astype(np.float32))
    feeds = MODELS["conv"][1][0]
    z, expected = loaded.run(feeds)["z"], jit.run(feeds)["z"]
    assert np.abs(z - expected).max() <= 1e-3 * np.abs(expected).max()


def test_f16_keeps_a_weight_that_does_not_fit_f16(tmp_path: Path) -> None:
    w = _floats(4, 80) * 1e5  # beyond f16's 65504
    model = make_model([helper.make_node("MatMul", ["x", "w"], ["y"])],
                       [("x", TP.FLOAT, [2, 4])], [("y", TP.FLOAT, [2, 80])],
                       [numpy_helper.from_array(w, "w")])
    path = tmp_path / "big.infer"
    compiled = infer.compile(model)
    compiled.save(path, weights="f16")
    index = json.loads(artifact.read_sections(path.read_bytes())["weight_index"])
    assert [e[1:3] for e in index] == [["float32", "float32"]]
    feeds = {"x": _floats(2, 4)}
    _same(infer.load(path).run(feeds)["y"], compiled.run(feeds)["y"])
    with pytest.raises(ValueError, match="weights must be one of f32, f16, not 'bf16'"):
        compiled.save(tmp_path / "x.infer", weights="bf16")


# -- InferenceSession and the command line


def test_inference_session_loads_an_artifact(compiled) -> None:
    jit, path = compiled["dynamic"]
    feeds = MODELS["dynamic"][1][0]
    for source in (str(path), path, path.read_bytes()):
        sess = infer.InferenceSession(source)
        assert [i.name for i in sess.get_inputs()] == ["a", "b"]
        assert [i.shape for i in sess.get_inputs()] == [["N", 4], ["M", 4]]
        (y,) = sess.run(None, feeds)
        _same(y, jit.run(feeds)["y"])
    with pytest.warns(UserWarning, match="no effect on a compiled artifact"):
        infer.InferenceSession(path, opt_level=1)
    with pytest.raises(ArtifactError, match="corrupt section 'object'"):
        damaged = bytearray(path.read_bytes())
        damaged[-1] ^= 1
        infer.InferenceSession(bytes(damaged))


def _run(tool: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / tool), *args], capture_output=True, text=True,
                          timeout=300)


@pytest.mark.slow
def test_infer_compile_then_infer_run(tmp_path: Path) -> None:
    model = tmp_path / "conv.onnx"
    onnx.save(_conv_model(), model)
    out = tmp_path / "conv.infer"
    r = _run("infer-compile", str(model), "-o", str(out), "--opt-level", "2")
    assert r.returncode == 0, r.stderr
    assert f"wrote {out}" in r.stdout and out.read_bytes().startswith(artifact.MAGIC)

    x = tmp_path / "x.npy"
    np.save(x, MODELS["conv"][1][0]["x"])
    from_onnx = _run("infer-run", str(model), "--input", f"x={x}", "--opt-level", "2")
    from_artifact = _run("infer-run", str(out), "--input", f"x={x}")
    assert from_onnx.returncode == 0 and from_artifact.returncode == 0, from_artifact.stderr
    assert from_artifact.stdout.startswith(f"loaded {out} in ")
    # the same output summary (range and top values) either way
    assert (from_artifact.stdout.split("outputs:")[1]
            == from_onnx.stdout.split("outputs:")[1])


@pytest.mark.slow
def test_command_line_errors_are_one_line(tmp_path: Path, compiled) -> None:
    bad = tmp_path / "bad.infer"
    bad.write_bytes(compiled["conv"][1].read_bytes()[:-10])
    r = _run("infer-run", str(bad))
    assert r.returncode == 1
    assert r.stderr == (f"infer-run: error: cannot load '{bad}': truncated: section 'object' "
                        f"ends at byte {bad.stat().st_size + 10}, the file has "
                        f"{bad.stat().st_size}\n")
    r = _run("infer-run", str(compiled["conv"][1]), "--compare", "onnxruntime")
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert "--compare and --report need the .onnx model" in r.stderr

    not_onnx = tmp_path / "junk.onnx"
    not_onnx.write_bytes(b"\xff" * 10)
    out = tmp_path / "junk.infer"
    r = _run("infer-compile", str(not_onnx), "-o", str(out))
    assert r.returncode == 1 and r.stderr.startswith("infer-compile: error: ")
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == [
        "bad.infer", "junk.onnx"]


@pytest.mark.slow
def test_signed_portable_f16_artifact_from_the_command_line(tmp_path: Path) -> None:
    model = tmp_path / "conv.onnx"
    onnx.save(_conv_model(), model)
    key, public, other = tmp_path / "key.pem", tmp_path / "key.pub.pem", tmp_path / "o.pem"
    key.write_bytes(_private_pem(ED25519_KEY))
    public.write_bytes(ED25519_PUBLIC)
    other.write_bytes(_public_pem(Ed25519PrivateKey.generate()))
    out = tmp_path / "conv.infer"
    r = _run("infer-compile", str(model), "-o", str(out), "--target", "x86-64-v2",
             "--sign-key", str(key), "--weights", "f16")
    assert r.returncode == 0, r.stderr
    assert "for x86-64-v2" in r.stdout and "f16 weights, signed" in r.stdout
    target = json.loads(artifact.read_sections(out.read_bytes())["target"])
    assert target["cpu"] == "x86-64-v2" and "-avx" in target["features"].split(",")
    assert _run("infer-run", str(out), "--verify-key", str(public)).returncode == 0
    r = _run("infer-run", str(out), "--verify-key", str(other))
    assert r.returncode == 1
    assert r.stderr == f"infer-run: error: cannot load '{out}': signed with another key\n"
    r = _run("infer-run", str(model), "--verify-key", str(public))
    assert r.returncode == 1 and "--verify-key checks a compiled artifact" in r.stderr
    r = _run("infer-compile", str(model), "-o", str(tmp_path / "x.infer"), "--target", "p9")
    assert r.returncode == 1 and r.stderr.startswith("infer-compile: error: unknown target CPU")
    r = _run("infer-compile", str(model), "-o", str(tmp_path / "x.infer"), "--sign-key",
             str(tmp_path / "missing.pem"))
    assert r.returncode == 1 and "cannot read key file" in r.stderr
    assert not (tmp_path / "x.infer").exists()

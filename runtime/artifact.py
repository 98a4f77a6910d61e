"""A compiled model in one file (`.infer`), loaded again without compiling.

Layout, every byte covered by a check (no padding):

    header    magic, format version (u32), reserved u32 (0), manifest length (u64),
              SHA-256 of the manifest                                    56 bytes
    manifest  JSON: [[name, offset, size, sha256], ...], one per section
    sections  back to back in manifest order, the last ending at the end of the file:
      meta          JSON: infer version, the weight symbols' prefix
      target        JSON: triple, CPU name and LLVM features string the code is for
      signature     JSON: inputs, outputs, sequences and optionals, run-time check
                    messages, and how each entry passes its arguments
      weight_index  JSON: [[name, dtype, shape, offset, size], ...] into `weights`
      weights       the weight arrays' bytes, one after another
      object        the native code: an object file for the target, which refers to
                    each weight by symbol (codegen/object_code.py)

`load_artifact` refuses a file that is truncated, altered, of another format or infer
version, or for a CPU without a feature the code uses, before any of it is mapped. The
hashes catch accidents, not attackers: anyone who can write the file can also rewrite
the hashes, and an artifact is native code, so load only the ones you trust.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import struct
from dataclasses import dataclass
from math import prod
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from infer.errors import ArtifactError
from infer.runtime.checks import EntryChecks
from infer.runtime.compiled_model import CompiledModel
from infer.runtime.signature import TensorSpec, dtype_from_name
from infer.runtime.structured import StructuredValue

if TYPE_CHECKING:
    from infer.codegen.object_code import ObjectCode

MAGIC = b"\x89INFER\r\n"  # as PNG's: a non-ASCII byte, and CR LF that text transfers mangle
FORMAT_VERSION = 1
SUFFIX = ".infer"
_HEADER = struct.Struct("<8sIIQ32s")
HEADER_SIZE = _HEADER.size
SECTIONS = ("meta", "target", "signature", "weight_index", "weights", "object")


def infer_version() -> str:
    from infer import __version__

    return __version__


@dataclass(frozen=True)
class Section:
    name: str
    offset: int
    size: int
    sha256: str


def is_artifact(path: str | os.PathLike | bytes) -> bool:
    """Whether `path` names an artifact (by its suffix, or else by its first bytes), or
    holds one's bytes."""
    if isinstance(path, bytes):
        return path.startswith(MAGIC)
    if str(path).endswith(SUFFIX):
        return True
    try:
        with open(path, "rb") as f:
            return f.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


# -- writing


def _json(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":"), sort_keys=True).encode()


def _sections(model: CompiledModel) -> dict[str, bytes]:
    from infer.codegen.object_code import object_code
    from infer.codegen.target import host_cpu_features, host_cpu_name, host_triple

    code = object_code(model.native)
    index, blobs, at = [], [], 0
    for name, data in code.weights.items():
        blob = np.ascontiguousarray(data).tobytes()
        index.append([name, data.dtype.name, list(data.shape), at, len(blob)])
        blobs.append(blob)
        at += len(blob)
    signature = {
        "entry": model.entry_name,
        "inputs": [s.to_json() for s in model.inputs],
        "outputs": [s.to_json() for s in model.outputs],
        "structured": [q.to_json() for q in model.structured],
        "structured_inputs": [q.to_json() for q in model.structured_inputs],
        "checks": None if model.checks is None else model.checks.to_json(),
        "entries": {name: [[a.to_json() for a in ins], [a.to_json() for a in outs]]
                    for name, (ins, outs) in code.signatures.items()},
    }
    return {
        "meta": _json({"infer_version": infer_version(), "symbol_prefix": code.symbol_prefix}),
        "target": _json({"triple": host_triple(), "cpu": host_cpu_name(),
                         "features": host_cpu_features()}),
        "signature": _json(signature),
        "weight_index": _json(index),
        "weights": b"".join(blobs),
        "object": code.obj,
    }


def pack_artifact(sections: dict[str, bytes]) -> bytes:
    """The file's bytes: header, manifest, then `sections` in their order."""
    manifest_entries = []
    at = 0
    for name, data in sections.items():
        manifest_entries.append([name, at, len(data), hashlib.sha256(data).hexdigest()])
        at += len(data)
    # Offsets are from the end of the manifest until its length is known.
    manifest = _json(manifest_entries)
    base = HEADER_SIZE + len(manifest)
    while True:  # the offsets' digits count towards the manifest's length
        shifted = _json([[n, o + base, s, h] for n, o, s, h in manifest_entries])
        if HEADER_SIZE + len(shifted) == base:
            break
        base = HEADER_SIZE + len(shifted)
    header = _HEADER.pack(MAGIC, FORMAT_VERSION, 0, len(shifted),
                          hashlib.sha256(shifted).digest())
    return b"".join([header, shifted, *sections.values()])


def save_artifact(model: CompiledModel, path: str | os.PathLike) -> None:
    """Writes `model` to `path` atomically: to a temporary file in the same directory,
    then renamed over `path`, so a reader never sees half a file."""
    data = pack_artifact(_sections(model))
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        # O_EXCL: never another's file; mode 0o666 less the umask, as open() would make it
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# -- reading


def read_manifest(data: bytes) -> list[Section]:
    """The sections an artifact's bytes list, after checking the header and the manifest's
    hash (not the sections'); ValueError with the reason when one fails."""
    if len(data) < HEADER_SIZE:
        if data[:len(MAGIC)] != MAGIC[:len(data)]:
            raise ValueError("not an infer artifact (wrong magic bytes)")
        raise ValueError(f"truncated: {len(data)} bytes, shorter than the {HEADER_SIZE}-byte "
                         "header")
    magic, version, reserved, manifest_size, manifest_hash = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError("not an infer artifact (wrong magic bytes)")
    if version != FORMAT_VERSION:
        raise ValueError(f"artifact format version {version}, this infer reads version "
                         f"{FORMAT_VERSION}: compile the model again")
    if reserved != 0:
        raise ValueError("corrupt header (reserved field is not zero)")
    end = HEADER_SIZE + manifest_size
    if end > len(data):
        raise ValueError(f"truncated: the manifest ends at byte {end}, the file has "
                         f"{len(data)}")
    manifest = data[HEADER_SIZE:end]
    if hashlib.sha256(manifest).digest() != manifest_hash:
        raise ValueError("corrupt manifest (SHA-256 mismatch)")
    try:
        sections = [Section(str(n), int(o), int(s), str(h)) for n, o, s, h in json.loads(manifest)]
    except (ValueError, TypeError) as e:
        raise ValueError(f"malformed manifest: {e}") from None
    if [s.name for s in sections] != list(SECTIONS):
        raise ValueError(f"sections {[s.name for s in sections]}, expected {list(SECTIONS)}")
    for s in sections:
        if s.offset != end:
            raise ValueError(f"section '{s.name}' starts at byte {s.offset}, not {end}")
        end = s.offset + s.size
    return sections


def read_sections(data: bytes) -> dict[str, bytes]:
    """The sections of an artifact's bytes, after checking the header, the manifest and
    every section's size and hash; ValueError with the reason when one fails."""
    out = {}
    for s in read_manifest(data):
        end = s.offset + s.size
        if end > len(data):
            raise ValueError(f"truncated: section '{s.name}' ends at byte {end}, the file "
                             f"has {len(data)}")
        body = data[s.offset:end]
        if hashlib.sha256(body).hexdigest() != s.sha256:
            raise ValueError(f"corrupt section '{s.name}' (SHA-256 mismatch)")
        out[s.name] = body
    if end != len(data):
        raise ValueError(f"{len(data) - end} bytes after the last section")
    return out


def _check_compatible(meta: dict[str, object], target: dict[str, object]) -> None:
    from infer.codegen.target import host_cpu_name, host_triple, missing_features

    if meta["infer_version"] != infer_version():
        raise ValueError(f"made by infer {meta['infer_version']}, this is infer "
                         f"{infer_version()}: compile the model again")
    if target["triple"] != host_triple():
        raise ValueError(f"compiled for {target['triple']}, this machine is {host_triple()}")
    features = target["features"]
    assert isinstance(features, str)
    missing = missing_features(features)
    if missing:
        raise ValueError(f"compiled for a CPU ({target['cpu']}) with feature "
                         f"'{missing[0]}', which this CPU ({host_cpu_name()}) lacks"
                         + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))


def _weights(index: list[list[object]], blob: bytes) -> dict[str, np.ndarray]:
    weights = {}
    for name, dtype_name, shape, offset, size in index:
        dtype = dtype_from_name(dtype_name)
        assert isinstance(shape, list) and isinstance(offset, int) and isinstance(size, int)
        if size != prod(shape) * dtype.itemsize or offset < 0 or offset + size > len(blob):
            raise ValueError(f"weight '{name}' does not fit its shape or the weights section")
        weights[str(name)] = np.frombuffer(blob, dtype, prod(shape), offset).reshape(shape)
    return weights


def load_artifact(path: str | os.PathLike) -> CompiledModel:
    """The compiled model saved at `path`, its code mapped without compiling; ArtifactError
    naming the file and the reason if it cannot be (nothing of it mapped then)."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise ArtifactError(f"cannot read artifact '{path}': {e.strerror or e}") from None
    return artifact_from_bytes(data, f"'{path}'")


def artifact_from_bytes(data: bytes, where: str = "the artifact") -> CompiledModel:
    """`load_artifact` of a file's bytes; `where` names them in errors."""
    try:
        sections = read_sections(data)
        meta, target, sig, index = (json.loads(sections[n]) for n in
                                    ("meta", "target", "signature", "weight_index"))
        _check_compatible(meta, target)
        code = _object_code(meta, sig, _weights(index, sections["weights"]),
                            sections["object"])
        checks = None if sig["checks"] is None else EntryChecks.from_json(sig["checks"])
        inputs = [TensorSpec.from_json(d) for d in sig["inputs"]]
        outputs = [TensorSpec.from_json(d) for d in sig["outputs"]]
        structured = [StructuredValue.from_json(d) for d in sig["structured"]]
        structured_inputs = [StructuredValue.from_json(d) for d in sig["structured_inputs"]]
        entry = str(sig["entry"])
        if entry not in code.signatures:
            raise ValueError(f"no entry '{entry}' in the code")
    except (ValueError, TypeError, KeyError, AssertionError) as e:
        reason = str(e) if isinstance(e, ValueError) else f"malformed artifact ({e!r})"
        raise ArtifactError(f"cannot load {where}: {reason}") from None
    # Only now, every check passed, is the code mapped.
    from infer.codegen.object_code import ObjectModule

    return CompiledModel(inputs, outputs, ObjectModule(code), checks, structured,
                         structured_inputs, entry)


def _object_code(meta: dict, sig: dict, weights: dict[str, np.ndarray], obj: bytes
                 ) -> ObjectCode:
    from infer.codegen.jit import SYMBOL_PREFIX, ArgSpec
    from infer.codegen.object_code import ObjectCode

    if not SYMBOL_PREFIX.fullmatch(str(meta["symbol_prefix"])):
        raise ValueError(f"malformed weight symbol prefix {meta['symbol_prefix']!r}")
    signatures = {name: ([ArgSpec.from_json(a) for a in ins],
                         [ArgSpec.from_json(a) for a in outs])
                  for name, (ins, outs) in sig["entries"].items()}
    return ObjectCode(obj, str(meta["symbol_prefix"]), weights, signatures)

"""A compiled model in one file (`.infer`), loaded again without compiling.

Layout, every byte covered by a check (no padding):

    header    magic, format version (u32), seal length (u32), manifest length (u64),
              SHA-256 of the manifest, SHA-256 of the seal                88 bytes
    manifest  JSON: [[name, offset, size, sha256], ...], one per section
    sections  back to back in manifest order:
      meta          JSON: infer version, the weight symbols' prefix
      target        JSON: triple, CPU name and LLVM features string the code is for
      signature     JSON: inputs, outputs, sequences and optionals, run-time check
                    messages, the memory plan (arena size), and how each entry passes
                    its arguments
      weight_index  JSON: [[name, dtype, stored dtype, shape, offset, size], ...] into
                    `weights` (stored as f16 when saved with weights="f16")
      weights       the weight arrays' bytes, one after another
      object        the native code: an object file for the target, which refers to
                    each weight by symbol (codegen/jit.py)
    seal      empty, or a signature of the manifest (runtime/signing.py), ending the file

`load` refuses a file that is truncated, altered, of another format or infer
version, or for a CPU without a feature the code uses, before any of it is mapped; given
a verify key, also one that is unsigned or not signed by that key. Without a key the
hashes catch accidents, not attackers: anyone who can write the file can also rewrite the
hashes, and an artifact is native code.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import secrets
import struct
from dataclasses import dataclass
from math import prod
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from infer.abi import WEIGHT_STORAGE, fits_f16
from infer.errors import ArtifactError
from infer.runtime.arena import MemoryPlan
from infer.runtime.checks import EntryChecks
from infer.runtime.compiled_code import CompiledCode
from infer.runtime.signature import TensorSpec, dtype_from_name
from infer.runtime.signing import KeyLike, check_seal, seal
from infer.runtime.structured import StructuredValue
from infer.version import __version__

if TYPE_CHECKING:
    from infer.codegen.jit import ObjectCode

MAGIC = b"\x89INFER\r\n"  # as PNG's: a non-ASCII byte, and CR LF that text transfers mangle
# 3: the memory plan in the signature; 4: the object section holds several object files
# (pack_objects); 5: parallel loops call infer's thread pool (infer_parallel_for), not
# libgomp
FORMAT_VERSION = 5
# Versions count up by one: a version field past this (a high byte set) is damage, not a
# newer infer's file.
_MAX_FORMAT_VERSION = 0xFFFF
SUFFIX = ".infer"
_HEADER = struct.Struct("<8sIIQ32s32s")
HEADER_SIZE = _HEADER.size
SECTIONS = ("meta", "target", "signature", "weight_index", "weights", "object")
ALIGNMENT = 64  # of each weight in the file, as the code's wide loads want it (codegen/jit.py)


def infer_version() -> str:
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


def _stored(data: np.ndarray, weights: str) -> np.ndarray:
    """A weight as it is stored: f32 as f16 when asked and every finite value fits."""
    if weights == "f16" and data.dtype == np.float32 and data.size and fits_f16(data):
        return data.astype(np.float16)
    return data


def _sections(compiled: CompiledCode, weights: str) -> dict[str, bytes]:
    code = compiled.code
    index, blobs, at = [], [], 0
    for name, data in code.weights.items():
        stored = _stored(data, weights)
        blob = np.ascontiguousarray(stored).tobytes()
        index.append([name, data.dtype.name, stored.dtype.name, list(data.shape), at,
                      len(blob)])
        pad = -len(blob) % ALIGNMENT  # the next weight on a 64-byte boundary too
        blobs.append(blob + bytes(pad))
        at += len(blob) + pad
    signature = {
        "entry": compiled.entry,
        "inputs": [s.to_json() for s in compiled.inputs],
        "outputs": [s.to_json() for s in compiled.outputs],
        "structured": [q.to_json() for q in compiled.structured],
        "structured_inputs": [q.to_json() for q in compiled.structured_inputs],
        "checks": None if compiled.checks is None else compiled.checks.to_json(),
        # the arena the entry takes (its size is not in the code's signature)
        "memory_plan": None if compiled.memory_plan is None else compiled.memory_plan.to_json(),
        "entries": {name: [[a.to_json() for a in ins], [a.to_json() for a in outs]]
                    for name, (ins, outs) in code.signatures.items()},
    }
    return {
        "meta": _json({"infer_version": infer_version(), "symbol_prefix": code.symbol_prefix}),
        "target": _json(code.target.to_json()),
        "signature": _json(signature),
        "weight_index": _json(index),
        "weights": b"".join(blobs),
        "object": code.obj,
    }


def _sealed_message(manifest_sha256: bytes) -> bytes:
    """What a seal signs: the format and the manifest, which holds every section's hash."""
    return MAGIC + struct.pack("<I", FORMAT_VERSION) + manifest_sha256


def _layout(sections: dict[str, bytes]) -> bytes:
    """The manifest of `sections` laid out after the header."""
    entries, at = [], 0
    for name, data in sections.items():
        entries.append([name, at, len(data), hashlib.sha256(data).hexdigest()])
        at += len(data)
    # Offsets are from the end of the manifest until its length is known.
    base = HEADER_SIZE + len(_json(entries))
    while True:  # the offsets' digits count towards the manifest's length
        shifted = _json([[n, o + base, s, h] for n, o, s, h in entries])
        if HEADER_SIZE + len(shifted) == base:
            return shifted
        base = HEADER_SIZE + len(shifted)


def _aligned(sections: dict[str, bytes]) -> tuple[dict[str, bytes], bytes]:
    """`sections` with the weights section starting on a 64-byte boundary of the file, so
    that a mapped file's weights are read in place: weight_index, the JSON before it, gets
    trailing spaces (the least number that does it); and their manifest."""
    sections = dict(sections)
    while True:
        manifest = _layout(sections)
        start = next(o for n, o, _, _ in json.loads(manifest) if n == "weights")
        if start % ALIGNMENT == 0:
            return sections, manifest
        sections["weight_index"] += b" " * (-start % ALIGNMENT)


def pack_artifact(sections: dict[str, bytes], sign_key: KeyLike | None = None) -> bytes:
    """The file's bytes: header, manifest, `sections` in their order (the weights aligned),
    and the seal made with `sign_key` (none without)."""
    sections, manifest = _aligned(sections)
    manifest_sha256 = hashlib.sha256(manifest).digest()
    sealed = b"" if sign_key is None else seal(_sealed_message(manifest_sha256), sign_key)
    header = _HEADER.pack(MAGIC, FORMAT_VERSION, len(sealed), len(manifest), manifest_sha256,
                          hashlib.sha256(sealed).digest())
    return b"".join([header, manifest, *sections.values(), sealed])


def artifact_bytes(compiled: CompiledCode, sign_key: KeyLike | None = None,
                   weights: str = "f32") -> bytes:
    """The artifact of `compiled`: signed with `sign_key` when given (runtime/signing.py),
    its f32 weights stored as f16 when `weights` is "f16" (each one whose finite values
    all fit; loading widens them back, the code computes in f32)."""
    if weights not in WEIGHT_STORAGE:
        raise ValueError(f"weights must be one of {', '.join(WEIGHT_STORAGE)}, not '{weights}'")
    return pack_artifact(_sections(compiled, weights), sign_key)


def write_atomically(data: bytes, path: str | os.PathLike) -> None:
    """Writes `data` to `path` through a temporary file in the same directory renamed over
    it, so a reader never sees half a file and a failed write leaves the old one."""
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


def save_artifact(compiled: CompiledCode, path: str | os.PathLike,
                  sign_key: KeyLike | None = None, weights: str = "f32") -> None:
    """Writes the artifact of `compiled` (see `artifact_bytes`) to `path` atomically."""
    write_atomically(artifact_bytes(compiled, sign_key, weights), path)


# -- reading


def _header(data: bytes) -> tuple[int, int, bytes, bytes]:
    """The seal's and manifest's sizes and hashes, after checking the header."""
    if len(data) < HEADER_SIZE:
        if data[:len(MAGIC)] != MAGIC[:len(data)]:
            raise ValueError("not an infer artifact (wrong magic bytes)")
        raise ValueError(f"truncated: {len(data)} bytes, shorter than the {HEADER_SIZE}-byte "
                         "header")
    magic, version, seal_size, manifest_size, manifest_hash, seal_hash = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError("not an infer artifact (wrong magic bytes)")
    if not 0 < version <= _MAX_FORMAT_VERSION:
        raise ValueError(f"corrupted header (format version field reads {version}, which no "
                         f"infer writes; this infer reads version {FORMAT_VERSION})")
    if version != FORMAT_VERSION:
        raise ValueError(f"artifact format version {version}, this infer reads version "
                         f"{FORMAT_VERSION}: compile the model again")
    return seal_size, manifest_size, manifest_hash, seal_hash


def read_manifest(data: bytes) -> list[Section]:
    """The sections an artifact's bytes list, after checking the header and the manifest's
    hash (not the sections'); ValueError with the reason when one fails."""
    _, manifest_size, manifest_hash, _ = _header(data)
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


def read_sections(data: bytes, verify_key: KeyLike | None = None) -> dict[str, bytes]:
    """The sections of an artifact's bytes, after checking the header, the manifest, every
    section's size and hash and the seal's hash, and with `verify_key` the seal itself;
    ValueError with the reason when one fails."""
    return {name: bytes(view) for name, view in _section_views(data, verify_key).items()}


def _section_views(data: bytes, verify_key: KeyLike | None) -> dict[str, memoryview]:
    """`read_sections` as views of `data`: the weights are not copied."""
    seal_size, _, manifest_hash, seal_hash = _header(data)
    whole = memoryview(data)
    out = {}
    for s in read_manifest(data):
        end = s.offset + s.size
        if end > len(data):
            raise ValueError(f"truncated: section '{s.name}' ends at byte {end}, the file "
                             f"has {len(data)}")
        body = whole[s.offset:end]
        if hashlib.sha256(body).hexdigest() != s.sha256:
            raise ValueError(f"corrupt section '{s.name}' (SHA-256 mismatch)")
        out[s.name] = body
    if end + seal_size > len(data):
        raise ValueError(f"truncated: the seal ends at byte {end + seal_size}, the file has "
                         f"{len(data)}")
    if end + seal_size != len(data):
        raise ValueError(f"{len(data) - end - seal_size} bytes after the seal")
    sealed = data[end:]
    if hashlib.sha256(sealed).digest() != seal_hash:
        raise ValueError("corrupt seal (SHA-256 mismatch)")
    if verify_key is not None:
        check_seal(sealed, _sealed_message(manifest_hash), verify_key)
    return out


def _check_compatible(meta: dict[str, object], target: dict[str, object]) -> None:
    from infer.codegen.target import Target, host_target

    if meta["infer_version"] != infer_version():
        raise ValueError(f"made by infer {meta['infer_version']}, this is infer "
                         f"{infer_version()}: compile the model again")
    # LLVM (host_target) is asked only when /proc/cpuinfo cannot tell (codegen/target.py)
    code_target = Target.from_json(target)
    if not code_target.runs_on_host_triple():
        raise ValueError(f"compiled for {code_target.triple}, this machine is "
                         f"{host_target().triple}")
    missing = code_target.missing_on_host()
    if missing:
        raise ValueError(f"compiled for a CPU ({code_target.cpu}) with feature "
                         f"'{missing[0]}', which this CPU ({host_target().cpu}) lacks"
                         + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))


def _weights(index: list[list[object]], blob: memoryview) -> dict[str, np.ndarray]:
    weights = {}
    for name, dtype_name, stored_name, shape, offset, size in index:
        dtype, stored = dtype_from_name(dtype_name), dtype_from_name(stored_name)
        assert isinstance(shape, list) and isinstance(offset, int) and isinstance(size, int)
        if stored != dtype and (dtype, stored) != (np.float32, np.float16):
            raise ValueError(f"weight '{name}' of {dtype} stored as {stored}")
        if size != prod(shape) * stored.itemsize or offset < 0 or offset + size > len(blob):
            raise ValueError(f"weight '{name}' does not fit its shape or the weights section")
        array = np.frombuffer(blob, stored, prod(shape), offset).reshape(shape)
        weights[str(name)] = array.astype(dtype, copy=False)
    return weights


def map_file(path: str | os.PathLike) -> bytes | mmap.mmap:
    """The file's bytes, mapped copy-on-write (its weights then used in place, never
    written back); an empty file, which cannot be mapped, read."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return b""
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)


def read_artifact(data: bytes, where: str = "the artifact",
                  verify_key: KeyLike | None = None) -> CompiledCode:
    """The compiled code an artifact's bytes hold, every check passed, not mapped."""
    try:
        sections = _section_views(data, verify_key)
        meta, target, sig, index = (json.loads(bytes(sections[n])) for n in
                                    ("meta", "target", "signature", "weight_index"))
        _check_compatible(meta, target)
        code = _object_code(meta, target, sig, _weights(index, sections["weights"]),
                            bytes(sections["object"]))
        checks = None if sig["checks"] is None else EntryChecks.from_json(sig["checks"])
        entry = str(sig["entry"])
        if entry not in code.signatures:
            raise ValueError(f"no entry '{entry}' in the code")
        return CompiledCode(
            [TensorSpec.from_json(d) for d in sig["inputs"]],
            [TensorSpec.from_json(d) for d in sig["outputs"]], code, checks,
            [StructuredValue.from_json(d) for d in sig["structured"]],
            [StructuredValue.from_json(d) for d in sig["structured_inputs"]], entry,
            None if sig["memory_plan"] is None else MemoryPlan.from_json(sig["memory_plan"]))
    except (ValueError, TypeError, KeyError, AssertionError) as e:
        reason = str(e) if isinstance(e, ValueError) else f"malformed artifact ({e!r})"
        raise ArtifactError(f"cannot load {where}: {reason}") from None


def _object_code(meta: dict, target: dict, sig: dict, weights: dict[str, np.ndarray],
                 obj: bytes) -> ObjectCode:
    from infer.codegen.jit import SYMBOL_PREFIX, ArgSpec, ObjectCode, unpack_objects
    from infer.codegen.target import Target

    if not SYMBOL_PREFIX.fullmatch(str(meta["symbol_prefix"])):
        raise ValueError(f"malformed weight symbol prefix {meta['symbol_prefix']!r}")
    unpack_objects(obj)  # its framing checked before anything is mapped
    signatures = {name: ([ArgSpec.from_json(a) for a in ins],
                         [ArgSpec.from_json(a) for a in outs])
                  for name, (ins, outs) in sig["entries"].items()}
    return ObjectCode(obj, str(meta["symbol_prefix"]), weights, signatures,
                      Target.from_json(target))

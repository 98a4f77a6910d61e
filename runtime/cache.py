"""The compile cache: artifacts of compiled models, one file per model and options, so that
compiling a model a process compiled before is a load of milliseconds.

Where: `$INFER_CACHE_DIR`, else `$XDG_CACHE_HOME/infer`, else `~/.cache/infer`; an empty
`INFER_CACHE_DIR` turns the cache off. Each entry is `<key>.infer`, the key a SHA-256 of
the model's bytes, the compile options, the target (triple, CPU, features), the infer
and artifact format versions and a hash of the compiler's own source files (a working
tree edited between two compiles has the same version), so a change to any of them is a
miss, never a stale hit.

Writes are atomic (a temporary file renamed over the entry), so processes compiling the
same model at once each write a whole file and the last rename wins; an entry that fails
to load (damaged, or for another infer) is removed and compiled again. Entries are used
least-recently first evicted once the directory holds more than `$INFER_CACHE_SIZE`
(bytes, or with a K/M/G suffix; 2G by default): a hit touches its file's mtime.
`cache_info()` says where it is and what it holds, `clear_cache()` empties it
(`python -m infer cache list|clear`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import mmap
import os
import time
from dataclasses import dataclass
from pathlib import Path

from infer.errors import ArtifactError
from infer.runtime.artifact import (
    FORMAT_VERSION,
    SUFFIX,
    infer_version,
    map_file,
    read_artifact,
)
from infer.runtime.artifact import save_artifact as _save
from infer.runtime.compiled_code import CompiledCode

DEFAULT_SIZE = 2 << 30
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
STALE_TEMP_SECONDS = 3600.0  # a temporary file this old was left by a writer that died


def parse_size(text: str) -> int:
    """Bytes of a size such as `500M`, `2G` or `1048576`; ValueError if malformed."""
    value = text.strip().upper().removesuffix("B")
    unit = value[-1:] if value[-1:] in _UNITS else ""
    try:
        n = float(value[: len(value) - len(unit)])
    except ValueError:
        raise ValueError(f"INFER_CACHE_SIZE '{text}' is not a size (e.g. 500M, 2G)") from None
    if n < 0:
        raise ValueError(f"INFER_CACHE_SIZE '{text}' is negative")
    return int(n * _UNITS[unit])


def default_directory() -> Path | None:
    """The cache's directory from the environment, None when it is turned off."""
    configured = os.environ.get("INFER_CACHE_DIR")
    if configured is not None:
        return Path(configured) if configured.strip() else None
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if xdg else Path.home() / ".cache") / "infer"


# Not the compiler: left out of its fingerprint (and not walked: .venv is large).
_NOT_COMPILER = {"tests", "benchmarks", "examples", "scripts", "docs", "filecheck_tests"}


@functools.cache
def compiler_fingerprint() -> str:
    """A SHA-256 of the package's Python sources (read once per process)."""
    return sources_fingerprint(Path(__file__).resolve().parent.parent)


def sources_fingerprint(root: Path) -> str:
    """A SHA-256 of the .py files under `root`, but those of tests, benchmarks and the
    like."""
    files = []
    for directory, subdirs, names in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith((".", "_"))
                            and not (Path(directory) == root and d in _NOT_COMPILER))
        files += [Path(directory, n) for n in names if n.endswith(".py")]
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def cache_key(model: bytes | mmap.mmap, options: dict[str, object]) -> str:
    """The entry name of `model`'s serialized bytes compiled with `options` (which include
    the target)."""
    h = hashlib.sha256()
    h.update(json.dumps({"infer": infer_version(), "format": FORMAT_VERSION,
                         "compiler": compiler_fingerprint(), "options": options},
                        sort_keys=True).encode())
    h.update(model)
    return h.hexdigest()


class CompileCache:
    """Compiled models by key in `directory`, at most `size` bytes of them."""

    def __init__(self, directory: Path, size: int = DEFAULT_SIZE) -> None:
        self.directory = directory
        self.size = size

    @staticmethod
    def from_environment() -> CompileCache | None:
        directory = default_directory()
        if directory is None:
            return None
        size = os.environ.get("INFER_CACHE_SIZE")
        return CompileCache(directory, DEFAULT_SIZE if size is None else parse_size(size))

    def path(self, key: str) -> Path:
        return self.directory / f"{key}{SUFFIX}"

    def get(self, key: str) -> CompiledCode | None:
        """The entry of `key`, or None on a miss; a damaged entry is removed (a miss)."""
        path = self.path(key)
        try:
            data = map_file(path)
        except OSError:
            return None
        try:
            compiled = read_artifact(data, f"'{path}'")
        except ArtifactError:
            path.unlink(missing_ok=True)
            return None
        with contextlib.suppress(OSError):  # most recently used; gone already is fine
            os.utime(path)
        return compiled

    def put(self, key: str, compiled: CompiledCode) -> None:
        """Stores `compiled` under `key`, then evicts down to the size cap. A cache that
        cannot be written (read-only, disk full) is skipped: the compile still succeeded."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            _save(compiled, self.path(key))
        except OSError:
            return
        self.evict()

    def entries(self) -> list[tuple[float, int, Path]]:
        """(last use, size, path) of each entry, least recently used first."""
        out = []
        for p in self.directory.glob(f"*{SUFFIX}"):
            with contextlib.suppress(OSError):  # removed by another process meanwhile
                st = p.stat()
                out.append((st.st_mtime, st.st_size, p))
        return sorted(out)

    def evict(self) -> None:
        """Removes least recently used entries until the rest fit the cap, and temporary
        files of writers that died."""
        now = time.time()
        for p in self.directory.glob(f".*{SUFFIX}.*.tmp"):
            with contextlib.suppress(OSError):
                if now - p.stat().st_mtime > STALE_TEMP_SECONDS:
                    p.unlink()
        entries = self.entries()
        total = sum(size for _, size, _ in entries)
        for _, size, p in entries:
            if total <= self.size:
                break
            with contextlib.suppress(OSError):
                p.unlink()
            total -= size


@dataclass(frozen=True)
class CacheInfo:
    """The compile cache as the environment sets it: `directory` None when it is turned
    off; its entries' count and bytes, and the size they are evicted down to."""

    directory: Path | None
    entries: int
    size: int
    limit: int

    def __str__(self) -> str:
        if self.directory is None:
            return "compile cache: off (INFER_CACHE_DIR is empty)"
        return (f"compile cache: {self.directory}: {self.entries} entries, {self.size:,} "
                f"bytes (limit {self.limit:,}: INFER_CACHE_SIZE)")


def cache_info() -> CacheInfo:
    """Where the compile cache is and what it holds."""
    store = CompileCache.from_environment()
    if store is None:
        return CacheInfo(None, 0, 0, 0)
    entries = store.entries() if store.directory.is_dir() else []
    return CacheInfo(store.directory, len(entries), sum(size for _, size, _ in entries),
                     store.size)


def clear_cache() -> int:
    """Removes every entry of the compile cache (and writers' temporary files); returns
    how many entries it removed."""
    store = CompileCache.from_environment()
    if store is None or not store.directory.is_dir():
        return 0
    removed = 0
    for _, _, path in store.entries():
        with contextlib.suppress(OSError):  # removed by another process meanwhile
            path.unlink()
            removed += 1
    for path in store.directory.glob(f".*{SUFFIX}.*.tmp"):
        with contextlib.suppress(OSError):
            path.unlink()
    return removed

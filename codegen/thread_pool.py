"""The thread pool compiled code's parallel loops run on (codegen/thread_pool.c, built as
the extension `infer.codegen._thread_pool` and loaded here with ctypes): its entry point,
which the code loaders bind calls to, its counters, and its profile of parallel regions.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.machinery
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

_NAME = "_thread_pool"


def library_path() -> Path | None:
    """The built pool library beside this module, None where it was not built."""
    here = Path(__file__).resolve().parent
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = here / f"{_NAME}{suffix}"
        if path.exists():
            return path
    return None


@functools.cache
def library() -> ctypes.CDLL:
    """The pool, loaded once per process (ImportError, saying how to build it, where it
    is missing)."""
    path = library_path()
    if path is None:
        raise ImportError("infer's thread pool (codegen/thread_pool.c) is not built: "
                          "install infer with pip (`pip install -e .` in a source tree)")
    lib = ctypes.CDLL(str(path))
    lib.infer_pool_profile.argtypes = [ctypes.c_int]
    lib.infer_pool_profile.restype = ctypes.c_int64
    lib.infer_pool_regions.restype = ctypes.POINTER(ctypes.c_int64)
    lib.infer_pool_counters.restype = ctypes.POINTER(ctypes.c_int64)
    return lib


def symbol(name: str) -> int | None:
    """The address of the pool's function `name`, None if it has none."""
    try:
        return ctypes.cast(getattr(library(), name), ctypes.c_void_p).value
    except AttributeError:
        return None


@dataclass(frozen=True)
class Counters:
    """Since the process started: loops run on the pool, loops run inline because
    another thread's loop held it, and workers started."""

    jobs: int
    inline_busy: int
    workers: int


def counters() -> Counters:
    values = library().infer_pool_counters()
    return Counters(int(values[0]), int(values[1]), int(values[2]))


@dataclass(frozen=True)
class Region:
    """One parallel region as the profile saw it: the team the code chose for it, its
    iterations, and its time on one thread (its work)."""

    team: int
    iterations: int
    nanoseconds: int


@contextmanager
def profiled_regions() -> Iterator[list[Region]]:
    """While inside, every loop the compiled code would run on more than one thread runs
    on the calling thread alone, timed; the list yielded holds those regions when the
    block ends. For measuring (benchmarks/threads.py), one thread at a time."""
    lib = library()
    regions: list[Region] = []
    lib.infer_pool_profile(1)
    try:
        yield regions
    finally:
        count = lib.infer_pool_profile(0)
        raw = lib.infer_pool_regions()
        regions.extend(Region(int(raw[3 * k]), int(raw[3 * k + 1]), int(raw[3 * k + 2]))
                       for k in range(count))

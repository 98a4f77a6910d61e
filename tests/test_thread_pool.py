"""infer's thread pool (codegen/thread_pool.c) called directly, its loop body a ctypes
callback that records the chunks it is given: every iteration runs exactly once, chunks
are at least the grain (but the last), a loop of fewer than two grains or a team of one
runs inline on the caller, a second caller while the pool is taken runs its loop inline,
a forked child starts workers of its own, and ThreadSanitizer finds no race."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from infer.abi import PARALLEL_FOR
from infer.codegen import thread_pool

BODY = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)


def _parallel_for() -> ctypes._CFuncPtr:
    fn = getattr(thread_pool.library(), PARALLEL_FOR)
    fn.argtypes = [BODY, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
                   ctypes.c_int64]
    fn.restype = None
    return fn


class Recorder:
    """A loop body that counts each iteration it runs and keeps each chunk and its thread."""

    def __init__(self, lb: int, ub: int) -> None:
        self.lb = lb
        self.hits = np.zeros(ub - lb, np.int64)
        self.chunks: list[tuple[int, int, int]] = []
        self.lock = threading.Lock()
        self.body = BODY(self._run)

    def _run(self, ctx: int | None, lo: int, hi: int) -> None:
        with self.lock:
            self.hits[lo - self.lb:hi - self.lb] += 1
            self.chunks.append((lo, hi, threading.get_ident()))


@pytest.mark.parametrize(("lb", "ub", "team", "grain"),
                         [(0, 1000, 2, 1), (5, 1005, 3, 7), (-50, 77, 4, 10),
                          (0, 100_000, 2, 1000), (0, 3, 8, 1), (10, 10, 2, 1)])
def test_every_iteration_runs_once(lb: int, ub: int, team: int, grain: int) -> None:
    parallel_for = _parallel_for()
    for _ in range(20):
        rec = Recorder(lb, ub)
        parallel_for(rec.body, None, lb, ub, team, grain)
        assert (rec.hits == 1).all()
        sizes = sorted(hi - lo for lo, hi, _ in rec.chunks)
        assert all(s >= min(grain, ub - lb) for s in sizes[1:])


def test_small_loops_and_one_thread_run_inline() -> None:
    parallel_for = _parallel_for()
    me = threading.get_ident()
    for lb, ub, team, grain in [(0, 100, 1, 1), (0, 100, 4, 51), (0, 1, 4, 1)]:
        rec = Recorder(lb, ub)
        parallel_for(rec.body, None, lb, ub, team, grain)
        assert rec.chunks == [(lb, ub, me)]


def test_a_second_caller_runs_inline_while_the_pool_is_taken() -> None:
    """The first caller's body blocks until a second caller's whole loop is done: that
    loop ran on the second caller alone, and both loops ran every iteration once."""
    parallel_for = _parallel_for()
    inline_before = thread_pool.counters().inline_busy
    second = Recorder(0, 64)
    second_caller: list[int] = []
    done = threading.Event()

    def run_second() -> None:
        second_caller.append(threading.get_ident())
        parallel_for(second.body, None, 0, 64, 2, 1)
        done.set()

    started = threading.Event()

    class Blocking(Recorder):
        def _run(self, ctx: int | None, lo: int, hi: int) -> None:
            if not started.is_set():
                started.set()
                threading.Thread(target=run_second).start()
                assert done.wait(30)
            super()._run(ctx, lo, hi)

    first = Blocking(0, 64)
    parallel_for(first.body, None, 0, 64, 2, 1)
    assert done.is_set() and (first.hits == 1).all() and (second.hits == 1).all()
    assert {t for _, _, t in second.chunks} == set(second_caller)
    assert thread_pool.counters().inline_busy > inline_before


_FORK_CHILD = """
import ctypes, os, sys, threading
sys.path.insert(0, sys.argv[1])
from test_thread_pool import Recorder, _parallel_for
from infer.codegen import thread_pool
pf = _parallel_for()
rec = Recorder(0, 10_000)
pf(rec.body, None, 0, 10_000, 2, 1)
assert thread_pool.counters().workers == 1
pid = os.fork()
if pid == 0:
    rec = Recorder(0, 10_000)
    pf(rec.body, None, 0, 10_000, 2, 1)
    ok = (rec.hits == 1).all() and thread_pool.counters().workers == 1
    os._exit(0 if ok else 3)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""


def test_a_forked_child_starts_its_own_workers() -> None:
    out = subprocess.run([sys.executable, "-c", _FORK_CHILD, os.path.dirname(__file__)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0"]


def test_profile_records_regions_on_the_caller() -> None:
    parallel_for = _parallel_for()
    me = threading.get_ident()
    rec = Recorder(0, 500)
    with thread_pool.profiled_regions() as regions:
        parallel_for(rec.body, None, 0, 500, 4, 10)
        parallel_for(rec.body, None, 0, 5, 4, 10)  # inline: not a region
    assert [(r.team, r.iterations) for r in regions] == [(4, 500)]
    assert regions[0].nanoseconds > 0
    assert {t for _, _, t in rec.chunks} == {me}


@pytest.mark.slow
def test_no_data_race_under_thread_sanitizer(tmp_path: Path) -> None:
    """The pool's protocol under ThreadSanitizer: two callers, 40,000 loops, workers that
    sleep after every loop (no spin, no yielding poll), that spin then sleep, and that
    spin then poll (the default)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build the sanitized driver")
    here = Path(__file__).resolve().parent
    exe = tmp_path / "stress"
    subprocess.run([compiler, "-O1", "-g", "-std=gnu11", "-pthread", "-fsanitize=thread",
                    str(here / "thread_pool_stress.c"),
                    str(here.parent / "codegen" / "thread_pool.c"), "-o", str(exe)],
                   check=True, capture_output=True, timeout=120)
    for spin, poll in (("0", "0"), ("200", "0"), ("200", "20000")):
        out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300,
                             env={**os.environ, "INFER_SPIN_US": spin, "INFER_YIELD_US": poll})
        assert out.returncode == 0 and out.stdout.split() == ["ok"], out.stderr[-2000:]
        assert "ThreadSanitizer" not in out.stderr, out.stderr[-2000:]

"""The memory plan of a compiled entry (lowering/memory_plan.py) and the arenas its runs
are given: each run takes an arena from a pool and returns it after, so that runs reuse
memory (no allocation, no page faults per run) and concurrent runs never share one."""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from infer.abi import ARENA_ALIGNMENT


@dataclass(frozen=True)
class MemoryPlan:
    """`arena`: the bytes of the arena the entry takes; `total`: the bytes its planned
    intermediates would take each in a buffer of its own; `buffers`: how many it planned;
    `unplanned`: how many allocations stay on malloc (dynamic sizes, results...)."""

    arena: int
    total: int
    buffers: int
    unplanned: int

    def to_json(self) -> list[int]:
        return [self.arena, self.total, self.buffers, self.unplanned]

    @staticmethod
    def from_json(value: list[object]) -> MemoryPlan:
        arena, total, buffers, unplanned = (int(v) for v in value)  # type: ignore[call-overload]
        if min(arena, total, buffers, unplanned) < 0:
            raise ValueError(f"malformed memory plan {value!r}")
        return MemoryPlan(arena, total, buffers, unplanned)


def aligned_arena(size: int) -> np.ndarray:
    """`size` bytes (at least 1) as int8, starting on an ARENA_ALIGNMENT boundary."""
    raw = np.empty(max(size, 1) + ARENA_ALIGNMENT, dtype=np.int8)
    start = -raw.ctypes.data % ARENA_ALIGNMENT
    return raw[start : start + max(size, 1)]


class ArenaPool:
    """Arenas of one size for the runs of one model: `take` one per run (a fresh one when
    every kept one is in use), `give` it back after; at most `keep` idle ones are kept."""

    def __init__(self, size: int, keep: int = 4) -> None:
        self.size = size
        self.keep = keep
        self._free: list[np.ndarray] = []
        self._lock = threading.Lock()

    def take(self) -> np.ndarray:
        with self._lock:
            if self._free:
                return self._free.pop()
        return aligned_arena(self.size)

    def give(self, arena: np.ndarray) -> None:
        with self._lock:
            if len(self._free) < self.keep:
                self._free.append(arena)

"""The run-time checks of a compiled entry (lowering/runtime_checks.py): the status buffer
passed to it, and the `ShapeError` raised when a check failed."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from infer.abi import CHECK_STATUS_SIZE
from infer.errors import ShapeError


@dataclass(frozen=True)
class Check:
    message: str  # with {a}, {b} and {shapes}
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class EntryChecks:
    """The checks of one entry, by code - 1."""

    checks: tuple[Check, ...]

    def to_json(self) -> list[list[object]]:
        return [[c.message, list(c.ranks)] for c in self.checks]

    @staticmethod
    def from_json(checks: list[tuple[str, list[int]]]) -> EntryChecks:
        return EntryChecks(tuple(Check(str(message), tuple(int(r) for r in ranks))
                                 for message, ranks in checks))

    @staticmethod
    def status() -> np.ndarray:
        return np.zeros(CHECK_STATUS_SIZE, dtype=np.int64)

    def raise_failed(self, status: np.ndarray) -> None:
        """ShapeError with the failed check's message, if one failed."""
        code = int(status[0])
        if code == 0:
            return
        check = self.checks[code - 1]
        values = [int(v) for v in status[3:]]
        shapes, at = [], 0
        for r in check.ranks:
            if at + r > len(values):
                break
            shapes.append(str(tuple(values[at:at + r])))
            at += r
        raise ShapeError(check.message.format(
            a=int(status[1]), b=int(status[2]), shapes=" and ".join(shapes)))

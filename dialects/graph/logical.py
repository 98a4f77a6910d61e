"""Logical, bitwise and integer-arithmetic elementwise ops (And/Or/Xor/Not, Bitwise*,
BitShift, Mod) and the comparisons beyond the basic ones."""

from __future__ import annotations

__all__: list[str] = []

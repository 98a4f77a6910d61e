"""Indexing ops: gathers and scatters by index tensors, one-hot, triangular masks, and
block moves between depth and space."""

from __future__ import annotations

__all__: list[str] = []

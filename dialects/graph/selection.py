"""Selection ops: Hardmax and TopK (the largest or smallest k along an axis)."""

from __future__ import annotations

__all__: list[str] = []

"""Einsum: a sum of products over index labels."""

from __future__ import annotations

__all__: list[str] = []

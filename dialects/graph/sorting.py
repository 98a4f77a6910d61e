"""Sorting-based ops with data-dependent result shapes: Unique."""

from __future__ import annotations

__all__: list[str] = []

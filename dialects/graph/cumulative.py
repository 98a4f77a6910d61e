"""Cumulative ops: CumSum and CumProd along one axis."""

from __future__ import annotations

__all__: list[str] = []

"""Detection post-processing: NonMaxSuppression."""

from __future__ import annotations

__all__: list[str] = []

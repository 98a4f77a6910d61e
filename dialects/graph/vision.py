"""Vision ops: resizing, transposed convolution, sampling grids and the other image-space ops."""

from __future__ import annotations

__all__: list[str] = []

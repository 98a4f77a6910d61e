"""Lowerings of the vision ops (resize, transposed convolution, grid sampling)."""

from __future__ import annotations

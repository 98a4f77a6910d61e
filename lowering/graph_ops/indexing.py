"""Lowerings of the indexing ops (gathers, scatters, one-hot, triangular masks, depth and
space moves)."""

from __future__ import annotations

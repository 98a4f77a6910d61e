"""Lowering of the graph dialect's einsum ops to loops."""

from __future__ import annotations

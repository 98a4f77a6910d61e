"""Lowering of the graph dialect's selection ops to loops."""

from __future__ import annotations

"""Lowering of the graph dialect's detection ops to loops."""

from __future__ import annotations

"""Lowering of the graph dialect's sorting ops to loops."""

from __future__ import annotations

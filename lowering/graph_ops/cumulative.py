"""Lowering of the graph dialect's cumulative ops to loops."""

from __future__ import annotations

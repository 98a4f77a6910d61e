"""Test-wide settings: the IR verifier runs after every pass of every compile
(`pipeline.VERIFY_EACH_PASS`), so that IR breaking an invariant fails at the pass that
made it, in every test and in the CLIs the tests start; and the compile cache is off
(`INFER_CACHE_DIR` empty), so that every test compiles what it tests. The cache's own
tests point it at a directory of theirs. Tests that compile whole models or hundreds of
small ones take `verify_at_stage_ends` instead."""

import os

import pytest

from infer.pipeline import VERIFY_EACH_PASS

os.environ[VERIFY_EACH_PASS] = "1"
os.environ["INFER_CACHE_DIR"] = ""


@pytest.fixture
def verify_at_stage_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """The IR verified at the end of each stage (graph, loops, llvm) rather than after
    every pass: 15% of a whole model's compile, a third of a one-op model's. A broken
    invariant still fails the test; the tests of the passes name the pass."""
    monkeypatch.setenv(VERIFY_EACH_PASS, "stages")

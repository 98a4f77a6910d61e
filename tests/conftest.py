"""Test-wide settings: the IR verifier runs after every pass of every compile
(`pipeline.VERIFY_EACH_PASS`), so that IR breaking an invariant fails at the pass that
made it, in every test and in the CLIs the tests start; and the compile cache is off
(`INFER_CACHE_DIR` empty), so that every test compiles what it tests. The cache's own
tests point it at a directory of theirs."""

import os

from infer.pipeline import VERIFY_EACH_PASS

os.environ[VERIFY_EACH_PASS] = "1"
os.environ["INFER_CACHE_DIR"] = ""

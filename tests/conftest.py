"""Test-wide settings: the IR verifier runs after every pass of every compile
(`pipeline.VERIFY_EACH_PASS`), so that IR breaking an invariant fails at the pass that
made it, in every test and in the CLIs the tests start."""

import os

from infer.pipeline import VERIFY_EACH_PASS

os.environ[VERIFY_EACH_PASS] = "1"

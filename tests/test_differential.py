"""The differential tester in CI: a fixed seed's random graphs (tools/differential.py),
each compiled by infer and compared with onnxruntime; none may fail, and nearly all must
compile (a refusal is allowed, but the generator draws from the supported op set).
`python scripts/fuzz.py --seed S --count N` runs any seed for longer."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from onnx import TensorProto, helper

from infer.tools import differential
from infer.tools.differential import Case, run_case

from .helpers import make_model

SEED = 20261124
CHUNK = 20
# (optimization level, first case): 120 graphs at level 0, 120 at level 3
CHUNKS = [(0, start) for start in range(0, 120, CHUNK)] + [
    (3, start) for start in range(1000, 1120, CHUNK)]


@pytest.mark.usefixtures("verify_at_stage_ends")
@pytest.mark.slow
@pytest.mark.parametrize(("level", "start"), CHUNKS, ids=[f"O{lv}-{s}" for lv, s in CHUNKS])
def test_random_graphs_match_onnxruntime(level: int, start: int) -> None:
    outcomes = {i: run_case(SEED, i, level) for i in range(start, start + CHUNK)}
    failed = {i: o.detail for i, o in outcomes.items() if o.status == "failed"}
    assert not failed, f"seed {SEED}, level {level}: {failed}"
    counts = Counter(o.status for o in outcomes.values())
    assert counts["passed"] >= CHUNK * 0.8, counts


def test_cases_are_not_stored_in_the_compile_cache(tmp_path, monkeypatch) -> None:
    """The fuzzer compiles thousands of throwaway models: none goes to the user's cache."""
    monkeypatch.setenv("INFER_CACHE_DIR", str(tmp_path))
    assert run_case(SEED, 0, 0).status == "passed"
    assert list(tmp_path.iterdir()) == []


def test_an_output_listed_twice_is_compared_twice(monkeypatch) -> None:
    """A graph listing a value twice among its outputs (the generator may draw one) is
    compared output by output with onnxruntime's list, which has it twice."""
    model = make_model([helper.make_node("Neg", ["x"], ["y"])],
                       [("x", TensorProto.FLOAT, [3])],
                       [("y", TensorProto.FLOAT, [3]), ("x", TensorProto.FLOAT, [3]),
                        ("y", TensorProto.FLOAT, [3])])
    case = Case(model, {"x": np.arange(3, dtype=np.float32)}, ["Neg"], (1e-5, 1e-6))
    monkeypatch.setattr(differential, "make_case", lambda *_: case)
    outcome = run_case(SEED, 0)
    assert (outcome.status, outcome.detail) == ("passed", "")

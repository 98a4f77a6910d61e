"""The differential tester in CI: a fixed seed's random graphs (tools/differential.py),
each compiled by infer and compared with onnxruntime; none may fail, and nearly all must
compile (a refusal is allowed, but the generator draws from the supported op set).
`python scripts/fuzz.py --seed S --count N` runs any seed for longer."""

from __future__ import annotations

from collections import Counter

import pytest

from infer.tools.differential import run_case

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

"""ONNX's node test cases, and the model tests of its pytorch groups, that infer passes stay
passing.

`tests/onnx_node_cases_passing.txt` and `tests/onnx_model_cases_passing.txt` (written by
`python scripts/conformance.py --write`) list them; each runs through `infer.backend` on
every data set ONNX generates or stores for it, and its outputs must match ONNX's reference
outputs by ONNX's own rule (shape, dtype, then closeness at the case's rtol/atol, NaN
matching NaN). A listed case that stops passing, or that the installed onnx no longer
has, fails.

Every listed case runs (about 3.5 minutes on 2 cores). For a quick local run,
INFER_CONFORMANCE=sample runs a fixed sample: the listed cases grouped by op type (as
docs/conformance.md groups them), each group in name order, its 1st, 4th, 7th, ... case
(every SAMPLE_EVERY-th from the first), so that every op type is represented.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx.backend.test.case.node import collect_testcases

import infer.backend

ROOT = Path(__file__).resolve().parent.parent
LISTED = (ROOT / "tests" / "onnx_node_cases_passing.txt").read_text().split()
LISTED_MODELS = (ROOT / "tests" / "onnx_model_cases_passing.txt").read_text().split()
FULL = os.environ.get("INFER_CONFORMANCE") != "sample"
SAMPLE_EVERY = 3


def _script() -> Any:
    """scripts/conformance.py, whose op types and data sets the sample and the runs use."""
    spec = importlib.util.spec_from_file_location("conformance", ROOT / "scripts/conformance.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


conformance = _script()


@functools.cache
def onnx_cases() -> dict[str, Any]:
    """Every node case ONNX generates, by name (None: onnx fills its case list once per
    process, filtered by the first call's op type)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return {case.name: case for case in collect_testcases(None)}


def sample(names: list[str]) -> list[str]:
    """Every SAMPLE_EVERY-th of each op type's listed cases, from its first; names ONNX
    does not generate are kept, to fail."""
    ops = conformance.op_types(onnx_cases())
    groups: dict[str, list[str]] = defaultdict(list)
    for name in names:
        groups[ops.get(name, name)].append(name)
    return sorted(n for group in groups.values() for n in sorted(group)[::SAMPLE_EVERY])


def test_the_script_turns_the_compile_cache_off(tmp_path, monkeypatch) -> None:
    """Its thousands of models go to no compile cache, not even one INFER_CACHE_DIR names
    (the option check after it stops the run)."""
    monkeypatch.setenv("INFER_CACHE_DIR", str(tmp_path))
    with pytest.raises(SystemExit):
        conformance.main(["--write", "--ops", "Relu"])
    assert os.environ["INFER_CACHE_DIR"] == ""


def test_list_is_sorted_and_generated() -> None:
    assert LISTED == sorted(set(LISTED)), "keep the list sorted, one name a line"
    gone = [name for name in LISTED if name not in onnx_cases()]
    assert not gone, f"onnx {onnx.__version__} no longer generates {gone}"


# nearly two thousand one-op models
pytestmark = pytest.mark.usefixtures("verify_at_stage_ends")


@pytest.mark.slow
@pytest.mark.parametrize("name", LISTED if FULL else sample(LISTED))
def test_onnx_node_case(name: str) -> None:
    case = onnx_cases().get(name)
    assert case is not None, f"onnx {onnx.__version__} no longer generates {name}"
    rep = infer.backend.prepare(case.model)
    for inputs, expected in conformance.data_sets(case):
        outputs = list(rep.run(inputs))
        conformance.assert_similar(expected, outputs, case.rtol, case.atol)


@functools.cache
def model_cases() -> dict[str, Any]:
    """Every case of onnx's pytorch model test groups, by `group/test_name`."""
    return {case.name: case for group in conformance.GROUPS
            for case in conformance.model_group_cases(group)}


@pytest.mark.slow
@pytest.mark.parametrize("name", LISTED_MODELS)
def test_onnx_model_case(name: str) -> None:
    case = model_cases().get(name)
    assert case is not None, f"onnx {onnx.__version__} no longer has the model test {name}"
    rep = infer.backend.prepare(case.model)
    for inputs, expected in conformance.data_sets(case):
        outputs = list(rep.run(inputs))
        conformance.assert_similar(expected, outputs, case.rtol, case.atol)

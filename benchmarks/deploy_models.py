"""Latency of infer vs onnxruntime on the deployed-model patterns (tests/models), one thread.

    python benchmarks/deploy_models.py [--reps N] [--size 0|1|2] [--write]

Each pattern is compiled once and timed on one of the input sets its test runs (the
second, by default), interleaved with onnxruntime on the same inputs; prints the same
markdown table as light_models.py. --write puts it at the end of docs/conformance.md,
after the line MARKER (scripts/conformance.py keeps what follows that line).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import onnx
import onnxruntime
from light_models import bench_model, table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.models.deploy_patterns import PATTERNS, feeds, model_path  # noqa: E402

DOC = ROOT / "docs" / "conformance.md"
MARKER = "<!-- written by benchmarks/deploy_models.py --write -->"


def section(rows: list[dict[str, float | str]], reps: int) -> str:
    return "\n".join([
        "## Deployed-model patterns",
        "",
        "Small stand-ins for the models people deploy, exported from PyTorch by",
        "`tests/models/make_deploy_models.py`: `tests/test_deploy_models.py` compiles each",
        "once and matches onnxruntime at three input sizes. Latency at one of those sizes, one",
        f"thread, median of {reps} runs interleaved with onnxruntime {onnxruntime.__version__}",
        "in the same process (`python benchmarks/deploy_models.py --write`); compile time is",
        "infer's, at the default level.",
        "",
        *table(rows),
    ]) + "\n"


def main() -> None:
    os.environ.setdefault("INFER_CACHE_DIR", "")  # every model compiled, none stored
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--size", type=int, default=1, choices=(0, 1, 2))
    p.add_argument("--write", action="store_true", help=f"rewrite the end of {DOC.name}")
    args = p.parse_args()
    rows = []
    for name in PATTERNS:
        f = feeds(name)[args.size]
        size = ", ".join(f"{k} {list(v.shape)}" for k, v in f.items() if v.ndim)
        rows.append(bench_model(f"{name} ({size})", onnx.load(model_path(name)), f, args.reps))
    text = section(rows, args.reps)
    print(text)
    if args.write:
        doc = DOC.read_text()
        head = doc[:doc.index(MARKER)] if MARKER in doc else doc + "\n"
        DOC.write_text(f"{head}{MARKER}\n\n{text}")


if __name__ == "__main__":
    main()

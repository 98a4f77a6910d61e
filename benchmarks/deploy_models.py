"""Latency of infer vs onnxruntime on the deployed-model patterns (tests/models), one thread.

    python benchmarks/deploy_models.py [--reps N] [--size 0|1|2]

Each pattern is compiled once and timed on one of the input sets its test runs (the
second, by default), interleaved with onnxruntime on the same inputs; prints the same
markdown table as light_models.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import onnx
from light_models import bench_model, print_table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.models.deploy_patterns import PATTERNS, feeds, model_path  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--size", type=int, default=1, choices=(0, 1, 2))
    args = p.parse_args()
    rows = []
    for name in PATTERNS:
        f = feeds(name)[args.size]
        size = ", ".join(f"{k} {list(v.shape)}" for k, v in f.items() if v.ndim)
        rows.append(bench_model(f"{name} ({size})", onnx.load(model_path(name)), f, args.reps))
    print_table(rows)


if __name__ == "__main__":
    main()

"""Differential testing against onnxruntime: random graphs (tools/differential.py),
compiled by infer and compared with onnxruntime's outputs.

    python scripts/fuzz.py --seed 7 --count 2000 --jobs 2
    python scripts/fuzz.py --seed 7 --count 500 --families reduce,layout --level 3
    python scripts/fuzz.py --seed 7 --count 2000 --save /tmp/found   # failing models

Prints the totals (passed / refused / discarded / failed) and every failure as
`seed:index` with its op chain; `--save DIR` writes each failing model and its inputs
(DIR/case_SEED_INDEX.onnx and .npz). Each chunk of cases runs in a fresh worker process.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import onnx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the source tree's parent

from infer.tools.differential import BUILDERS, make_case, run_case  # noqa: E402


def _run(args: tuple[int, int, int, list[str] | None]) -> tuple[int, str, str]:
    seed, index, level, families = args
    outcome = run_case(seed, index, level, families)
    return index, outcome.status, outcome.detail


def main() -> int:
    os.environ.setdefault("INFER_CACHE_DIR", "")  # every model compiled, none stored
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="first case index")
    parser.add_argument("--level", type=int, default=0, help="infer's optimization level")
    parser.add_argument("--families", help="comma-separated: " + ",".join(BUILDERS))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--save", type=Path, help="directory for failing models")
    args = parser.parse_args()
    families = args.families.split(",") if args.families else None
    unknown = [f for f in families or [] if f not in BUILDERS]
    if unknown:
        parser.error(f"unknown families {unknown}; known: {', '.join(BUILDERS)}")
    tasks = [(args.seed, i, args.level, families)
             for i in range(args.start, args.start + args.count)]
    start = time.perf_counter()
    counts: Counter[str] = Counter()
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.jobs, maxtasksperchild=50) as pool:
        for index, status, detail in pool.imap_unordered(_run, tasks, chunksize=5):
            counts[status] += 1
            if status == "failed":
                case = make_case(args.seed, index, families)
                print(f"FAILED {args.seed}:{index} [{' > '.join(case.ops)}] {detail}",
                      flush=True)
                if args.save:
                    args.save.mkdir(parents=True, exist_ok=True)
                    stem = args.save / f"case_{args.seed}_{index}"
                    onnx.save(case.model, f"{stem}.onnx")
                    np.savez(f"{stem}.npz", **case.feeds)
    total = sum(counts.values())
    print(f"{total} cases in {time.perf_counter() - start:.0f} s: "
          + ", ".join(f"{counts[k]} {k}" for k in ("passed", "refused", "discarded",
                                                     "failed")))
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())

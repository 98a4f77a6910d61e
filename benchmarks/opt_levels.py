"""What each graph-optimize level buys on the light models: op counts and latency.

    python benchmarks/opt_levels.py [--reps N] [--models squeezenet,resnet50] [--levels 0,2,3]
                                    [--random-weights]

For each model, infer is compiled at each level (default 0 to 3), and onnxruntime (one
thread, its default "all" optimization level) runs beside them in the same process on the
same inputs. Repetitions are interleaved (O0, O1, O2, O3, ort, O0, ...) and medians
compared, so machine noise hits all alike. Op counts leave out `graph.constant` (weights,
not kernels). Prints a markdown table; ratios below 1 mean faster than the first level
(or than onnxruntime).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import numpy as np
import onnx
import onnxruntime as ort

import infer
from infer.model_zoo import LIGHT_MODELS, dummy_inputs, light_model_path, with_random_weights

LEVELS = (0, 1, 2, 3)


def kernel_count(model: onnx.ModelProto, level: int) -> int:
    counts = infer.optimization_report(model, level).after
    return sum(counts.values()) - counts["graph.constant"]


def bench(name: str, reps: int, random_weights: bool, levels: tuple[int, ...] = LEVELS
          ) -> dict[str, object]:
    model = onnx.load(light_model_path(name))
    if random_weights:
        model = with_random_weights(model, seed=1)
    feeds = dummy_inputs(model)
    row: dict[str, object] = {"model": name}
    fns: dict[str, Callable[[], object]] = {}
    outs = {}
    for level in levels:
        row[f"ops{level}"] = kernel_count(model, level)
        t0 = time.perf_counter()
        compiled = infer.compile(model, opt_level=level, threads=1)
        row[f"compile{level}"] = time.perf_counter() - t0
        outs[level] = compiled.run(feeds)
        fns[f"O{level}"] = lambda c=compiled: c.run(feeds)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    fns["ort"] = lambda: sess.run(None, feeds)
    ref = sess.run(None, feeds)
    row["max_rel_diff"] = max(
        float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), 1e-30))
        for out in outs.values() for a, b in zip(out.values(), ref, strict=True)
    )
    times: dict[str, list[float]] = {k: [] for k in fns}
    for fn in fns.values():
        fn()  # warm-up
    for _ in range(reps):
        for k, fn in fns.items():
            t = time.perf_counter()
            fn()
            times[k].append((time.perf_counter() - t) * 1e3)
    for k, v in times.items():
        row[f"ms_{k}"] = statistics.median(v)
    return row


def main() -> None:
    os.environ.setdefault("INFER_CACHE_DIR", "")  # every model compiled, none stored
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--models", default=",".join(LIGHT_MODELS))
    p.add_argument("--levels", default=",".join(map(str, LEVELS)))
    p.add_argument("--random-weights", action="store_true",
                   help="replace the ConstantOfShape weights by random initializers first")
    args = p.parse_args()
    levels = tuple(int(v) for v in args.levels.split(","))
    first = levels[0]
    cols = ([f"ops O{lv}" for lv in levels] + ["compile (s)"] + [f"O{lv} ms" for lv in levels]
            + ["ort ms"] + [f"O{lv}/O{first}" for lv in levels[1:]]
            + [f"O{lv}/ort" for lv in levels[1:] or levels] + ["max rel diff"])
    print("| model | " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for name in args.models.split(","):
        try:
            r = bench(name, args.reps, args.random_weights, levels)
        except infer.InferError as e:
            print(f"| {name} | error: {str(e).splitlines()[0]} |")
            continue
        ms = {lv: float(r[f"ms_O{lv}"]) for lv in levels}  # type: ignore[arg-type]
        ort_ms = float(r["ms_ort"])  # type: ignore[arg-type]
        compiles = "/".join(f"{float(r[f'compile{lv}']):.1f}" for lv in levels)  # type: ignore[arg-type]
        cells = ([str(r[f"ops{lv}"]) for lv in levels] + [compiles]
                 + [f"{ms[lv]:.2f}" for lv in levels] + [f"{ort_ms:.2f}"]
                 + [f"{ms[lv] / ms[first]:.2f}" for lv in levels[1:]]
                 + [f"{ms[lv] / ort_ms:.2f}" for lv in levels[1:] or levels]
                 + [f"{float(r['max_rel_diff']):.1e}"])  # type: ignore[arg-type]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()

"""Latency of infer vs onnxruntime on the light model-zoo models, one thread each.

    python benchmarks/light_models.py [--reps N] [--models squeezenet,resnet50]

Both run in this process on the same inputs; repetitions are interleaved (infer, ort,
infer, ort, ...) and the medians compared, so machine noise hits both alike. Prints a
markdown table: compile time, medians, ratio infer/onnxruntime (below 1: infer is faster).
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
from infer.model_zoo import LIGHT_MODELS, dummy_inputs, light_model_path


def interleaved_medians(fns: dict[str, Callable[[], object]], reps: int, settle: float = 0.0
                        ) -> dict[str, float]:
    """Median ms of each function over `reps` rounds that call each once in turn (after a
    warm-up call each), so that machine noise hits all alike.

    `settle` > 0 is for engines that run on several threads: both onnxruntime's pool and
    infer's keep spinning after a run (onnxruntime about 40 ms, infer 0.2 ms),
    taking a core from whatever runs next in the process. Each timed call then comes
    `settle` seconds after the previous engine's last call and right after an untimed
    call of its own: each engine is timed in its steady state, not in the other's wake."""
    times: dict[str, list[float]] = {k: [] for k in fns}
    for fn in fns.values():
        fn()
    for _ in range(reps):
        for k, fn in fns.items():
            if settle > 0:
                time.sleep(settle)
                fn()
            t = time.perf_counter()
            fn()
            times[k].append((time.perf_counter() - t) * 1e3)
    return {k: statistics.median(v) for k, v in times.items()}


def bench(name: str, reps: int) -> dict[str, float | str]:
    model = onnx.load(light_model_path(name))
    return bench_model(name, model, dummy_inputs(model), reps)


def bench_model(label: str, model: onnx.ModelProto, feeds: dict[str, np.ndarray], reps: int
                ) -> dict[str, float | str]:
    """Compile `model`, then time it and onnxruntime (one thread) on `feeds`, interleaved."""
    t0 = time.perf_counter()
    try:
        compiled = infer.compile(model, threads=1)
    except infer.InferError as e:
        return {"model": label, "error": str(e).splitlines()[0]}
    compile_s = time.perf_counter() - t0
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    ours, theirs = compiled.run(feeds), sess.run(None, feeds)
    diff = max(float(np.max(np.abs(a - b))) for a, b in zip(ours.values(), theirs, strict=True))
    fns = {"infer": lambda: compiled.run(feeds), "ort": lambda: sess.run(None, feeds)}
    med = interleaved_medians(fns, reps)
    return {
        "model": label,
        "compile_s": compile_s,
        "infer_ms": med["infer"],
        "ort_ms": med["ort"],
        "ratio": med["infer"] / med["ort"],
        "max_diff": diff,
    }


def table(rows: list[dict[str, float | str]]) -> list[str]:
    """A markdown table of `bench_model` rows, then the ratios' geometric mean."""
    lines = ["| model | compile (s) | infer (ms) | onnxruntime (ms) | infer / ort "
             "| max diff vs ort |", "|---|---:|---:|---:|---:|---:|"]
    ratios = []
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['model']} | not supported: {r['error']} | | | | |")
            continue
        ratios.append(float(r["ratio"]))
        lines.append(f"| {r['model']} | {r['compile_s']:.1f} | {r['infer_ms']:.2f} "
                     f"| {r['ort_ms']:.2f} | {r['ratio']:.2f} | {r['max_diff']:.2g} |")
    if ratios:
        geo = float(np.exp(np.mean(np.log(ratios))))
        lines += ["", f"Geometric mean of infer / onnxruntime over {len(ratios)} models: "
                  f"{geo:.2f}."]
    return lines


def main() -> None:
    os.environ.setdefault("INFER_CACHE_DIR", "")  # every model compiled, none stored
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--models", default=",".join(LIGHT_MODELS))
    args = p.parse_args()
    print("\n".join(table([bench(m, args.reps) for m in args.models.split(",")])))


if __name__ == "__main__":
    main()

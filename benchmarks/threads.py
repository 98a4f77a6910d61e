"""Threads as users meet them: infer against onnxruntime at the default thread count (one
per physical core, both engines' default) on a quiet machine, between sporadic requests,
beside busy processes and beside onnxruntime's own pool; and the parallel regions of a run.

    python benchmarks/threads.py [--models squeezenet,...,encoder] [--reps 15]
                                 [--scenarios regions,idle,sporadic,busy1,busyall,alternate]
                                 [--write]

Scenarios, each in this process, both engines on the same inputs, medians:
- regions: every loop the compiled code runs on more than one thread (a region: one hand
  off to the pool and its join), at 2 and 16 threads, profiled (codegen/thread_pool.py:
  each region runs on the calling thread alone and is timed, so its time is its work):
  regions per run, their median work, and the least work per thread of any region.
- idle: back to back, each engine in blocks of runs (its first run untimed), blocks
  alternating 0.1 s apart, so that neither pool runs in the other's wake.
- sporadic: one request every 10-100 ms (random), to infer at the default count, infer at
  one thread and onnxruntime in turn: every pool has gone idle between requests.
- busy1 / busyall: as idle, with one busy process beside (a Python spin loop), or one per
  CPU this process may use.
- alternate: infer in blocks alone, against infer with a run of onnxruntime's session (at
  the default count) between each two of its runs, as a service that uses both does; and
  the same for onnxruntime's session with a second onnxruntime session of the model (a
  pool of its own, as each session has) in place of infer: what onnxruntime's pool, which
  spins about 60 ms of CPU after each run, costs its own kind.
--write puts the tables in docs/threads.md.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from encoder_model import encoder_feeds, encoder_model

import infer
from infer.codegen import thread_pool
from infer.codegen.host_features import physical_cores, usable_cpus
from infer.model_zoo import LIGHT_MODELS, dummy_inputs, light_model_path, with_random_weights

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "threads.md"
SCENARIOS = ("regions", "idle", "sporadic", "busy1", "busyall", "alternate")
REGION_THREADS = (2, 16)
BLOCK = 5  # runs per block: the first untimed
# Seconds before each block: longer than onnxruntime's pool spins after a run (about
# 40 ms), so that each engine's block runs with the other's threads asleep.
SETTLE = 0.1

Run = Callable[[], object]


def _models(names: list[str]) -> Iterator[tuple[str, onnx.ModelProto, dict[str, np.ndarray]]]:
    for name in names:
        if name == "encoder":
            yield "encoder (1x128)", encoder_model(), encoder_feeds(1, 128)
        else:
            model = with_random_weights(onnx.load(light_model_path(name)))
            yield name, model, dummy_inputs(model)


def _session(model: onnx.ModelProto, threads: int) -> ort.InferenceSession:
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    return ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])


def _timed(fn: Run) -> float:
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1e3


def blocks(fns: dict[str, Run], reps: int) -> dict[str, float]:
    """Median ms of each function, timed in blocks of BLOCK runs (the first untimed)
    that alternate between the functions, until each has `reps` timed runs."""
    times: dict[str, list[float]] = {k: [] for k in fns}
    while min(len(v) for v in times.values()) < reps:
        for k, fn in fns.items():
            time.sleep(SETTLE)
            fn()
            times[k] += [_timed(fn) for _ in range(BLOCK - 1)]
    return {k: statistics.median(v) for k, v in times.items()}


def sporadic(fns: dict[str, Run], reps: int, seed: int = 0) -> dict[str, float]:
    """Median ms of each function called once every 10-100 ms, in turn."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = {k: [] for k in fns}
    for fn in fns.values():
        fn()
    for _ in range(reps):
        for k, fn in fns.items():
            time.sleep(rng.uniform(0.010, 0.100))
            times[k].append(_timed(fn))
    return {k: statistics.median(v) for k, v in times.items()}


def alternating(run: Run, other: Run, reps: int) -> dict[str, float]:
    """`run`'s median ms alone (in blocks) and with `other` run between its runs."""
    alone = blocks({"alone": run}, reps)["alone"]
    run()
    times = []
    for _ in range(reps):
        other()
        times.append(_timed(run))
    return {"alone": alone, "alternating": statistics.median(times)}


@contextlib.contextmanager
def busy_processes(count: int) -> Iterator[None]:
    """`count` processes spinning on the CPUs while inside."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
             for _ in range(count)]
    time.sleep(0.3)
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def regions(compiled: infer.CompiledModel, feeds: dict[str, np.ndarray], threads: int
            ) -> dict[str, float]:
    """The run's parallel regions at `threads` (module doc)."""
    compiled.threads = threads
    compiled.run(feeds)
    with thread_pool.profiled_regions() as found:
        compiled.run(feeds)
    if not found:
        return {"count": 0, "median_us": 0.0, "least_per_thread_us": 0.0}
    return {"count": len(found),
            "median_us": statistics.median(r.nanoseconds for r in found) / 1e3,
            "least_per_thread_us": min(r.nanoseconds / r.team for r in found) / 1e3}


def measure(label: str, model: onnx.ModelProto, feeds: dict[str, np.ndarray],
            scenarios: list[str], reps: int) -> dict[str, object]:
    threads = physical_cores()
    compiled = infer.compile(model, cache=False, threads=threads)
    sess = _session(model, threads)
    row: dict[str, object] = {"model": label}

    def ours(count: int = threads) -> object:
        compiled.threads = count
        return compiled.run(feeds)

    def theirs() -> object:
        return sess.run(None, feeds)

    pair = {"infer": ours, "ort": theirs}
    for scenario in scenarios:
        if scenario == "regions":
            for t in REGION_THREADS:
                row[f"regions{t}"] = regions(compiled, feeds, t)
        elif scenario == "idle":
            row["idle"] = blocks(pair, reps)
        elif scenario == "sporadic":
            row["sporadic"] = sporadic({**pair, "infer1": lambda: ours(1)}, reps)
        elif scenario in ("busy1", "busyall"):
            count = 1 if scenario == "busy1" else len(usable_cpus() or [0] * threads)
            with busy_processes(count):
                row[scenario] = blocks(pair, reps)
        elif scenario == "alternate":
            row["alternate"] = alternating(ours, theirs, reps)
            second = _session(model, threads).run
            row["alternate_ort"] = alternating(theirs, partial(second, None, feeds), reps)
        print(f"{label} {scenario}: {row.get(scenario, '')}", file=sys.stderr, flush=True)
    return row


def _ratio_table(rows: list[dict[str, object]], scenarios: list[str]) -> list[str]:
    heads = {"idle": "quiet", "busy1": "1 busy process", "busyall": "every CPU busy"}
    cols = [s for s in ("idle", "busy1", "busyall") if s in scenarios]
    head = ["model"]
    for s in cols:
        head += [f"{heads[s]}: infer (ms)", "ort (ms)", "infer / ort"]
    if "sporadic" in scenarios:
        head += ["sporadic: infer (ms)", "infer 1 thread (ms)", "ort (ms)", "infer / ort"]
    if "alternate" in scenarios:
        head += ["infer alone (ms)", "alternating with ort (ms)", "ratio",
                 "ort alone (ms)", "alternating with another ort (ms)", "ratio"]
    if len(head) == 1:
        return []
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for r in rows:
        cells = [str(r["model"])]
        for s in cols:
            m = r[s]
            assert isinstance(m, dict)
            cells += [f"{m['infer']:.2f}", f"{m['ort']:.2f}", f"{m['infer'] / m['ort']:.2f}"]
        if "sporadic" in scenarios:
            m = r["sporadic"]
            assert isinstance(m, dict)
            cells += [f"{m['infer']:.2f}", f"{m['infer1']:.2f}", f"{m['ort']:.2f}",
                      f"{m['infer'] / m['ort']:.2f}"]
        if "alternate" in scenarios:
            for key in ("alternate", "alternate_ort"):
                m = r[key]
                assert isinstance(m, dict)
                cells += [f"{m['alone']:.2f}", f"{m['alternating']:.2f}",
                          f"{m['alternating'] / m['alone']:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _regions_table(rows: list[dict[str, object]]) -> list[str]:
    if not any("regions2" in r for r in rows):
        return []
    head = ["model"]
    for t in REGION_THREADS:
        head += [f"regions at {t}", "median work (us)", "least work per thread (us)"]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    for r in rows:
        cells = [str(r["model"])]
        for t in REGION_THREADS:
            m = r[f"regions{t}"]
            assert isinstance(m, dict)
            cells += [str(m["count"]), f"{m['median_us']:.0f}",
                      f"{m['least_per_thread_us']:.0f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", default=",".join([*LIGHT_MODELS, "encoder"]))
    p.add_argument("--reps", type=int, default=15)
    p.add_argument("--scenarios", default=",".join(SCENARIOS))
    p.add_argument("--write", action="store_true")
    args = p.parse_args()
    scenarios = args.scenarios.split(",")
    unknown = set(scenarios) - set(SCENARIOS)
    if unknown:
        p.error(f"unknown scenario {sorted(unknown)[0]!r}: choose from {', '.join(SCENARIOS)}")
    rows = [measure(label, model, feeds, scenarios, args.reps)
            for label, model, feeds in _models(args.models.split(","))]
    threads = physical_cores()
    text = "\n".join([
        f"Default thread count here: {threads} (one per physical core, both engines).", "",
        *_ratio_table(rows, scenarios), "", *_regions_table(rows)])
    print(text)
    if args.write:
        DOC.write_text(
            "# Threads against onnxruntime\n\nMade by `python benchmarks/threads.py "
            f"--models {args.models} --reps {args.reps} --write` "
            f"(onnxruntime {ort.__version__}, {os.cpu_count()} CPUs). Latencies are medians "
            f"of {args.reps} runs; ratios below 1: infer is faster. The regions table counts "
            "the loops a run hands to the thread pool at 2 and 16 threads, and the work "
            "(time on one thread) of each.\n\n" + text + "\n")


if __name__ == "__main__":
    main()

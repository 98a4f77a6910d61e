"""What an artifact costs and saves, per light model (seeded random weights, level 3):
the cold compile, the artifact's size with f32 and f16 weights (`infer-compile --weights
f16`: compiled with `weights="f16"` and saved so), the weights' memory once loaded, its load
time, a compile that hits the compile cache, how far f16 weights move the outputs and
what they cost in latency.

    python benchmarks/artifacts.py [--models squeezenet,resnet50] [--reps 11] [--write]

--write puts the table in docs/artifacts.md. Accuracy of f16 weights: the largest
difference of any output element from the f32 model's, relative to the output's largest
magnitude, and whether the top-1 class agrees, on the model's input of ONNX's test data.
Latency: the f16 model's median over the f32 one's, runs interleaved.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import onnx

import infer
from infer.model_zoo import LIGHT_MODELS, dummy_inputs, light_model_path, with_random_weights

T = TypeVar("T")
DOC = Path(__file__).resolve().parents[1] / "docs" / "artifacts.md"


def _timed(fn: Callable[..., T], *args: object) -> tuple[T, float]:
    start = time.perf_counter()
    value = fn(*args)
    return value, time.perf_counter() - start


def _weight_mb(model: infer.CompiledModel) -> float:
    return sum(w.nbytes for w in model.native.weights().values()) / 1e6


def _interleaved(models: list[infer.CompiledModel], feeds: dict[str, np.ndarray],
                 reps: int) -> list[float]:
    """Each model's median latency, the models' runs interleaved (after a warm-up run)."""
    times: list[list[float]] = [[] for _ in models]
    for model in models:
        model.run(feeds)
    for _ in range(reps):
        for model, ts in zip(models, times, strict=True):
            ts.append(_timed(model.run, feeds)[1])
    return [float(np.median(ts)) for ts in times]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", default=",".join(LIGHT_MODELS))
    p.add_argument("--reps", type=int, default=11)
    p.add_argument("--write", action="store_true")
    args = p.parse_args()
    work = Path(tempfile.mkdtemp())
    os.environ["INFER_CACHE_DIR"] = str(work / "cache")
    rows = []
    for name in args.models.split(","):
        model = with_random_weights(onnx.load(light_model_path(name)))
        feeds = dummy_inputs(model)
        compiled, compile_s = _timed(infer.compile, model)  # a miss: compiled, then stored
        full, half = work / f"{name}.infer", work / f"{name}.f16.infer"
        compiled.save(full)
        infer.compile_to_file(model, half, weights="f16")
        loaded, load_s = _timed(infer.load, full)
        halved = infer.load(half)
        hit, hit_s = _timed(infer.compile, model)
        ref = next(iter(compiled.run(feeds).values()))
        assert np.array_equal(next(iter(hit.run(feeds).values())), ref)
        assert np.array_equal(next(iter(loaded.run(feeds).values())), ref)
        out = next(iter(halved.run(feeds).values()))
        rel = float(np.abs(out - ref).max() / np.abs(ref).max())
        top1 = np.argmax(out.reshape(len(out), -1), 1) == np.argmax(ref.reshape(len(ref), -1), 1)
        times = _interleaved([loaded, halved], feeds, args.reps)
        rows.append(f"| {name} | {compile_s:.1f} | {full.stat().st_size / 1e6:.1f} | "
                    f"{half.stat().st_size / 1e6:.1f} | {_weight_mb(loaded):.1f} | "
                    f"{_weight_mb(halved):.1f} | {load_s * 1e3:.0f} | {hit_s * 1e3:.0f} | "
                    f"{rel:.1e} | {'yes' if top1.all() else 'no'} | {times[1] / times[0]:.2f} |")
        print(rows[-1], flush=True)
    table = "\n".join([
        "| model | compile (s) | artifact f32 (MB) | artifact f16 (MB) | weights in memory "
        "f32 (MB) | f16 (MB) | load (ms) | cache hit (ms) | f16 max diff / max abs output | "
        "f16 top-1 same | f16 / f32 latency |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|", *rows])
    print(table)
    if args.write:
        DOC.write_text("# Artifacts: size, load time, compile cache, f16 weights\n\n"
                       "Made by `python benchmarks/artifacts.py --write` (level 3, seeded random "
                       "weights, 2-core machine; compile and load times move with the "
                       "machine's load).\n\n" + table + "\n")


if __name__ == "__main__":
    main()

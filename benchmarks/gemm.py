"""GFLOP/s of infer's GEMM vs numpy's BLAS, one thread each.

    python benchmarks/gemm.py [--reps N] [--old]

Each case is an ONNX MatMul of a run-time A [M, K] and constant weights B [K, N] (the
common case: linear layers, Gemm heads, convs as GEMMs), compiled by `infer.compile` for
the host (weights packed at compile time, pack-matmul) and checked against numpy; then
infer and numpy's `a @ b` are timed in interleaved repetitions. Prints a markdown table of
medians, GFLOP/s and the ratio. `--old` adds the loop nests that graph-to-loops emits
without packing (opt level 2), for comparison.

The square sizes, then ResNet-50's convs as GEMMs (M = output pixels, K = C * kh * kw,
N = output channels at batch 1).
"""

from __future__ import annotations

import os

# One BLAS thread: set before numpy loads its BLAS.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import numpy as np  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import infer  # noqa: E402

# name -> (M, K, N)
CASES = {
    "256^3": (256, 256, 256),
    "512^3": (512, 512, 512),
    "1024^3": (1024, 1024, 1024),
    "2048^3": (2048, 2048, 2048),
    "res2 3x3 64": (3136, 576, 64),
    "res3 3x3 128": (784, 1152, 128),
    "res4 3x3 256": (196, 2304, 256),
    "res5 3x3 512": (49, 4608, 512),
}


def _model(b: np.ndarray, m: int):
    k, n = b.shape
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["a", "b"], ["y"])], "gemm",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [m, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [m, n])],
        [numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def _median_seconds(fns: dict[str, Callable[[], object]], reps: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(reps):  # interleaved: a slow spell of the machine hits all alike
        for name, fn in fns.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    return {name: statistics.median(ts) for name, ts in times.items()}


def bench(name: str, reps: int, old: bool) -> str:
    m, k, n = CASES[name]
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    model = _model(b, m)
    fns: dict[str, Callable[[], object]] = {"numpy": lambda: a @ b}
    compiled = {"infer": infer.compile(model, threads=1)}
    if old:
        compiled["old"] = infer.compile(model, opt_level=2, threads=1)
    for label, c in compiled.items():
        np.testing.assert_allclose(c.run({"a": a})["y"], a @ b, rtol=1e-3, atol=1e-3 * k**0.5)
        fns[label] = lambda c=c: c.run({"a": a})
    seconds = _median_seconds(fns, reps)
    gflops = {label: 2 * m * k * n / t / 1e9 for label, t in seconds.items()}
    cells = [f"{gflops['infer']:.1f}", f"{gflops['numpy']:.1f}",
             f"{gflops['infer'] / gflops['numpy']:.2f}"]
    if old:
        cells.append(f"{gflops['old']:.1f}")
    return f"| {name} | {m}x{k}x{n} | " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--old", action="store_true", help="also the unpacked loop nests")
    args = parser.parse_args()
    head = "| case | MxKxN | infer GFLOP/s | numpy GFLOP/s | infer / numpy |"
    print(head + (" old GFLOP/s |" if args.old else ""))
    print("|---" * (5 + args.old) + "|")
    for name in CASES:
        print(bench(name, args.reps, args.old), flush=True)


if __name__ == "__main__":
    main()

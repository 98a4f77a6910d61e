"""infer against onnxruntime, model by model: latency at 1 and 2 threads, compile time and
peak memory, as a markdown table and a bar chart.

    python benchmarks/speed.py [--reps 11] [--models squeezenet,...,text_encoder]
                               [--gemm-reps 7] [--cold-reps 3] [--write]

Models: the nine light model-zoo models with seeded random weights, and a BERT-style
encoder (benchmarks/encoder_model.py: 4 layers, hidden 256, 4 heads, dynamic batch and
sequence length; timed at 1 x 128 tokens).
Latency: both engines in this process on the same inputs, repetitions interleaved,
medians; infer (one compiled model, its thread count set before each run) and onnxruntime
(all graph optimizations) at 1 and at 2 intra-op threads, each timed run right after an
untimed one of its own and 80 ms after the other engine's (both keep threads spinning
after a run; onnxruntime's for about 40 ms). Peak RSS: each engine alone in a
child process on one thread, infer loading the model's saved artifact (as a deployment
does; compiling is not running) and onnxruntime creating its session, then both running
the model 10 times. Then GEMM GFLOP/s against numpy's (benchmarks/gemm.py, in a child
process) and cold compile times, each compile in a fresh process
(benchmarks/cold_compile.py: one-node models, resnet50, densenet121). --write puts the
tables in docs/speed.md and the chart in docs/speed.png (matplotlib, the `bench` extra).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from cold_compile import table as cold_table
from encoder_model import encoder_feeds, encoder_model
from light_models import interleaved_medians

import infer
from infer.model_zoo import LIGHT_MODELS, dummy_inputs, light_model_path, with_random_weights

ROOT = Path(__file__).resolve().parent.parent

DOC, CHART = ROOT / "docs" / "speed.md", ROOT / "docs" / "speed.png"
THREADS = (1, 2)
# Seconds between engines: longer than the spinning of onnxruntime's pool after a run
# (see light_models.interleaved_medians).
SETTLE = 0.08

# A child process: peak RSS (KiB) of running a model 10 times, by engine. VmHWM is this
# process image's own peak; getrusage's ru_maxrss can carry the parent's across a vfork.
_RSS_CHILD = """
import sys, numpy as np
engine, model, feeds = sys.argv[1], sys.argv[2], dict(np.load(sys.argv[3]))
if engine == "infer":
    import infer
    m = infer.load(model, threads=1)
    run = lambda: m.run(feeds)
else:
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    s = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
    run = lambda: s.run(None, feeds)
for _ in range(10):
    run()
print(next(line.split()[1] for line in open("/proc/self/status")
           if line.startswith("VmHWM")))
"""


def _models(names: list[str]) -> list[tuple[str, onnx.ModelProto, dict[str, np.ndarray]]]:
    out = []
    for name in names:
        if name == "encoder":
            out.append(("encoder (1x128)", encoder_model(), encoder_feeds(1, 128)))
        else:
            model = with_random_weights(onnx.load(light_model_path(name)))
            out.append((name, model, dummy_inputs(model)))
    return out


def _session(model: onnx.ModelProto, threads: int) -> ort.InferenceSession:
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])


def _peak_rss(engine: str, model: str, feeds: str) -> float:
    """MiB."""
    r = subprocess.run([sys.executable, "-c", _RSS_CHILD, engine, model, feeds],
                       capture_output=True, text=True, timeout=600, check=True)
    return int(r.stdout.split()[-1]) / 1024


def measure(label: str, model: onnx.ModelProto, feeds: dict[str, np.ndarray], reps: int,
            work: Path) -> dict[str, object]:
    t0 = time.perf_counter()
    compiled = infer.compile(model, cache=False)
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    sessions = {t: _session(model, t) for t in THREADS}
    ort_s = (time.perf_counter() - t0) / len(THREADS)
    def run_infer(threads: int) -> object:
        compiled.threads = threads
        return compiled.run(feeds)

    fns: dict[str, Callable[[], object]] = {}
    for t, s in sessions.items():
        fns[f"infer{t}"] = lambda t=t: run_infer(t)
        fns[f"ort{t}"] = lambda s=s: s.run(None, feeds)
    med = interleaved_medians(fns, reps, settle=SETTLE)
    stem = "".join(c if c.isalnum() else "_" for c in label)
    artifact, onnx_file, npz = (work / f"{stem}{s}" for s in (".infer", ".onnx", ".npz"))
    compiled.save(artifact)
    onnx.save(model, onnx_file)
    np.savez(npz, **feeds)
    return {"model": label, "compile_s": compile_s, "ort_session_s": ort_s,
            **{f"{e}{t}_ms": med[f"{e}{t}"] for t in THREADS for e in ("infer", "ort")},
            "infer_rss": _peak_rss("infer", str(artifact), str(npz)),
            "ort_rss": _peak_rss("ort", str(onnx_file), str(npz))}


def _geomean(values: list[float]) -> float:
    return float(np.exp(np.mean(np.log(values))))


def table(rows: list[dict[str, object]]) -> str:
    lines = ["| model | infer 1 thread (ms) | ort 1 thread (ms) | ratio | infer 2 threads (ms) "
             "| ort 2 threads (ms) | ratio | infer compile (s) | ort session (s) | infer peak "
             "RSS (MiB) | ort peak RSS (MiB) | RSS ratio |", "|---|" + "---:|" * 11]
    for r in rows:
        i1, o1, i2, o2 = (float(r[k]) for k in ("infer1_ms", "ort1_ms", "infer2_ms", "ort2_ms"))
        lines.append(f"| {r['model']} | {i1:.2f} | {o1:.2f} | {i1 / o1:.2f} | {i2:.2f} | "
                     f"{o2:.2f} | {i2 / o2:.2f} | {r['compile_s']:.1f} | "
                     f"{r['ort_session_s']:.2f} | {r['infer_rss']:.0f} | {r['ort_rss']:.0f} | "
                     f"{float(r['infer_rss']) / float(r['ort_rss']):.2f} |")
    light = [r for r in rows if r["model"] in LIGHT_MODELS]
    if light:
        lines.append("")
        for t in THREADS:
            g = _geomean([float(r[f"infer{t}_ms"]) / float(r[f"ort{t}_ms"]) for r in light])
            lines.append(f"Geometric mean of infer / onnxruntime over the {len(light)} light "
                         f"models at {t} thread{'s' * (t > 1)}: {g:.2f}.")
    return "\n".join(lines)


def chart(rows: list[dict[str, object]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [str(r["model"]).split(" ")[0] for r in rows]
    x = np.arange(len(rows))
    fig, ax = plt.subplots(figsize=(max(8, len(rows) * 0.9), 4))
    for k, t in enumerate(THREADS):
        ax.bar(x + (k - 0.5) * 0.4,
               [float(r[f"infer{t}_ms"]) / float(r[f"ort{t}_ms"]) for r in rows], 0.4,
               label=f"infer / onnxruntime, {t} thread{'s' * (t > 1)} each")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(x, names, rotation=30, ha="right")
    ax.set_ylabel("latency ratio (below 1: infer faster)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=11)
    p.add_argument("--models", default=",".join([*LIGHT_MODELS, "encoder"]),
                   help="light model names and 'encoder'")
    p.add_argument("--gemm-reps", type=int, default=7,
                   help="repetitions of each GEMM case (0: no GEMM table)")
    p.add_argument("--cold-reps", type=int, default=3,
                   help="fresh-process compiles of each cold-compile model (0: no table)")
    p.add_argument("--write", action="store_true")
    args = p.parse_args()
    work = Path(tempfile.mkdtemp())
    rows = []
    for label, model, feeds in _models(args.models.split(",")):
        rows.append(measure(label, model, feeds, args.reps, work))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    text = table(rows)
    print(text)
    gemm = gemm_table(args.gemm_reps) if args.gemm_reps else ""
    print(gemm)
    cold = cold_table(COLD_MODELS, args.cold_reps) if args.cold_reps else ""
    print(cold)
    if args.write:
        DOC.write_text(
            "# Speed against onnxruntime\n\nMade by `python benchmarks/speed.py --write` "
            f"(onnxruntime {ort.__version__}, {os.cpu_count()} cores; latency medians of "
            f"{args.reps} interleaved runs; see the script for how each column is "
            "measured).\n\n" + text + "\n\n![latency ratios](speed.png)\n"
            + (f"\n## GEMM\n\n{GEMM_NOTE}\n\n{gemm}\n" if gemm else "")
            + (f"\n## Cold compile\n\n{COLD_NOTE.format(reps=args.cold_reps)}\n\n{cold}\n"
               if cold else ""))
        chart(rows, CHART)


GEMM_NOTE = ("One thread each, medians of interleaved runs (`benchmarks/gemm.py`): an ONNX "
             "MatMul of a run-time A [M, K] by constant weights B [K, N] compiled by infer, "
             "against numpy's `a @ b` (its BLAS); the square sizes, then ResNet-50's 3x3 "
             "convs as GEMMs (M output pixels, K = C * 9, N output channels).")


COLD_MODELS = ["relu", "conv", "resnet50", "densenet121"]
COLD_NOTE = ("Each compile in a fresh process without the compile cache, at level 3, medians "
             "of {reps} (`benchmarks/cold_compile.py`): the import of the engine apart "
             "(infer: `infer.api` and its passes' modules, xDSL and llvmlite among them), then "
             "`infer.compile` against onnxruntime creating its session. `relu` and `conv` "
             "are models of one node: a Relu, a 3x3 Conv of 64 channels, on 1x64x56x56.")


def gemm_table(reps: int) -> str:
    """benchmarks/gemm.py's table, run in a child process: its BLAS must be held to one
    thread before numpy loads, which this process has done."""
    script = Path(__file__).with_name("gemm.py")
    done = subprocess.run([sys.executable, str(script), "--reps", str(reps)],
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


if __name__ == "__main__":
    main()

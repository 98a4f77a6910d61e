"""infer against onnxruntime on the architectures people deploy (benchmarks/zoo: mobile
CNNs, ConvNeXt, ResNet-50, ViT, BERT-style encoders, by both torch.onnx exporters) and on
the nine light models: latency at 1 and 2 threads, the dynamic models against their static
twins, compile time, peak memory and the largest error, as a markdown table and a chart.

    python benchmarks/zoo.py [--models mobilenet_v3_large,...,light_squeezenet] [--reps 11]
                             [--no-static] [--no-rss] [--write]

Each model is compiled (no compile cache) and both engines run it in this process on the
same inputs (images 1x3x224x224, text 1x128 tokens; zoo weights filled from their stored
statistics, model_zoo.zoo_model; light models with seeded random weights), medians:
- 1 thread: repetitions interleaved, each engine's timed run right after the other's.
- 2 threads: each engine in blocks of runs, its first run untimed, blocks alternating
  0.1 s apart (benchmarks/threads.py `blocks`): each pool measured alone.
- static: the zoo models take dynamic batch (and sequence) dims; the same model with its
  inputs fixed to the measured shapes (model_zoo.with_static_inputs), compiled by infer,
  at 1 thread interleaved with the dynamic one: dynamic / static is what dynamic dims cost.
- error: the largest |infer - onnxruntime| over the first output, relative to its largest
  |onnxruntime| value.
- peak RSS: each engine alone in a child process at one thread (speed.py's measure).
--write puts the table in docs/zoo.md and the chart in docs/zoo.png (matplotlib).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from light_models import interleaved_medians
from speed import _geomean, _peak_rss, _session, chart
from threads import blocks

import infer
from infer.model_zoo import (
    LIGHT_MODELS,
    ZOO_MODELS,
    dummy_inputs,
    light_model_path,
    with_random_weights,
    with_static_inputs,
    zoo_inputs,
    zoo_model,
)

ROOT = Path(__file__).resolve().parent.parent
DOC, CHART = ROOT / "docs" / "zoo.md", ROOT / "docs" / "zoo.png"


LIGHT = [f"light_{name}" for name in LIGHT_MODELS]  # as their files are named


def _model(name: str) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    if name in LIGHT:
        model = with_random_weights(onnx.load(light_model_path(name.removeprefix("light_"))))
        return model, dummy_inputs(model)
    model = zoo_model(name)
    return model, zoo_inputs(model)


def _max_rel_error(ours: np.ndarray, ref: np.ndarray) -> float:
    scale = float(np.max(np.abs(ref))) or 1.0
    return float(np.max(np.abs(ours.astype(np.float64) - ref))) / scale


def measure(name: str, reps: int, static: bool, rss: bool, work: Path) -> dict[str, object]:
    model, feeds = _model(name)
    t0 = time.perf_counter()
    compiled = infer.compile(model, cache=False, verbose=False)
    row: dict[str, object] = {"model": name, "compile_s": time.perf_counter() - t0}
    sessions = {t: _session(model, t) for t in (1, 2)}
    ref = sessions[1].run(None, feeds)[0]
    first = model.graph.output[0].name
    row["error"] = _max_rel_error(np.asarray(compiled.run(feeds)[first]), ref)

    def ours(threads: int) -> object:
        compiled.threads = threads
        return compiled.run(feeds)

    fns = {"infer1": lambda: ours(1), "ort1": lambda: sessions[1].run(None, feeds)}
    if static and name in ZOO_MODELS:
        twin = infer.compile(with_static_inputs(model, feeds), cache=False, verbose=False,
                             threads=1)
        fns["static1"] = lambda: twin.run(feeds)
    row.update({f"{k}_ms": v for k, v in interleaved_medians(fns, reps).items()})
    two = blocks({"infer2": lambda: ours(2),
                  "ort2": lambda: sessions[2].run(None, feeds)}, reps)
    row.update({f"{k}_ms": v for k, v in two.items()})
    if rss:
        artifact, onnx_file, npz = (work / f"{name}{s}" for s in (".infer", ".onnx", ".npz"))
        compiled.save(artifact)
        onnx.save(model, onnx_file)
        np.savez(npz, **feeds)
        row["infer_rss"] = _peak_rss("infer", str(artifact), str(npz))
        row["ort_rss"] = _peak_rss("ort", str(onnx_file), str(npz))
    return row


def _cell(row: dict[str, object], key: str, fmt: str) -> str:
    return format(float(row[key]), fmt) if key in row else "-"


def table(rows: list[dict[str, object]]) -> str:
    lines = ["| model | infer 1T (ms) | ort 1T (ms) | ratio 1T | infer 2T (ms) | ort 2T (ms) "
             "| ratio 2T | static 1T (ms) | dynamic / static | compile (s) | infer RSS (MiB) "
             "| ort RSS (MiB) | max rel. error |", "|---|" + "---:|" * 12]
    for r in rows:
        ratio = {t: float(r[f"infer{t}_ms"]) / float(r[f"ort{t}_ms"]) for t in (1, 2)}
        dyn = (f"{float(r['infer1_ms']) / float(r['static1_ms']):.2f}"
               if "static1_ms" in r else "-")
        lines.append(
            f"| {r['model']} | {_cell(r, 'infer1_ms', '.2f')} | {_cell(r, 'ort1_ms', '.2f')} | "
            f"{ratio[1]:.2f} | {_cell(r, 'infer2_ms', '.2f')} | {_cell(r, 'ort2_ms', '.2f')} | "
            f"{ratio[2]:.2f} | {_cell(r, 'static1_ms', '.2f')} | {dyn} | "
            f"{_cell(r, 'compile_s', '.1f')} | {_cell(r, 'infer_rss', '.0f')} | "
            f"{_cell(r, 'ort_rss', '.0f')} | {_cell(r, 'error', '.1e')} |")
    lines.append("")
    for label, group in (("shared zoo", [r for r in rows if r["model"] in ZOO_MODELS]),
                         ("light", [r for r in rows if r["model"] in LIGHT])):
        if not group:
            continue
        for t in (1, 2):
            ratios = [float(r[f"infer{t}_ms"]) / float(r[f"ort{t}_ms"]) for r in group]
            lines.append(f"Over the {len(group)} {label} models at {t} thread{'s' * (t > 1)}: "
                         f"geomean infer / onnxruntime {_geomean(ratios):.2f}, "
                         f"largest {max(ratios):.2f}.")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--models", default=",".join([*ZOO_MODELS, *LIGHT]))
    p.add_argument("--reps", type=int, default=11)
    p.add_argument("--no-static", action="store_true", help="no static twins")
    p.add_argument("--no-rss", action="store_true", help="no peak-memory children")
    p.add_argument("--write", action="store_true")
    args = p.parse_args()
    names = args.models.split(",")
    unknown = sorted(set(names) - set(ZOO_MODELS) - set(LIGHT))
    if unknown:
        p.error(f"unknown models {', '.join(unknown)} (zoo: {', '.join(ZOO_MODELS)}; "
                f"light: {', '.join(LIGHT)})")
    work = Path(tempfile.mkdtemp())
    rows = []
    for name in names:
        rows.append(measure(name, args.reps, not args.no_static, not args.no_rss, work))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    text = table(rows)
    print(text)
    if args.write:
        DOC.write_text(
            "# The architectures people deploy, against onnxruntime\n\nMade by `python "
            f"benchmarks/zoo.py --write` (onnxruntime {ort.__version__}, {os.cpu_count()} "
            f"cores; medians of {args.reps} runs; see the script for how each column is "
            "measured). 1T, 2T: one and two threads each.\n\n" + text
            + "\n\n![latency ratios](zoo.png)\n")
        chart(rows, CHART)


if __name__ == "__main__":
    main()

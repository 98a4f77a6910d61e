"""What a `run` costs beyond the model's arithmetic: infer against onnxruntime on models
whose compute is negligible or small, at one thread, as microseconds per call.

    python benchmarks/call_overhead.py [--blocks 31] [--calls 300] [--write]

Models: one Add of a 1x16 float tensor (nothing but the call path), the same with four
inputs and four outputs, and the BERT-style encoder of benchmarks/encoder_model.py at 1 x 128
tokens (2 layers, hidden 128: a small model that runs often). Each engine is timed in blocks
of `--calls` back-to-back calls, the blocks of the engines interleaved, and the median block
reported per call. infer's checks of the feeds (names, dtypes, shapes) are timed alone too;
the rest of its run is the native call (codegen/entry_call.c: descriptors in, the code,
results out as arrays). `--write` puts the table in docs/call_overhead.md.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from encoder_model import encoder_feeds, encoder_model
from onnx import TensorProto, helper

import infer
from infer.runtime.signature import check_feeds

DOC = Path(__file__).resolve().parent.parent / "docs" / "call_overhead.md"


def _adds(pairs: int) -> onnx.ModelProto:
    """`pairs` independent Adds of a 1x16 input to itself."""
    def info(name: str) -> onnx.ValueInfoProto:
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, [1, 16])

    nodes = [helper.make_node("Add", [f"x{i}", f"x{i}"], [f"y{i}"]) for i in range(pairs)]
    graph = helper.make_graph(nodes, "adds", [info(f"x{i}") for i in range(pairs)],
                              [info(f"y{i}") for i in range(pairs)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _models() -> list[tuple[str, onnx.ModelProto, dict[str, np.ndarray]]]:
    ones = {f"x{i}": np.ones((1, 16), np.float32) for i in range(4)}
    return [("one Add", _adds(1), {"x0": ones["x0"]}),
            ("four Adds (4 in, 4 out)", _adds(4), ones),
            ("encoder 1x128 (2 layers, hidden 128)", encoder_model(layers=2, hidden=128, heads=2),
             encoder_feeds(batch=1, sequence=128))]


def per_call_us(fns: dict[str, Callable[[], object]], blocks: int, calls: int
                ) -> dict[str, float]:
    """Median over `blocks` interleaved blocks of `calls` calls each, in us per call."""
    times: dict[str, list[float]] = {k: [] for k in fns}
    for fn in fns.values():
        for _ in range(calls):
            fn()
    for _ in range(blocks):
        for k, fn in fns.items():
            t = time.perf_counter()
            for _ in range(calls):
                fn()
            times[k].append((time.perf_counter() - t) / calls * 1e6)
    return {k: statistics.median(v) for k, v in times.items()}


def measure(label: str, model: onnx.ModelProto, feeds: dict[str, np.ndarray], blocks: int,
            calls: int) -> dict[str, object]:
    compiled = infer.compile(model, threads=1)
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    want = session.run(None, feeds)
    got = compiled.run(feeds)
    for w, g in zip(want, got.values(), strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-4)
    specs = compiled._feed_specs  # the checks a run makes, timed alone
    t = per_call_us({"infer": lambda: compiled.run(feeds),
                     "onnxruntime": lambda: session.run(None, feeds),
                     "checks": lambda: check_feeds(specs, feeds)}, blocks, calls)
    return {"model": label, **t}


def table(rows: list[dict[str, object]]) -> str:
    lines = ["| model | infer run (us) | onnxruntime run (us) | infer - onnxruntime (us) "
             "| infer: feed checks (us) |",
             "|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['model']} | {r['infer']:.1f} | {r['onnxruntime']:.1f} "
                     f"| {r['infer'] - r['onnxruntime']:+.1f} | {r['checks']:.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blocks", type=int, default=31)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--write", action="store_true", help="write docs/call_overhead.md")
    args = parser.parse_args()
    rows = [measure(label, model, feeds, args.blocks, args.calls)
            for label, model, feeds in _models()]
    text = table(rows)
    print(text)
    if args.write:
        head = DOC.read_text().split("<!-- table -->")[0] if DOC.exists() else ""
        DOC.write_text(f"{head}<!-- table -->\n\n{text}\n")


if __name__ == "__main__":
    main()

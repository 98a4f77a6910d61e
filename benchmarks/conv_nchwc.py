"""Latency of the blocked (NCHWc) conv kernel vs the NCHW graph.conv lowering vs
onnxruntime, one thread each.

    python benchmarks/conv_nchwc.py [--reps N] [--block C] [--batch 1]   (C: the host's)

Each case is one conv written as graph IR twice (graph.conv_nchwc on blocked tensors with
packed weights, graph.conv on NCHW), compiled at opt_level 0 (no graph rewrites), and an
ONNX Conv in onnxruntime. The three are checked against each other, then timed with
interleaved repetitions; prints a markdown table of medians and GFLOP/s. Layout
conversions are not timed (in a model they happen once per chain of blocked ops).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from xdsl.parser import Parser

from infer.api import compile_module
from infer.codegen import target
from infer.context import make_context
from infer.dialects import graph as G
from infer.runtime.compiled_model import CompiledModel
from infer.transforms import nchwc_packing

# name -> (C, M, H, W, k, group)
CASES = {
    "3x3 64->64 56x56": (64, 64, 56, 56, 3, 1),
    "1x1 64->256 56x56": (64, 256, 56, 56, 1, 1),
    "3x3 depthwise 128 56x56": (128, 128, 56, 56, 3, 128),
}


def _t(shape: tuple[int, ...]) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def _compile(
    op: str, shapes: list[tuple[int, ...]], out: tuple[int, ...], attrs: str
) -> CompiledModel:
    params = ", ".join(f"%a{i}: {_t(s)}" for i, s in enumerate(shapes))
    args = ", ".join(f"%a{i}" for i in range(len(shapes)))
    types = ", ".join(_t(s) for s in shapes)
    text = (f"func.func @main({params}) -> {_t(out)} {{\n"
            f"  %y = {op} {args} {{{attrs}}} : ({types}) -> {_t(out)}\n"
            f"  func.return %y : {_t(out)}\n}}\n")
    return compile_module(Parser(make_context(), text).parse_module(), opt_level=0, threads=1)


def bench(name: str, n: int, block: int, reps: int) -> dict[str, str]:
    c, m, h, w_, k, group = CASES[name]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, c, h, w_)).astype(np.float32)
    w = rng.standard_normal((m, c // group, k, k)).astype(np.float32)
    b = rng.standard_normal(m).astype(np.float32)
    p = k // 2
    attrs = f"pads = array<i64: {p}, {p}, {p}, {p}>, group = {group} : i64"
    xb, wp = G.to_blocked(x, block), nchwc_packing.pack_conv_weights(w, block)
    y_blocked = (n, m // block, h, w_, block)
    blocked = _compile("graph.conv_nchwc", [xb.shape, wp.shape, b.shape], y_blocked, attrs)
    plain = _compile("graph.conv", [x.shape, w.shape, b.shape], (n, m, h, w_), attrs)

    node = helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[p] * 4, group=group)
    graph = helper.make_graph(
        [node], "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])

    feeds_b = {"input0": xb, "input1": wp, "input2": b}
    feeds_p = {"input0": x, "input1": w, "input2": b}
    fns: dict[str, Callable[[], object]] = {
        "nchwc": lambda: blocked.run(feeds_b),
        "nchw": lambda: plain.run(feeds_p),
        "onnxruntime": lambda: sess.run(None, {"x": x}),
    }
    ref = sess.run(None, {"x": x})[0]
    (ours_b,) = blocked.run(feeds_b).values()
    (ours_p,) = plain.run(feeds_p).values()
    np.testing.assert_allclose(G.from_blocked(ours_b), ref, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(ours_p, ref, rtol=1e-3, atol=1e-3)

    times: dict[str, list[float]] = {key: [] for key in fns}
    for f in fns.values():  # warm-up
        f()
    for _ in range(reps):
        for key, f in fns.items():
            t0 = time.perf_counter()
            f()
            times[key].append(time.perf_counter() - t0)
    med = {key: statistics.median(v) for key, v in times.items()}
    gflop = 2 * n * m * (c // group) * k * k * h * w_ / 1e9
    row = {"case": name}
    for key, t in med.items():
        row[key] = f"{t * 1e3:.3f} ms ({gflop / t:.0f} GFLOP/s)"
    row["nchw / nchwc"] = f"{med['nchw'] / med['nchwc']:.2f}"
    row["nchwc / ort"] = f"{med['nchwc'] / med['onnxruntime']:.2f}"
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--block", type=int, default=target.nchwc_block())
    ap.add_argument("--batch", type=int, default=1)
    args = ap.parse_args()
    rows = [bench(name, args.batch, args.block, args.reps) for name in CASES]
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(r[col] for col in cols) + " |")


if __name__ == "__main__":
    main()

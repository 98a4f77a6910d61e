"""int8 against fp32 latency, for infer and onnxruntime in the same run, one thread each.

    python benchmarks/int8.py [--reps N] [--models squeezenet,resnet50] [--write]

Each light model-zoo model gets seeded random weights (model_zoo.with_random_weights) and
is pre-processed (quant_pre_process: BatchNormalization folded into the convs) and
quantized by onnxruntime.quantization.quantize_static, calibrated on four random inputs,
in both formats: QDQ (QuantizeLinear/DequantizeLinear around float ops, weights s8 per
channel) and QOperator (QLinearConv, QLinearAdd, ... weights s8 per tensor); activations
u8. The fp32 model and both int8 models run in infer and onnxruntime; all six are timed
round-robin (warm-up, then each once per round) and the medians compared. Ratios: int8 /
fp32 of each engine (below 1: int8 is faster) and infer / onnxruntime of each format.
`--write` puts the table in docs/int8.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.quantization import (
    CalibrationDataReader,
    QuantFormat,
    QuantType,
    quantize_static,
)
from onnxruntime.quantization.shape_inference import quant_pre_process

import infer
from infer.codegen.target import host_target
from infer.model_zoo import dummy_inputs, light_model_path, with_random_weights

DOC = Path(__file__).resolve().parent.parent / "docs" / "int8.md"
FORMATS = {"QDQ": (QuantFormat.QDQ, True), "QOperator": (QuantFormat.QOperator, False)}


class _Reader(CalibrationDataReader):
    def __init__(self, feeds: list[dict[str, np.ndarray]]) -> None:
        self.feeds = iter(feeds)

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self.feeds, None)


def _samples(model: onnx.ModelProto, count: int, seed: int) -> list[dict[str, np.ndarray]]:
    r = np.random.default_rng(seed)
    return [{k: r.standard_normal(v.shape).astype(np.float32)
             for k, v in dummy_inputs(model).items()} for _ in range(count)]


def quantized(model: onnx.ModelProto, fmt: str) -> onnx.ModelProto:
    """`model` (opset raised to 13) quantized by onnxruntime's static quantizer."""
    quant_format, per_channel = FORMATS[fmt]
    model = onnx.version_converter.convert_version(model, 13)
    with tempfile.TemporaryDirectory() as tmp:
        raw, src, dst = (os.path.join(tmp, f) for f in ("r.onnx", "f.onnx", "q.onnx"))
        onnx.save(model, raw)
        # the pre-processing onnxruntime's quantizer asks for: BatchNormalization folded
        # into the convs, so that they, not a float BN between them, are quantized
        quant_pre_process(raw, src, skip_symbolic_shape=True)  # static shapes: onnx's do
        # the final Softmax stays float: infer has no QLinearSoftmax (onnxruntime's is a
        # table lookup of its own)
        softmax = [n.name for n in model.graph.node if n.op_type == "Softmax"]
        quantize_static(src, dst, _Reader(_samples(model, 4, seed=0)),
                        quant_format=quant_format, per_channel=per_channel,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        nodes_to_exclude=softmax)
        return onnx.load(dst)


def _session(model: onnx.ModelProto) -> ort.InferenceSession:
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3  # not the light models' initializers-as-inputs warnings
    return ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])


def medians(fns: dict[str, Callable[[], object]], reps: int
            ) -> tuple[dict[str, float], dict[str, float]]:
    """Median ms of each function over `reps` rounds calling each once in turn (after a
    warm-up call each): by the wall clock, and by this thread's CPU time (both engines
    compute on the calling thread at one thread), which a busy machine disturbs less."""
    wall: dict[str, list[float]] = {k: [] for k in fns}
    cpu: dict[str, list[float]] = {k: [] for k in fns}
    for fn in fns.values():
        fn()
    for _ in range(reps):
        for k, fn in fns.items():
            t, c = time.perf_counter(), time.thread_time()
            fn()
            cpu[k].append((time.thread_time() - c) * 1e3)
            wall[k].append((time.perf_counter() - t) * 1e3)
    return ({k: statistics.median(v) for k, v in wall.items()},
            {k: statistics.median(v) for k, v in cpu.items()})


def bench(name: str, reps: int) -> tuple[dict[str, float], dict[str, float]]:
    """Median ms (wall, CPU) of fp32 / QDQ / QOperator in infer and onnxruntime on model
    `name`."""
    fp32 = with_random_weights(onnx.load(light_model_path(name)))
    feeds = _samples(fp32, 1, seed=1)[0]
    models = {"fp32": fp32, **{f: quantized(fp32, f) for f in FORMATS}}
    fns = {}
    for label, model in models.items():
        # one thread as onnxruntime here (the CPU time of the calling thread is then all
        # of the work); no compile cache, whose key has infer's version, not its source
        compiled = infer.compile(model, threads=1, cache=False)
        sess = _session(model)
        ours, theirs = compiled.run(feeds), sess.run(None, feeds)
        diff = max(float(np.max(np.abs(a - b)))
                   for a, b in zip(ours.values(), theirs, strict=True))
        print(f"{name} {label}: max |infer - onnxruntime| = {diff:.3g}", file=sys.stderr)
        fns[f"infer {label}"] = lambda c=compiled: c.run(feeds)
        fns[f"ort {label}"] = lambda s=sess: s.run(None, feeds)
    return medians(fns, reps)


def table(results: dict[str, dict[str, float]]) -> list[str]:
    lines = ["| model | format | infer fp32 ms | infer int8 ms | int8/fp32 | ort fp32 ms | "
             "ort int8 ms | int8/fp32 | infer/ort int8 |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, t in results.items():
        for fmt in FORMATS:
            ours, theirs = t[f"infer {fmt}"], t[f"ort {fmt}"]
            lines.append(f"| {name} | {fmt} | {t['infer fp32']:.2f} | {ours:.2f} | "
                         f"{ours / t['infer fp32']:.2f} | {t['ort fp32']:.2f} | "
                         f"{theirs:.2f} | {theirs / t['ort fp32']:.2f} | "
                         f"{ours / theirs:.2f} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--models", default="squeezenet,resnet50")
    ap.add_argument("--write", action="store_true", help=f"write the table to {DOC}")
    args = ap.parse_args()
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    results = {name: bench(name, args.reps) for name in args.models.split(",")}
    lines = ["By the wall clock:", "", *table({k: v[0] for k, v in results.items()}), "",
             "By the CPU time of the calling thread:", "",
             *table({k: v[1] for k, v in results.items()})]
    print("\n".join(lines))
    vnni, lanes = host_target().int8_kernel()
    setup = (f"{platform.processor() or platform.machine()} ({host_target().cpu}), int8 "
             f"kernels: {'vpdpbusd' if vnni else 'vpmaddwd'} on {lanes} i32 lanes; "
             f"onnxruntime {ort.__version__}; one thread each; median of {args.reps} "
             f"interleaved runs; load average {load:.2f} at the start; "
             f"{time.perf_counter() - t0:.0f} s in all.")
    print(setup)
    if args.write:
        DOC.write_text(DOC_HEAD + "\n".join(lines) + "\n\n" + setup + "\n" + DOC_TAIL)


DOC_HEAD = """# int8 against fp32

Measured by `python benchmarks/int8.py --write` (see the script for the set-up): the light
SqueezeNet 1.0 and ResNet-50 of the ONNX model zoo with seeded random weights, quantized by
onnxruntime's `quantize_static` (after its `quant_pre_process`, which folds
BatchNormalization into the convs) as QDQ (per-channel s8 weights) and as QOperator
(per-tensor), u8 activations, batch 1; the final Softmax is left in float. Columns: median
latency; int8/fp32 below 1 means int8 is faster; infer/ort int8 below 1 means infer is
faster than onnxruntime on the same int8 model. The wall clock is what a caller waits;
on a shared machine the CPU time of the calling thread (where both engines compute at
one thread) is the steadier measure.

"""

DOC_TAIL = """
How infer computes them: `qnn-canonicalize` turns each requantized conv and matmul by
constant weights into one qnn.conv_requant / qnn.matmul_requant (zero-point terms folded
into the int32 bias), `qnn-legalize` packs the weights for the host's int8 dot product
(vpdpbusd with AVX512-VNNI or AVX-VNNI, else vpmaddwd on i16), and the kernels
(lowering/graph_ops/qnn_int8.py) run on the 8-bit data and requantize in their epilogue.
Between them, pools and concats move 8-bit values (a concat of inputs in other scales is
one qnn.concat, which requantizes them: QLinearConcat, or Q(concat(DQ(x)...)) of a QDQ
model); qnn.quantize and qnn.dequantize remain at the float boundaries. ResNet-50's
residual Sum and its Relu stay float between a dequantize and a quantize in both engines
(onnxruntime's quantizer leaves ONNX Sum unquantized).
"""

if __name__ == "__main__":
    main()

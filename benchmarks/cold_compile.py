"""Cold compile times: each model compiled in a fresh process, no compile cache, against
onnxruntime creating its session in a fresh process.

    python benchmarks/cold_compile.py [--reps 3] [--models relu,conv,resnet50,densenet121]

A child process per run and engine, on a model saved to disk: it imports the engine
(`infer.api` and the modules of the pipeline's passes, which a first compile imports:
xDSL, our dialects, llvmlite; `onnxruntime`), then times
`infer.compile(path, cache=False)` at the default level 3 (forked parts included) or
`onnxruntime.InferenceSession(path)` (all graph optimizations). Both are reported apart
from the import, like a session's creation time. Medians of `--reps` runs, interleaved.
`relu` is one Relu node on [1, 64, 56, 56], `conv` one 3x3 Conv of 64 channels on 56x56;
the others are the light model-zoo models with seeded random weights.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from infer.model_zoo import light_model_path, with_random_weights

_CHILD = """
import sys, time
engine, path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
if engine == "infer":
    import infer.api
    from infer import pipeline
    pipeline.make_passes(pipeline.compile_passes())  # imports every pass's module
    t1 = time.perf_counter()
    infer.api.compile(path, cache=False)
else:
    import onnxruntime as ort
    t1 = time.perf_counter()
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
print(t1 - t0, time.perf_counter() - t1)
"""


def one_node(kind: str) -> onnx.ModelProto:
    """A model of one node: a Relu, or a 3x3 Conv of 64 channels (seeded weights)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64, 56, 56])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 64, 56, 56])
    if kind == "relu":
        nodes, inits = [helper.make_node("Relu", ["x"], ["y"])], []
    else:
        w = np.random.default_rng(0).standard_normal((64, 64, 3, 3)).astype(np.float32)
        nodes = [helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])]
        inits = [numpy_helper.from_array(w, "w")]
    graph = helper.make_graph(nodes, kind, [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _model(name: str) -> onnx.ModelProto:
    if name in ("relu", "conv"):
        return one_node(name)
    return with_random_weights(onnx.load(light_model_path(name)))


def _run(engine: str, path: Path) -> tuple[float, float]:
    """(import s, compile or session s) of one fresh process."""
    done = subprocess.run([sys.executable, "-c", _CHILD, engine, str(path)],
                          capture_output=True, text=True, timeout=900, check=True)
    imported, made = done.stdout.split()[-2:]
    return float(imported), float(made)


def table(names: list[str], reps: int) -> str:
    """The markdown table of medians, one row per model."""
    lines = ["| model | infer import (s) | infer compile (s) | ort import (s) "
             "| ort session (s) |", "|---|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            path = Path(work) / f"{name}.onnx"
            onnx.save(_model(name), path)
            runs: dict[str, list[tuple[float, float]]] = {"infer": [], "ort": []}
            for _ in range(reps):
                for engine in runs:
                    runs[engine].append(_run(engine, path))
            med = {e: [statistics.median(r[i] for r in rs) for i in (0, 1)]
                   for e, rs in runs.items()}
            lines.append(f"| {name} | {med['infer'][0]:.2f} | {med['infer'][1]:.2f} | "
                         f"{med['ort'][0]:.2f} | {med['ort'][1]:.2f} |")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--models", default="relu,conv,resnet50,densenet121")
    args = p.parse_args()
    print(table(args.models.split(","), args.reps))


if __name__ == "__main__":
    main()

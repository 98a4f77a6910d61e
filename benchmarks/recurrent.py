"""Recurrent nets at small batch: LSTM and GRU, infer against onnxruntime at one thread.

    python benchmarks/recurrent.py [--reps 41] [--write]

Models: two stacked layers (ONNX LSTM or GRU nodes, constant weights, as exporters write
them) over 32 steps of 64 features, hidden 64, 128 and 256, at batch 1, 2 and 4; and a
streaming call (8 steps, the state passed in and out, as a voice-activity model runs chunk
by chunk). Each row is light_models.py's `bench_model`: the median over `--reps`
interleaved calls of each engine, with infer's compile time and the largest difference of
the outputs. `--write` puts the table in docs/recurrent.md.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np
import onnx
from light_models import bench_model, table
from onnx import TensorProto, helper, numpy_helper

DOC = Path(__file__).resolve().parent.parent / "docs" / "recurrent.md"
GATES = {"LSTM": 4, "GRU": 3}
STEPS, FEATURES = 32, 64


def stacked(kind: str, steps: int, batch: int, hidden: int, layers: int = 2,
            state: bool = False) -> onnx.ModelProto:
    """`layers` recurrent nodes of `kind` on x [steps, batch, FEATURES]; with `state`, the
    first layer's initial states are inputs and its final ones outputs."""
    rng = np.random.default_rng(0)
    gates, nodes, inits = GATES[kind], [], []
    x = "x"
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [steps, batch, FEATURES])]
    outputs = []
    for layer in range(layers):
        width = FEATURES if layer == 0 else hidden
        for name, shape in ((f"W{layer}", (1, gates * hidden, width)),
                            (f"R{layer}", (1, gates * hidden, hidden)),
                            (f"B{layer}", (1, 2 * gates * hidden))):
            weights = rng.standard_normal(shape) / np.sqrt(hidden)
            inits.append(numpy_helper.from_array(weights.astype(np.float32), name))
        names = [x, f"W{layer}", f"R{layer}", f"B{layer}"]
        outs = [f"y{layer}"]
        if state and layer == 0:
            names += ["", "h0"] + (["c0"] if kind == "LSTM" else [])
            outs += ["h1"] + (["c1"] if kind == "LSTM" else [])
            for s in names[5:]:
                inputs.append(helper.make_tensor_value_info(s, TensorProto.FLOAT,
                                                            [1, batch, hidden]))
            outputs += [helper.make_tensor_value_info(s, TensorProto.FLOAT, [1, batch, hidden])
                        for s in outs[1:]]
        nodes.append(helper.make_node(kind, names, outs, hidden_size=hidden))
        nodes.append(helper.make_node("Squeeze", [f"y{layer}", "one"], [f"s{layer}"]))
        x = f"s{layer}"
    inits.append(numpy_helper.from_array(np.array([1], np.int64), "one"))
    outputs.insert(0, helper.make_tensor_value_info(x, TensorProto.FLOAT,
                                                    [steps, batch, hidden]))
    graph = helper.make_graph(nodes, f"{kind.lower()}_stack", inputs, outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def feeds_for(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(1)
    return {v.name: rng.standard_normal([d.dim_value for d in v.type.tensor_type.shape.dim]
                                        ).astype(np.float32) for v in model.graph.input}


def cases() -> list[tuple[str, onnx.ModelProto]]:
    out = []
    for kind in GATES:
        for hidden in (64, 128, 256):
            for batch in (1, 2, 4):
                out.append((f"{kind} 2 layers, hidden {hidden}, batch {batch}",
                            stacked(kind, STEPS, batch, hidden)))
        out.append((f"{kind} streaming: 8 steps, state in and out, hidden 128, batch 1",
                    stacked(kind, 8, 1, 128, state=True)))
    return out


def main() -> None:
    os.environ.setdefault("INFER_CACHE_DIR", "")  # every model compiled, none stored
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=41)
    parser.add_argument("--write", action="store_true", help="write docs/recurrent.md")
    args = parser.parse_args()
    rows = []
    for label, model in cases():
        rows.append(bench_model(label, model, feeds_for(model), args.reps))
        print(f"{label}: {rows[-1]['ratio']:.2f}", flush=True)
    text = "\n".join(table(rows))
    print(text)
    if args.write:
        DOC.write_text(
            "# Recurrent nets at small batch\n\n"
            "`python benchmarks/recurrent.py --write`: infer against onnxruntime at one "
            "thread, median ms over interleaved calls on this machine (see the script's "
            "doc for the models). The recurrence runs each step as one small GEMM over the "
            "batch rows (R^T packed in panels at compile time) followed by the gates, "
            "vectorized (lowering/graph_ops/recurrent.py).\n\n" + text + "\n")


if __name__ == "__main__":
    main()

"""The memory plan of each light model (seeded random weights, level 3): the arena its
intermediates share, against the sum of those intermediates each in a buffer of its own,
and how many allocations stay on malloc (dynamic sizes, results, kernels' own).

    python benchmarks/memory_plan.py [--models squeezenet,resnet50] [--verify]

--verify also runs each model once and compares with onnxruntime (no timing).
"""

from __future__ import annotations

import argparse

import numpy as np
import onnx

import infer
from infer.model_zoo import LIGHT_MODELS, dummy_inputs, light_model_path, with_random_weights


def _mib(n: int) -> str:
    return f"{n / 2**20:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(LIGHT_MODELS))
    parser.add_argument("--verify", action="store_true")
    args = parser.parse_args()
    print("| model | arena MiB | intermediates MiB | arena / sum | planned | on malloc |"
          + (" max abs diff |" if args.verify else ""))
    print("|---|---:|---:|---:|---:|---:|" + ("---:|" if args.verify else ""))
    for name in args.models.split(","):
        model = with_random_weights(onnx.load(light_model_path(name)))
        compiled = infer.compile(model)
        plan = compiled.memory_plan
        assert plan is not None, name
        row = (f"| {name} | {_mib(plan.arena)} | {_mib(plan.total)} | "
               f"{plan.arena / max(plan.total, 1):.2f} | {plan.buffers} | {plan.unplanned} |")
        if args.verify:
            import onnxruntime as ort

            feeds = dummy_inputs(model)
            ours = compiled.run(feeds)
            ref = ort.InferenceSession(model.SerializeToString()).run(None, feeds)
            diff = max(float(np.abs(np.asarray(ours[k]) - r).max())
                       for k, r in zip(compiled.output_names, ref, strict=True))
            row += f" {diff:.2e} |"
        print(row, flush=True)


if __name__ == "__main__":
    main()

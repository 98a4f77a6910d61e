"""Throughput of batch inference on Ray against calling the compiled model directly:
images/s of SqueezeNet (light, seeded random weights, a dynamic batch dim) over a
dataset of random 224x224 images (one numpy array, `ray.data.from_numpy`), directly in a
loop on one thread and on the default threads, then through 1 and 2 Ray workers of one
CPU each (a local cluster; its start is not counted, each run's actor start, artifact load
and the images' move into the object store are).

    python benchmarks/ray_throughput.py [--images 512] [--batch-size 32] [--write]

--write puts the table in docs/ray_throughput.md.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import onnx

import infer
from infer.model_zoo import graph_inputs, light_model_path, with_random_weights

DOC = Path(__file__).resolve().parents[1] / "docs" / "ray_throughput.md"
HEADER = """# Batch inference on Ray

Made by `python benchmarks/ray_throughput.py --write` on a 2-core machine: a local Ray
cluster of 2 CPUs, the driver and Ray's own processes on the same two cores as the
workers. Each Ray run counts its actors' start and artifact load.

"""
SCALING = """## How it scales past one machine

- **What is shipped.** The driver reads the artifact once, checks its hashes (and its
  signature, given a key) and puts its bytes in Ray's object store; each worker fetches
  them from there (once per machine: the object store is shared by the workers of a node)
  and maps the code. Workers need infer's runtime installed (it imports no compiler:
  llvmlite, numpy and infer's own modules) and a CPU with the features the artifact was
  compiled for: `infer-compile --target x86-64-v3` makes one file for a mixed fleet, and a
  worker without a feature refuses it by name rather than crashing.
- **What a worker holds.** One copy of the weights (the aligned buffers the code reads),
  the mapped code (well under a megabyte for these models), and the batches in flight:
  the input batch, the model's intermediate buffers and its outputs. No compiler, no
  ONNX model, no IR.
- **What limits it.** On one machine, Ray is slower than a plain loop over the compiled
  model on infer's own threads (the table: about 0.6x at 2,048 images, 0.4x at 512): its
  workers start as processes and load the artifact (seconds, counted here), the images
  move through the object store and are split into blocks of a batch (one array is one
  block, which would keep all but one worker idle), and Ray's own processes share the
  same cores. Each worker runs one batch at a time on one core, so throughput grows with
  workers until the cluster's cores are used, and the fixed costs shrink with the
  dataset. Use Ray to spread a dataset over several machines; on one, call the model
  directly with its default threads.
"""


def _dynamic_batch(model: onnx.ModelProto) -> onnx.ModelProto:
    for v in [*graph_inputs(model), *model.graph.output]:
        v.type.tensor_type.shape.dim[0].dim_param = "N"
    return model


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--images", type=int, default=512)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--write", action="store_true")
    args = p.parse_args()
    os.environ.setdefault("INFER_CACHE_DIR", "")
    import ray

    model = _dynamic_batch(with_random_weights(onnx.load(light_model_path("squeezenet"))))
    name = graph_inputs(model)[0].name
    compiled = infer.compile(model, threads=1)  # as each 1-CPU worker runs it
    path = Path(tempfile.mkdtemp()) / "squeezenet.infer"
    compiled.save(path)
    images = np.random.default_rng(0).random((args.images, 3, 224, 224), np.float32)

    rates = {}
    for threads in (1, None):  # one thread, as each worker; the default, as a user's loop
        compiled.threads = threads
        start = time.perf_counter()
        for i in range(0, args.images, args.batch_size):
            compiled.run({name: images[i:i + args.batch_size]})
        how = "1 thread" if threads else f"default threads: {compiled.threads}"
        rates[f"direct ({how})"] = args.images / (time.perf_counter() - start)

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    # the images as a user hands them over: one array (one block), in the object store
    ds = ray.data.from_numpy(images)
    for workers in (1, 2):
        start = time.perf_counter()
        from infer import ray_batch

        out = ray_batch.predict(ds, path, {name: "data"}, concurrency=workers,
                                batch_size=args.batch_size)
        n = sum(len(b[next(iter(b))]) for b in out.iter_batches(batch_format="numpy"))
        assert n == args.images
        rates[f"Ray, {workers} worker{'s' * (workers > 1)}"] = n / (time.perf_counter() - start)
    ray.shutdown()

    base = rates["direct (1 thread)"]
    best_direct = max(v for k, v in rates.items() if k.startswith("direct"))
    lines = [f"SqueezeNet 1.0 (light, random weights), {args.images} images of 3x224x224, "
             f"batches of {args.batch_size}, artifact {path.stat().st_size / 1e6:.1f} MB:",
             "", "| how | images/s | vs direct, 1 thread | vs the faster direct loop |",
             "|---|---:|---:|---:|"]
    lines += [f"| {k} | {v:.1f} | {v / base:.2f}x | {v / best_direct:.2f}x |"
              for k, v in rates.items()]
    table = "\n".join(lines)
    print(table)
    if args.write:
        DOC.write_text(HEADER + table + "\n\n" + SCALING)

if __name__ == "__main__":
    main()

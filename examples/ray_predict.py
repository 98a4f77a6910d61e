"""Batch inference over a dataset on Ray with a compiled model: each worker loads the
artifact once and runs batches through it.

    infer-compile model.onnx -o model.infer --target x86-64-v3 --sign-key key.pem
    python examples/ray_predict.py model.infer data/ --out predictions.parquet \\
        --workers 2 [--column data] [--verify-key key.pub.pem] [--address auto]

DATA is a folder of .npy files (or one), each row a sample (Ray Data's read_numpy: a
column "data"), or of .parquet files (any columns: --column names the one fed to the
model's input). The predictions, one row per sample with every model output, are
written as parquet. --address joins a running cluster (`ray start --head` on one machine,
`ray start --address=...` on the others); without it a local one is started.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import ray

import infer
from infer import ray_batch
from infer.runtime.signing import read_key_file


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("artifact", help="a compiled model (.infer)")
    p.add_argument("data", help="a folder of .npy or .parquet files, or one such file")
    p.add_argument("--out", required=True, help="the predictions' parquet folder")
    p.add_argument("--column", default="data", help="the column fed to the model's input")
    p.add_argument("--workers", type=int, default=2, help="actors, one CPU each")
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--verify-key", help="refuse the artifact unless signed by this key")
    p.add_argument("--address", help="a running Ray cluster's address (or 'auto')")
    args = p.parse_args()

    data = Path(args.data)
    files = sorted(data.glob("*")) if data.is_dir() else [data]
    kinds = {f.suffix for f in files}
    if kinds not in ({".npy"}, {".parquet"}):
        sys.exit(f"ray_predict: {args.data} holds {sorted(kinds)}: .npy or .parquet files")
    key = None if args.verify_key is None else read_key_file(args.verify_key)
    model = infer.load(args.artifact, verify_key=key)  # checked here before any worker
    (name,) = model.input_names

    ray.init(address=args.address)
    paths = [str(f) for f in files]
    ds = ray.data.read_numpy(paths) if kinds == {".npy"} else ray.data.read_parquet(paths)
    start = time.perf_counter()
    out = ray_batch.predict(ds, args.artifact, {name: args.column},
                            concurrency=args.workers, batch_size=args.batch_size,
                            verify_key=key)
    out.write_parquet(args.out)
    seconds = time.perf_counter() - start
    rows = ray.data.read_parquet(args.out).count()
    print(f"{rows} samples in {seconds:.2f} s ({rows / seconds:.1f}/s) on {args.workers} "
          f"workers; predictions in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

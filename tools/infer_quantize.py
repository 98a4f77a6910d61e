"""`infer-quantize`: quantize a float ONNX model to int8 on sample inputs, as a QDQ ONNX model
that infer and onnxruntime run.

    infer-quantize model.onnx --calibration DATA --out model_int8.onnx
                   [--method minmax|percentile|entropy] [--activations uint8|int8]
                   [--percentile P] [--quiet]

DATA is an .npz file with one array per model input, samples stacked along the first
axis, or a folder of such files. Exit status: 0 when written, 1 on any error (a one-line
message; nothing written then), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from infer.tools.cli import ArgumentParser, run_main


def run(args: argparse.Namespace) -> int:
    from infer.quantization import quantize

    model = quantize(args.model, args.calibration, args.out, method=args.method,
                     activations=args.activations, percentile=args.percentile,
                     progress=not args.quiet)
    pairs = sum(n.op_type == "QuantizeLinear" for n in model.graph.node)
    print(f"quantized {args.model} ({args.method}, {args.activations} activations, "
          f"{pairs} quantized tensors); wrote {args.out} ({os.path.getsize(args.out):,} bytes)")
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    p = ArgumentParser(prog="infer-quantize", description=__doc__.split("\n\n")[0],
                       epilog="exit status: 0 written, 1 an error, 130 Ctrl-C")
    p.add_argument("model", help="path to a float .onnx model")
    p.add_argument("--calibration", required=True, metavar="DATA",
                   help="an .npz file (one array per input, samples along axis 0) or a folder")
    p.add_argument("--out", required=True, metavar="FILE", help="the QDQ model to write")
    p.add_argument("--method", choices=["minmax", "percentile", "entropy"], default="minmax")
    p.add_argument("--activations", choices=["uint8", "int8"], default="uint8",
                   help="uint8 asymmetric (default) or int8 symmetric activations")
    p.add_argument("--percentile", type=float, default=99.999, metavar="P",
                   help="with --method percentile: the percent of values kept")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if not 50 < args.percentile <= 100:
        p.error("--percentile must be in (50, 100]")
    run_main("infer-quantize", lambda: run(args))


if __name__ == "__main__":
    main()

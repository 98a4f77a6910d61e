"""`infer-compile`: compile an ONNX model once and save the native code, for `infer-run`,
`infer.load` and `infer.InferenceSession` to load without compiling.

    infer-compile model.onnx [-o model.infer] [--opt-level N] [--target CPU]
                  [--sign-key KEY] [--weights f32|f16] [--no-cache] [-v]

--target compiles for another CPU than this one (an x86-64 level such as x86-64-v3, or a
named CPU), which this one need not be; --sign-key signs the file with an Ed25519 private
key (a PEM file) or an HMAC secret (any other file), for `infer.load(..., verify_key=)`
and `infer-run --verify-key` to check. The compile cache is used as `infer.compile` uses
it (a model compiled before is written without compiling); --no-cache compiles anyway.

Exit status: 0 when written, 1 on any error (a one-line message, usage errors included;
nothing is left at the output path then), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from pathlib import Path

from infer.pipeline import DEFAULT_OPT_LEVEL
from infer.tools.cli import ArgumentParser, run_main


def run(args: argparse.Namespace) -> int:
    import infer
    from infer.runtime.artifact import SUFFIX

    out = args.output or str(Path(args.model).with_suffix(SUFFIX))
    if Path(out).resolve() == Path(args.model).resolve():
        raise ValueError(f"the output '{out}' would overwrite the model")
    from infer.api import resolve_target
    from infer.runtime.signing import read_key_file

    target = resolve_target(args.target)  # an unknown name fails before compiling
    key = None if args.sign_key is None else read_key_file(args.sign_key)
    t0 = time.perf_counter()
    infer.compile_to_file(args.model, out, opt_level=args.opt_level, target=target,
                          sign_key=key, weights=args.weights, verbose=args.verbose or None,
                          cache=not args.no_cache)
    compile_s = time.perf_counter() - t0
    signed = "" if key is None else ", signed"
    print(f"compiled {args.model} at opt level {args.opt_level} for {target.cpu} in "
          f"{compile_s:.2f} s; wrote {out} ({os.path.getsize(out):,} bytes, "
          f"{args.weights} weights{signed})")
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    p = ArgumentParser(prog="infer-compile", description=__doc__.split("\n\n")[0],
                       epilog="exit status: 0 written, 1 an error, 130 Ctrl-C")
    p.add_argument("model", help="path to an .onnx model")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="the compiled model to write (default: the model's path with .infer)")
    p.add_argument("--opt-level", type=int, default=DEFAULT_OPT_LEVEL, choices=range(4),
                   metavar="N", help="graph optimization level: 0 none, 1 basic, 2 extended, "
                   f"3 all (default {DEFAULT_OPT_LEVEL})")
    p.add_argument("--target", default="host", metavar="CPU",
                   help="the CPU to compile for: host (default), x86-64-v2/v3/v4, or a named "
                   "CPU such as skylake-avx512 or znver4")
    p.add_argument("--sign-key", metavar="KEY",
                   help="sign with this key file: Ed25519 private key (PEM) or HMAC secret")
    p.add_argument("--weights", choices=["f32", "f16"], default="f32",
                   help="hold f32 weights as f16, in the file and in memory (half the "
                   "size; computed in f32)")
    p.add_argument("--no-cache", action="store_true",
                   help="compile even if the compile cache ($INFER_CACHE_DIR) holds the "
                   "model, and store nothing there")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print the time of each compile stage on stderr")
    args = p.parse_args(argv)
    run_main("infer-compile", lambda: run(args))


if __name__ == "__main__":
    main()

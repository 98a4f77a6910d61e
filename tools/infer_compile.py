"""`infer-compile`: compile an ONNX model once and save the native code, for `infer-run`,
`infer.load` and `infer.InferenceSession` to load without compiling.

    infer-compile model.onnx [-o model.infer] [--opt-level N] [-v]

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
    t0 = time.perf_counter()
    compiled = infer.compile(args.model, opt_level=args.opt_level,
                             verbose=args.verbose or None)
    compile_s = time.perf_counter() - t0
    compiled.save(out)
    print(f"compiled {args.model} at opt level {args.opt_level} in {compile_s:.2f} s; "
          f"wrote {out} ({os.path.getsize(out):,} bytes)")
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
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print the time of each compile stage on stderr")
    args = p.parse_args(argv)
    run_main("infer-compile", lambda: run(args))


if __name__ == "__main__":
    main()

"""`python -m infer`: the version and the commands, or one of them run by name.

    python -m infer                     usage and version
    python -m infer run model.onnx ...  infer-run
    python -m infer opt model.onnx ...  infer-opt
    python -m infer compile model.onnx  infer-compile
    python -m infer quantize model.onnx infer-quantize
    python -m infer cache list|clear    the compile cache
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import import_module

import infer

# one per infer-* command of pyproject.toml's [project.scripts]
TOOLS = {"run": "infer.tools.infer_run", "opt": "infer.tools.infer_opt",
         "compile": "infer.tools.infer_compile", "quantize": "infer.tools.infer_quantize"}
COMMANDS = {**TOOLS, "cache": "infer.tools.infer_cache"}

USAGE = f"""infer {infer.__version__}: an MLIR-style compiler for neural-network inference on CPUs

usage: python -m infer run MODEL.onnx [options]   compile and run a model (infer-run)
       python -m infer opt [FILE] [-p PASSES]      print IR, run passes (infer-opt)
       python -m infer compile MODEL.onnx -o F     save the compiled model (infer-compile)
       python -m infer quantize MODEL.onnx ...     write an int8 QDQ model (infer-quantize)
       python -m infer cache [list|clear]          the compile cache: list or clear it
       python -m infer --version
each command's --help lists its options; in Python: infer.compile, infer.load,
infer.InferenceSession"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if args[0] == "--version":
        print(f"infer {infer.__version__}")
        return 0
    if args[0] not in COMMANDS:
        print(f"python -m infer: unknown command '{args[0]}' (commands: "
              + ", ".join(COMMANDS) + ")", file=sys.stderr)
        return 2
    sys.argv[0] = f"python -m infer {args[0]}"
    import_module(COMMANDS[args[0]]).main(args[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())

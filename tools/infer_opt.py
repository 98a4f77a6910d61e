"""`infer-opt`: xDSL's opt driver with infer's dialects, passes and an ONNX frontend.

    infer-opt model.onnx -p plan-loops,graph-to-loops
    infer-opt ir.mlir -p 'canonicalize,cse' -o out.mlir
    infer-opt - < ir.mlir

Errors (malformed IR, a failing verifier, a broken model, a bad pass option) print one
diagnostic and exit with status 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from infer.context import make_context
from infer.dialects import graph
from infer.errors import InferError
from infer.passes import PASSES


class InferOptMain(xDSLOptMain):
    def register_all_dialects(self) -> None:
        self.ctx = make_context()

    def register_all_passes(self) -> None:
        for name, factory in PASSES.items():
            self.register_pass(name, factory)

    def register_all_frontends(self) -> None:
        super().register_all_frontends()

        def parse_onnx(io: IO[bytes]) -> ModuleOp:
            from infer.frontend.onnx_import import import_model

            return import_model(io.read())

        self.available_frontends["onnx"] = parse_onnx

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--elide-weights",
            type=int,
            default=64,
            metavar="N",
            help="print constants with more than N elements as elided<hash> (default 64)",
        )
        arg_parser.add_argument(
            "--keep-weights",
            action="store_true",
            help="print every constant in full (its output can be compiled again)",
        )

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        if self.args.input_file == "-":
            self.args.input_file = None
        return super().get_input_stream()

    def apply_passes(self, prog: ModuleOp) -> None:
        # With --verify-diagnostics, a pass's refusal is a diagnostic like a verifier's:
        # printed, and the next chunk of a split input runs (mlir-opt does the same).
        try:
            super().apply_passes(prog)
        except InferError as e:
            if not self.args.verify_diagnostics:
                raise
            raise DiagnosticException(str(e)) from e

    def output_resulting_program(self, prog: ModuleOp) -> str:
        limit = None if self.args.keep_weights else self.args.elide_weights
        with graph.elide_weights(limit):
            return super().output_resulting_program(prog)


def main(argv: Sequence[str] | None = None) -> None:
    try:
        InferOptMain(description="infer's modular optimizer driver", args=argv).run()
    except Exception as e:  # noqa: BLE001 - the CLI's contract: one line, exit 1
        msg = str(e).strip() or type(e).__name__
        print(f"infer-opt: error: {msg}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

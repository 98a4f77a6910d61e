"""`infer-opt`: xDSL's opt driver with infer's dialects, passes and an ONNX frontend.

    infer-opt model.onnx -p plan-loops,graph-to-loops
    infer-opt ir.mlir -p 'canonicalize,cse' -o out.mlir
    infer-opt - < ir.mlir
    infer-opt model.onnx -p compile -t llvm --time-passes   # LLVM IR after O3; timings

Errors exit with status 1 and no traceback. An error at a place in the input is reported
as mlir-opt does, `file:line:col: error: message` followed by the source line and a caret:
malformed IR, bad UTF-8, nesting too deep, out-of-range literals, and a failing verifier
(at the op that fails, or the nearest enclosing op the input spelled out). Any other error
(a malformed -p pipeline, an unknown pass or option, a broken model) is one line
`infer-opt: error: ...`. With --verify-diagnostics, errors are printed and matched against
the input's `expected-error` comments as mlir-opt matches them (tools/verify_diagnostics.py).
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import re
import sys
import time
from collections.abc import Callable, Sequence
from io import BytesIO
from typing import IO, NoReturn, get_type_hints

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
    VerifyException,
)
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xdsl.xdsl_opt_main import xDSLOptMain

from infer.context import make_context
from infer.dialects import graph
from infer.errors import InferError
from infer.passes import PASSES, lazy_pass
from infer.tools.verify_diagnostics import DiagnosticCheck, Produced, expectations
from infer.version import __version__

# Every pass by name: the registry's and the pipeline's own, which run the registry's
# (infer.pipeline is imported when one of them is used, so infer-opt starts fast).
ALL_PASSES = {**PASSES, "compile": lazy_pass("infer.pipeline", "CompilePass"),
              "lower-to-llvm": lazy_pass("infer.pipeline", "LowerToLLVMPass")}


class LocatedError(Exception):
    """An error at a place in the input: printed as `file:line:col: error: message`."""

    def __init__(self, span: Span, message: str) -> None:
        super().__init__(message)
        self.span = span
        self.message = message

    def __str__(self) -> str:
        # print_with_context starts with the location line; mlir-opt puts the message on it.
        context = self.span.print_with_context().split("\n", 1)[1]
        return f"{self.span.get_location()}: error: {self.message}\n{context.rstrip()}"


# What pathological input raises inside xDSL's parser instead of a ParseError: nesting
# deeper than Python's stack, literals out of range for their type (OverflowError from
# struct, ValueError or VerifyException from an attribute's checks).
_PARSE_FAILURES = (RecursionError, OverflowError, ValueError, VerifyException)


class _LocatingParser(Parser):
    """xDSL's parser, remembering where each op's name is (ops parsed from text keep no
    location in xDSL 0.74; mlir-opt reports an op at its name) and turning the Python
    errors of _PARSE_FAILURES into parse errors at the op being parsed."""

    def __init__(self, ctx: Context, text: str, name: str, spans: dict[Operation, Span]) -> None:
        super().__init__(ctx, text, name)
        self.spans = spans
        self._names: list[Span] = []  # the op names of the ops being parsed, outermost first

    def _parse_op_result_list(self) -> list[tuple[Span, int]]:
        # Called first by parse_operation; the op's name is the next token.
        results = super()._parse_op_result_list()
        self._names.append(self._current_token.span)
        return results

    def parse_operation(self) -> Operation:
        depth, start = len(self._names), self._current_token.span
        try:
            op = super().parse_operation()
            self.spans[op] = self._names[depth]
            return op
        except _PARSE_FAILURES as e:
            at = self._names[depth] if len(self._names) > depth else start
            raise ParseError(at, _parse_failure(e)) from None
        finally:
            del self._names[depth:]


def _parse_failure(e: Exception) -> str:
    if isinstance(e, RecursionError):
        return "nesting too deep to parse (Python's recursion limit)"
    if isinstance(e, OverflowError):
        return f"literal out of range: {e}"
    return str(e)


def parse_mlir(ctx: Context, data: bytes, name: str, spans: dict[Operation, Span],
               implicit_module: bool = True) -> ModuleOp:  # fmt: skip
    """Textual IR to a module, recording each op's position in `spans`; every error in
    the input is a ParseError with its position."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        span = Span(e.start, e.end, Input(data, name))
        raise ParseError(span, f"invalid UTF-8 byte 0x{data[e.start]:02x}") from None
    parser = _LocatingParser(ctx, text, name, spans)
    if parser._current_token.kind == MLIRTokenKind.EOF:  # nothing but blanks and comments
        return ModuleOp([])  # as mlir-opt reads it
    try:
        return parser.parse_module(implicit_module)
    except _PARSE_FAILURES as e:  # outside any op
        raise ParseError(parser._current_token.span, _parse_failure(e)) from None


def check_pipeline(spec: str, passes: dict[str, Callable[[], type[ModulePass]]]) -> None:
    """Raises ValueError with one line for a -p pipeline that xDSL would refuse with a
    traceback or a message that does not say which pass or option is wrong."""
    try:
        specs = list(parse_pipeline(spec))
    except ArgSpecParseError as e:
        # xDSL's message: a header, "pass-pipeline:1:COL", the text, a caret, the message.
        lines = str(e).splitlines()
        col = lines[1].rsplit(":", 1)[-1]
        raise ValueError(f"-p '{spec}', column {col}: {lines[-1].strip()}") from None
    for s in specs:
        if s.name not in passes:
            raise ValueError(f"-p: unknown pass '{s.name}' (infer-opt --help lists them)")
        cls = passes[s.name]()
        options = _options(cls)
        params = s.normalize_parameter_names().parameters
        for key, value in params.items():
            if key not in options:
                known = ", ".join(options) or "none"
                raise ValueError(
                    f"-p: pass '{s.name}' has no option '{key}' (its options: {known})")
            try:
                cls.from_spec(ArgSpec(s.name, {key: value}))
            except Exception as e:  # noqa: BLE001 - other refusals: the full spec, below
                if str(e).startswith("Incompatible types"):
                    given = "'" + " ".join(map(str, value)) + "'" if value else "no value"
                    raise ValueError(
                        f"-p: option '{key}' of pass '{s.name}' takes"
                        f" {_type_name(get_type_hints(cls)[key])}, got {given}"
                    ) from None
        cls.from_spec(s)  # a value the pass refuses: its own message names it


def _options(cls: type[ModulePass]) -> list[str]:
    return [f.name for f in dataclasses.fields(cls) if f.init and f.name != "name"]


def _type_name(t: object) -> str:
    return getattr(t, "__name__", None) or str(t)


# xDSL passes our pipelines use whose class and module have no docstring.
_UNDOCUMENTED = {
    "cse": "Common subexpression elimination",
    "dce": "Dead code elimination: erases ops without side effects whose results are unused",
    "lower-affine": "Lower affine ops to scf and arith",
    "reconcile-unrealized-casts": "Fold chains of unrealized_conversion_cast that cancel out",
}


def _description(cls: type[ModulePass]) -> str:
    """The first sentence of the pass's docstring (of its module's when the class has
    none), without the `name{options}`: prefix our docstrings start with."""
    doc = cls.__doc__ or ""
    if doc.startswith(f"{cls.__name__}("):  # the dataclass's generated signature
        doc = ""
    doc = doc or sys.modules[cls.__module__].__doc__ or ""
    text = " ".join(doc.strip().split("\n\n")[0].split())
    if text.startswith("`") and "`: " in text:
        text = text.split("`: ", 1)[1]
    return text.split(". ")[0].rstrip(".") or _UNDOCUMENTED.get(cls.name, "")


def pass_help() -> str:
    """Every registered pass with its options (type = default) and a one-line
    description, for --help."""
    lines = ["passes (-p 'name{option=value ...},...'):"]
    for name in sorted(ALL_PASSES):
        cls = ALL_PASSES[name]()
        hints = get_type_hints(cls)
        lines.append(f"  {name:<28} {_description(cls)}".rstrip())
        for f in dataclasses.fields(cls):
            if f.init and f.name != "name":
                default = "" if f.default is dataclasses.MISSING else f" = {f.default!r}"
                lines.append(f"      {f.name}: {_type_name(hints[f.name])}{default}")
    return "\n".join(lines)


def _expand(passes: Sequence[ModulePass]) -> tuple[ModulePass, ...]:
    """The pipeline with `compile` and `lower-to-llvm` replaced by the passes they run, so
    that --time-passes times each of them."""
    from infer.pipeline import (
        LOWER_TO_LLVM,
        CompilePass,
        LowerToLLVMPass,
        make_passes,
    )

    out: list[ModulePass] = []
    for p in passes:
        if isinstance(p, CompilePass):
            out += make_passes(p.passes())
        elif isinstance(p, LowerToLLVMPass):
            out += make_passes(LOWER_TO_LLVM)
        else:
            out.append(p)
    return tuple(out)


def _llvm_module(module: ModuleOp, target: str) -> ModuleOp:
    for op in module.ops:
        if op.dialect_name() not in ("llvm", "llvmx"):
            raise ValueError(f"-t {target}: '{op.name}' is not in the llvm dialect; lower it "
                             "first (-p compile, or -p lower-to-llvm for loop-level IR)")
    return module


def _emit_llvm_ir(module: ModuleOp, out: IO[str]) -> None:
    """`-t llvm`: the module (llvm dialect) as LLVM IR after O3 for this CPU, as the JIT
    compiles it (weights are external globals the JIT binds by address)."""
    from infer.codegen import emit_llvm_ir

    out.write(emit_llvm_ir(_llvm_module(module, "llvm")))


def _assembly(target: str) -> Callable[[ModuleOp, IO[str]], None]:
    def emit(module: ModuleOp, out: IO[str]) -> None:
        """The module (llvm dialect) as this CPU's assembly, after O3."""
        from infer.codegen import emit_assembly

        out.write(emit_assembly(_llvm_module(module, target)))

    return emit


# -t choices: xDSL's other targets print dialects infer never produces (riscv, x86, wasm,
# wgsl...) and print nothing or fail on ours. x86-asm, as in xDSL, is x86 assembly: this
# CPU's, when it is one.
TARGETS: dict[str, Callable[[ModuleOp, IO[str]], None]] = {
    "llvm": _emit_llvm_ir, "asm": _assembly("asm"),
    **({"x86-asm": _assembly("x86-asm")} if platform.machine().lower() in ("x86_64", "amd64")
       else {}),
}


# mlir-opt's spellings of options infer-opt has under xDSL's (or its own) names.
MLIR_OPT_FLAGS = {"--mlir-print-ir-after-all": "--print-between-passes",
                  "--mlir-timing": "--time-passes", "--view-op-graph": "--view-graph"}
_ANCHORED = re.compile(r"\s*builtin\.module\s*\((.*)\)\s*", re.S)


def mlir_opt_spellings(argv: Sequence[str]) -> list[str]:
    """`argv` with mlir-opt's options in infer-opt's words: MLIR_OPT_FLAGS, and
    `--pass-pipeline='builtin.module(a,b{k=v})'` as `-p 'a,b{k=v}'` (ValueError for a
    pipeline anchored on another op: every pass here runs on the module)."""
    out: list[str] = []
    args = iter(argv)
    for a in args:
        if a == "--pass-pipeline" or a.startswith("--pass-pipeline="):
            spec = a.split("=", 1)[1] if "=" in a else next(args, "")
            anchored = _ANCHORED.fullmatch(spec)
            if anchored is None and "(" in spec.split("{")[0]:
                raise ValueError(f"--pass-pipeline '{spec}': infer-opt's passes run on the "
                                 "module: write 'builtin.module(a,b)' or -p 'a,b'")
            spec = anchored[1] if anchored else spec
            out += ["-p", re.sub(r"\s*,\s*", ",", spec.strip())]  # "a, b" as mlir-opt reads it
        else:
            out.append(MLIR_OPT_FLAGS.get(a, a))
    return out


def _one_line_usage_error(message: str) -> NoReturn:
    """argparse's error, as one line instead of the usage and the message (exit 2)."""
    print(f"infer-opt: error: {message} (infer-opt --help lists the options)",
          file=sys.stderr)
    sys.exit(2)


class _ListPasses(argparse.Action):
    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(pass_help())
        parser.exit()


class InferOptMain(xDSLOptMain):
    def __init__(self, description: str, args: Sequence[str] | None = None) -> None:
        argv = mlir_opt_spellings(sys.argv[1:] if args is None else args)
        self._help = any(a in ("-h", "--help") for a in argv)
        self._spans: dict[Operation, Span] = {}
        self._line_offset = 0
        self._times: dict[str, float] = {}  # stage -> seconds, in order, for --time-passes
        self._chunk = -1  # the index of the chunk of input being read
        self._diagnostics: DiagnosticCheck | None = None  # with --verify-diagnostics
        self.version_format = f"infer-opt {__version__} (xDSL {{xdsl_version}})"
        super().__init__(description=description, args=argv)

    def register_all_dialects(self) -> None:
        self.ctx = make_context()

    def register_all_passes(self) -> None:
        for name, factory in ALL_PASSES.items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        super().register_all_targets()
        self.available_targets = {"mlir": self.available_targets["mlir"], **TARGETS}

    def register_all_frontends(self) -> None:
        def parse_onnx(io: IO[bytes]) -> ModuleOp:
            from infer.frontend.onnx_import import import_model

            return import_model(io.read())

        def parse_text(io: IO[bytes]) -> ModuleOp:
            return parse_mlir(self.ctx, io.read(), self.get_input_name(), self._spans,
                              not self.args.no_implicit_module)  # fmt: skip

        self.available_frontends["mlir"] = parse_text
        self.available_frontends["onnx"] = parse_onnx

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        arg_parser.error = _one_line_usage_error  # type: ignore[method-assign]
        arg_parser.add_argument("--list-passes", nargs=0, action=_ListPasses,
                                help="print every pass with its options and exit")
        if self._help:  # loads every pass module: only when asked
            arg_parser.epilog = pass_help()
        for action in arg_parser._actions:
            if "--time-passes" in action.option_strings:
                action.help = "print a table of the time of each stage to stderr"
            if "-t" in action.option_strings:
                action.help = ("output: mlir (default), llvm (LLVM IR after O3 for this CPU) "
                               "or asm (its assembly; x86-asm too on x86-64)")
            if "-p" in action.option_strings:
                action.help = "comma-separated passes, with options in braces (listed below)"
            if "--version" in action.option_strings:
                action.help = "print infer-opt's version and exit"
            if "--verify-diagnostics" in action.option_strings:
                action.help = ("print each error and match it against the input's "
                               "expected-error comments (exit 1 when they disagree)")
        arg_parser.add_argument(
            "--elide-weights",
            type=int,
            default=64,
            metavar="N",
            help="print constants with more than N elements as elided<hash> (default 64)",
        )
        arg_parser.add_argument(
            "--view-graph",
            action="store_true",
            help="print the IR after the passes as a Graphviz dot graph instead of text "
            "(--view-op-graph too): an op a node, an SSA value's uses its edges",
        )
        arg_parser.add_argument(
            "--keep-weights",
            action="store_true",
            help="print every constant in full (its output can be compiled again)",
        )

    def _time(self, stage: str, seconds: float) -> None:
        self._times[stage] = self._times.get(stage, 0.0) + seconds

    def setup_pipeline(self) -> None:
        if self.args.view_graph and self.args.target != "mlir":
            raise ValueError(f"--view-graph prints the IR as a graph: it takes no "
                             f"-t {self.args.target}")
        check_pipeline(self.args.passes, self.available_passes)
        started = time.perf_counter()

        # xDSL's callback, with the times kept for a table instead of printed into the IR.
        def callback(prev: ModulePass | None, module: ModuleOp, nxt: ModulePass | None) -> None:
            nonlocal started
            now = time.perf_counter()
            if prev is not None:
                self._time(f"pass {prev.name}", now - started)
            if not self.args.disable_verify:
                module.verify()
                self._time("verifier", time.perf_counter() - now)
            if prev and nxt and self.args.print_between_passes:
                print(f"IR after {prev.name}:")
                Printer(stream=sys.stdout).print_op(module)
                print("\n\n\n")
            started = time.perf_counter()

        pipeline = PassPipeline.parse_spec(self.available_passes, self.args.passes, callback)
        if self.args.time_passes:
            pipeline = PassPipeline(_expand(pipeline.passes), callback)
        self.pipeline = pipeline

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        if self.args.input_file == "-":
            self.args.input_file = None
        return super().get_input_stream()

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        self._line_offset = start_offset
        self._spans.clear()  # the ops of an earlier chunk are gone
        self._chunk += 1
        t0 = time.perf_counter()
        if self._diagnostics is not None and file_extension != "onnx":
            data = chunk.read()
            self._diagnostics.expected += expectations(
                data.decode("utf-8", "replace"), self.get_input_name(), self._chunk,
                start_offset + 1)
            chunk = BytesIO(data)
        try:
            module = super().parse_chunk(chunk, file_extension, start_offset)
        except ParseError as e:
            if self._diagnostics is None:
                raise
            # a diagnostic like a verifier's: printed, checked, and the next chunk runs
            e.span = dataclasses.replace(e.span, line_offset=start_offset)
            self._produced(e.span, e.msg)
            print(LocatedError(e.span, e.msg))
            return None
        stage = "import ONNX" if file_extension == "onnx" else "parse"
        self._time(stage, time.perf_counter() - t0)
        return module

    def _produced(self, span: Span | None, message: str) -> None:
        assert self._diagnostics is not None
        at = span.get_location() if span is not None else None
        self._diagnostics.produced.append(Produced(
            self._chunk, at and at.line, at and at.col, message.strip().splitlines()[0]))

    def apply_passes(self, prog: ModuleOp) -> None:
        try:
            super().apply_passes(prog)
        except VerifyException as e:
            span = self._span_of_failure(prog, e)
            if self._diagnostics is not None:
                self._produced(span, str(e))
                where = f"{span.get_location()}: error: " if span is not None else ""
                located = DiagnosticException(f"{where}{e}")
                located.__notes__ = getattr(e, "__notes__", [])
                raise located from None
            if span is None:
                raise
            raise LocatedError(span, str(e)) from None
        except InferError as e:
            # With --verify-diagnostics, a pass's refusal is a diagnostic like a verifier's:
            # printed, and the next chunk of a split input runs (mlir-opt does the same).
            if self._diagnostics is None:
                raise
            self._produced(None, str(e))
            raise DiagnosticException(str(e)) from e

    def _span_of_failure(self, module: ModuleOp, e: VerifyException) -> Span | None:
        """Where the op that raised `e` (or its nearest enclosing op from the input)
        starts. The exception does not name its op: verify ops one by one, without their
        regions, until one fails with the same message."""
        for op in module.walk():
            try:
                op.verify(verify_nested_ops=False)
            except VerifyException as other:
                if str(other) != str(e):
                    continue
                at: Operation | None = op
                while at is not None and at not in self._spans:
                    at = at.parent_op()
                if at is None:
                    return None
                return dataclasses.replace(self._spans[at], line_offset=self._line_offset)
        return None

    def output_resulting_program(self, prog: ModuleOp) -> str:
        limit = None if self.args.keep_weights else self.args.elide_weights
        t0 = time.perf_counter()
        if self.args.view_graph:
            from infer.tools.graph_dot import graph_dot

            out = graph_dot(prog)
            self._time("print graph", time.perf_counter() - t0)
            return out
        with graph.elide_weights(limit):
            out = super().output_resulting_program(prog)
        target = self.args.target.split("{")[0]
        stage = {"mlir": "print IR", "llvm": "LLVM: translate, O3 for this CPU"}.get(
            target, "LLVM: translate, O3, assembly for this CPU")
        self._time(stage, time.perf_counter() - t0)
        return out

    def run(self) -> None:
        if self.args.verify_diagnostics:
            self._diagnostics = DiagnosticCheck("")
        super().run()
        if self.args.time_passes:
            print(time_table(self._times), file=sys.stderr)
        if self._diagnostics is not None:
            self._diagnostics.file = self.get_input_name()
            wrong = self._diagnostics.mismatches()
            if wrong:
                print("\n".join(wrong), file=sys.stderr)
                sys.exit(1)


def time_table(times: dict[str, float]) -> str:
    """mlir-opt's `--mlir-timing` report: wall time and share of each stage, then the
    total."""
    total = sum(times.values())
    rule = "===" + "-" * 73 + "==="
    lines = [rule, f"{'... Execution time report ...':^79}".rstrip(), rule,
             f"  Total Execution Time: {total:.4f} seconds", "",
             "  ----Wall Time----  ----Name----"]  # fmt: skip
    for name, t in [*times.items(), ("Total", total)]:
        share = 100 * t / total if total else 0.0
        lines.append(f"  {t:8.4f} ({share:5.1f}%)  {name}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    try:
        InferOptMain(description="infer's modular optimizer driver", args=argv).run()
    except KeyboardInterrupt:
        print("infer-opt: interrupted", file=sys.stderr)
        sys.exit(130)
    except LocatedError as e:
        print(e, file=sys.stderr)
        sys.exit(1)
    except ParseError as e:
        print(LocatedError(e.span, e.msg), file=sys.stderr)
        sys.exit(1)
    except Exception as e:  # noqa: BLE001 - the CLI's contract: one line, exit 1
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        print(f"infer-opt: error: {msg}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

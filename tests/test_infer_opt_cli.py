"""`infer-opt`: located diagnostics (file:line:col, the source line, a caret) for errors in
the input, one line for any other error, exit status 1 and no traceback; its help,
version and pass timings. Malformed pipelines and verifier locations are FileCheck tests
in filecheck_tests/tools/infer-opt/."""

from __future__ import annotations

import platform
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from infer.model_zoo import light_model_path
from infer.pipeline import compile_passes
from infer.tools.infer_opt import ALL_PASSES
from infer.version import __version__

from .helpers import run_infer_opt, sigint_as_a_terminal_sends_it
from .test_cli import BIN, _relu_model, run


def _located(r, first: str, source: str, caret: str) -> None:
    """stderr is mlir-opt's three lines: `file:line:col: error: ...`, the line, a caret."""
    assert r.returncode == 1, r.stderr
    assert r.stderr.splitlines() == [first, source, caret]


def test_malformed_ir() -> None:
    r = run("infer-opt", "-", stdin="func.func @f() { %x = graph.relu }")
    _located(r, "stdin:1:34: error: operand expected",
             "func.func @f() { %x = graph.relu }", " " * 33 + "^")  # fmt: skip


def test_bad_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_bytes(b"func.func @f() {\n  func.return \xff\n}\n")
    r = run("infer-opt", str(path))
    _located(r, f"{path}:2:15: error: invalid UTF-8 byte 0xff",
             "  func.return \ufffd", " " * 14 + "^")  # fmt: skip


def test_nesting_too_deep() -> None:
    ir = "func.func @f(%a: " + "tensor<" * 3000 + "f32" + ">" * 3000 + ") {\n func.return\n}"
    r = run("infer-opt", "-", stdin=ir)
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert lines[0] == "stdin:1:1: error: nesting too deep to parse (Python's recursion limit)"
    assert lines[2] == "^^^^^^^^^" and len(lines) == 3


@pytest.mark.slow
def test_literals_out_of_range() -> None:
    cases = {
        "arith.constant 1.0e39 : f32":
            "literal out of range: float too large to pack with f format",
        "arith.constant dense<300> : tensor<2xi8>":
            "Integer value 300 is out of range for type i8 which supports values in the"
            " range [-128, 256)",
        "arith.constant 99999999999999999999999 : i64":
            "Integer value 99999999999999999999999 is out of range for type i64 which"
            " supports values in the range [-9223372036854775808, 18446744073709551616)",
    }  # fmt: skip
    for op, message in cases.items():
        ir = f"func.func @f() {{\n  %a = {op}\n  func.return\n}}\n"
        _located(run("infer-opt", "-", stdin=ir), f"stdin:2:8: error: {message}",
                 f"  %a = {op}", " " * 7 + "^" * len("arith.constant"))  # fmt: skip


def test_verifier_error_located() -> None:
    ir = """func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %c = graph.add %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  func.return %c : tensor<2x3xf32>
}"""
    _located(run("infer-opt", "-", stdin=ir),
             "stdin:2:8: error: 'graph.add': shapes [2, 3] and [4, 3] do not broadcast",
             ir.splitlines()[1], " " * 7 + "^" * len("graph.add"))  # fmt: skip


def test_bad_pass_option() -> None:
    r = run("infer-opt", "-", "-p", "cse{bogus=1}", stdin="")
    assert r.returncode == 1
    assert r.stderr == (
        "infer-opt: error: -p: pass 'cse' has no option 'bogus' (its options: none)\n")


def test_unclosed_brace_is_one_line() -> None:
    r = run("infer-opt", "-", "-p", "graph-optimize{level=2", stdin="")
    assert r.returncode == 1
    assert r.stderr == ("infer-opt: error: -p 'graph-optimize{level=2', column 23: Malformed"
                        " pass arguments, expected either a space or `}` here\n")


def test_version() -> None:
    r = run("infer-opt", "--version")
    assert r.returncode == 0
    assert re.fullmatch(rf"infer-opt {re.escape(__version__)} \(xDSL \d+\.\d+\.\d+\)\n",
                        r.stdout)  # fmt: skip


@pytest.mark.slow
def test_help_lists_every_pass_with_options() -> None:
    r = run("infer-opt", "--help")
    assert r.returncode == 0
    listing = r.stdout.split("passes (-p 'name{option=value ...},...'):\n")[1].splitlines()
    described = {m[1]: m[2] for s in listing if (m := re.fullmatch(r"  (\S+) +(.+)", s))}
    assert sorted(described) == sorted(ALL_PASSES)  # each with a description
    i = listing.index(next(s for s in listing if s.startswith("  graph-optimize ")))
    assert described["graph-optimize"].startswith("Graph optimization at `level` 0 (none)")
    assert listing[i + 1 : i + 3] == ["      level: int = 2", "      block: int = 8"]
    assert "      outline: bool = False" in listing


@pytest.mark.slow
def test_time_passes_to_stderr(tmp_path: Path) -> None:
    """The table goes to stderr (the IR on stdout is unchanged) and covers the import, each
    pass `compile` runs and, with `-t llvm`, the LLVM stage."""
    model = str(_relu_model(tmp_path))
    plain = run("infer-opt", model, "-p", "compile", "-t", "llvm")
    timed = run("infer-opt", model, "-p", "compile", "-t", "llvm", "--time-passes")
    assert plain.returncode == timed.returncode == 0, timed.stderr
    assert "define" in plain.stdout and "Execution time" not in timed.stdout
    # The LLVM IR is the same with and without the table (up to nothing time-dependent).
    assert timed.stdout == plain.stdout
    rows = re.findall(r"^ +(\d+\.\d{4}) \( *(\d+\.\d)%\)  (.+)$", timed.stderr, re.M)
    names = [name for _, _, name in rows]
    # compile is timed pass by pass: the pipeline of pipeline.py, after the import
    expected = ["import ONNX", "verifier", *(f"pass {p.split('{')[0]}" for p in compile_passes()),
                "LLVM: translate, O3 for this CPU", "Total"]  # fmt: skip
    assert names == expected
    total = float(rows[-1][0])
    assert abs(sum(float(t) for t, _, _ in rows[:-1]) - total) <= 5e-4 * len(rows)
    assert f"Total Execution Time: {rows[-1][0]} seconds" in timed.stderr


def test_time_passes_text_input() -> None:
    r = run("infer-opt", "-", "-p", "canonicalize,cse", "--time-passes",
            stdin="func.func @f() {\n  func.return\n}\n")  # fmt: skip
    assert r.returncode == 0, r.stderr
    names = re.findall(r"^ +\d+\.\d{4} \( *\d+\.\d%\)  (.+)$", r.stderr, re.M)
    assert names == ["parse", "verifier", "pass canonicalize", "pass cse", "print IR", "Total"]
    assert r.stdout.startswith("builtin.module {")


@pytest.mark.slow
def test_compile_pipeline(tmp_path: Path) -> None:
    """`-p compile` runs infer.compile's pipeline: the graph comes out as the llvm dialect."""
    r = run("infer-opt", str(_relu_model(tmp_path)), "-p", "compile{level=2 block=8}")
    assert r.returncode == 0, r.stderr
    assert "llvm.func @_infer_packed_main" in r.stdout
    assert "graph." not in r.stdout and "func.func" not in r.stdout


def test_llvm_target_needs_the_llvm_dialect() -> None:
    r = run("infer-opt", "-", "-t", "llvm", stdin="func.func @f() {\n  func.return\n}\n")
    assert r.returncode == 1
    assert r.stderr == ("infer-opt: error: -t llvm: 'func.func' is not in the llvm dialect;"
                        " lower it first (-p compile, or -p lower-to-llvm for loop-level IR)\n")


@pytest.mark.slow
def test_interrupt() -> None:
    """Ctrl-C while the light DenseNet-121 compiles (a minute and more) exits 130 with one line."""
    p = subprocess.Popen([str(BIN / "infer-opt"), str(light_model_path("densenet121")),
                          "-p", "compile"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, preexec_fn=sigint_as_a_terminal_sends_it)  # fmt: skip
    time.sleep(5)  # past the imports, inside the import or compile
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    assert err == "infer-opt: interrupted\n" and out == ""


_GRAPH_IR = """func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = graph.relu %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = graph.relu %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = graph.add %r, %s : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %t : tensor<2x3xf32>
}
"""


def _opt(capsys, tmp_path: Path, *args: str, text: str = _GRAPH_IR) -> tuple[object, str, str]:
    """infer-opt run in-process on `text`: exit status, stdout, stderr."""
    return run_infer_opt(capsys, tmp_path, text, *args)


@pytest.mark.parametrize("theirs, ours", [
    (["--pass-pipeline=builtin.module(cse, canonicalize)"], ["-p", "cse,canonicalize"]),
    (["--pass-pipeline", "builtin.module(cse)"], ["-p", "cse"]),
    (["--mlir-print-ir-after-all", "-p", "cse,canonicalize"],
     ["--print-between-passes", "-p", "cse,canonicalize"]),
])
def test_mlir_opt_spellings(capsys, tmp_path: Path, theirs: list[str], ours: list[str]) -> None:
    """mlir-opt's option names do what infer-opt's do."""
    status, out, err = _opt(capsys, tmp_path, *theirs)
    assert status == 0 and err == ""
    assert "%s = " not in out  # cse ran
    assert (status, out, err) == _opt(capsys, tmp_path, *ours)


def test_mlir_timing_and_list_passes(capsys, tmp_path: Path) -> None:
    status, _, err = _opt(capsys, tmp_path, "--mlir-timing", "-p", "cse")
    assert status == 0
    names = re.findall(r"^ +\d+\.\d{4} \( *\d+\.\d%\)  (.+)$", err, re.M)
    assert names == ["parse", "verifier", "pass cse", "print IR", "Total"]
    status, out, _ = _opt(capsys, tmp_path, "--list-passes")
    assert status == 0
    assert out.startswith("passes (-p 'name{option=value ...},...'):\n")
    assert "\n  graph-optimize " in out and "builtin.module" not in out


@pytest.mark.parametrize("args, status, message", [
    (["--pass-pipeline=func.func(cse)"], 1, "--pass-pipeline 'func.func(cse)': infer-opt's "
     "passes run on the module: write 'builtin.module(a,b)' or -p 'a,b'"),
    (["-t", "wgsl"], 2, "argument -t/--target: invalid choice: 'wgsl' (choose from mlir, "
     "llvm, asm{}) (infer-opt --help lists the options)"),
    (["--mlir-print-ir-before-all"], 2, "unrecognized arguments: --mlir-print-ir-before-all "
     "(infer-opt --help lists the options)"),
    (["-t", "asm"], 1, "-t asm: 'func.func' is not in the llvm dialect; lower it first "
     "(-p compile, or -p lower-to-llvm for loop-level IR)"),
])
def test_bad_options_are_one_line(capsys, tmp_path: Path, args: list[str], status: int,
                                  message: str) -> None:
    x86 = platform.machine().lower() in ("x86_64", "amd64")
    got = _opt(capsys, tmp_path, *args)
    assert got == (status, "", f"infer-opt: error: {message.format(', x86-asm' * x86)}\n")


def test_assembly_target(capsys, tmp_path: Path) -> None:
    """-t asm prints this CPU's assembly of llvm-dialect IR; -t x86-asm is the same on an
    x86-64 CPU and refused on any other."""
    llvm_ir = ("llvm.func @twice(%a: i32) -> i32 {\n  %b = llvm.add %a, %a : i32\n"
               "  llvm.return %b : i32\n}\n")
    status, out, err = _opt(capsys, tmp_path, "-t", "asm", text=llvm_ir)
    assert status == 0, err
    assert re.search(r"^twice:$", out, re.M) and ".globl\ttwice" in out
    x86 = _opt(capsys, tmp_path, "-t", "x86-asm", text=llvm_ir)
    if platform.machine().lower() in ("x86_64", "amd64"):
        assert x86 == (0, out, "")
        assert re.search(r"\bret[lq]?\b", out)
    else:
        assert x86[0] == 2 and "invalid choice: 'x86-asm'" in x86[2]


@pytest.mark.parametrize("text", ["", "\n  \n", "// nothing but a comment\n"])
def test_empty_input_is_an_empty_module(capsys, tmp_path: Path, text: str) -> None:
    assert _opt(capsys, tmp_path, text=text) == (0, "builtin.module {\n}\n\n", "")


@pytest.mark.parametrize("comment, message", [
    ("// expected-error-re {{a{{[}}b}}", "expected-error-re: unterminated character set at "
     "position 1"),
    ("// expected-error @below {{x}}", "expected-error @below has no line below it"),
    ("// expected-error {{x", "expected-error without a closing '}}'"),
])
def test_malformed_expectation_is_one_line(capsys, tmp_path: Path, comment: str,
                                           message: str) -> None:
    got = _opt(capsys, tmp_path, "--verify-diagnostics", text=f"{_GRAPH_IR}{comment}\n")
    assert got == (1, "", f"infer-opt: error: {tmp_path / 'in.mlir'}:7: {message}\n")

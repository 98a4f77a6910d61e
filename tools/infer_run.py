"""`infer-run`: compile an ONNX model (or load one compiled by `infer-compile`), run it,
and check it against references.

    infer-run model.onnx|model.infer [--input NAME=FILE.npy ...] [--compare onnxruntime]
                         [--rtol R] [--atol A] [--bench N] [--threads K] [--top K]
                         [--opt-level N] [--report] [--verify-key KEY] [--no-cache] [-v]

A compiled `.infer` artifact is loaded, not compiled (--opt-level has no effect on it, and
--compare and --report, which need the ONNX model, are refused; --verify-key refuses it
unless it is signed by that key). An .onnx model comes from the compile cache when it holds
it (--no-cache compiles it anew). Without --input, each
input gets ONNX BackendTest's data for light models (arange(n)/n,
unknown dims 1), and reference outputs `<model>_output_<i>.pb` next to the model are
compared. With --input, every input of the model must be given; the files are checked
against the model's declared inputs (names, dtypes, ranks, static dims) before compiling.
Each comparison prints PASS or FAIL per output with the largest absolute and relative
differences (NaN equals NaN, infinities of the same sign are equal). --bench times infer
and (with --compare) onnxruntime in interleaved repetitions on one thread, in alternating
blocks on more (each thread pool measured alone). --report prints the op counts
by type before and after graph optimization; -v the time of each compile stage (on
stderr, where a terminal otherwise shows the stage being compiled). --threads K runs infer
and onnxruntime on K threads each (default: one per physical core, as both do).

Exit status: 0 when every comparison passes, 2 when one fails, 1 on any error (a one-line
message, usage errors included), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from infer.pipeline import DEFAULT_OPT_LEVEL
from infer.tools.cli import ArgumentParser, run_main

if TYPE_CHECKING:
    import onnx

    from infer.runtime.compiled_model import CompiledModel

# ONNX BackendTest's tolerances for model outputs (onnx.backend.test.runner).
RTOL = 1e-3
ATOL = 1e-7


def _parse_inputs(items: Sequence[str]) -> dict[str, np.ndarray]:
    feeds = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not name:
            raise ValueError(f"--input expects NAME=FILE.npy, got '{item}'")
        if name in feeds:
            raise ValueError(f"--input '{name}' is given twice")
        try:
            a = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot read input '{name}' from '{path}': {e}") from e
        if not isinstance(a, np.ndarray):  # an .npz archive
            raise ValueError(f"input '{name}': '{path}' is not a single .npy array")
        feeds[name] = a
    return feeds


def _declared_inputs(model) -> list:
    """The model's graph inputs as the runtime's TensorSpecs, read from the ONNX file alone
    (no compile): a dim_value >= 0 is static, a named dim_param is a symbol (equal names,
    equal sizes), and "?", an empty dim_param or a negative dim_value is an unnamed dynamic
    dim."""
    from onnx import helper

    from infer.model_zoo import graph_inputs
    from infer.runtime.signature import TensorSpec

    specs = []
    for info in graph_inputs(model):
        tt = info.type.tensor_type
        if not info.type.HasField("tensor_type") or not tt.HasField("shape"):
            raise ValueError(f"input '{info.name}' of the model has no tensor shape")
        shape: list[int | str | None] = []
        for d in tt.shape.dim:
            if d.HasField("dim_value") and d.dim_value >= 0:
                shape.append(d.dim_value)
            else:
                shape.append(d.dim_param if d.dim_param not in ("", "?") else None)
        dtype = np.dtype(helper.tensor_dtype_to_np_dtype(tt.elem_type))
        specs.append(TensorSpec(info.name, dtype, tuple(shape)))
    return specs


def _feeds(model, given: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The given inputs, checked against the model's declared inputs (InputError naming
    the input); or, when none are given, the light models' default inputs."""
    from infer.model_zoo import dummy_input, graph_inputs
    from infer.runtime.signature import check_feeds

    specs = _declared_inputs(model)
    if given:
        check_feeds(specs, given)
        return dict(given)
    return {s.name: dummy_input(i).astype(s.dtype)
            for s, i in zip(specs, graph_inputs(model), strict=True)}  # fmt: skip


def _describe(name: str, a: np.ndarray, top: int) -> str:
    """`name: dtype[shape]`, the range of the values, and the `top` largest (flat index:
    value); a constant output says so instead of listing equal values."""
    line = f"  {name}: {a.dtype}{list(a.shape)}"
    flat = a.reshape(-1)
    if not flat.size or a.dtype.kind not in "fiu" or np.all(np.isnan(flat)):
        return line
    lo, hi = np.nanmin(flat), np.nanmax(flat)
    if lo == hi:
        return line + f", every element {lo:.6g}"
    line += f", min {lo:.6g}, max {hi:.6g}"
    if top and a.dtype.kind == "f":
        idx = np.argsort(-flat, kind="stable")[:top]
        best = ", ".join(f"{int(i)}: {flat[i]:.6g}" for i in idx)
        line += f"\n    top {len(idx)} (flat index: value): {best}"
    return line


@dataclass(frozen=True)
class Comparison:
    """One output against its reference: PASS when every element is within
    atol + rtol * |ref| (np.isclose), NaN equal to NaN, infinities equal where equal."""

    passed: bool
    max_abs: float
    max_rel: float
    problem: str = ""  # a shape or dtype mismatch, which no tolerance covers

    def line(self, name: str) -> str:
        verdict = "PASS" if self.passed else "FAIL"
        if self.problem:
            return f"  {name}: {verdict} ({self.problem})"
        return (f"  {name}: {verdict}  max abs diff {self.max_abs:.3g},"
                f" max rel diff {self.max_rel:.3g}")


def compare(a: np.ndarray, ref: np.ndarray, rtol: float, atol: float) -> Comparison:
    if a.shape != ref.shape:
        return Comparison(False, np.inf, np.inf, f"shape {a.shape} != reference {ref.shape}")
    if a.dtype != ref.dtype:
        return Comparison(False, np.inf, np.inf, f"dtype {a.dtype} != reference {ref.dtype}")
    if a.size == 0:
        return Comparison(True, 0.0, 0.0)
    x, y = a.astype(np.float64), ref.astype(np.float64)
    equal = (x == y) | (np.isnan(x) & np.isnan(y))
    with np.errstate(invalid="ignore", divide="ignore"):
        # Where the values differ, a NaN or an infinity makes the difference infinite.
        diff = np.where(equal, 0.0, np.abs(x - y))
        diff[np.isnan(diff)] = np.inf
        rel = np.where(equal, 0.0, diff / np.abs(y))
        rel[np.isnan(rel)] = np.inf
    # Integers and booleans are compared exactly.
    close = np.isclose(x, y, rtol=rtol, atol=atol, equal_nan=True) if a.dtype.kind == "f" else equal
    return Comparison(bool(np.all(close)), float(diff.max()), float(rel.max()))


def _report(title: str, outputs: Sequence[tuple[str, np.ndarray]], refs: Sequence[np.ndarray],
            rtol: float, atol: float) -> bool:  # fmt: skip
    """Prints one PASS/FAIL line per output; True when all pass."""
    print(f"{title} (rtol {rtol:g}, atol {atol:g}):")
    if len(refs) != len(outputs):
        print(f"  FAIL: {len(outputs)} outputs, but {len(refs)} references")
        return False
    ok = True
    for (name, a), ref in zip(outputs, refs, strict=True):
        c = compare(a, ref, rtol, atol)
        ok &= c.passed
        print(c.line(name))
    return ok


def _flat(named: Iterable[tuple[str, object]]) -> list[tuple[str, np.ndarray]]:
    """Outputs in order with their names (one listed twice twice), each sequence's
    tensors as `name[k]`; an optional that holds nothing (None) is left out."""
    out: list[tuple[str, np.ndarray]] = []
    for name, value in named:
        if value is None:
            continue
        if isinstance(value, list):
            out += [(f"{name}[{k}]", np.asarray(a)) for k, a in enumerate(value)]
        else:
            out.append((name, np.asarray(value)))
    return out


# Runs per block when engines on several threads are timed in blocks (the first untimed),
# and the seconds before each block: longer than onnxruntime's pool spins after a run
# (about 60 ms), so that neither engine runs beside the other's spinning threads.
_BLOCK, _SETTLE = 5, 0.1


def _bench(fns: dict[str, Callable[[], object]], reps: int, threads: int = 1
           ) -> dict[str, np.ndarray]:
    """Times every function `reps` times after one warm-up call each; times in ms. On one
    thread the calls are interleaved, so that both see the same machine state; on more,
    each engine runs in blocks of its own, 0.1 s apart, alternating (its thread pool
    measured alone, not in the other's wake)."""
    for fn in fns.values():
        fn()
    times: dict[str, list[float]] = {k: [] for k in fns}

    def timed(fn: Callable[[], object]) -> float:
        t0 = time.perf_counter()
        fn()
        return (time.perf_counter() - t0) * 1e3

    if threads == 1 or len(fns) == 1:
        for _ in range(reps):
            for k, fn in fns.items():
                times[k].append(timed(fn))
        return {k: np.array(v) for k, v in times.items()}
    while min(len(v) for v in times.values()) < reps:
        for k, fn in fns.items():
            time.sleep(_SETTLE)
            fn()
            times[k] += [timed(fn) for _ in range(min(_BLOCK - 1, reps - len(times[k])))]
    return {k: np.array(v) for k, v in times.items()}


def _bench_table(times: dict[str, np.ndarray], threads: int) -> str:
    who = f"{threads} thread{'s' * (threads != 1)}"
    who = f"infer and onnxruntime on {who} each" if "onnxruntime" in times else f"infer on {who}"
    n = len(next(iter(times.values())))
    how = "interleaved" if threads == 1 or len(times) == 1 else "block-timed"
    lines = [f"latency in ms over {n} {how} runs ({who}):",
             f"  {'':<12} {'min':>8} {'median':>8} {'mean':>8} {'p90':>8}  inferences/s"]
    for k, t in times.items():
        lines.append(f"  {k:<12} {t.min():8.3f} {np.median(t):8.3f} {t.mean():8.3f}"
                     f" {np.percentile(t, 90):8.3f}  {1e3 / t.mean():12.1f}")
    if "onnxruntime" in times:
        ratio = np.median(times["infer"]) / np.median(times["onnxruntime"])
        lines.append(f"  median ratio infer/onnxruntime: {ratio:.2f}"
                     f" ({'infer' if ratio < 1 else 'onnxruntime'} is faster)")
    return "\n".join(lines)


def _load(args: argparse.Namespace
          ) -> tuple[onnx.ModelProto | None, dict[str, np.ndarray], CompiledModel]:
    """(the ONNX model or None for a compiled artifact, the feeds, the compiled model);
    prints how it was compiled or loaded."""
    import onnx

    import infer
    from infer.runtime.artifact import is_artifact

    given = _parse_inputs(args.input or [])
    if is_artifact(args.model):
        if args.compare or args.report:
            raise ValueError("--compare and --report need the .onnx model, not a compiled "
                             f"artifact ('{args.model}')")
        from infer.runtime.signing import read_key_file

        key = None if args.verify_key is None else read_key_file(args.verify_key)
        t0 = time.perf_counter()
        compiled = infer.load(args.model, verify_key=key, threads=args.threads)
        print(f"loaded {args.model} in {time.perf_counter() - t0:.3f} s (compiled already)")
        return None, given or _artifact_feeds(compiled), compiled
    if args.verify_key is not None:
        raise ValueError("--verify-key checks a compiled artifact (.infer), not an ONNX model")
    try:
        model = onnx.load(args.model)
    except Exception as e:  # noqa: BLE001 - protobuf raises several unrelated types
        raise ValueError(f"cannot read ONNX model '{args.model}': {e}") from e
    feeds = _feeds(model, given)

    if args.report:
        print(infer.optimization_report(model, args.opt_level))
    t0 = time.perf_counter()
    # Stage times with -v; otherwise a status line while compiling on a terminal.
    compiled = infer.compile(model, opt_level=args.opt_level, verbose=args.verbose or None,
                             cache=not args.no_cache, threads=args.threads)
    compile_s = time.perf_counter() - t0
    print(f"compiled {args.model} at opt level {args.opt_level} in {compile_s:.2f} s")
    return model, feeds, compiled


def _artifact_feeds(compiled: CompiledModel) -> dict[str, np.ndarray]:
    """The light models' default inputs for a compiled model's tensor inputs."""
    from infer.model_zoo import dummy_array

    if compiled.structured_inputs:
        raise ValueError(f"input '{compiled.structured_inputs[0].name}' is a sequence or "
                         "optional, which --input cannot give")
    return {s.name: dummy_array(tuple(d if isinstance(d, int) else 1 for d in s.shape))
            .astype(s.dtype) for s in compiled.inputs}


def run(args: argparse.Namespace) -> int:
    from infer.model_zoo import reference_outputs

    model, feeds, compiled = _load(args)
    results = compiled.run(feeds)
    outputs = _flat((n, results[n]) for n in compiled.output_names)
    print("outputs:")
    for name, a in outputs:
        print(_describe(name, a, args.top))

    ok = True
    refs = reference_outputs(args.model) if not args.input else None
    if refs is not None:
        ok &= _report("against the reference outputs next to the model", outputs, refs,
                      args.rtol, args.atol)  # fmt: skip

    sess = None
    if args.compare == "onnxruntime":
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = compiled.threads  # the same count as infer's
        so.inter_op_num_threads = 1
        assert model is not None  # refused for an artifact
        sess = ort.InferenceSession(
            model.SerializeToString(), so, providers=["CPUExecutionProvider"]
        )
        ort_out = [a for _, a in _flat(zip(compiled.output_names, sess.run(None, feeds),
                                           strict=True))]
        ok &= _report(f"against onnxruntime {ort.__version__}", outputs, ort_out,
                      args.rtol, args.atol)  # fmt: skip

    if args.bench:
        fns: dict[str, Callable[[], object]] = {"infer": lambda: compiled.run(feeds)}
        if sess is not None:
            fns["onnxruntime"] = lambda: sess.run(None, feeds)
        print(_bench_table(_bench(fns, args.bench, compiled.threads), compiled.threads))
    return 0 if ok else 2


def main(argv: Sequence[str] | None = None) -> None:
    p = ArgumentParser(prog="infer-run", description=__doc__.split("\n\n")[0],
                        epilog="exit status: 0 all PASS, 2 a FAIL, 1 an error, 130 Ctrl-C")
    p.add_argument("model", help="path to an .onnx model or a compiled .infer artifact")
    p.add_argument("--input", action="append", metavar="NAME=FILE.npy", help="an input array")
    p.add_argument("--compare", choices=["onnxruntime"], help="also run onnxruntime and compare")
    p.add_argument("--rtol", type=float, default=RTOL, metavar="R",
                   help=f"relative tolerance of the comparisons (default {RTOL:g})")
    p.add_argument("--atol", type=float, default=ATOL, metavar="A",
                   help=f"absolute tolerance of the comparisons (default {ATOL:g})")
    p.add_argument("--bench", type=int, default=0, metavar="N", help="time N repetitions")
    p.add_argument("--threads", type=int, default=0, metavar="K",
                   help="threads of infer's parallel loops and of onnxruntime's intra-op pool "
                   "(default 0: one per physical core, both engines' default)")
    p.add_argument("--top", type=int, default=5, metavar="K",
                   help="print the K largest outputs (0: none)")
    p.add_argument("--opt-level", type=int, default=DEFAULT_OPT_LEVEL, choices=range(4),
                   metavar="N", help="graph optimization level: 0 none, 1 basic, 2 extended, "
                   f"3 all (default {DEFAULT_OPT_LEVEL})")
    p.add_argument("--verify-key", metavar="KEY",
                   help="refuse an artifact not signed by this key (Ed25519 public key PEM, "
                   "or the HMAC secret)")
    p.add_argument("--no-cache", action="store_true",
                   help="compile even if the compile cache holds the model, and store nothing")
    p.add_argument("--report", action="store_true",
                   help="print op counts by type before and after graph optimization")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print the time of each compile stage on stderr")
    args = p.parse_args(argv)
    if args.threads < 0 or args.bench < 0 or args.top < 0:
        p.error("--threads, --bench and --top must be >= 0")
    if not (args.rtol >= 0 and args.atol >= 0):  # also refuses NaN
        p.error("--rtol and --atol must be >= 0")
    run_main("infer-run", lambda: run(args))


if __name__ == "__main__":
    main()

"""`infer-run`: compile an ONNX model, run it, and compare it with references.

    infer-run model.onnx [--input NAME=FILE.npy ...] [--compare onnxruntime]
                         [--bench N] [--threads K] [--top K] [--opt-level N] [--report]

Without --input, each input gets ONNX BackendTest's data for light models (arange(n)/n,
unknown dims 1). Reference outputs `<model>_output_<i>.pb` next to the model are compared
automatically. --bench times infer and (with --compare) onnxruntime in interleaved
repetitions and prints medians and their ratio. --report prints the op counts by type
before and after graph optimization (at --opt-level, default 2).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np


def _parse_inputs(items: Sequence[str]) -> dict[str, np.ndarray]:
    feeds = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep:
            raise ValueError(f"--input expects NAME=FILE.npy, got '{item}'")
        try:
            feeds[name] = np.load(path)
        except OSError as e:
            raise ValueError(f"cannot read input '{name}' from '{path}': {e}") from e
    return feeds


def _default_inputs(model) -> dict[str, np.ndarray]:
    from onnx import helper

    from infer.model_zoo import dummy_input, graph_inputs

    feeds = {}
    for info in graph_inputs(model):
        a = dummy_input(info)
        dtype = helper.tensor_dtype_to_np_dtype(info.type.tensor_type.elem_type)
        feeds[info.name] = a.astype(dtype) if dtype != np.float32 else a
    return feeds


def _describe(name: str, a: np.ndarray, top: int) -> str:
    line = f"  {name}: {a.dtype}{list(a.shape)}"
    flat = a.reshape(-1)
    if top and flat.size and a.dtype.kind == "f":
        idx = np.argsort(-flat, kind="stable")[:top]
        best = ", ".join(f"{int(i)}: {flat[i]:.6g}" for i in idx)
        line += f"\n    top {len(idx)} (flat index: value): {best}"
    return line


def _max_diff(a: np.ndarray, b: np.ndarray) -> float:
    if a.shape != b.shape:
        return float("inf")
    if a.size == 0:
        return 0.0
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64))))


def _median_ms(fns: dict[str, Callable[[], object]], reps: int) -> dict[str, float]:
    """Interleave the repetitions of every function, then take medians (in ms)."""
    for fn in fns.values():
        fn()  # warm-up
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(reps):
        for k, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[k].append((time.perf_counter() - t0) * 1e3)
    return {k: statistics.median(v) for k, v in times.items()}


def run(args: argparse.Namespace) -> int:
    import onnx

    import infer
    from infer.model_zoo import reference_outputs

    try:
        model = onnx.load(args.model)
    except Exception as e:  # noqa: BLE001 - protobuf raises several unrelated types
        raise ValueError(f"cannot read ONNX model '{args.model}': {e}") from e
    feeds = _default_inputs(model)
    feeds.update(_parse_inputs(args.input or []))

    if args.report:
        print(infer.optimization_report(model, args.opt_level))
    t0 = time.perf_counter()
    compiled = infer.compile(model, opt_level=args.opt_level)
    compile_s = time.perf_counter() - t0
    outputs = compiled.run(feeds)
    print(f"compiled {args.model} at opt level {args.opt_level} in {compile_s:.2f} s")
    print("outputs:")
    for name, a in outputs.items():
        print(_describe(name, a, args.top))

    ok = True
    refs = reference_outputs(args.model) if not args.input else None
    if refs is not None:
        for (name, a), ref in zip(outputs.items(), refs, strict=False):
            d = _max_diff(a, ref)
            close = a.shape == ref.shape and np.allclose(a, ref, rtol=1e-3, atol=1e-5)
            ok &= close
            print(f"reference output '{name}': max |diff| = {d:.3g}"
                  f" ({'ok' if close else 'MISMATCH'} at rtol 1e-3, atol 1e-5)")

    sess = None
    if args.compare == "onnxruntime":
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = args.threads
        so.inter_op_num_threads = 1
        sess = ort.InferenceSession(
            model.SerializeToString(), so, providers=["CPUExecutionProvider"]
        )
        ort_out = sess.run(None, feeds)
        for (name, a), b in zip(outputs.items(), ort_out, strict=True):
            print(f"onnxruntime output '{name}': max |diff| = {_max_diff(a, b):.3g}")

    if args.bench:
        fns: dict[str, Callable[[], object]] = {"infer": lambda: compiled.run(feeds)}
        if sess is not None:
            fns["onnxruntime"] = lambda: sess.run(None, feeds)
        med = _median_ms(fns, args.bench)
        line = f"latency (median of {args.bench}, infer on 1 thread): infer {med['infer']:.2f} ms"
        if "onnxruntime" in med:
            line += (f", onnxruntime ({args.threads} thread(s)) {med['onnxruntime']:.2f} ms,"
                     f" ratio infer/onnxruntime {med['infer'] / med['onnxruntime']:.2f}")
        print(line)
    return 0 if ok else 2


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="infer-run", description=__doc__.split("\n\n")[0])
    p.add_argument("model", help="path to an .onnx model")
    p.add_argument("--input", action="append", metavar="NAME=FILE.npy", help="an input array")
    p.add_argument("--compare", choices=["onnxruntime"], help="also run onnxruntime and diff")
    p.add_argument("--bench", type=int, default=0, metavar="N", help="time N repetitions")
    p.add_argument("--threads", type=int, default=1, metavar="K",
                   help="onnxruntime's intra-op threads (infer's kernels are single-threaded)")
    p.add_argument("--top", type=int, default=5, metavar="K", help="print the K largest outputs")
    p.add_argument("--opt-level", type=int, default=2, choices=range(4), metavar="N",
                   help="graph optimization level: 0 none, 1 basic, 2 extended (default), 3 all")
    p.add_argument("--report", action="store_true",
                   help="print op counts by type before and after graph optimization")
    args = p.parse_args(argv)
    if args.threads < 1 or args.bench < 0:
        p.error("--threads must be >= 1 and --bench >= 0")
    try:
        sys.exit(run(args))
    except Exception as e:  # noqa: BLE001 - the CLI's contract: one line, exit 1
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        print(f"infer-run: error: {msg}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

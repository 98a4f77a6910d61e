"""Run ONNX's node test cases through infer and onnxruntime and classify each case.

    python scripts/conformance.py                      # every case, totals and wall time
    python scripts/conformance.py --ops Resize,Mod     # the cases of these op types
    python scripts/conformance.py --ops pytorch-operator  # one of the model test groups
    python scripts/conformance.py --cases '^test_mod_' -v
    python scripts/conformance.py --write              # rewrite docs/conformance.md and
                                                       # the two lists of passing cases

Each case (a model and its input/output data sets, from
`onnx.backend.test.case.node.collect_testcases`, and the model test groups GROUPS of
onnx's backend test data, named `group/test_name`) runs through `infer.backend` and through
onnxruntime's CPUExecutionProvider, and its outputs are compared with ONNX's reference
outputs by ONNX's own rule (`Runner.assert_similar_outputs` at the case's rtol/atol:
shape, dtype, then closeness with NaN matching NaN; object outputs exactly). Per engine a
case is: passed; wrong (ran, but shape, dtype or values differ: for infer the worst bug);
refused at compile time (infer's UnsupportedError / InvalidModelError, onnxruntime's load
error); rejected at run time (infer's InputError / ShapeError, onnxruntime's run error);
an internal error (any other exception: a bug); or a crash / timeout of its process.

Workers are processes forked once the cases are built, each running many (case, engine)
tasks one at a time; the parent gives every task a deadline, so a hang or a segfault costs
that task alone (its worker is killed or reaped and a fresh one forked). A process pool
(concurrent.futures) cannot do this: a dead worker breaks the whole pool, killing the other
workers' tasks, and a hung one cannot be stopped.
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.connection
import os
import re
import sys
import time
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "conformance.md"
PASSING = ROOT / "tests" / "onnx_node_cases_passing.txt"
GROUPS_PASSING = ROOT / "tests" / "onnx_model_cases_passing.txt"
# onnx's model tests exported from PyTorch modules and operators (tensors in and out).
GROUPS = ("pytorch-converted", "pytorch-operator")
COMMAND = "python scripts/conformance.py --write"
# What follows this line in DOC is benchmarks/deploy_models.py's, kept by --write.
KEPT = "<!-- written by benchmarks/deploy_models.py --write -->"

ENGINES = ("infer", "onnxruntime")
PASSED, SAMPLED, WRONG, REFUSED, REJECTED, ERROR, CRASH = (
    "passed", "sampled", "wrong", "refused", "rejected", "error", "crash",
)  # fmt: skip
STATUSES = (PASSED, SAMPLED, WRONG, REFUSED, REJECTED, ERROR, CRASH)
HEADINGS = {
    PASSED: "passed",
    SAMPLED: "random (shapes, types checked)",
    WRONG: "wrong",
    REFUSED: "refused at compile time",
    REJECTED: "rejected at run time",
    ERROR: "internal error",
    CRASH: "crash / timeout",
}

# Cases whose stored reference outputs are off by more than the case's tolerance, where
# infer's outputs are closer to the exact result: tests/test_reference_precision.py
# measures both errors against a float64 computation from the same inputs.
CLOSER_THAN_REFERENCE = {
    "test_attention_4d_causal_fp16", "test_attention_4d_causal_fp16_expanded",
    "test_dft_inverse", "test_dft_inverse_opset19",
}

# Cases whose reference outputs are one draw of a random op: another generator's draws
# cannot equal them, so only their shapes and element types are compared (SAMPLED);
# tests/test_random.py checks infer's draws by their statistics.
RANDOM_OPS = {"Bernoulli", "RandomUniform", "RandomUniformLike", "RandomNormal",
              "RandomNormalLike", "Multinomial"}


def random_case(case: Any) -> bool:
    if any(node.op_type in RANDOM_OPS for node in case.model.graph.node):
        return True
    return case.name.startswith("test_training_dropout") and "zero_ratio" not in case.name


# Built in the parent before the workers are forked, so they share it.
CASES: dict[str, Any] = {}


@dataclass(frozen=True)
class Outcome:
    status: str
    detail: str = ""


def first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0].strip() if lines else ""


def described(error: BaseException) -> str:
    return f"{type(error).__name__}: {first_line(error)}"


@dataclass(frozen=True)
class ModelCase:
    """A model test of onnx's backend test data, shaped like a node case."""

    name: str
    model: Any
    data_sets: list[tuple[list[Any], list[Any]]]
    rtol: float
    atol: float


def model_group_cases(group: str) -> list[ModelCase]:
    """The cases of one of onnx's model test groups, with their stored data sets."""
    import onnx
    from onnx.backend.test.loader import load_model_tests

    def tensors(directory: Path, prefix: str) -> list[Any]:
        files = sorted(directory.glob(f"{prefix}_*.pb"), key=lambda f: int(f.stem.split("_")[1]))
        return [onnx.load_tensor(str(f)) for f in files]

    cases = []
    for test in sorted(load_model_tests(kind=group), key=lambda t: t.name):
        directory = Path(test.model_dir)
        sets = sorted(directory.glob("test_data_set_*"), key=lambda d: int(d.name.split("_")[-1]))
        cases.append(ModelCase(f"{group}/{test.name}", onnx.load(str(directory / "model.onnx")),
                               [(tensors(d, "input"), tensors(d, "output")) for d in sets],
                               test.rtol, test.atol))
    return cases


def data_sets(case: Any) -> list[tuple[list[Any], list[Any]]]:
    """Each data set's inputs and reference outputs as ONNX's runner takes them: arrays
    (some cases store TensorProtos)."""
    from onnx.backend.test.runner import _normalize_tensor

    return [
        ([_normalize_tensor(i) for i in inputs], [_normalize_tensor(o) for o in outputs])
        for inputs, outputs in case.data_sets
    ]


def assert_similar(expected: list[Any], outputs: list[Any], rtol: float, atol: float) -> None:
    """ONNX's `Runner.assert_similar_outputs`, but a sequence output's elements are each
    compared as an output of its own: the runner takes an element for a list of outputs
    and fails on a 0-d element whatever the engine returns."""
    from onnx.backend.test.runner import Runner

    if len(outputs) != len(expected):
        raise AssertionError(f"{len(outputs)} outputs, expected {len(expected)}")
    for ref, out in zip(expected, outputs, strict=True):
        if isinstance(ref, list | tuple) and isinstance(out, list | tuple):
            assert_similar(list(ref), list(out), rtol, atol)
        else:
            Runner.assert_similar_outputs([ref], [out], rtol, atol)


def compared(case: Any, results: list[list[Any]]) -> Outcome:
    """ONNX's rule for each data set's outputs against its reference outputs."""
    sampled = random_case(case)
    for (_, expected), outputs in zip(data_sets(case), results, strict=True):
        try:
            if sampled:
                for ref, out in zip(expected, outputs, strict=True):
                    assert (ref.shape, ref.dtype) == (out.shape, out.dtype), (
                        f"{out.dtype}{list(out.shape)}, expected {ref.dtype}{list(ref.shape)}")
                continue
            assert_similar(expected, outputs, case.rtol, case.atol)
        except (AssertionError, TypeError) as error:
            return Outcome(WRONG, " ".join(str(error).split())[:200])
    return Outcome(SAMPLED if sampled else PASSED)


def run_infer(case: Any) -> Outcome:
    import infer.backend
    from infer.errors import InputError, InvalidModelError, UnsupportedError

    try:
        rep = infer.backend.prepare(case.model)
        results = [list(rep.run(inputs)) for inputs, _ in data_sets(case)]
    except (UnsupportedError, InvalidModelError) as error:
        return Outcome(REFUSED, described(error))
    except InputError as error:
        return Outcome(REJECTED, described(error))
    except Exception as error:  # noqa: BLE001 - every other exception is a bug to report
        return Outcome(ERROR, described(error))
    return compared(case, results)


def run_onnxruntime(case: Any) -> Outcome:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.log_severity_level = 3  # errors only: its warnings are about the models
    try:
        session = ort.InferenceSession(
            case.model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
    except Exception as error:  # noqa: BLE001 - onnxruntime's load errors have many types
        return Outcome(REFUSED, described(error))
    names = [i.name for i in case.model.graph.input]
    try:
        results = [
            session.run(None, dict(zip(names, inputs, strict=False)))
            for inputs, _ in data_sets(case)
        ]
    except Exception as error:  # noqa: BLE001
        return Outcome(REJECTED, described(error))
    return compared(case, results)


RUNNERS = {"infer": run_infer, "onnxruntime": run_onnxruntime}


def _worker(conn: multiprocessing.connection.Connection) -> None:
    import numpy as np

    warnings.filterwarnings("ignore")
    np.seterr(all="ignore")
    while True:
        task = conn.recv()
        if task is None:
            return
        name, engine = task
        conn.send(RUNNERS[engine](CASES[name]))


@dataclass
class _Slot:
    process: multiprocessing.process.BaseProcess
    conn: multiprocessing.connection.Connection
    task: tuple[str, str] | None = None
    started: float = 0.0


def _spawn(ctx: Any) -> _Slot:
    parent, child = ctx.Pipe()
    process = ctx.Process(target=_worker, args=(child,), daemon=True)
    process.start()
    child.close()
    return _Slot(process, parent)


def run_tasks(
    tasks: list[tuple[str, str]], jobs: int, timeout: float, report: Any
) -> dict[tuple[str, str], Outcome]:
    """Every task's outcome, `jobs` worker processes at a time."""
    ctx = multiprocessing.get_context("fork")
    pending = list(reversed(tasks))
    outcomes: dict[tuple[str, str], Outcome] = {}
    slots = [_spawn(ctx) for _ in range(min(jobs, len(tasks)))]

    def assign(slot: _Slot) -> None:
        if pending:
            slot.task, slot.started = pending.pop(), time.monotonic()
            slot.conn.send(slot.task)
        else:
            slot.task = None

    def finish(slot: _Slot, outcome: Outcome) -> None:
        outcomes[slot.task] = outcome
        report(slot.task, outcome)

    for slot in slots:
        assign(slot)
    while any(s.task for s in slots):
        busy = {s.conn: s for s in slots if s.task}
        for conn in multiprocessing.connection.wait(list(busy), timeout=1.0):
            slot = busy[conn]
            try:
                outcome = conn.recv()
            except EOFError:
                slot.process.join()
                outcome = Outcome(CRASH, f"worker died (exit code {slot.process.exitcode})")
                finish(slot, outcome)
                slots[slots.index(slot)] = slot = _spawn(ctx)
                assign(slot)
                continue
            finish(slot, outcome)
            assign(slot)
        now = time.monotonic()
        for i, slot in enumerate(slots):
            if slot.task and now - slot.started > timeout:
                slot.process.kill()
                slot.process.join()
                finish(slot, Outcome(CRASH, f"timeout after {timeout:g} s"))
                slots[i] = _spawn(ctx)
                assign(slots[i])
    for slot in slots:
        slot.conn.send(None)
        slot.process.join()
    return outcomes


def op_types(cases: dict[str, Any]) -> dict[str, str]:
    """Each case's op type: its single node's, else (a function's expansion, a model of
    several nodes) that of the longest case-name prefix naming a single-node case, else
    the name's first word."""
    single = {n: c.model.graph.node[0].op_type for n, c in cases.items()
              if len(c.model.graph.node) == 1}  # fmt: skip
    ops = {}
    for name in cases:
        words = name.split("_")
        prefixes = ("_".join(words[:k]) for k in range(len(words), 1, -1))
        ops[name] = next((single[p] for p in prefixes if p in single), words[1])
    return ops


@dataclass
class _OpRow:
    cases: int = 0
    counts: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    ort_passed: int = 0

    @property
    def missing(self) -> int:
        return self.cases - self.counts[PASSED]


def _cell(text: str, width: int = 110) -> str:
    text = text.replace("|", "\\|").replace("`", "'")
    return text if len(text) <= width else text[: width - 1] + "…"


def totals(outcomes: dict[tuple[str, str], Outcome], names: list[str], engine: str) -> Counter:
    return Counter(outcomes[(n, engine)].status for n in names)


def _row(outcomes: dict[tuple[str, str], Outcome], labels: list[str], names: list[str],
         engine: str) -> str:
    """A table row: the labels, the case count, then `engine`'s count per status."""
    count = totals(outcomes, names, engine)
    cells = [*labels, str(len(names)), *(str(count[s]) for s in STATUSES)]
    return "| " + " | ".join(cells) + " |"


def document(outcomes: dict[tuple[str, str], Outcome], ops: dict[str, str]) -> str:
    """docs/conformance.md: the totals per engine and per model test group, infer's cases
    not passed, wrong, in error or crashed, and a table per op type."""
    names = sorted(ops)
    grouped = sorted({n for n, _ in outcomes if "/" in n})
    out = _totals_section(outcomes, names)
    out += _groups_section(outcomes, grouped)
    out += _failures_section(outcomes, names + grouped)
    out += _op_section(outcomes, ops, names)
    return "\n".join(out) + "\n"


def _totals_section(outcomes: dict[tuple[str, str], Outcome], names: list[str]) -> list[str]:
    """The title, what the document is, and each engine's totals over the node cases."""
    import onnx
    import onnxruntime

    out = [
        "# ONNX node test conformance",
        "",
        f"Generated by `{COMMAND}`; do not edit by hand.",
        "",
        f"Each of ONNX's node test cases (onnx {onnx.__version__}) runs through infer and",
        f"through onnxruntime {onnxruntime.__version__} (CPUExecutionProvider), its outputs",
        "compared with ONNX's reference outputs by ONNX's rule (shape, dtype, then rtol 1e-3",
        "and atol 1e-7, NaN matching NaN). A case is refused at compile time (infer's",
        "UnsupportedError / InvalidModelError, onnxruntime's load error), rejected at run time",
        "(infer's InputError / ShapeError, onnxruntime's run error), an internal error (any",
        "other exception) or a crash / timeout of its process. The outputs of a random op",
        "(Bernoulli, Random*, Multinomial, Dropout in training) are one generator's draws:",
        "only their shapes and types are compared (tests/test_random.py checks infer's by",
        "their statistics).",
        "`tests/onnx_node_cases_passing.txt` lists infer's passing cases and",
        "`tests/test_onnx_conformance.py` enforces it.",
        "",
        "| engine | cases | " + " | ".join(HEADINGS[s] for s in STATUSES) + " |",
        "|---|---:|" + "---:|" * len(STATUSES),
    ]
    return out + [_row(outcomes, [engine], names, engine) for engine in ENGINES]


def _groups_section(outcomes: dict[tuple[str, str], Outcome], grouped: list[str]
                    ) -> list[str]:
    """The model test groups' totals per engine, and their cases infer does not pass."""
    out = [
        "",
        "## onnx's model test groups",
        "",
        "The models of onnx's backend test data exported from PyTorch (`pytorch-converted`:",
        "nn modules; `pytorch-operator`: single operators), run on their stored data sets",
        "and compared the same way. `tests/onnx_model_cases_passing.txt` lists infer's",
        "passing cases.",
        "",
        "| group | engine | cases | " + " | ".join(HEADINGS[s] for s in STATUSES) + " |",
        "|---|---|---:|" + "---:|" * len(STATUSES),
    ]
    for group in GROUPS:
        members = [n for n in grouped if n.startswith(f"{group}/")]
        out += [_row(outcomes, [group, engine], members, engine) for engine in ENGINES]
    missed = [(n, outcomes[(n, "infer")]) for n in grouped
              if outcomes[(n, "infer")].status != PASSED]
    out += ["", f"Not passed by infer ({len(missed)}):", ""]
    out += [f"- `{n}` ({o.status}): {_cell(o.detail, 160)}" for n, o in missed] or ["None."]
    return out


def _failures_section(outcomes: dict[tuple[str, str], Outcome], names: list[str]
                      ) -> list[str]:
    """infer's wrong, internal-error and crashed cases among `names`, a section each."""
    out: list[str] = []
    bad = [(n, outcomes[(n, "infer")]) for n in names]
    for status in (WRONG, ERROR, CRASH):
        listed = [(n, o) for n, o in bad if o.status == status]
        out += ["", f"## infer: {HEADINGS[status]} ({len(listed)})", ""]
        if status == WRONG and any(n in CLOSER_THAN_REFERENCE for n, _ in listed):
            out += ["Marked *closer*: the reference is further from the exact result (float64",
                    "from the same inputs) than infer is; tests/test_reference_precision.py",
                    "measures both.", ""]
        out += [f"- `{n}`{' (*closer*)' if n in CLOSER_THAN_REFERENCE else ''}: "
                f"{_cell(o.detail, 160)}" for n, o in listed] or ["None."]
    return out


def _op_section(outcomes: dict[tuple[str, str], Outcome], ops: dict[str, str],
                names: list[str]) -> list[str]:
    """The table of the node cases per op type, those infer passes least first."""
    rows: dict[str, _OpRow] = {}
    for name in names:
        row = rows.setdefault(ops[name], _OpRow())
        mine = outcomes[(name, "infer")]
        row.cases += 1
        row.counts[mine.status] += 1
        if mine.status == REFUSED:
            row.reasons[mine.detail] += 1
        row.ort_passed += outcomes[(name, "onnxruntime")].status == PASSED
    out = [
        "",
        "## Per op type",
        "",
        "The op type is the case's single node's, or for a model of several nodes (a",
        "function's expansion) that of the case its name extends. Sorted by cases infer",
        "does not pass, most first.",
        "",
        "| op | cases | passed | wrong | refused | rejected | internal error / crash "
        "| onnxruntime passed | most common refusal |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for op, row in sorted(rows.items(), key=lambda item: (-item[1].missing, item[0])):
        c = row.counts
        reason = row.reasons.most_common(1)[0][0] if row.reasons else ""
        out.append(
            f"| {op} | {row.cases} | {c[PASSED]} | {c[WRONG]} | {c[REFUSED]} | {c[REJECTED]} "
            f"| {c[ERROR] + c[CRASH]} | {row.ort_passed} | {_cell(reason)} |"
        )
    return out


def selected(cases: dict[str, Any], ops: dict[str, str], args: argparse.Namespace) -> list[str]:
    wanted_ops = set(args.ops.split(",")) if args.ops else None
    pattern = re.compile(args.cases) if args.cases else None
    return [
        name
        for name in sorted(cases)
        if (wanted_ops is None or ops[name] in wanted_ops)
        and (pattern is None or pattern.search(name))
    ]


def main(argv: list[str] | None = None) -> int:
    # every model compiled, none stored in the user's compile cache (even one set by
    # INFER_CACHE_DIR): thousands of throwaway models, in the workers too
    os.environ["INFER_CACHE_DIR"] = ""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ops", help="comma-separated op types (see docs/conformance.md)")
    parser.add_argument("--cases", help="regular expression searched in case names")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per case")
    parser.add_argument("--write", action="store_true", help=f"rewrite {DOC.name} and list")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every case")
    args = parser.parse_args(argv)
    if args.write and (args.ops or args.cases):
        parser.error("--write needs every case: drop --ops / --cases")

    # The IR verifier after every pass triples compile time; the test suite runs it.
    os.environ["INFER_VERIFY_EACH_PASS"] = "0"
    start = time.monotonic()
    warnings.filterwarnings("ignore")
    # infer and onnxruntime imported before forking: every worker starts with them loaded.
    import numpy as np
    import onnxruntime  # noqa: F401
    from onnx.backend.test.case.node import collect_testcases

    import infer.backend  # noqa: F401

    with np.errstate(all="ignore"):
        # None: onnx fills its case list once per process, filtered by the first call.
        CASES.update((c.name, c) for c in collect_testcases(None))
    ops = op_types(CASES)
    for group in GROUPS:
        for case in model_group_cases(group):
            CASES[case.name], ops[case.name] = case, group
    names = selected(CASES, ops, args)
    print(f"{len(names)} cases, {args.jobs} jobs ({time.monotonic() - start:.0f} s to build)")

    def report(task: tuple[str, str], outcome: Outcome) -> None:
        name, engine = task
        if args.verbose or (engine == "infer" and outcome.status in (WRONG, ERROR, CRASH)):
            print(f"{engine:11} {outcome.status:8} {name}  {outcome.detail}", flush=True)

    tasks = [(name, engine) for name in names for engine in ENGINES]
    outcomes = run_tasks(tasks, args.jobs, args.timeout, report)
    for label in ("node", *GROUPS):
        members = [n for n in names if ops[n] == label or (label == "node" and "/" not in n)]
        for engine in ENGINES:
            count = totals(outcomes, members, engine)
            print(f"{label:17} {engine:11} {len(members)} cases: "
                  + ", ".join(f"{HEADINGS[s]} {count[s]}" for s in STATUSES))
    print(f"wall time {time.monotonic() - start:.0f} s")
    if args.write:
        old = DOC.read_text() if DOC.exists() else ""
        kept = "\n" + old[old.index(KEPT):] if KEPT in old else ""
        DOC.write_text(document(outcomes, {n: o for n, o in ops.items() if "/" not in n}) + kept)
        passing = [n for n in names if outcomes[(n, "infer")].status == PASSED]
        PASSING.write_text("".join(f"{n}\n" for n in passing if "/" not in n))
        GROUPS_PASSING.write_text("".join(f"{n}\n" for n in passing if "/" in n))
        print(f"wrote {DOC.relative_to(ROOT)}, {PASSING.relative_to(ROOT)} and "
              f"{GROUPS_PASSING.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

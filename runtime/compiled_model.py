"""`CompiledModel`: native code for one model, called with numpy arrays."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from infer.dialects.graph.types import NARROW_TYPES
from infer.runtime.checks import EntryChecks
from infer.runtime.signature import (
    StructuredOutput,
    TensorSpec,
    check_feeds,
    read_signature,
    read_structured,
)

Entry = Callable[[list[np.ndarray]], list[np.ndarray]]


class CompiledModel:
    """A model compiled to native code for this CPU.

    `run({name: array}) -> {name: array}` (for an output in `structured`, whose tensors are
    results of its name: a list of arrays for a sequence, None for an optional that holds
    nothing); inputs are checked (names, dtypes, ranks, static dims, equal sizes for equal
    dim names) before any native code runs, and passed without copies when they are
    C-contiguous. What depends on their run-time sizes and values (dims that must agree
    between inputs, index values) the native code checks before each op: a failed check is
    a `ShapeError` naming the op and the shapes.
    """

    def __init__(
        self,
        inputs: list[TensorSpec],
        outputs: list[TensorSpec],
        entry: Entry,
        keepalive: object,
        checks: EntryChecks | None = None,
        structured: list[StructuredOutput] | None = None,
    ) -> None:
        self.inputs = inputs
        self.outputs = outputs
        self.structured = structured or []
        # The model's outputs in order, a sequence or optional once (its tensors share its
        # name; an empty one, with no tensor to show it, goes in by its place).
        names = list(dict.fromkeys(s.name for s in outputs))
        for q in self.structured:
            if q.name not in names:
                names.insert(q.at, q.name)
        self._output_names = names
        self._entry = entry
        self._checks = checks
        self._keepalive = keepalive  # the JIT engine and weight buffers the code points into

    @property
    def input_names(self) -> list[str]:
        return [s.name for s in self.inputs]

    @property
    def output_names(self) -> list[str]:
        return list(self._output_names)

    def run(self, feeds: Mapping[str, np.ndarray]
            ) -> dict[str, np.ndarray | list[np.ndarray] | None]:
        arrays = [_storage_view(a) for a in check_feeds(self.inputs, feeds)]
        if self._checks is None:
            results = self._entry(arrays)
        else:  # sizes and indices that contradict the model fail a check in the code
            status = self._checks.status()
            results = self._entry([*arrays, status])
            self._checks.raise_failed(status)  # the empty results are dropped
        if not self.structured:
            return {s.name: r.view(s.dtype) for s, r in zip(self.outputs, results, strict=True)}
        tensors: dict[str, list[np.ndarray]] = {}
        for s, r in zip(self.outputs, results, strict=True):
            tensors.setdefault(s.name, []).append(r.view(s.dtype))
        out: dict[str, object] = {n: v[0] for n, v in tensors.items()}
        for q in self.structured:
            values = tensors.get(q.name, [])
            if q.optional:  # the presence flag first
                if not bool(values[0]):
                    out[q.name] = None
                    continue
                values = values[1:]
            out[q.name] = values if q.sequence else values[0]
        return {n: out[n] for n in self._output_names}


def load(module: ModuleOp, entry: str = "main") -> CompiledModel:
    """JIT-compile an llvm-level module (as the compile pipeline leaves it) and wrap its
    function `entry` with the signature recorded on the module."""
    from infer.codegen import JitModule

    inputs, outputs = read_signature(module, entry)
    jit = JitModule(module)
    return CompiledModel(inputs, outputs, jit.get_entry(entry), jit,
                         EntryChecks.read(module, entry), read_structured(module, entry))


_NARROW_DTYPES = frozenset(NARROW_TYPES.values())


def _storage_view(a: np.ndarray) -> np.ndarray:
    """Native code sees unsigned integers as the signless (signed) type of their width, and
    ml_dtypes' narrow types (bf16, float8, int4...) as the integer codes they store."""
    if a.dtype.kind == "u":
        return a.view(a.dtype.str.replace("u", "i"))
    if a.dtype in _NARROW_DTYPES:
        return a.view(f"i{a.dtype.itemsize}")
    return a

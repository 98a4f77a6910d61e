"""`CompiledModel`: native code for one model, called with numpy arrays."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from infer.abi import RUN_COUNTER
from infer.errors import ArtifactError, InputError
from infer.runtime.arena import ArenaPool, MemoryPlan
from infer.runtime.artifact import map_file, read_artifact, save_artifact
from infer.runtime.checks import EntryChecks
from infer.runtime.compiled_code import CompiledCode, compile_code
from infer.runtime.signature import TensorSpec, check_feeds
from infer.runtime.signing import KeyLike
from infer.runtime.structured import StructuredValue, pack, unpack
from infer.runtime.threads import resolve_threads

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

    from infer.codegen.jit import NativeModule

Entry = Callable[[list[np.ndarray]], list[np.ndarray]]


class CompiledModel:
    """A model compiled to native code for this CPU.

    `run({name: array}) -> {name: array}` (for an input or output in `structured_inputs`
    or `structured`, whose tensors are arguments or results of its name: a list of arrays
    for a sequence, None for an optional that holds nothing); inputs are checked (names,
    dtypes, ranks, static dims, equal sizes for equal dim names) before any native code
    runs, and passed without copies when they are C-contiguous. What depends on their
    run-time sizes and values (dims that must agree between inputs, index values) the
    native code checks before each op: a failed check is a `ShapeError` naming the op and
    the shapes.

    `threads`: how many threads its parallel loops use (runtime/threads.py: one per
    physical core by default); settable at any time, it changes no code. `run` may be
    called from several Python threads at once (the native code holds no state between
    runs and runs without the GIL).

    `memory_plan`: how its intermediates are packed (None when it has none to pack): the
    arena's bytes against the sum of the planned buffers'. Each run takes an arena from a
    small pool and gives it back after, so concurrent runs never share one.
    """

    def __init__(
        self,
        inputs: list[TensorSpec],
        outputs: list[TensorSpec],
        native: NativeModule,
        checks: EntryChecks | None = None,
        structured: list[StructuredValue] | None = None,
        structured_inputs: list[StructuredValue] | None = None,
        entry: str = "main",
        compiled: CompiledCode | None = None,
        threads: int | None = None,
        memory_plan: MemoryPlan | None = None,
    ) -> None:
        self.inputs = inputs
        self.outputs = outputs
        self.structured = structured or []
        self.structured_inputs = structured_inputs or []
        # A structured input's tensors are checked under names of their own ("x#0"...),
        # after `pack` made them from its value.
        self._feed_specs = list(inputs)
        self._packed_names = {q.name for q in self.structured_inputs}
        # per structured input, the shapes of an empty optional tensor's placeholders
        # (its tensors' after the flag), worked out once
        self._placeholders: dict[str, list[tuple[int, ...]]] = {}
        if self._packed_names:
            seen: dict[str, int] = {}
            for i, s in enumerate(inputs):
                if s.name in self._packed_names:
                    j = seen[s.name] = seen.get(s.name, -1) + 1
                    self._feed_specs[i] = TensorSpec(f"{s.name}#{j}", s.dtype, s.shape)
                    if j > 0:
                        self._placeholders.setdefault(s.name, []).append(
                            tuple(d if isinstance(d, int) else 0 for d in s.shape))
        # The model's outputs in order, one listed twice twice (as onnxruntime lists them);
        # a sequence's or optional's tensors share its name (`size` of them per listing; an
        # empty one, with no tensor to show it, goes in by its place).
        size = {q.name: q.count + q.optional for q in self.structured}
        names: list[str] = []
        run = 0  # the place of a tensor among its neighbours of the same name
        for i, s in enumerate(outputs):
            run = run + 1 if i and outputs[i - 1].name == s.name else 0
            if run % size.get(s.name, 1) == 0:
                names.append(s.name)
        for q in self.structured:
            if q.name not in names:
                names.insert(q.at, q.name)
        self._output_names = names
        # A model with random ops numbers its runs (RUN_COUNTER, a hidden input).
        self._runs = itertools.count() if any(s.name == RUN_COUNTER for s in inputs) else None
        self.checks = checks
        self.entry_name = entry
        self.native = native  # the engine and the weight buffers the code points into
        self.compiled = compiled  # what `save` writes
        self._entry = native.get_entry(entry)
        self.memory_plan = memory_plan
        self._arenas = ArenaPool(memory_plan.arena) if memory_plan is not None else None
        self.threads = threads  # type: ignore[assignment]  # None: the default

    @property
    def threads(self) -> int:
        """How many threads the model's parallel loops use."""
        return self._threads

    @threads.setter
    def threads(self, count: int | None) -> None:
        self._threads = resolve_threads(count)
        self.native.threads = self._threads

    @property
    def input_names(self) -> list[str]:
        return list(dict.fromkeys(s.name for s in self.inputs if s.name != RUN_COUNTER))

    @property
    def output_names(self) -> list[str]:
        """The model's outputs in order, one listed twice twice (`run` returns it once)."""
        return list(self._output_names)

    def save(self, path: str | os.PathLike, sign_key: object = None, weights: str = "f32"
             ) -> None:
        """Writes the model's native code, weights and signature to one file that
        `infer.load` maps again without compiling (see runtime/artifact.py): signed with
        `sign_key` when given (an Ed25519 private key, as PEM bytes or a `cryptography` key
        object, or an HMAC secret of 16 bytes or more), its f32 weights stored as f16 when
        `weights="f16"` (the file is about half the size; the code still computes in f32)."""
        if self.compiled is None:
            raise ValueError("only a model made by infer.compile or infer.load can be saved")
        save_artifact(self.compiled, path, sign_key, weights)

    def run(self, feeds: Mapping[str, np.ndarray]
            ) -> dict[str, np.ndarray | list[np.ndarray] | None]:
        if self._packed_names:
            feeds = self._pack(feeds)
        if self._runs is not None:
            feeds = {**feeds, RUN_COUNTER: np.array(next(self._runs), np.uint64)}
        arrays = [_storage_view(a) for a in check_feeds(self._feed_specs, feeds)]
        # the arena goes last, after the status buffer (abi.MEMORY_PLAN_ATTR)
        arena = [self._arenas.take()] if self._arenas is not None else []
        try:
            if self.checks is None:
                results = self._entry([*arrays, *arena])
            else:  # sizes and indices that contradict the model fail a check in the code
                status = self.checks.status()
                results = self._entry([*arrays, status, *arena])
                self.checks.raise_failed(status)  # the empty results are dropped
        finally:
            if self._arenas is not None:  # outputs never live in it: reusable at once
                self._arenas.give(arena[0])
        if not self.structured:
            return {s.name: r if r.dtype == s.dtype else r.view(s.dtype)
                    for s, r in zip(self.outputs, results, strict=True)}
        tensors: dict[str, list[np.ndarray]] = {}
        for s, r in zip(self.outputs, results, strict=True):
            tensors.setdefault(s.name, []).append(r.view(s.dtype))
        out: dict[str, object] = {n: v[0] for n, v in tensors.items()}
        for q in self.structured:
            # one listed twice has its tensors twice: the first ones are its value
            out[q.name] = unpack(q, tensors.get(q.name, [])[:q.count + q.optional])
        return {n: out[n] for n in self._output_names}

    def _pack(self, feeds: Mapping[str, object]) -> dict[str, object]:
        """The feeds with each structured input's value made its tensors."""
        out = {k: v for k, v in feeds.items() if k not in self._packed_names}
        for q in self.structured_inputs:
            if q.name not in feeds:
                raise InputError(f"missing input '{q.name}' ({q.onnx_type(q.dtype.name)})")
            for j, a in enumerate(pack(q, feeds[q.name], self._placeholders.get(q.name, []))):
                out[f"{q.name}#{j}"] = a
        return out


def _storage_view(a: np.ndarray) -> np.ndarray:
    """Native code sees unsigned integers as the signless (signed) type of their width, and
    ml_dtypes' narrow types (bf16, float8, int4...) as the integer codes they store."""
    if a.dtype.kind == "u":
        return a.view(a.dtype.str.replace("u", "i"))
    if a.dtype.isbuiltin == 2:  # a user-defined dtype: ml_dtypes' (check_feeds lets no other)
        return a.view(f"i{a.dtype.itemsize}")
    return a


def map_code(code: CompiledCode, threads: int | None = None) -> CompiledModel:
    """`code` mapped for this CPU (ValueError naming the feature if it lacks one the code
    uses), run on `threads` threads (None: one per physical core)."""
    from infer.codegen.jit import ObjectModule

    native = ObjectModule(code.code)
    # The mapped copy's weights are the aligned buffers the code reads: kept once.
    compiled = replace(code, code=native.code)
    return CompiledModel(code.inputs, code.outputs, native, code.checks, code.structured,
                         code.structured_inputs, code.entry, compiled, threads,
                         code.memory_plan)


def compile_and_map(module: ModuleOp, entry: str = "main", threads: int | None = None
                    ) -> CompiledModel:
    """Compile an llvm-level module for this CPU and map it."""
    return map_code(compile_code(module, entry), threads)


def load(path: str | os.PathLike, verify_key: KeyLike | None = None,
         threads: int | None = None) -> CompiledModel:
    """A compiled model saved with `CompiledModel.save` (`infer.load`), mapped without
    compiling again. `infer.ArtifactError` (naming the file and the reason) if the file is
    truncated or altered, was made by another infer version, or is for a CPU this one is
    not, or, given `verify_key` (the Ed25519 public key, as PEM bytes or a `cryptography`
    key object, or the HMAC secret), is unsigned or not signed by it; nothing of such a
    file is mapped or run. Imports no compiler: a deployment needs only the runtime.
    `threads`: as in `infer.compile` (None: one per physical core)."""
    try:
        data = map_file(path)
    except OSError as e:
        raise ArtifactError(f"cannot read artifact '{path}': {e.strerror or e}") from None
    return artifact_from_bytes(data, f"'{path}'", verify_key, threads)


def artifact_from_bytes(data: bytes, where: str = "the artifact",
                        verify_key: KeyLike | None = None, threads: int | None = None
                        ) -> CompiledModel:
    """`load` of a file's bytes; `where` names them in errors."""
    # Only when every check passed is the code mapped.
    return map_code(read_artifact(data, where, verify_key), threads)

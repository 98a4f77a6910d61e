"""The public Python API: `compile`, `compile_to_file` and `optimization_report` (`load` is
the runtime's, in runtime/compiled_model.py; `InferenceSession`, with
onnxruntime's conventions, is in session.py). The target choices the pipeline takes as
pass options (the NCHWc block, the vector register count, the cache sizes) are filled in
here, from the target (codegen/target.py: this CPU unless another is named) and this
machine's caches, unless given. A compile looks in the compile cache first
(runtime/cache.py)."""

from __future__ import annotations

import gc
import mmap
import os
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import onnx
from xdsl.dialects.builtin import ModuleOp

from infer import pipeline, progress
from infer.abi import WEIGHT_STORAGE
from infer.context import make_context
from infer.frontend.onnx_import import import_model, load_model
from infer.pipeline import DEFAULT_OPT_LEVEL, compile_passes, graph_optimize_passes, run_passes
from infer.progress import CompileProgress
from infer.runtime.artifact import map_file, save_artifact
from infer.runtime.cache import CompileCache, cache_key
from infer.runtime.compiled_code import CompiledCode, compile_code
from infer.runtime.compiled_model import CompiledModel, map_code
from infer.runtime.threads import resolve_threads

if TYPE_CHECKING:
    from infer.codegen.target import Target
from infer.transforms.gemm_blocking import CACHES

ModelLike = onnx.ModelProto | bytes | str | os.PathLike



def resolve_target(target: str | Target | None) -> Target:
    """The Target of `target`: this CPU when None, else a Target or a name such as
    "x86-64-v3" (codegen/target.py)."""
    from infer.codegen.target import Target, host_target, named_target

    if target is None:
        return host_target()
    return target if isinstance(target, Target) else named_target(target)


def _block(nchwc_block: int | None, target: Target | None = None) -> int:
    """`nchwc_block`, or the target's block when None: one vector register of f32."""
    return nchwc_block if nchwc_block is not None else resolve_target(target).nchwc_block()


def _caches() -> tuple[int, int, int]:
    """The host's data cache sizes, for the packed matmuls' cache blocks."""
    from infer.codegen import target

    return target.host_cache_sizes(CACHES)


def _stage(pass_name: str) -> str:
    """The reported stage a pass of `compile_passes` belongs to."""
    if pass_name in pipeline.LOWER_TO_LOOPS:
        return progress.LOWER_TO_LOOPS
    if pass_name in pipeline.LOWER_TO_LLVM:
        return progress.LOWER_TO_LLVM
    return progress.GRAPH_OPTIMIZE


def compile_timed(
    module: ModuleOp,
    opt_level: int,
    nchwc_block: int | None,
    stages: CompileProgress,
    optimized: Callable[[ModuleOp], None] | None = None,
    target: Target | None = None,
    weights: str = "f32",
) -> CompiledCode:
    """The native code of `module` for `target` (this CPU when None), its f32 weights held
    as `weights`, the pipeline run pass by pass, each timed in its stage on `stages`;
    `optimized` sees the module when the graph stage is done."""
    with _fewer_collections():
        return _compile_timed(module, opt_level, nchwc_block, stages, optimized, target, weights)


# Python's cycle collector runs a full collection each time enough objects have been made
# since the last one; a compile makes millions (IR objects: ops, uses, attributes), so with
# the default thresholds it spent 16% of resnet50's compile re-scanning the IR it holds.
# Fewer, larger young generations cut that without holding more memory at the peak.
_COMPILE_GC_THRESHOLD = (100_000, 50, 50)


_gc_lock = threading.Lock()
_gc_compiles = 0  # compiles running (in several threads: the first sets, the last restores)
_gc_before = gc.get_threshold()


@contextmanager
def _fewer_collections() -> Iterator[None]:
    global _gc_compiles, _gc_before
    with _gc_lock:
        if _gc_compiles == 0:
            _gc_before = gc.get_threshold()
            gc.set_threshold(*_COMPILE_GC_THRESHOLD)
        _gc_compiles += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_compiles -= 1
            if _gc_compiles == 0:
                gc.set_threshold(*_gc_before)


def _compile_timed(module: ModuleOp, opt_level: int, nchwc_block: int | None,
                   stages: CompileProgress, optimized: Callable[[ModuleOp], None] | None,
                   target: Target | str | None, weights: str) -> CompiledCode:
    target = resolve_target(target)
    _check_weights(weights)
    from infer.codegen.forked_parts import fork_parts
    from infer.codegen.jit import new_symbol_prefix

    passes = compile_passes(opt_level, _block(nchwc_block, target), target.vector_registers(),
                            _caches(), weights, target.int8_kernel(), to_llvm=False)
    ctx = make_context()
    for name in passes:
        if optimized is not None and _stage(name) != progress.GRAPH_OPTIMIZE:
            optimized(module)
            optimized = None
        with stages.stage(_stage(name)):
            run_passes(module, ctx, [name])

    def lower(part: ModuleOp) -> None:
        run_passes(part, ctx, pipeline.LOWER_TO_LLVM)

    # A large module is lowered and compiled in parts at once, a process each; the
    # stage then times this process's part.
    with stages.stage(progress.LOWER_TO_LLVM):
        forked = fork_parts(module, lower, target, new_symbol_prefix())
        if forked is None:
            lower(module)
    with stages.stage(progress.LLVM_JIT):
        return compile_code(module, target=target, forked=forked)


def compile_module(
    module: ModuleOp,
    opt_level: int = DEFAULT_OPT_LEVEL,
    nchwc_block: int | None = None,
    verbose: bool | None = None,
    threads: int | None = None,
) -> CompiledModel:
    """Compile a graph-level module (as the importer makes it) to native code: the pipeline
    of `infer.pipeline.compile_passes`, then LLVM for this CPU.

    `opt_level` is graph-optimize's level: 0 none, 1 basic, 2 extended (fusions), 3 all;
    at level 3 convs are blocked by `nchwc_block` channels (default: the host's).
    `verbose`, `threads`: see `compile`.
    """
    stages = CompileProgress(verbose)
    code = compile_timed(module, opt_level, nchwc_block, stages)
    with stages.stage(progress.LLVM_JIT):
        compiled = map_code(code, threads)
    stages.done()
    return compiled


def _check_weights(weights: str) -> None:
    if weights not in WEIGHT_STORAGE:
        raise ValueError(f"weights must be one of {', '.join(WEIGHT_STORAGE)}, not '{weights}'")


def _runnable(target: Target) -> None:
    missing = target.missing_on_host()
    if missing:
        raise ValueError(f"target {target.cpu} has feature '{missing[0]}', which this CPU "
                         "lacks: infer.compile_to_file (infer-compile) writes a compiled model "
                         "for it without running it")


def _model_bytes(model: ModelLike) -> bytes | mmap.mmap | None:
    """The bytes the cache key of `model` is made of: a file's or the given bytes as they
    are (no parse), a proto serialized; None when there are none (too large, unreadable:
    then nothing is cached, and reading the model reports what is wrong)."""
    if isinstance(model, onnx.ModelProto):
        try:
            return model.SerializeToString()
        except ValueError:  # over protobuf's 2 GB
            return None
    if isinstance(model, bytes | bytearray | memoryview):
        return bytes(model)
    try:
        data = map_file(model)
    except OSError:
        return None
    # Weights in files beside the model (external data) are part of the model: a file
    # that names none (no "location" key anywhere in it) is all of it.
    return data if data.find(b"location") < 0 else _model_bytes(load_model(model))


class _Cached:
    """One compile's use of the compile cache: the lookup, then the store after a miss."""

    def __init__(self, model: ModelLike, opt_level: int, nchwc_block: int | None,
                 target: Target, weights: str, stages: CompileProgress) -> None:
        self.stages = stages
        self.store = CompileCache.from_environment()
        self.key = ""
        if self.store is None:
            return
        with stages.stage(progress.CACHE):
            data = _model_bytes(model)
            if data is None:
                self.store = None
                return
            self.key = cache_key(data, {"opt_level": opt_level, "target": target.to_json(),
                                        "nchwc_block": _block(nchwc_block, target),
                                        "caches": _caches(), "weights": weights})

    def code(self) -> CompiledCode | None:
        """The stored code, not mapped (None on a miss)."""
        if self.store is None:
            return None
        with self.stages.stage(progress.CACHE):
            return self.store.get(self.key)

    def get(self, threads: int | None) -> CompiledModel | None:
        hit = self.code()
        if hit is None:
            return None
        with self.stages.stage(progress.CACHE):
            return map_code(hit, threads)

    def put(self, code: CompiledCode) -> None:
        if self.store is not None:
            with self.stages.stage(progress.CACHE):
                self.store.put(self.key, code)


def compile_proto(
    proto: onnx.ModelProto,
    opt_level: int,
    nchwc_block: int | None,
    stages: CompileProgress,
    target: Target | None = None,
    cache: bool = True,
    optimized: Callable[[ModuleOp], None] | None = None,
    source: ModelLike | None = None,
    threads: int | None = None,
) -> CompiledModel:
    """`proto` (read from `source`, whose bytes key the compile cache) compiled as
    `compile` does; `optimized`, when given, sees the module when the graph stage is done
    (and the cache is not used: nothing would be optimized)."""
    return _compile(lambda: proto, proto if source is None else source, opt_level,
                    nchwc_block, stages, resolve_target(target), cache, optimized,
                    threads=threads)


def _compile(
    read: Callable[[], onnx.ModelProto],
    source: ModelLike,
    opt_level: int,
    nchwc_block: int | None,
    stages: CompileProgress,
    target: Target,
    cache: bool,
    optimized: Callable[[ModuleOp], None] | None = None,
    weights: str = "f32",
    threads: int | None = None,
) -> CompiledModel:
    """The model `read` returns compiled for `target` and mapped to run on `threads`:
    from the compile cache (keyed by `source`'s bytes, not by `threads`, which changes no
    code) when it holds it, `read` then never called; else compiled, then stored. The
    stages are timed on `stages`, which this ends."""
    _runnable(target)
    _check_weights(weights)
    cached = (_Cached(source, opt_level, nchwc_block, target, weights, stages)
              if cache and optimized is None else None)
    hit = cached.get(threads) if cached is not None else None
    if hit is not None:
        stages.done()
        return hit
    with stages.stage(progress.IMPORT):
        module = import_model(read())  # the proto, not kept: its weights live in the module
    code = compile_timed(module, opt_level, nchwc_block, stages, optimized, target, weights)
    with stages.stage(progress.LLVM_JIT):
        compiled = map_code(code, threads)
    if cached is not None:
        cached.put(code)
    stages.done()
    return compiled


def compile(  # noqa: A001 - the API's name, like torch.compile
    model: ModelLike,
    opt_level: int = DEFAULT_OPT_LEVEL,
    nchwc_block: int | None = None,
    verbose: bool | None = None,
    target: str | Target | None = None,
    cache: bool = True,
    weights: str = "f32",
    threads: int | None = None,
) -> CompiledModel:
    """Import an ONNX model (ModelProto, serialized bytes or a path) and compile it at
    graph optimization level `opt_level` (0 none, 1 basic, 2 extended, 3 all: the
    default).

    `target`: the CPU to compile for, this one by default, or a portable level such as
    "x86-64-v3" that this CPU has (`compile_to_file` writes one for any CPU).
    `cache`: look the model up in the compile cache, and store it there after a compile
    (runtime/cache.py: `$INFER_CACHE_DIR`, empty to turn it off); a hit reads nothing
    of the model but its bytes.
    `weights="f16"`: the convs' and matmuls' f32 weights held as f16 in memory (about
    half of it; each value rounded to f16's 11 significant bits), widened to f32 as the
    kernels read them; "f32" (the default) keeps them exact.
    `threads`: how many threads the model's parallel loops (convs, matmuls, pools,
    elementwise ops, ...) run on; None or 0: one per physical core this process may use,
    as onnxruntime does. It is set on the compiled code, not compiled in (no new compile,
    the same cache entry); `CompiledModel.threads` changes it later.
    `verbose=True` prints the time of each stage (import, graph optimize, lower to loops,
    lower to llvm, llvm optimize + jit) to stderr; `None` shows the current stage on a
    terminal only; `False` is silent."""
    return _compile(lambda: load_model(model), model, opt_level, nchwc_block,
                    CompileProgress(verbose), resolve_target(target), cache,
                    weights=weights, threads=resolve_threads(threads))


def compile_to_file(
    model: ModelLike,
    path: str | os.PathLike,
    opt_level: int = DEFAULT_OPT_LEVEL,
    nchwc_block: int | None = None,
    target: str | Target | None = None,
    sign_key: object = None,
    weights: str = "f32",
    verbose: bool | None = None,
    cache: bool = True,
) -> None:
    """Compile `model` for `target` (this CPU, a level such as "x86-64-v4" or a named CPU,
    which this one need not be) and write the artifact to `path` without running it:
    signed with `sign_key`, its weights held as `weights` as `compile` does and stored so
    as `CompiledModel.save` does. Nothing is written if the compile fails. `cache`: as in
    `compile` (the same entries), for a target this CPU runs (the cache holds only code
    that loads here)."""
    target = resolve_target(target)
    _check_weights(weights)
    stages = CompileProgress(verbose)
    cached = (_Cached(model, opt_level, nchwc_block, target, weights, stages)
              if cache and target.runs_on_host_triple() and not target.missing_on_host()
              else None)
    code = cached.code() if cached is not None else None
    if code is None:
        with stages.stage(progress.IMPORT):
            module = import_model(model)
        code = compile_timed(module, opt_level, nchwc_block, stages, target=target,
                             weights=weights)
        if cached is not None:
            cached.put(code)
    stages.done()
    save_artifact(code, path, sign_key, weights)


@dataclass(frozen=True)
class OptimizationReport:
    """Op counts by type of a model's functions, as imported (`before`) and after the graph
    stage of the pipeline at `opt_level` (`after`); `str()` is the table `infer-run
    --report` prints."""

    opt_level: int
    before: Counter[str]
    after: Counter[str]

    def __str__(self) -> str:
        before, after = self.before, self.after
        names = sorted(before.keys() | after.keys(), key=lambda n: (-before[n], -after[n], n))
        width = max(len("op"), *(len(n) for n in names))
        lines = [f"op counts before and after graph-optimize{{level={self.opt_level}}}:",
                 f"  {'op':<{width}}  {'before':>6}  {'after':>6}"]
        lines += [f"  {n:<{width}}  {before[n]:>6}  {after[n]:>6}" for n in names]
        lines.append(
            f"  {'total':<{width}}  {sum(before.values()):>6}  {sum(after.values()):>6}")
        return "\n".join(lines)


def optimization_report(
    model: ModelLike, opt_level: int = DEFAULT_OPT_LEVEL, nchwc_block: int | None = None
) -> OptimizationReport:
    """What graph optimization at `opt_level` does to `model`, in op counts by type."""
    from infer.transforms.graph_optimize import op_counts

    module = import_model(model)
    before = op_counts(module)
    run_passes(module, make_context(), graph_optimize_passes(opt_level, _block(nchwc_block)))
    return OptimizationReport(opt_level, before, op_counts(module))

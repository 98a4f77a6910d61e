"""The public Python API: `compile`, `load` and `optimization_report` (`InferenceSession`, with
onnxruntime's conventions, is in session.py). The target choices the pipeline takes as
pass options (the NCHWc block, the vector register count, the cache sizes) are filled in
here, from the host (codegen/target.py), unless given."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import onnx
from xdsl.dialects.builtin import ModuleOp

from infer import pipeline, progress
from infer.context import make_context
from infer.frontend.onnx_import import import_model
from infer.pipeline import DEFAULT_OPT_LEVEL, compile_passes, graph_optimize_passes, run_passes
from infer.progress import CompileProgress
from infer.runtime.artifact import load_artifact
from infer.runtime.compiled_model import CompiledModel
from infer.runtime.compiled_model import load as jit_load
from infer.transforms.gemm_blocking import CACHES

ModelLike = onnx.ModelProto | bytes | str | os.PathLike



def _block(nchwc_block: int | None) -> int:
    """`nchwc_block`, or the host's block when None: one vector register of f32."""
    if nchwc_block is not None:
        return nchwc_block
    from infer.codegen import target  # LLVM's target set-up: only when compiling

    return target.nchwc_block()


def _registers() -> int:
    """The host's vector register count, for the blocked convs' register tile."""
    from infer.codegen import target

    return target.vector_registers()


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
) -> CompiledModel:
    """Compile `module` as `compile_module` does, running the pipeline pass by pass, each
    timed in its stage on `stages`; `optimized` sees the module when the graph stage is
    done."""
    passes = compile_passes(opt_level, _block(nchwc_block), _registers(), _caches())
    ctx = make_context()
    for name in passes:
        if optimized is not None and _stage(name) != progress.GRAPH_OPTIMIZE:
            optimized(module)
            optimized = None
        with stages.stage(_stage(name)):
            run_passes(module, ctx, [name])
    with stages.stage(progress.LLVM_JIT):
        compiled = jit_load(module)
    stages.done()
    return compiled


def compile_module(
    module: ModuleOp,
    opt_level: int = DEFAULT_OPT_LEVEL,
    nchwc_block: int | None = None,
    verbose: bool | None = None,
) -> CompiledModel:
    """Compile a graph-level module (as the importer makes it) to native code: the pipeline
    of `infer.pipeline.compile_passes`, then LLVM for this CPU.

    `opt_level` is graph-optimize's level: 0 none, 1 basic, 2 extended (fusions), 3 all;
    at level 3 convs are blocked by `nchwc_block` channels (default: the host's).
    `verbose`: see `compile`.
    """
    return compile_timed(module, opt_level, nchwc_block, CompileProgress(verbose))


def compile(  # noqa: A001 - the API's name, like torch.compile
    model: ModelLike,
    opt_level: int = DEFAULT_OPT_LEVEL,
    nchwc_block: int | None = None,
    verbose: bool | None = None,
) -> CompiledModel:
    """Import an ONNX model (ModelProto, serialized bytes or a path) and compile it at
    graph optimization level `opt_level` (0 none, 1 basic, 2 extended, 3 all: the
    default).

    `verbose=True` prints the time of each stage (import, graph optimize, lower to loops,
    lower to llvm, llvm optimize + jit) to stderr; `None` shows the current stage on a
    terminal only; `False` is silent."""
    stages = CompileProgress(verbose)
    with stages.stage(progress.IMPORT):
        module = import_model(model)
    return compile_timed(module, opt_level, nchwc_block, stages)


def load(path: str | os.PathLike) -> CompiledModel:
    """A compiled model saved with `CompiledModel.save`, mapped without compiling again.
    `infer.ArtifactError` (naming the file and the reason) if the file is truncated or
    altered, was made by another infer version, or is for a CPU this one is not; nothing
    of such a file is mapped or run."""
    return load_artifact(path)


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

"""`InferenceSession`: onnxruntime's Python API over infer's compiler, so that code written
for onnxruntime runs unchanged:

    so = infer.SessionOptions()          # or an onnxruntime.SessionOptions
    so.graph_optimization_level = infer.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    sess = infer.InferenceSession("model.onnx", so, providers=["CPUExecutionProvider"])
    probs, = sess.run(None, {"input": array})

What the session options mean here (see `InferenceSession`); everything else onnxruntime's
API has that changes nothing in infer is accepted with a warning.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from infer import progress
from infer.errors import InputError
from infer.progress import CompileProgress
from infer.runtime.artifact import is_artifact
from infer.runtime.compiled_model import artifact_from_bytes, load
from infer.runtime.signature import TensorSpec
from infer.runtime.structured import StructuredValue
from infer.runtime.threads import resolve_threads
from infer.session_values import CPU, ExecutionMode, IOBinding, OrtValue, as_array, onnx_type_name

if TYPE_CHECKING:  # the compiler is imported only to compile: a compiled artifact needs none
    import onnx
    from xdsl.dialects.builtin import ModuleOp

    from infer.api import ModelLike


class GraphOptimizationLevel(IntEnum):
    """onnxruntime's levels, with its values; `OPT_LEVEL` maps them to infer's."""

    ORT_DISABLE_ALL = 0
    ORT_ENABLE_BASIC = 1
    ORT_ENABLE_EXTENDED = 2
    ORT_ENABLE_LAYOUT = 3
    ORT_ENABLE_ALL = 99


# onnxruntime level (as int) -> graph-optimize level: none, basic (folding, CSE),
# extended (fusions), and layout/all (+ the blocked NCHWc layout).
OPT_LEVEL = {0: 0, 1: 1, 2: 2, 3: 3, 99: 3}


@dataclass(slots=True)
class SessionOptions:
    """onnxruntime's SessionOptions with its attribute names and defaults (a misspelled
    attribute is an AttributeError, as there). `InferenceSession` says which are honoured."""

    graph_optimization_level: int = GraphOptimizationLevel.ORT_ENABLE_ALL
    intra_op_num_threads: int = 0
    inter_op_num_threads: int = 0
    enable_profiling: bool = False
    profile_file_prefix: str = "onnxruntime_profile_"
    optimized_model_filepath: str = ""
    execution_mode: int = ExecutionMode.ORT_SEQUENTIAL
    execution_order: int = 0  # DEFAULT
    enable_cpu_mem_arena: bool = True
    enable_mem_pattern: bool = True
    enable_mem_reuse: bool = True
    use_deterministic_compute: bool = False
    log_severity_level: int = 2
    log_verbosity_level: int = 0
    logid: str = ""
    # set by the methods below (not attributes of onnxruntime's SessionOptions)
    config_entries: dict[str, str] = field(default_factory=dict, repr=False)
    free_dimension_overrides: dict[str, int] = field(default_factory=dict, repr=False)

    def add_session_config_entry(self, key: str, value: str) -> None:
        """Kept and read back; no entry changes what infer compiles."""
        self.config_entries[str(key)] = str(value)

    def get_session_config_entry(self, key: str) -> str:
        if key not in self.config_entries:
            raise RuntimeError(f"SessionOptions does not have configuration with key: {key}")
        return self.config_entries[key]

    def add_free_dimension_override_by_name(self, dim_name: str, dim_value: int) -> None:
        """Compiles every dim named `dim_name` in the graph's inputs and outputs as the
        static size `dim_value`: an input of another size is then refused."""
        if not isinstance(dim_value, int) or dim_value < 0:
            raise ValueError(f"free dimension override '{dim_name}': the size must be an "
                             f"int >= 0, got {dim_value!r}")
        self.free_dimension_overrides[str(dim_name)] = dim_value


# Options that change nothing here: a non-default value gets a warning. (The log options
# are accepted silently: infer logs nothing.)
_NO_EFFECT = ("inter_op_num_threads", "execution_mode", "execution_order",
              "enable_cpu_mem_arena", "enable_mem_pattern", "enable_mem_reuse",
              "use_deterministic_compute")  # fmt: skip
# onnxruntime's attributes, which an onnxruntime.SessionOptions has too
_ALL_OPTIONS = tuple(f.name for f in fields(SessionOptions)
                     if f.name not in ("config_entries", "free_dimension_overrides"))


@dataclass(frozen=True)
class NodeArg:
    """Like onnxruntime's NodeArg: name, shape (ints, dim names or None) and type string."""

    name: str
    shape: list[int | str | None]
    type: str


@dataclass(frozen=True)
class ModelMetadata:
    """Like onnxruntime's ModelMetadata, read from the ModelProto."""

    producer_name: str
    graph_name: str
    domain: str
    description: str
    graph_description: str
    version: int
    custom_metadata_map: dict[str, str] = field(default_factory=dict)


def _node_args(names: list[str], specs: list[TensorSpec], structured: list[StructuredValue]
               ) -> list[NodeArg]:
    tensors = {s.name: s for s in specs}
    by_name = {q.name: q for q in structured}
    args = []
    for name in names:
        q = by_name.get(name)
        if q is None:
            args.append(_node_arg(tensors[name]))
        else:  # a string tensor's shape is its offsets' (the last of its tensors)
            shape = list(tensors[name].shape) if q.string else []
            args.append(NodeArg(name, shape, q.onnx_type(_node_arg(TensorSpec(
                name, q.dtype, ())).type)))
    return args


def _node_arg(spec: TensorSpec) -> NodeArg:
    return NodeArg(spec.name, list(spec.shape), onnx_type_name(spec.dtype))


def _metadata(proto: onnx.ModelProto) -> ModelMetadata:
    # onnxruntime reports INT64_MAX for a model without a model_version.
    version = proto.model_version if proto.HasField("model_version") else 2**63 - 1
    return ModelMetadata(proto.producer_name, proto.graph.name, proto.domain, proto.doc_string,
                         proto.graph.doc_string, version,
                         {p.key: p.value for p in proto.metadata_props})


def _providers(
    providers: Sequence[str | tuple[str, dict[Any, Any]]] | None,
    provider_options: Sequence[dict[Any, Any]] | None,
) -> dict[str, str]:
    """The CPU provider's options; other providers warn and fall back to it, as
    onnxruntime falls back when a provider is not available."""
    if providers is None:
        return {}
    if isinstance(providers, str) or not isinstance(providers, Sequence):
        raise ValueError("'providers' should be a sequence.")
    if provider_options is not None:
        if len(provider_options) != len(providers):
            raise ValueError(
                "'providers' and 'provider_options' should be the same length if both are given.")
        providers = list(zip(providers, provider_options, strict=True))
    cpu: dict[str, str] = {}
    for p in providers:
        if isinstance(p, str):
            name, options = p, {}
        elif (isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str)
              and isinstance(p[1], dict)):
            name, options = p
        else:
            raise ValueError("'providers' values must be either strings or (string, dict) tuples.")
        if name == CPU:
            cpu = {str(k): str(v) for k, v in options.items()}
        else:
            warnings.warn(f"provider '{name}' is not available in infer; falling back to {CPU}",
                          stacklevel=3)
    return cpu


def _opt_level(so: Any) -> int:
    level = int(so.graph_optimization_level)
    if level not in OPT_LEVEL:
        raise ValueError(f"graph_optimization_level must be one of onnxruntime's levels "
                         f"{sorted(OPT_LEVEL)}, got {level}")
    return OPT_LEVEL[level]


def _warn_unused(so: Any) -> None:
    """Warns about options set to something infer does not do."""
    defaults = type(so)()
    for name in _NO_EFFECT:
        if getattr(so, name) != getattr(defaults, name):
            warnings.warn(f"SessionOptions.{name} has no effect in infer", stacklevel=3)


_PROFILE_NAME = {progress.GRAPH_OPTIMIZE: "graph_optimize",
                 progress.LOWER_TO_LOOPS: "lower_to_loops",
                 progress.LOWER_TO_LLVM: "lower_to_llvm",
                 progress.LLVM_JIT: "llvm_optimize_and_jit"}  # fmt: skip


class _Profile:
    """onnxruntime's profile format at the granularity infer has: each compile stage and
    each run as a "Session" event (no per-kernel events: kernels are fused into one native
    function)."""

    def __init__(self, prefix: str) -> None:
        self.start_ns = time.time_ns()
        self._t0 = time.perf_counter()
        stamp = datetime.fromtimestamp(self.start_ns / 1e9)
        self.path = f"{prefix}_{stamp:%Y-%m-%d_%H-%M-%S}_{stamp.microsecond // 1000:03d}.json"
        self.events: list[dict[str, Any]] = []

    def add(self, name: str, start: float, seconds: float) -> None:
        """An event `name` that began at perf_counter() `start`."""
        self.events.append({
            "cat": "Session", "pid": os.getpid(), "tid": threading.get_native_id(),
            "dur": round(seconds * 1e6), "ts": round((start - self._t0) * 1e6), "ph": "X",
            "name": name, "args": {},
        })  # fmt: skip

    def add_compile(self, times: list[tuple[str, float, float]], from_bytes: bool) -> None:
        """Loading as onnxruntime names it, then "session_initialization" over the other
        stages, each an event of its own."""
        for name, start, seconds in times:
            if name == progress.IMPORT:
                self.add("model_loading_array" if from_bytes else "model_loading_uri",
                         start, seconds)
        rest = [t for t in times if t[0] != progress.IMPORT]
        if rest:
            end = rest[-1][1] + rest[-1][2]
            self.add("session_initialization", rest[0][1], end - rest[0][1])
        for name, start, seconds in rest:
            self.add(_PROFILE_NAME[name], start, seconds)

    def write(self) -> str:
        Path(self.path).write_text(
            "[\n" + ",\n".join(json.dumps(e) for e in self.events) + "\n]\n")
        return self.path


class InferenceSession:
    """onnxruntime's `InferenceSession`, compiling the model with infer.

    `sess_options` (an `infer.SessionOptions` or an `onnxruntime.SessionOptions`):
      * `graph_optimization_level`: ORT_DISABLE_ALL / BASIC / EXTENDED / LAYOUT / ALL (or
        their int values 0, 1, 2, 3, 99) compile at infer's opt level 0 / 1 / 2 / 3 / 3;
        the default, ORT_ENABLE_ALL, is level 3, the fastest;
      * `optimized_model_filepath`: the graph after optimization, written as infer's graph
        IR text (not ONNX, so a `.onnx` name is refused; weights of more than 64 elements
        elided, as `infer-opt` prints);
      * `add_free_dimension_override_by_name(name, size)`: every input and output dim
        named `name` is compiled as `size` (an input of another size is refused);
        `add_session_config_entry` entries are kept and change nothing;
      * `enable_profiling` and `profile_file_prefix`: `end_profiling()` writes a JSON file
        in onnxruntime's format and names it as onnxruntime does, with one event per
        compile stage and per `run` (no per-kernel events: kernels are fused);
      * `intra_op_num_threads`: the threads the model's parallel loops run on; 0 (the
        default), one per physical core, as in onnxruntime;
      * the log options are accepted (infer logs nothing); any other option set to a
        non-default value warns that it has no effect.
    `providers`: names or (name, options) as in onnxruntime; anything but
    CPUExecutionProvider warns and falls back to it. Keyword-only, infer's own:
    `opt_level` (overrides the session options' level), `nchwc_block`, `verbose`, `cache`,
    `threads` (overrides `intra_op_num_threads`; as in `infer.compile`). Any other keyword
    is a TypeError.

    `path_or_bytes` may also be a compiled model saved with `CompiledModel.save` (a
    `.infer` file, or its bytes): it is loaded, not compiled, so the options that choose
    how to compile have no effect, and its model metadata is empty; `verify_key` refuses
    it unless it is signed by that key (as `infer.load`).
    """

    def __init__(
        self,
        path_or_bytes: ModelLike,
        sess_options: Any = None,
        providers: Sequence[str | tuple[str, dict[Any, Any]]] | None = None,
        provider_options: Sequence[dict[Any, Any]] | None = None,
        *,
        opt_level: int | None = None,
        nchwc_block: int | None = None,
        verbose: bool | None = None,
        cache: bool = True,
        verify_key: object = None,
        threads: int | None = None,
    ) -> None:
        so = SessionOptions() if sess_options is None else sess_options
        missing = [n for n in _ALL_OPTIONS if not hasattr(so, n)]
        if missing:
            raise TypeError(f"sess_options must be an infer.SessionOptions or an "
                            f"onnxruntime.SessionOptions, got {type(so).__name__}")
        self._options = so
        self._provider_options = _providers(providers, provider_options)
        _warn_unused(so)
        threads = resolve_threads(int(so.intra_op_num_threads) if threads is None else threads)
        level = _opt_level(so) if opt_level is None else opt_level
        self._profile = _Profile(so.profile_file_prefix) if so.enable_profiling else None

        # A ModelProto exists only once onnx is imported; an artifact needs neither it nor
        # the compiler.
        onnx = sys.modules.get("onnx")
        if not (onnx is not None and isinstance(path_or_bytes, onnx.ModelProto)) \
                and is_artifact(path_or_bytes):
            self._load(path_or_bytes, opt_level, nchwc_block, verify_key, threads)
            return
        if verify_key is not None:
            raise ValueError("verify_key is for a compiled artifact (.infer), not an ONNX model")
        self._compile(path_or_bytes, level, nchwc_block, CompileProgress(verbose), cache,
                      threads)

    def _compile(self, model: ModelLike, level: int, nchwc_block: int | None,
                 stages: CompileProgress, cache: bool, threads: int) -> None:
        """An ONNX model compiled, its free dims pinned as the options say."""
        from infer.api import compile_proto
        from infer.frontend.onnx_import import load_model

        path = self._options.optimized_model_filepath
        if path and Path(path).suffix.lower() == ".onnx":
            raise ValueError(f"optimized_model_filepath '{path}': infer writes its graph IR "
                             "as text, not ONNX; give a name with another suffix, such as "
                             "'.mlir'")
        with stages.stage(progress.IMPORT):
            proto = load_model(model)
        self._meta = _metadata(proto)
        overrides = _free_dim_overrides(self._options)
        # pinned dims: the cache is keyed by the pinned model, not the file
        source = _pin_free_dims(proto, overrides) if overrides else model
        self._model = compile_proto(proto, level, nchwc_block, stages, cache=cache,
                                    optimized=(lambda m: _write_ir(m, path)) if path else None,
                                    source=source, threads=threads)
        del proto  # the weights live on in the compiled model
        if self._profile is not None:
            self._profile.add_compile(stages.times, isinstance(model, bytes))

    def _load(self, artifact: str | os.PathLike | bytes, opt_level: int | None,
              nchwc_block: int | None, verify_key: object, threads: int) -> None:
        """A saved compiled model (`.infer`, or its bytes), mapped without compiling: the
        options that choose how to compile change nothing, and warn when set."""
        if opt_level is not None or nchwc_block is not None:
            warnings.warn("opt_level and nchwc_block have no effect on a compiled artifact",
                          stacklevel=3)
        if self._options.optimized_model_filepath:
            warnings.warn("optimized_model_filepath has no effect on a compiled artifact",
                          stacklevel=3)
        start = time.perf_counter()
        self._model = (artifact_from_bytes(artifact, verify_key=verify_key, threads=threads)
                       if isinstance(artifact, bytes) else load(artifact, verify_key, threads))
        # The ONNX model's metadata is not in the artifact: onnxruntime's defaults.
        self._meta = ModelMetadata("", "", "", "", "", 2**63 - 1)
        if self._profile is not None:
            self._profile.add("model_loading_array" if isinstance(artifact, bytes)
                              else "model_loading_uri", start, time.perf_counter() - start)

    def get_inputs(self) -> list[NodeArg]:
        """One per input, a sequence's or optional's typed as onnxruntime types it."""
        return _node_args(self._model.input_names, self._model.inputs,
                          self._model.structured_inputs)

    def get_outputs(self) -> list[NodeArg]:
        """One per output, a sequence's or optional's typed as onnxruntime types it:
        `seq(tensor(float))`, `optional(tensor(float))`."""
        return _node_args(self._model.output_names, self._model.outputs,
                          self._model.structured)

    def get_overridable_initializers(self) -> list[NodeArg]:
        """Always empty: initializers are compiled in as constants."""
        return []

    def get_modelmeta(self) -> ModelMetadata:
        return self._meta

    def get_providers(self) -> list[str]:
        return [CPU]

    def get_provider_options(self) -> dict[str, dict[str, str]]:
        return {CPU: dict(self._provider_options)}

    def get_session_options(self) -> Any:
        return self._options

    def get_profiling_start_time_ns(self) -> int:
        return self._profile.start_ns if self._profile is not None else 0

    def end_profiling(self) -> str:
        """Writes the profile and returns its file name ("" when profiling is off)."""
        if self._profile is None:
            return ""
        path, self._profile = self._profile.write(), None
        return path

    def run(
        self,
        output_names: Sequence[str] | None,
        input_feed: Mapping[str, Any],
        run_options: Any = None,
    ) -> list[np.ndarray]:
        """The outputs named in `output_names` (all when None or empty), in that order.
        `run_options` is accepted and has no effect."""
        names = self._model.output_names
        if isinstance(output_names, str) or not (
                output_names is None or isinstance(output_names, list | tuple)):
            raise TypeError(f"output_names must be a list of output names or None, "
                            f"got {type(output_names).__name__} {output_names!r}")
        if not isinstance(input_feed, Mapping):
            raise TypeError(f"input_feed must be a dict of input name to array, "
                            f"got {type(input_feed).__name__}")
        for n in output_names or []:
            if n not in names:
                raise InputError(f"unknown output name '{n}'; the model's outputs are "
                                 + ", ".join(f"'{m}'" for m in names))
        start = time.perf_counter()
        results = self._model.run({k: as_array(v) for k, v in input_feed.items()})
        if self._profile is not None:
            self._profile.add("model_run", start, time.perf_counter() - start)
        return [results[n] for n in (output_names or names)]

    def run_with_ort_values(self, output_names: Sequence[str] | None,
                            input_dict_ort_values: Mapping[str, Any], run_options: Any = None
                            ) -> list[OrtValue]:
        """`run` on OrtValues (or arrays), its outputs as OrtValues."""
        return [OrtValue(r) for r in self.run(output_names, input_dict_ort_values, run_options)]

    def io_binding(self) -> IOBinding:
        return IOBinding(self)

    def run_with_iobinding(self, iobinding: IOBinding, run_options: Any = None) -> None:
        """Runs the binding's inputs; its outputs are then read from it."""
        iobinding.run(run_options)

    def set_providers(self, providers: Sequence[str | tuple[str, dict[Any, Any]]] | None = None,
                      provider_options: Sequence[dict[Any, Any]] | None = None) -> None:
        """As at construction: anything but the CPU provider warns and falls back to it."""
        self._provider_options = _providers(providers, provider_options)

    def disable_fallback(self) -> None:
        """Nothing to fall back from: the CPU provider is the only one."""

    def enable_fallback(self) -> None:
        """Nothing to fall back from: the CPU provider is the only one."""


def _free_dim_overrides(so: Any) -> dict[str, int]:
    """The dims `add_free_dimension_override_by_name` pinned (none for an onnxruntime
    SessionOptions: it does not say which it holds)."""
    return dict(getattr(so, "free_dimension_overrides", {}))


def _pin_free_dims(proto: onnx.ModelProto, sizes: Mapping[str, int]) -> onnx.ModelProto:
    """`proto` with each dim named in `sizes` made that static size in the graph's inputs,
    outputs and value infos, as onnxruntime pins them; returns `proto`, changed."""
    graph = proto.graph
    for info in [*graph.input, *graph.output, *graph.value_info]:
        if not info.type.HasField("tensor_type"):
            continue
        for dim in info.type.tensor_type.shape.dim:
            if dim.HasField("dim_param") and dim.dim_param in sizes:
                dim.dim_value = sizes[dim.dim_param]  # clears dim_param (a oneof)
    return proto


def _write_ir(module: ModuleOp, path: str) -> None:
    from xdsl.printer import Printer

    from infer.dialects.graph import elide_weights

    with open(path, "w") as f, elide_weights(64):  # infer-opt's default
        Printer(stream=f).print_op(module)
        f.write("\n")

"""The public Python API: `compile`, and `InferenceSession` with onnxruntime's conventions."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import onnx
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from infer.context import make_context
from infer.errors import InferError, InputError
from infer.frontend.onnx_import import import_model
from infer.pipeline import LOWER_TO_LOOPS, graph_optimize_passes, run_passes
from infer.runtime.compiled_model import CompiledModel
from infer.runtime.signature import signature

ModelLike = onnx.ModelProto | bytes | str | os.PathLike


def main_function(module: ModuleOp) -> func.FuncOp:
    for op in module.body.block.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == "main":
            return op
    raise InferError("the module has no func.func @main")


def compile_module(module: ModuleOp, opt_level: int = 2) -> CompiledModel:
    """Compile a graph-level module (as the importer makes it) to native code.

    `opt_level` is graph-optimize's level: 0 none, 1 basic, 2 extended (fusions), 3 all.
    """
    from infer.codegen import JitModule
    from infer.lowering.llvm_pipeline import lower_to_llvm

    inputs, outputs = signature(main_function(module))
    ctx = make_context()
    run_passes(module, ctx, graph_optimize_passes(opt_level) + LOWER_TO_LOOPS)
    lower_to_llvm(module, ctx)
    jit = JitModule(module)
    return CompiledModel(inputs, outputs, jit.get_entry("main"), jit)


def compile(model: ModelLike, opt_level: int = 2) -> CompiledModel:  # noqa: A001 - the API's name, like torch.compile
    """Import an ONNX model (ModelProto, serialized bytes or a path) and compile it at
    graph optimization level `opt_level` (0 none, 1 basic, 2 extended, 3 all)."""
    return compile_module(import_model(model), opt_level)


@dataclass(frozen=True)
class NodeArg:
    """Like onnxruntime's NodeArg: name, shape (ints, dim names or None) and type string."""

    name: str
    shape: list[int | str | None]
    type: str


_ORT_TYPE = {
    np.dtype(np.float32): "tensor(float)",
    np.dtype(np.float64): "tensor(double)",
    np.dtype(np.float16): "tensor(float16)",
    np.dtype(np.bool_): "tensor(bool)",
}


def _node_arg(spec) -> NodeArg:
    t = _ORT_TYPE.get(spec.dtype, f"tensor({spec.dtype.name})")
    return NodeArg(spec.name, list(spec.shape), t)


class InferenceSession:
    """`InferenceSession(path_or_bytes).run(output_names_or_None, feeds) -> list of arrays`."""

    def __init__(self, model: ModelLike, opt_level: int = 2, **_ignored: object) -> None:
        self._model = compile(model, opt_level)

    def get_inputs(self) -> list[NodeArg]:
        return [_node_arg(s) for s in self._model.inputs]

    def get_outputs(self) -> list[NodeArg]:
        return [_node_arg(s) for s in self._model.outputs]

    def run(
        self, output_names: Sequence[str] | None, input_feed: Mapping[str, np.ndarray]
    ) -> list[np.ndarray]:
        names = self._model.output_names
        for n in output_names or []:
            if n not in names:
                raise InputError(f"unknown output name '{n}'; the model's outputs are {names}")
        results = self._model.run(input_feed)
        return [results[n] for n in (output_names or names)]

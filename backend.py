"""`infer.backend`: an `onnx.backend.base.Backend`, so ONNX's own backend tests run on infer.

    import onnx.backend.test
    onnx.backend.test.BackendTest(infer.backend, __name__)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
from onnx.backend.base import Backend, BackendRep, Device, DeviceType

from infer.api import compile
from infer.errors import InferError
from infer.runtime.compiled_model import CompiledModel


class InferBackendRep(BackendRep):
    def __init__(self, model: CompiledModel) -> None:
        self.model = model

    def run(self, inputs: Any, **kwargs: Any) -> tuple[np.ndarray, ...]:
        if isinstance(inputs, np.ndarray):
            inputs = [inputs]
        if isinstance(inputs, dict):
            feeds = inputs
        else:
            feeds = dict(zip(self.model.input_names, inputs, strict=False))
        results = self.model.run(feeds)
        return tuple(results[n] for n in self.model.output_names)


class InferBackend(Backend):
    @classmethod
    def is_compatible(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> bool:
        """True when `device` is a CPU and the model imports: every node's op, domain and
        opset is in the importer's table (`infer.supported_ops()`) and its attributes and
        types are accepted. (A lowering may still refuse a rare form of an op: `prepare`
        then raises UnsupportedError.)"""
        from infer.frontend.onnx_import import import_model

        if not cls.supports_device(device):
            return False
        try:
            import_model(model)
        except InferError:
            return False
        return True

    @classmethod
    def prepare(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> BackendRep:
        super().prepare(model, device, **kwargs)
        return InferBackendRep(compile(model))

    @classmethod
    def run_model(
        cls, model: onnx.ModelProto, inputs: Any, device: str = "CPU", **kwargs: Any
    ) -> tuple[np.ndarray, ...]:
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(
        cls,
        node: onnx.NodeProto,
        inputs: Any,
        device: str = "CPU",
        outputs_info: Sequence[tuple[np.dtype, tuple[int, ...]]] | None = None,
        **kwargs: Any,
    ) -> tuple[np.ndarray, ...]:
        """Run one node by wrapping it into a model of the inputs' types."""
        from onnx import helper, shape_inference

        super().run_node(node, inputs, device=device, outputs_info=outputs_info)
        arrays = [np.asarray(a) for a in inputs]
        graph_inputs = [
            helper.make_tensor_value_info(
                name, helper.np_dtype_to_tensor_dtype(a.dtype), list(a.shape)
            )
            for name, a in zip(node.input, arrays, strict=False)
            if name
        ]
        # Output types come from ONNX's shape inference on the one-node graph.
        probe = helper.make_model(helper.make_graph([node], "node", graph_inputs, []))
        inferred = {v.name: v for v in shape_inference.infer_shapes(probe).graph.value_info}
        outputs = [
            inferred.get(o) or helper.make_empty_tensor_value_info(o) for o in node.output if o
        ]
        graph = helper.make_graph([node], "node", graph_inputs, outputs)
        model = helper.make_model(graph)
        return cls.run_model(model, arrays, device, **kwargs)

    @classmethod
    def supports_device(cls, device: str) -> bool:
        return Device(device).type == DeviceType.CPU


prepare = InferBackend.prepare
run_model = InferBackend.run_model
run_node = InferBackend.run_node
supports_device = InferBackend.supports_device
is_compatible = InferBackend.is_compatible

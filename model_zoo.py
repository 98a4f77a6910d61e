"""The nine "light" model-zoo models that the `onnx` package ships, with their inputs and
reference outputs, exactly as ONNX's BackendTest runs them (no download needed)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

LIGHT_DIR = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"

LIGHT_MODELS = [
    "bvlc_alexnet",
    "densenet121",
    "inception_v1",
    "inception_v2",
    "resnet50",
    "shufflenet",
    "squeezenet",
    "vgg19",
    "zfnet512",
]


def light_model_path(name: str) -> Path:
    return LIGHT_DIR / f"light_{name}.onnx"


def graph_inputs(model: onnx.ModelProto) -> list[onnx.ValueInfoProto]:
    """The real inputs: graph inputs that are not initializers (opset-9 models list both)."""
    inits = {i.name for i in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in inits]


def dummy_input(info: onnx.ValueInfoProto) -> np.ndarray:
    """ONNX BackendTest's input for light models: arange(n) / n, unknown dims as 1."""
    return dummy_array(tuple(
        d.dim_value if d.HasField("dim_value") else 1 for d in info.type.tensor_type.shape.dim
    ))


def dummy_array(shape: tuple[int, ...]) -> np.ndarray:
    """arange(n) / n in `shape`, as float32."""
    n = int(np.prod(shape))
    return (np.arange(n).reshape(shape) / n).astype(np.float32)


def dummy_inputs(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    return {i.name: dummy_input(i) for i in graph_inputs(model)}


def reference_outputs(model_path: str | os.PathLike) -> list[np.ndarray] | None:
    """`<model>_output_<i>.pb` files next to the model, or None if there are none."""
    prefix = os.path.splitext(str(model_path))[0]
    outs = []
    i = 0
    while os.path.exists(f"{prefix}_output_{i}.pb"):
        t = onnx.TensorProto()
        with open(f"{prefix}_output_{i}.pb", "rb") as f:
            t.ParseFromString(f.read())
        outs.append(numpy_helper.to_array(t))
        i += 1
    return outs or None


def with_random_weights(model: onnx.ModelProto, seed: int = 0) -> onnx.ModelProto:
    """The model with every ConstantOfShape-made weight replaced by a seeded random
    initializer: the shipped weights are all 0.02, which hides transposed or mis-indexed
    weights. Shape-like (integer) constants are kept."""
    from onnx import helper, shape_inference

    rng = np.random.default_rng(seed)
    m = onnx.ModelProto()
    m.CopyFrom(model)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    keep, new_inits = [], []
    for node in m.graph.node:
        if node.op_type == "ConstantOfShape" and node.input[0] in inits:
            shape = [int(d) for d in inits[node.input[0]]]
            value = helper.get_attribute_value(node.attribute[0]) if node.attribute else None
            dtype = numpy_helper.to_array(value).dtype if value is not None else np.float32
            if dtype == np.float32:
                fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 1
                w = (rng.standard_normal(shape) / np.sqrt(max(fan_in, 1))).astype(np.float32)
                if len(shape) == 1:  # biases, BN parameters: keep variances positive
                    w = (0.5 + rng.random(shape)).astype(np.float32)
                new_inits.append(numpy_helper.from_array(w, node.output[0]))
                continue
        keep.append(node)
    del m.graph.node[:]
    m.graph.node.extend(keep)
    m.graph.initializer.extend(new_inits)
    m.ir_version = max(m.ir_version, 4)  # IR >= 4: initializers need not be graph inputs
    return shape_inference.infer_shapes(m)

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


# -- the architectures people deploy --------------------------------------------------------
# Exported by torch.onnx (TorchScript and dynamo) from torchvision and transformers modules
# with random weights, stored as statistics (benchmarks/zoo/README.md): `zoo_model` fills
# them, `zoo_inputs` makes the inputs they are measured at.
ZOO_DIR = Path(__file__).resolve().parent / "benchmarks" / "zoo"

ZOO_MODELS = [
    "mobilenet_v3_large",
    "efficientnet_b0",
    "convnext_tiny",
    "resnet50",
    "resnet50_dynamo",
    "vit_b_16",
    "distilbert",
    "bert_base",
    "bert_base_dynamo",
    "minilm_l6",
    "minilm_l6_dynamo",
]


def zoo_model_path(name: str) -> Path:
    return ZOO_DIR / f"{name}.onnx"


def zoo_model(name: str, seed: int = 0) -> onnx.ModelProto:
    """The zoo model `name` with each initializer stored as `refill mean=M std=S` filled
    with seeded normal samples of that mean and deviation (0.02 where both are 0: a
    zero-initialized classifier would make every output 0)."""
    model = onnx.load(zoo_model_path(name))
    rng = np.random.default_rng(seed)
    for t in model.graph.initializer:
        if not t.doc_string.startswith("refill "):
            continue
        stats = dict(p.split("=") for p in t.doc_string.split()[1:])
        mean, std = float(stats["mean"]), float(stats["std"])
        std = std or (0.02 if mean == 0 else 0.0)
        dtype = onnx.helper.tensor_dtype_to_np_dtype(t.data_type)
        filled = rng.normal(mean, std, tuple(t.dims)).astype(dtype)
        t.CopyFrom(numpy_helper.from_array(filled, t.name))
    return model


def zoo_inputs(model: onnx.ModelProto, batch: int = 1, tokens: int = 128,
               seed: int = 0) -> dict[str, np.ndarray]:
    """Inputs a zoo model is measured at: images of `batch` x 3 x 224 x 224 (normal), or
    `batch` x `tokens` token ids below 1000 with an all-ones attention mask."""
    rng = np.random.default_rng(seed)
    feeds = {}
    for info in graph_inputs(model):
        t = info.type.tensor_type
        if t.elem_type == onnx.TensorProto.FLOAT:
            feeds[info.name] = rng.standard_normal((batch, 3, 224, 224)).astype(np.float32)
        elif "mask" in info.name:
            feeds[info.name] = np.ones((batch, tokens), np.int64)
        else:
            feeds[info.name] = rng.integers(0, 1000, (batch, tokens)).astype(np.int64)
    return feeds


def with_static_inputs(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> onnx.ModelProto:
    """The model with its inputs' dims fixed to those of `feeds`, intermediate shapes
    dropped (a dynamic model's static twin)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for info in graph_inputs(m):
        dims = info.type.tensor_type.shape.dim
        for d, size in zip(dims, feeds[info.name].shape, strict=True):
            d.Clear()
            d.dim_value = size
    del m.graph.value_info[:]
    return m

"""infer: an MLIR-style compiler for neural-network inference on CPUs.

    model = infer.compile("model.onnx")          # ONNX → graph → loops → LLVM → native
    outputs = model.run({"input": array})        # {name: ndarray}

    sess = infer.InferenceSession("model.onnx")  # onnxruntime's calling convention
    sess.run(None, {"input": array})             # [ndarray, ...]

    print(infer.optimization_report("model.onnx", opt_level=3))  # op counts per type

    model.save("model.infer")                    # native code + weights, one file
    model = infer.load("model.infer")            # mapped again, nothing compiled
    infer.compile_to_file("model.onnx", "model.infer", target="x86-64-v3", sign_key=pem)
    infer.quantize("model.onnx", "calibration.npz", "model_int8.onnx")  # an int8 QDQ model
    print(infer.cache_info()); infer.clear_cache()  # the compile cache ($INFER_CACHE_DIR)

Errors: `infer.InferError` and its subclasses `InvalidModelError` (a ValueError),
`UnsupportedError` (a NotImplementedError), `InputError` (a ValueError), `ShapeError` and
`ArtifactError` (a ValueError: a saved model that cannot be loaded).
The API loads lazily, so `import infer.dialects.graph` does not pull in ONNX or LLVM.
"""

from importlib import import_module

from infer.version import __version__

_API = {
    "compile": "infer.api",
    "compile_module": "infer.api",
    "compile_to_file": "infer.api",
    "load": "infer.runtime.compiled_model",
    "cache_info": "infer.runtime.cache",
    "clear_cache": "infer.runtime.cache",
    "CompiledModel": "infer.api",
    "optimization_report": "infer.api",
    "quantize": "infer.quantization",
    "InferenceSession": "infer.session",
    "SessionOptions": "infer.session",
    "GraphOptimizationLevel": "infer.session",
    "NodeArg": "infer.session",
    "ModelMetadata": "infer.session",
    "ExecutionMode": "infer.session_values",
    "RunOptions": "infer.session_values",
    "OrtValue": "infer.session_values",
    "IOBinding": "infer.session_values",
    "get_available_providers": "infer.session_values",
    "get_all_providers": "infer.session_values",
    "get_device": "infer.session_values",
    "set_default_logger_severity": "infer.session_values",
    "get_default_logger_severity": "infer.session_values",
    "supported_ops": "infer.frontend.onnx_import",
    "InferError": "infer.errors",
    "InvalidModelError": "infer.errors",
    "UnsupportedError": "infer.errors",
    "InputError": "infer.errors",
    "ShapeError": "infer.errors",
    "ArtifactError": "infer.errors",
    "backend": "infer.backend",
    "ray_batch": "infer.ray_batch",
}

__all__ = ["__version__", *sorted(_API)]


def __getattr__(name: str):
    if name in _API:
        module = import_module(_API[name])
        return module if name in ("backend", "ray_batch") else getattr(module, name)
    raise AttributeError(f"module 'infer' has no attribute {name!r}")

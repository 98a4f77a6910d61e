"""infer: an MLIR-style compiler for neural-network inference on CPUs.

    model = infer.compile("model.onnx")          # ONNX → graph → loops → LLVM → native
    outputs = model.run({"input": array})        # {name: ndarray}

    sess = infer.InferenceSession("model.onnx")  # onnxruntime's calling convention
    sess.run(None, {"input": array})             # [ndarray, ...]

    print(infer.optimization_report("model.onnx", opt_level=3))  # op counts per type

The API loads lazily, so `import infer.dialects.graph` does not pull in ONNX or LLVM.
"""

from importlib import import_module

_API = {
    "compile": "infer.api",
    "compile_module": "infer.api",
    "CompiledModel": "infer.api",
    "InferenceSession": "infer.api",
    "optimization_report": "infer.api",
    "InferError": "infer.errors",
    "InputError": "infer.errors",
    "UnsupportedError": "infer.errors",
    "backend": "infer.backend",
}

__all__ = sorted(_API)


def __getattr__(name: str):
    if name in _API:
        module = import_module(_API[name])
        return module if name == "backend" else getattr(module, name)
    raise AttributeError(f"module 'infer' has no attribute {name!r}")

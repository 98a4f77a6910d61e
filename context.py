"""The xDSL context with every dialect `infer` reads or writes."""

from __future__ import annotations

from importlib import import_module

from xdsl.context import Context

# (module, attribute) of each dialect, loaded lazily so a context is cheap to make.
_DIALECTS: dict[str, tuple[str, str]] = {
    "builtin": ("xdsl.dialects.builtin", "Builtin"),
    "func": ("xdsl.dialects.func", "Func"),
    "arith": ("xdsl.dialects.arith", "Arith"),
    "math": ("xdsl.dialects.math", "Math"),
    "memref": ("xdsl.dialects.memref", "MemRef"),
    "scf": ("xdsl.dialects.scf", "Scf"),
    "cf": ("xdsl.dialects.cf", "Cf"),
    "affine": ("xdsl.dialects.affine", "Affine"),
    "vector": ("xdsl.dialects.vector", "Vector"),
    "llvm": ("xdsl.dialects.llvm", "LLVM"),
    "omp": ("xdsl.dialects.omp", "OMP"),
    "graph": ("infer.dialects.graph", "GRAPH"),
    "qnn": ("infer.dialects.qnn", "QNN"),
    "shape": ("infer.dialects.shape", "SHAPE"),
    "llvmx": ("infer.dialects.llvmx", "LLVMX"),
}


def _loader(module: str, attr: str):
    return lambda: getattr(import_module(module), attr)


def make_context() -> Context:
    """A context where all of infer's dialects (and the xDSL ones it lowers to) load on use."""
    ctx = Context()
    for name, (module, attr) in _DIALECTS.items():
        ctx.register_dialect(name, _loader(module, attr))
    return ctx

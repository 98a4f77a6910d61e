"""The source tree keeps its shape: small modules of short functions, and imports that run
one way.

DESIGN.md's layering, every module in one layer (its top-level package or module): a
module imports only from lower layers or its own, and `codegen/` none of the graph-level
dialects. Every import counts: at module level or in a function, under TYPE_CHECKING,
relative, and a string naming an infer module (importlib, the lazy pass registry).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import cast

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 800
# A function (its nested functions included) fits a screen or two: at most MAX_FUNCTION
# lines, and only LONG_FUNCTIONS of them over LONG_FUNCTION.
MAX_FUNCTION, LONG_FUNCTION, LONG_FUNCTIONS = 100, 80, 2
# Not part of the compiler: tests and the FileCheck inputs (hidden directories such as
# .venv are skipped too).
EXCLUDED = {"tests", "build", "filecheck_tests"}
NOT_INFER = {"benchmarks", "scripts", "examples"}

# Each top-level package or module of infer and its layer, lowest first. A module may
# import from a lower layer and from its own package, never from a higher layer or from
# another package of its layer.
LAYERS: dict[str, int] = {
    # facts shared by everything: the ABI, errors, the version, progress reporting
    "abi": 0, "errors": 0, "version": 0, "progress": 0,
    "dialects": 1,
    # llvm dialect -> native code; graph-level imports, the lowering and the runtime
    "codegen": 2, "context": 2, "frontend": 2, "transforms": 2,
    "lowering": 3, "runtime": 3,
    "passes": 4, "model_zoo": 4,
    "pipeline": 5,
    "api": 6, "session_values": 6,  # onnxruntime's values and bindings, under the session
    "backend": 7, "session": 7, "quantization": 7, "ray_batch": 7,
    "__init__": 8,  # the public names, loaded lazily from the layers below
    "tools": 9,
    "__main__": 10,
}
# codegen knows the llvm level only: no op of the graph-level dialects
CODEGEN_NEVER = ("infer.dialects.graph", "infer.dialects.qnn", "infer.dialects.shape")


def _sources() -> list[Path]:
    out = list(ROOT.glob("*.py"))
    for d in ROOT.iterdir():
        if d.is_dir() and d.name not in EXCLUDED and not d.name.startswith("."):
            out.extend(d.rglob("*.py"))
    return sorted(out)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["infer", *parts])


# infer's modules: the package, without the scripts and benchmarks that sit beside it
MODULES = {_module_name(p): p for p in _sources()
           if p.name != "setup.py" and p.relative_to(ROOT).parts[0] not in NOT_INFER}


def _resolve(name: str) -> str | None:
    """The module `name` is or lies in (a name imported from a module is that module)."""
    parts = name.split(".")
    while parts and ".".join(parts) not in MODULES:
        parts.pop()
    return ".".join(parts) or None


def _imported_modules(path: Path) -> set[str]:
    """The infer modules `path` imports, resolved."""
    return imported_modules(path.read_text(), _module_name(path), path.name == "__init__.py")


def imported_modules(source: str, module: str, is_package: bool = False) -> set[str]:
    """The infer modules that `source` (the text of `module`) imports, resolved."""
    package = module if is_package else module.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(ast.parse(source, module)):
        if isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, *([node.module] if node.module else [])])
            for a in node.names:
                full = f"{base}.{a.name}"
                names.append(full if _resolve(full) == full else base)
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and node.value.startswith("infer.") and _resolve(node.value) == node.value):
            names.append(node.value)
    out = {_resolve(n) for n in names if n == "infer" or n.startswith("infer.")}
    return {m for m in out if m is not None and m != module}


def _top(module: str) -> str:
    """The top-level package or module `module` lies in (the package root: __init__)."""
    return module.split(".")[1] if "." in module else "__init__"


def _layer(module: str) -> tuple[str, int]:
    return _top(module), LAYERS[_top(module)]


def test_sources_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _sources()}
    assert "dialects/graph/base.py" in names and "api.py" in names


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_module_size(path: Path) -> None:
    n = len(path.read_text().splitlines())
    assert n <= MAX_LINES, f"{path.relative_to(ROOT)} has {n} lines (at most {MAX_LINES})"


def _function_lengths() -> dict[str, int]:
    """Lines of every function and method, by path:line name."""
    lengths = {}
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                where = f"{path.relative_to(ROOT).as_posix()}:{node.lineno} {node.name}"
                lengths[where] = cast(int, node.end_lineno) - node.lineno + 1
    return lengths


def test_function_length() -> None:
    lengths = _function_lengths()
    assert len(lengths) > 1000  # every module was read
    too_long = {f: n for f, n in lengths.items() if n > MAX_FUNCTION}
    assert not too_long, f"functions over {MAX_FUNCTION} lines: {too_long}"
    long = {f: n for f, n in lengths.items() if n > LONG_FUNCTION}
    assert len(long) <= LONG_FUNCTIONS, (
        f"{len(long)} functions over {LONG_FUNCTION} lines (at most {LONG_FUNCTIONS}): {long}")


def test_every_module_has_a_layer() -> None:
    tops = {_top(m) for m in MODULES}
    assert tops == set(LAYERS), f"without a layer: {tops - set(LAYERS)}; gone: " \
                                f"{set(LAYERS) - tops}"


def test_imports_run_down_the_layers() -> None:
    """Also: no import cycle spans two layers or two packages (it would need an import
    that goes up or across)."""
    bad = []
    for module, path in sorted(MODULES.items()):
        top, layer = _layer(module)
        for imported in sorted(_imported_modules(path)):
            other, other_layer = _layer(imported)
            if other != top and other_layer >= layer:
                bad.append(f"{path.relative_to(ROOT)} (layer {layer}) imports {imported} "
                           f"(layer {other_layer})")
            if top == "codegen" and imported.startswith(CODEGEN_NEVER):
                bad.append(f"{path.relative_to(ROOT)}: codegen imports {imported}")
    assert not bad, "\n".join(bad)


def test_import_resolution() -> None:
    """The checks above see relative, function-level and string imports."""
    assert "infer.runtime.compiled_code" in _imported_modules(ROOT / "runtime/artifact.py")
    assert "infer.lowering.convert_scf_to_cf" in _imported_modules(ROOT / "passes.py")
    assert "infer.codegen.jit" in _imported_modules(ROOT / "runtime/compiled_model.py")

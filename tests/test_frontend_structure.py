"""The frontend's imports run one way: the importer (onnx_import) on top, its collaborators
(subgraphs, sequences, strings, ...) below it, knowing it only through
`import_context.ImportContext`. No module of frontend/ but onnx_import itself imports
`infer.frontend.onnx_import`, and the frontend's modules import each other without a cycle.
Every import counts: at module level, under `if TYPE_CHECKING:`, in a function, relative,
and a string naming a frontend module."""

from __future__ import annotations

import inspect
from pathlib import Path

import onnx

from . import test_architecture as architecture

ROOT = Path(__file__).resolve().parent.parent
FRONTEND = ROOT / "frontend"
IMPORTER = "infer.frontend.onnx_import"


MODULES = {architecture._module_name(p): p for p in sorted(FRONTEND.rglob("*.py"))}


def imported_modules(source: str, module: str, is_package: bool = False) -> set[str]:
    """The frontend modules that `source` (the text of `module`) imports, wherever the
    import is: module level, `if TYPE_CHECKING:`, a function; relative ones resolved."""
    return {m for m in architecture.imported_modules(source, module, is_package) if m in MODULES}


def _graph() -> dict[str, set[str]]:
    return {m: imported_modules(p.read_text(), m, p.name == "__init__.py")
            for m, p in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_frontend_is_found() -> None:
    assert {IMPORTER, "infer.frontend.import_context", "infer.frontend.onnx_sequences",
            "infer.frontend.onnx_ops.builder"} <= set(MODULES)


def test_every_kind_of_import_counts() -> None:
    source = '''
from typing import TYPE_CHECKING
from infer.frontend import onnx_values
from .onnx_attrs import int_attr
if TYPE_CHECKING:
    from infer.frontend.onnx_import import _Importer
def f():
    import infer.frontend.onnx_regex
    return "infer.frontend.onnx_string_split"
'''
    assert imported_modules(source, "infer.frontend.onnx_strings") == {
        "infer.frontend.onnx_values", "infer.frontend.onnx_attrs", IMPORTER,
        "infer.frontend.onnx_regex", "infer.frontend.onnx_string_split"}
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_only_the_importer_imports_itself() -> None:
    importing = sorted(m for m, imported in _graph().items() if IMPORTER in imported)
    assert importing == [], (
        f"{importing} import {IMPORTER}: a collaborator of the importer knows it through "
        "infer.frontend.import_context.ImportContext")


def test_no_import_cycle_in_the_frontend() -> None:
    cycles = _cycles(_graph())
    assert cycles == [], f"import cycles among frontend modules: {cycles}"


def test_the_collaborators_know_the_interface() -> None:
    """onnx_import holds them; each is made with an ImportContext."""
    graph = _graph()
    for name in ("onnx_subgraphs", "onnx_sequences", "onnx_strings",
                 "onnx_packed_sequences"):
        module = f"infer.frontend.{name}"
        assert "infer.frontend.import_context" in graph[module], module
        assert module in graph[IMPORTER] or name == "onnx_packed_sequences", module


def test_the_importer_is_an_import_context() -> None:
    """The importer has every member of the interface, its methods with the same
    parameters."""
    from infer.frontend.import_context import ImportContext
    from infer.frontend.onnx_import import _Importer

    importer = _Importer(onnx.GraphProto(), 17, [])
    methods = [n for n, v in vars(ImportContext).items()
               if not n.startswith("_") and callable(v)]
    attributes = list(ImportContext.__annotations__)
    assert {"value", "constant", "import_node", "prefix"} <= set(methods)
    assert {"values", "block"} <= set(attributes)
    missing = [n for n in methods + attributes if not hasattr(importer, n)]
    assert missing == [], f"the importer lacks {missing}"
    for name in methods:
        ours = list(inspect.signature(getattr(importer, name)).parameters)
        declared = list(inspect.signature(getattr(ImportContext, name)).parameters)[1:]
        assert ours == declared, name

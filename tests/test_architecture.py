"""The source tree keeps its shape: small modules, and imports that run one way.

DESIGN.md's layering: `dialects/` and `transforms/` never import the lowering, codegen,
frontend or runtime; `lowering/` never imports codegen or the frontend. Imports inside
functions count too (a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 800
# Not part of the compiler: tests and the FileCheck inputs (hidden directories such as
# .venv are skipped too).
EXCLUDED = {"tests", "build", "filecheck_tests"}

# package -> packages it must not import
FORBIDDEN = {
    "dialects": ("lowering", "codegen", "frontend", "runtime", "transforms"),
    "transforms": ("lowering", "codegen", "frontend", "runtime"),
    "lowering": ("codegen", "frontend", "runtime"),
}


def _sources() -> list[Path]:
    out = list(ROOT.glob("*.py"))
    for d in ROOT.iterdir():
        if d.is_dir() and d.name not in EXCLUDED and not d.name.startswith("."):
            out.extend(d.rglob("*.py"))
    return sorted(out)


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


def test_sources_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _sources()}
    assert "dialects/graph/base.py" in names and "api.py" in names


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_module_size(path: Path) -> None:
    n = len(path.read_text().splitlines())
    assert n <= MAX_LINES, f"{path.relative_to(ROOT)} has {n} lines (at most {MAX_LINES})"


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_import_direction(layer: str) -> None:
    bad = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for module in sorted(_imported_modules(path)):
            parts = module.split(".")
            if parts[0] == "infer" and len(parts) > 1 and parts[1] in FORBIDDEN[layer]:
                bad.append(f"{path.relative_to(ROOT)} imports {module}")
    assert not bad, "\n".join(bad)

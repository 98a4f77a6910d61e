"""Every graph and qnn op is complete: it names the ONNX op it imports from (or is marked as made
by passes only), has a lowering to loops, has numpy semantics or is marked not foldable,
and round-trips through text in a FileCheck test or the numerics table. The generated
docs/operators.md is current."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from xdsl.ir import Operation
from xdsl.traits import IsTerminator

from infer.dialects import graph as G
from infer.dialects import qnn as Q
from infer.dialects.graph.evaluate import evaluator_of
from infer.frontend.onnx_ops import OPS, Expansion
from infer.frontend.onnx_ops.ml import ML_OPS
from infer.frontend.onnx_ops.quantize import MICROSOFT_OPS
from infer.lowering.graph_ops import lowering_for

from .test_op_numerics import CASES

ROOT = Path(__file__).resolve().parent.parent
OPS_OF_GRAPH = sorted([*G.GRAPH.operations, *Q.QNN.operations], key=lambda c: c.name)
ids = [c.name for c in OPS_OF_GRAPH]


def _round_trip_tests() -> str:
    """The text of the graph and qnn dialects' FileCheck tests that print, parse and
    print."""
    texts = [p.read_text() for d in ("graph", "qnn")
             for p in (ROOT / "filecheck_tests/dialects" / d).glob("*.mlir")]
    return "\n".join(t for t in texts if re.search(r"RUN:.*infer-opt %s \| infer-opt", t))


@pytest.mark.parametrize("cls", OPS_OF_GRAPH, ids=ids)
def test_op_has_import_entry_or_is_internal(cls: type[Operation]) -> None:
    assert hasattr(cls, "ONNX_OP"), (
        f"{cls.__name__} declares neither the ONNX op it imports from (ONNX_OP = \"...\") "
        "nor that passes make it (ONNX_OP = None)"
    )
    if cls.ONNX_OP is not None:
        assert cls.ONNX_OP in OPS or cls.ONNX_OP in MICROSOFT_OPS or cls.ONNX_OP in ML_OPS, (
            f"{cls.ONNX_OP} has no entry in frontend/onnx_ops.py OPS (or MICROSOFT_OPS, "
            "ML_OPS)")


def test_every_import_entry_names_its_op() -> None:
    """Every native import entry names a graph op; an op imported only by expanding its
    function body, or built from other ONNX ops' graph ops, has none."""
    declared = [getattr(c, "ONNX_OP", None) for c in OPS_OF_GRAPH]

    def composite(fn: object) -> bool:
        return isinstance(fn, Expansion) or getattr(fn, "built_from_other_ops", False)

    native = [op for op, variants in OPS.items()
              if not all(composite(fn) for fn in variants.values())]
    native += [op for op, fn in MICROSOFT_OPS.items() if not composite(fn)]
    native += [op for op, variants in ML_OPS.items()
               if not all(composite(fn) for fn in variants.values())]
    assert sorted(native) == sorted(d for d in declared if d is not None)


# A terminator (graph.yield) is lowered by the op that holds it; an op with EXPANDED_BY is
# rewritten into other graph ops by that pass before lowering.
LOWERED_ALONE = [c for c in OPS_OF_GRAPH
                 if not c.has_trait(IsTerminator) and not hasattr(c, "EXPANDED_BY")]


@pytest.mark.parametrize("cls", LOWERED_ALONE, ids=lambda c: c.name)
def test_op_has_lowering(cls: type[Operation]) -> None:
    assert lowering_for(cls) is not None, f"no lowering of {cls.name} in lowering/graph_ops/"


def test_expanded_ops_name_a_registered_pass() -> None:
    from infer.passes import PASSES

    expanded = [c for c in OPS_OF_GRAPH if hasattr(c, "EXPANDED_BY")]
    assert expanded and all(c.EXPANDED_BY in PASSES for c in expanded)
    assert all(lowering_for(c) is None for c in expanded)


@pytest.mark.parametrize("cls", OPS_OF_GRAPH, ids=ids)
def test_op_is_evaluable_or_marked(cls: type[Operation]) -> None:
    foldable = getattr(cls, "FOLDABLE", True)
    has_numpy = evaluator_of(cls) is not None
    assert foldable == has_numpy, (
        f"{cls.name}: define its numpy form (a `numpy` method on the op), or mark it "
        "FOLDABLE = False"
        if foldable else f"{cls.name} is marked FOLDABLE = False but has numpy semantics"
    )


@pytest.mark.parametrize("cls", OPS_OF_GRAPH, ids=ids)
def test_op_round_trips(cls: type[Operation]) -> None:
    in_table = getattr(cls, "ONNX_OP", None) in {c.op for c in CASES}
    in_filecheck = re.search(re.escape(cls.name) + r"\s", _round_trip_tests())
    assert in_table or in_filecheck, (
        f"{cls.name} has no round-trip case: add it to filecheck_tests/dialects/graph/ops.mlir"
    )


def test_operator_table_is_current() -> None:
    script = ROOT / "scripts/gen_operators.py"
    spec = importlib.util.spec_from_file_location("gen_operators", script)
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    committed = (ROOT / "docs/operators.md").read_text()
    assert committed == gen.render(), "docs/operators.md is stale: run scripts/gen_operators.py"

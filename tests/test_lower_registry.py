"""The lowering registry: every shape op has a lowering, every fused activation a scalar
body, the bodies marked safe on vectors build only min/max/mul/add, and every lowered op
class has a graph-to-loops FileCheck test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import DenseArrayBase, StringAttr, VectorType, f32
from xdsl.ir import Attribute, Block

from infer.dialects import graph, shape
from infer.lowering.graph_ops import LOWERINGS, OUTLINED, lowering_for
from infer.lowering.graph_ops.elementwise import SCALAR, epilogue
from infer.lowering.loop_builder import LoopBuilder

VECTOR_OPS = {"arith.constant", "arith.maximumf", "arith.minimumf", "arith.mulf", "arith.addf"}
GRAPH_TO_LOOPS = Path(__file__).resolve().parent.parent / "filecheck_tests/lowering/graph-to-loops"


@pytest.mark.parametrize("cls", list(shape.SHAPE.operations), ids=lambda c: c.name)
def test_every_shape_op_has_a_lowering(cls: type) -> None:
    """Graph ops are checked with the rest of their contract in test_op_completeness."""
    assert lowering_for(cls) is not None


def test_kernels_are_outlined() -> None:
    assert {graph.ConvOp, graph.ConvNchwcOp, graph.MaxPoolOp, graph.GemmOp,
            graph.MatMulOp} <= OUTLINED


@pytest.mark.parametrize("name", sorted(graph.ACTIVATIONS))
def test_activation_epilogue(name: str) -> None:
    """Each fused activation runs its op's scalar body; a vector-safe one builds only
    min/max/mul/add on a vector (the blocked conv applies it to its accumulators)."""
    act = graph.ACTIVATIONS[name]
    assert act.op in SCALAR
    props: dict[str, Attribute] = {"activation": StringAttr(name)}
    if act.n_params:
        props["activation_params"] = DenseArrayBase.from_list(f32, [0.5] * act.n_params)
    ep = epilogue(graph.ConvOp.create(properties=props))
    assert ep is not None and ep.vector == SCALAR[act.op].vector
    block = Block(arg_types=[VectorType(f32, [8]) if ep.vector else f32])
    out = ep(LoopBuilder.at_end(block), block.args[0])
    assert out.type == block.args[0].type
    if ep.vector:
        assert {op.name for op in block.ops} <= VECTOR_OPS


def test_vector_safe_activations() -> None:
    safe = {n for n, a in graph.ACTIVATIONS.items() if SCALAR[a.op].vector}
    assert safe == {"relu", "clip", "hard_sigmoid", "hard_swish"}


def _filecheck_inputs() -> str:
    """The non-comment lines of the graph-to-loops FileCheck tests: their input IR."""
    return "\n".join(line for path in sorted(GRAPH_TO_LOOPS.glob("*.mlir"))
                     for line in path.read_text().splitlines()
                     if not line.lstrip().startswith("//"))


def test_every_lowering_has_a_filecheck_test() -> None:
    """Each op class of the registry is an input op (its name then a space or a `(`) of
    some test in filecheck_tests/lowering/graph-to-loops/."""
    inputs = _filecheck_inputs()
    untested = sorted(cls.name for cls in LOWERINGS
                      if not re.search(rf"(?<![\w.]){re.escape(cls.name)}[ (]", inputs))
    assert not untested, f"no graph-to-loops FileCheck test lowers {untested}"

"""If at import: a constant condition (given, or folded from attributes and static shapes)
imports its taken branch in place, reading the enclosing graph's values by name; a
condition known only at run time imports as `graph.if` with both branches as regions
(tests/test_control_flow.py runs them)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

from infer.dialects import graph as G
from infer.frontend.onnx_import import import_model

from .helpers import check_against_onnxruntime

X = h.make_tensor_value_info("x", T.FLOAT, ["N", 3])
Y = h.make_tensor_value_info("y", T.FLOAT, ["N", 3])


def _branch(name: str, op: str, constant: float) -> onnx.GraphProto:
    """out = op(x, c): reads the outer graph's x, has its own initializer c."""
    c = numpy_helper.from_array(np.array(constant, np.float32), f"{name}_c")
    return h.make_graph([h.make_node(op, ["x", f"{name}_c"], [f"{name}_out"])], name, [],
                        [h.make_tensor_value_info(f"{name}_out", T.FLOAT, ["N", 3])], [c])


def _if_model(cond_nodes: list[onnx.NodeProto], inits: list[onnx.TensorProto],
              inputs: list[onnx.ValueInfoProto]) -> onnx.ModelProto:
    node = h.make_node("If", ["cond"], ["y"], name="choose",
                       then_branch=_branch("then", "Add", 10.0),
                       else_branch=_branch("else", "Mul", -2.0))
    graph = h.make_graph([*cond_nodes, node], "g", inputs, [Y], inits)
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", 16)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


@pytest.mark.parametrize("value", [True, False])
def test_constant_condition_imports_the_taken_branch(value: bool) -> None:
    m = _if_model([], [numpy_helper.from_array(np.array(value), "cond")], [X])
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    check_against_onnxruntime(m, [{"x": x}, {"x": x[:1]}])


def test_condition_folded_from_a_static_shape() -> None:
    """cond = Size(Shape(w)) == 2: folded at import although w is a graph input."""
    nodes = [h.make_node("Shape", ["w"], ["s"]), h.make_node("Size", ["s"], ["n"]),
             h.make_node("Equal", ["n", "two"], ["cond"])]
    inits = [numpy_helper.from_array(np.array(2, np.int64), "two")]
    w = h.make_tensor_value_info("w", T.FLOAT, ["A", "B"])
    m = _if_model(nodes, inits, [X, w])
    feeds = {"x": np.ones((2, 3), np.float32), "w": np.zeros((4, 5), np.float32)}
    check_against_onnxruntime(m, feeds)


def test_runtime_condition_imports_both_branches() -> None:
    m = _if_model([], [], [X, h.make_tensor_value_info("cond", T.BOOL, [])])
    module = import_model(m)
    (op,) = [o for o in module.walk() if isinstance(o, G.IfOp)]
    assert [type(o).__name__ for o in op.then_region.block.ops] == [
        "ConstantOp", "AddOp", "YieldOp"]
    assert [type(o).__name__ for o in op.else_region.block.ops] == [
        "ConstantOp", "MulOp", "YieldOp"]
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    check_against_onnxruntime(m, [{"x": x, "cond": np.array(c)} for c in (True, False)])

"""Sequences and optionals made inside a model, resolved when compiling: results against
onnxruntime, and clear refusals (test_packed_sequences.py has those known at run time)."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer

from .helpers import check_against_onnxruntime, make_model, run_onnxruntime

F, I64 = TP.FLOAT, TP.INT64
R = np.random.default_rng(0)


def _ints(name: str, values: list[int] | int) -> object:
    return numpy_helper.from_array(np.array(values, np.int64), name)


def test_sequence_ops_chain() -> None:
    nodes = [
        helper.make_node("SplitToSequence", ["x"], ["s"], axis=1, keepdims=0),
        helper.make_node("SequenceErase", ["s"], ["s2"]),
        helper.make_node("SequenceInsert", ["s2", "y", "front"], ["s3"]),
        helper.make_node("SequenceLength", ["s3"], ["n"]),
        helper.make_node("ConcatFromSequence", ["s3"], ["stacked"], axis=-1, new_axis=1),
        helper.make_node("Optional", ["s3"], ["o"]),
        helper.make_node("OptionalHasElement", ["o"], ["has"]),
        helper.make_node("OptionalGetElement", ["o"], ["s4"]),
        helper.make_node("Identity", ["s4"], ["s5"]),
        helper.make_node("SequenceAt", ["s5", "last"], ["at"]),
    ]
    model = make_model(nodes, [("x", F, [2, 4]), ("y", F, [2])],
                       [("n", I64, []), ("stacked", F, [2, 4]), ("has", TP.BOOL, []),
                        ("at", F, [2])], [_ints("front", 0), _ints("last", -1)], opset=18)
    check_against_onnxruntime(model, {"x": R.standard_normal((2, 4)).astype(np.float32),
                                      "y": R.standard_normal(2).astype(np.float32)})


def test_split_to_sequence_sizes() -> None:
    """Sizes computed at run time (a known count), and a constant chunk with a remainder."""
    nodes = [
        helper.make_node("SplitToSequence", ["x", "sizes"], ["parts"], axis=1),
        helper.make_node("SequenceAt", ["parts", "one"], ["second"]),
        helper.make_node("SplitToSequence", ["x", "three"], ["chunks"], axis=1),
        helper.make_node("SequenceAt", ["chunks", "one"], ["rest"]),
        helper.make_node("ConcatFromSequence", ["chunks"], ["back"], axis=1),
    ]
    model = make_model(nodes, [("x", F, [2, "W"]), ("sizes", I64, [2])],
                       [("second", F, [2, None]), ("rest", F, [2, None]),
                        ("back", F, [2, None])], [_ints("one", 1), _ints("three", 3)],
                       opset=18)
    x = R.standard_normal((2, 5)).astype(np.float32)
    model.graph.input[0].type.tensor_type.shape.dim[1].dim_value = 5
    check_against_onnxruntime(model, {"x": x, "sizes": np.array([1, 4], np.int64)})


def test_sequence_from_an_if_on_a_constant() -> None:
    branch = helper.make_graph([helper.make_node("SequenceConstruct", ["x", "x"], ["s"])],
                               "then", [], [helper.make_tensor_sequence_value_info("s", F, None)])
    other = helper.make_graph([helper.make_node("SequenceConstruct", ["x"], ["s1"])], "else", [],
                              [helper.make_tensor_sequence_value_info("s1", F, None)])
    nodes = [helper.make_node("Constant", [], ["c"], value=helper.make_tensor("v", TP.BOOL, [],
                                                                             [True])),
             helper.make_node("If", ["c"], ["seq"], then_branch=branch, else_branch=other),
             helper.make_node("ConcatFromSequence", ["seq"], ["y"], axis=0)]
    model = make_model(nodes, [("x", F, [3])], [("y", F, [6])], opset=18)
    check_against_onnxruntime(model, {"x": R.standard_normal(3).astype(np.float32)})


def _refused(nodes, inputs, outputs, inits=(), match: str = "",
             error: type[Exception] = infer.UnsupportedError) -> None:
    model = make_model(nodes, inputs, outputs, list(inits), opset=18)
    with pytest.raises(error, match=match):
        infer.compile(model)


def _same_as_onnxruntime(model, feeds) -> None:
    """Every output, a sequence's tensors one by one, equals onnxruntime's."""
    ours = list(infer.compile(model).run(feeds).values())
    theirs = run_onnxruntime(model, feeds)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        assert isinstance(a, list) == isinstance(b, list)
        for x, y in zip(a, b, strict=True) if isinstance(a, list) else [(a, b)]:
            np.testing.assert_array_equal(x, y)


def test_sequence_graph_outputs_are_lists() -> None:
    nodes = [helper.make_node("SplitToSequence", ["x", "sizes"], ["parts"], axis=1),
             helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("SequenceEmpty", [], ["none"]),
             helper.make_node("SplitToSequence", ["x"], ["rows"], keepdims=0)]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", F, [2, 5]),
                     helper.make_tensor_value_info("sizes", I64, [2])],
        [helper.make_tensor_sequence_value_info("parts", F, None),
         helper.make_tensor_value_info("r", F, [2, 5]),
         helper.make_tensor_sequence_value_info("none", F, None),
         helper.make_tensor_sequence_value_info("rows", F, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    _same_as_onnxruntime(model, {"x": R.standard_normal((2, 5)).astype(np.float32),
                                 "sizes": np.array([2, 3], np.int64)})
    session = infer.InferenceSession(model.SerializeToString())
    assert [(a.name, a.type) for a in session.get_outputs()] == [
        ("parts", "seq(tensor(float))"), ("r", "tensor(float)"), ("none", "seq(tensor(float))"),
        ("rows", "seq(tensor(float))")]


def _branch_of(*names: str) -> object:
    return helper.make_graph([helper.make_node("SequenceConstruct", list(names), ["s"])], "b",
                             [], [helper.make_tensor_sequence_value_info("s", F, None)])


def test_sequences_out_of_a_run_time_if() -> None:
    """Branches whose sequences have one length: a result per tensor."""
    nodes = [helper.make_node("If", ["c"], ["seq"], then_branch=_branch_of("x", "y"),
                              else_branch=_branch_of("y", "x")),
             helper.make_node("ConcatFromSequence", ["seq"], ["z"], axis=0)]
    model = make_model(nodes, [("c", TP.BOOL, []), ("x", F, [3]), ("y", F, [3])],
                       [("z", F, [6])], opset=18)
    for c in (True, False):
        check_against_onnxruntime(model, {"c": np.array(c), "x": R.standard_normal(3).astype(
            np.float32), "y": R.standard_normal(3).astype(np.float32)})


def test_getting_the_element_of_an_empty_optional_is_refused() -> None:
    empty = helper.make_node("Optional", [], ["o"],
                             type=helper.make_tensor_type_proto(F, [2]))
    _refused([empty, helper.make_node("OptionalGetElement", ["o"], ["y"], name="get")], [],
             [("y", F, [2])], match=r"node 'get', opset 18\): the optional holds nothing",
             error=infer.InvalidModelError)


def test_an_optional_out_of_a_run_time_if() -> None:
    """One branch holds a value, the other is empty: whether the output holds one is
    computed at run time (None when it does not, as onnxruntime returns it)."""
    held = helper.make_graph([helper.make_node("Optional", ["x"], ["o"])], "held", [],
                             [helper.make_value_info("o", helper.make_optional_type_proto(
                                 helper.make_tensor_type_proto(F, [3])))])
    empty = helper.make_graph(
        [helper.make_node("Optional", [], ["e"], type=helper.make_tensor_type_proto(F, [3]))],
        "empty", [], [helper.make_value_info("e", helper.make_optional_type_proto(
            helper.make_tensor_type_proto(F, [3])))])
    nodes = [helper.make_node("If", ["c"], ["opt"], then_branch=held, else_branch=empty),
             helper.make_node("OptionalHasElement", ["opt"], ["has"])]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("c", TP.BOOL, []),
                     helper.make_tensor_value_info("x", F, [3])],
        [helper.make_value_info("opt", helper.make_optional_type_proto(
            helper.make_tensor_type_proto(F, [3]))),
         helper.make_tensor_value_info("has", TP.BOOL, [])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    compiled = infer.compile(model)
    x = R.standard_normal(3).astype(np.float32)
    for c in (True, False):
        feeds = {"c": np.array(c), "x": x}
        ours, theirs = compiled.run(feeds), run_onnxruntime(model, feeds)
        assert (ours["opt"] is None) == (theirs[0] is None) == (not c)
        if c:
            np.testing.assert_array_equal(ours["opt"], theirs[0])
        np.testing.assert_array_equal(ours["has"], theirs[1])
    get = helper.make_node("OptionalGetElement", ["opt"], ["y"], name="get")
    model.graph.node.append(get)
    del model.graph.output[:]
    model.graph.output.append(helper.make_tensor_value_info("y", F, [3]))
    compiled = infer.compile(model)  # whether it holds a value is checked at run time
    np.testing.assert_array_equal(compiled.run({"c": np.array(True), "x": x})["y"], x)
    with pytest.raises(infer.ShapeError, match="'get/the optional holds a value'"):
        compiled.run({"c": np.array(False), "x": x})


def test_sequence_map_runs_its_body_per_position() -> None:
    """SequenceMap over a sequence made in the model, with a tensor input the same at every
    position; the body's outputs become sequences."""
    body = helper.make_graph(
        [helper.make_node("Relu", ["e"], ["r"]), helper.make_node("Add", ["r", "b"], ["o"]),
         helper.make_node("Shape", ["e"], ["sh"])], "body",
        [helper.make_tensor_value_info("e", F, None), helper.make_tensor_value_info("b", F, None)],
        [helper.make_tensor_value_info("o", F, None),
         helper.make_tensor_value_info("sh", I64, None)])
    nodes = [helper.make_node("SplitToSequence", ["x"], ["s"], keepdims=0),
             helper.make_node("SequenceMap", ["s", "b"], ["outs", "shapes"], body=body),
             helper.make_node("ConcatFromSequence", ["outs"], ["y"], axis=0, new_axis=1),
             helper.make_node("ConcatFromSequence", ["shapes"], ["z"], axis=0)]
    model = make_model(nodes, [("x", F, [3, 4]), ("b", F, [4])],
                       [("y", F, [3, 4]), ("z", I64, [3])], opset=18)
    check_against_onnxruntime(model, {"x": R.standard_normal((3, 4)).astype(np.float32),
                                      "b": R.standard_normal(4).astype(np.float32)})

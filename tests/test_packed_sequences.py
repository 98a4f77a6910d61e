"""Sequences known only at run time (graph inputs, Loop-carried, run-time positions and
split sizes), packed in four tensors: results against onnxruntime, and run-time errors
where the inputs contradict the ops."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper

import infer

from .helpers import run_onnxruntime

F, I64 = TP.FLOAT, TP.INT64
R = np.random.default_rng(0)


def _seq(name: str, shape: list[int | str | None] | None = None,
         elem: int = F) -> onnx.ValueInfoProto:
    return helper.make_tensor_sequence_value_info(name, elem, shape)


def _tensor(name: str, shape: list[int | str | None] | None, elem: int = F
            ) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def _model(nodes: list[onnx.NodeProto], inputs: list[onnx.ValueInfoProto],
           outputs: list[onnx.ValueInfoProto], opset: int = 18) -> onnx.ModelProto:
    model = helper.make_model(helper.make_graph(nodes, "g", inputs, outputs),
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def _same(ours: object, theirs: object) -> None:
    if theirs is None or isinstance(theirs, list):
        assert ours is None if theirs is None else isinstance(ours, list)
        assert len(ours or []) == len(theirs or [])  # type: ignore[arg-type]
        for a, b in zip(ours or [], theirs or [], strict=True):  # type: ignore[call-overload]
            _same(a, b)
        return
    assert isinstance(ours, np.ndarray) and isinstance(theirs, np.ndarray)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def _check(model: onnx.ModelProto, *feeds: dict[str, object]) -> infer.CompiledModel:
    """One compile; each feed's outputs equal onnxruntime's."""
    compiled = infer.compile(model)
    for f in feeds:
        ours = list(compiled.run(f).values())
        theirs = run_onnxruntime(model, f)  # type: ignore[arg-type]
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs, strict=True):
            _same(a, b)
    return compiled


def _floats(*shape: int) -> np.ndarray:
    return R.standard_normal(shape).astype(np.float32)


@pytest.mark.slow
def test_a_sequence_graph_input_of_any_length_and_shapes() -> None:
    nodes = [helper.make_node("Constant", [], ["minus_one"],
                              value=helper.make_tensor("v", I64, [], [-1])),
             helper.make_node("SequenceLength", ["s"], ["n"]),
             helper.make_node("SequenceAt", ["s", "minus_one"], ["last"]),
             helper.make_node("SequenceInsert", ["s", "x"], ["grown"]),
             helper.make_node("ConcatFromSequence", ["s"], ["joined"], axis=1)]
    model = _model(nodes, [_seq("s", [2, None]), _tensor("x", [2, 2])],
                   [_tensor("n", [], I64), _tensor("last", [2, None]), _seq("grown"),
                    _tensor("joined", [2, None])])
    x = _floats(2, 2)
    compiled = _check(model, {"s": [_floats(2, 3), _floats(2, 1), _floats(2, 4)], "x": x},
                      {"s": [_floats(2, 5)], "x": x})
    session = infer.InferenceSession(model.SerializeToString())
    assert [(a.name, a.type) for a in session.get_inputs()] == [
        ("s", "seq(tensor(float))"), ("x", "tensor(float)")]
    assert [a.type for a in session.get_outputs()][2] == "seq(tensor(float))"
    with pytest.raises(infer.ShapeError, match="element of rank 2"):
        compiled.run({"s": [_floats(2, 3, 1)], "x": x})
    with pytest.raises(infer.InputError, match="'s': element #1 has dtype float64"):
        compiled.run({"s": [_floats(2, 3), np.zeros((2, 3))], "x": x})
    with pytest.raises(infer.InputError, match="'s' is a sequence: pass a list of arrays"):
        compiled.run({"s": _floats(2, 3), "x": x})


@pytest.mark.slow
def test_positions_computed_at_run_time() -> None:
    """SequenceInsert, SequenceErase and SequenceAt at positions given as inputs, on a
    sequence made in the model; a position out of range fails the run."""
    nodes = [helper.make_node("SequenceConstruct", ["x", "y"], ["s"]),
             helper.make_node("SequenceInsert", ["s", "x", "i"], ["s2"]),
             helper.make_node("SequenceErase", ["s2", "j"], ["s3"]),
             helper.make_node("SequenceAt", ["s3", "k"], ["at"], name="pick"),
             helper.make_node("SequenceLength", ["s3"], ["n"])]
    model = _model(nodes, [_tensor("x", [3]), _tensor("y", [2]), _tensor("i", [], I64),
                           _tensor("j", [], I64), _tensor("k", [], I64)],
                   [_seq("s3"), _tensor("at", [None]), _tensor("n", [], I64)])
    x, y = _floats(3), _floats(2)

    def feeds(i: int, j: int, k: int) -> dict[str, object]:
        return {"x": x, "y": y, "i": np.array(i), "j": np.array(j), "k": np.array(k)}
    compiled = _check(model, feeds(0, 1, -1), feeds(2, -1, 0), feeds(-2, 0, 1),
                      feeds(1, -3, -2))
    with pytest.raises(infer.ShapeError, match="'pick/position': index 2 out of range"):
        compiled.run(feeds(0, 0, 2))
    with pytest.raises(infer.ShapeError, match="'SequenceInsert/position': index 4 out of"):
        compiled.run(feeds(4, 0, 0))  # an insert past the back


@pytest.mark.slow
def test_a_loop_carrying_a_sequence() -> None:
    """The body inserts a slice one longer each iteration into a sequence that starts
    empty: elements of several shapes, a length set by the trip count."""
    body = helper.make_graph(
        [helper.make_node("Add", ["i", "one"], ["end"]),
         helper.make_node("Unsqueeze", ["end", "zero"], ["ends"]),
         helper.make_node("Slice", ["x", "zero", "ends"], ["part"]),
         helper.make_node("SequenceInsert", ["acc", "part"], ["next"]),
         helper.make_node("Identity", ["c"], ["c2"])], "body",
        [_tensor("i", [], I64), _tensor("c", [], TP.BOOL), _seq("acc")],
        [_tensor("c2", [], TP.BOOL), _seq("next")],
        [onnx.numpy_helper.from_array(np.array(1, np.int64), "one"),
         onnx.numpy_helper.from_array(np.array([0], np.int64), "zero")])
    nodes = [helper.make_node("SequenceEmpty", [], ["empty"]),
             helper.make_node("Loop", ["m", "", "empty"], ["parts"], body=body),
             helper.make_node("ConcatFromSequence", ["parts"], ["flat"], axis=0)]
    model = _model(nodes, [_tensor("m", [], I64), _tensor("x", [5])],
                   [_seq("parts"), _tensor("flat", [None])])
    x = _floats(5)
    _check(model, {"m": np.array(1), "x": x}, {"m": np.array(4), "x": x})


@pytest.mark.slow
def test_sequence_map_over_a_graph_input() -> None:
    body = helper.make_graph(
        [helper.make_node("Add", ["e", "b"], ["o"]), helper.make_node("Shape", ["e"], ["sh"])],
        "body", [_tensor("e", None), _tensor("b", None)],
        [_tensor("o", None), _tensor("sh", None, I64)])
    nodes = [helper.make_node("SequenceMap", ["s", "b"], ["outs", "shapes"], body=body)]
    model = _model(nodes, [_seq("s", [None, 4]), _tensor("b", [4])],
                   [_seq("outs"), _seq("shapes", None, I64)])
    b = _floats(4)
    _check(model, {"s": [_floats(2, 4), _floats(5, 4)], "b": b}, {"s": [], "b": b})


def _branch(*names: str) -> onnx.GraphProto:
    return helper.make_graph([helper.make_node("SequenceConstruct", list(names), ["s"])], "b",
                             [], [_seq("s")])


@pytest.mark.slow
def test_an_if_whose_branches_give_sequences_of_different_lengths() -> None:
    nodes = [helper.make_node("If", ["c"], ["seq"], then_branch=_branch("x"),
                              else_branch=_branch("x", "y", "x")),
             helper.make_node("ConcatFromSequence", ["seq"], ["z"], axis=0)]
    model = _model(nodes, [_tensor("c", [], TP.BOOL), _tensor("x", [3]), _tensor("y", [2])],
                   [_seq("seq"), _tensor("z", [None])])
    x, y = _floats(3), _floats(2)
    _check(model, {"c": np.array(True), "x": x, "y": y},
           {"c": np.array(False), "x": x, "y": y})


@pytest.mark.slow
def test_split_to_sequence_with_run_time_sizes() -> None:
    """A dim known only at run time, sizes of a run-time length, a run-time chunk size;
    sizes that do not add up to the dim and a chunk size of 0 fail the run."""
    nodes = [helper.make_node("SplitToSequence", ["x"], ["rows"], axis=1, keepdims=0),
             helper.make_node("SplitToSequence", ["x", "sizes"], ["parts"], axis=1),
             helper.make_node("SplitToSequence", ["x", "chunk"], ["chunks"], axis=1,
                              name="by_chunk")]
    model = _model(nodes, [_tensor("x", [2, "W"]), _tensor("sizes", ["K"], I64),
                           _tensor("chunk", [], I64)],
                   [_seq("rows"), _seq("parts"), _seq("chunks")])
    compiled = _check(
        model, {"x": _floats(2, 5), "sizes": np.array([1, 4], np.int64), "chunk": np.array(2)},
        {"x": _floats(2, 7), "sizes": np.array([3, 0, 2, 2], np.int64), "chunk": np.array(7)},
        {"x": _floats(2, 1), "sizes": np.array([1], np.int64), "chunk": np.array(3)})
    with pytest.raises(infer.ShapeError, match="add up to the dim"):
        compiled.run({"x": _floats(2, 5), "sizes": np.array([1, 3], np.int64),
                      "chunk": np.array(2)})
    with pytest.raises(infer.ShapeError, match="'by_chunk/the chunk size is positive'"):
        compiled.run({"x": _floats(2, 5), "sizes": np.array([5], np.int64),
                      "chunk": np.array(0)})


def test_an_optional_sequence_graph_input() -> None:
    """Present or not (None), passed through and read where it holds a value; reading an
    empty one fails the run."""
    opt = helper.make_value_info("o", helper.make_optional_type_proto(
        helper.make_sequence_type_proto(helper.make_tensor_type_proto(F, None))))
    nodes = [helper.make_node("OptionalHasElement", ["o"], ["has"]),
             helper.make_node("Identity", ["o"], ["same"])]
    out = helper.make_value_info("same", opt.type)
    model = _model(nodes, [opt], [_tensor("has", [], TP.BOOL), out])
    compiled = _check(model, {"o": [_floats(2), _floats(1, 3)]}, {"o": None}, {"o": []})
    assert infer.InferenceSession(model.SerializeToString()).get_inputs()[0].type == (
        "optional(seq(tensor(float)))")
    assert compiled.run({"o": None})["same"] is None
    get = _model([helper.make_node("OptionalGetElement", ["o"], ["s"], name="get"),
                  helper.make_node("SequenceLength", ["s"], ["n"])], [opt],
                 [_tensor("n", [], I64)])
    compiled = _check(get, {"o": [_floats(2)]})
    with pytest.raises(infer.ShapeError, match="'get/the optional holds a value'"):
        compiled.run({"o": None})

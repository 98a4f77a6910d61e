"""If with a condition computed at run time, end to end against onnxruntime: branches of
different result sizes from one compile, branches reading the graph's values and
initializers, results given twice or passed through, nested Ifs, f16, run-time checks
inside a branch, and clear refusals."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer

from .helpers import check_against_onnxruntime, make_model

R = np.random.default_rng(0)


def _branch(name: str, nodes: list, outputs: list[str], elem: int = TP.FLOAT,
            inits: list | None = None, rank: int = 2):
    return helper.make_graph(nodes, name, [], [
        helper.make_tensor_value_info(o, elem, [None] * rank) for o in outputs], inits or [])


def _positive_sum(x: str = "x") -> list:
    """c = sum(x) > 0: a condition known only at run time."""
    return [helper.make_node("ReduceSum", [x], ["s"], keepdims=0),
            helper.make_node("Greater", ["s", "zero"], ["c"])]


ZERO = numpy_helper.from_array(np.array(0, np.float32), "zero")


def _feeds(*shapes: tuple[int, ...]) -> list[dict[str, np.ndarray]]:
    """Each shape twice: once with a positive sum (then), once negative (else)."""
    out = []
    for shape in shapes:
        x = np.abs(R.standard_normal(shape)).astype(np.float32) + 0.1
        out += [{"x": x}, {"x": -x}]
    return out


def _if_model(then, els, outputs, elem: int = TP.FLOAT, extra_nodes: tuple = (),
              inits: tuple = (), names: list[str] | None = None):
    names = names or [o[0] for o in outputs]
    nodes = [*_positive_sum(), helper.make_node("If", ["c"], names, then_branch=then,
                                                else_branch=els, name="the_if"),
             *extra_nodes]
    return make_model(nodes, [("x", TP.FLOAT, ["N", 4])], outputs, [ZERO, *inits])


@pytest.mark.slow
@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_branches_of_different_sizes(opt_level: int) -> None:
    """Relu(x) [N, 4] or Concat(x, x) * w [2N, 4], then Neg after the If."""
    then = _branch("then", [helper.make_node("Relu", ["x"], ["t"])], ["t"])
    els = _branch("else", [helper.make_node("Concat", ["x", "x"], ["e"], axis=0),
                           helper.make_node("Mul", ["e", "w"], ["e2"])], ["e2"])
    model = _if_model(then, els, [("z", TP.FLOAT, [None, None])],
                      extra_nodes=[helper.make_node("Neg", ["y"], ["z"])],
                      inits=[numpy_helper.from_array(np.array(2, np.float32), "w")],
                      names=["y"])
    check_against_onnxruntime(model, _feeds((1, 4), (3, 4), (7, 4)), opt_level=opt_level)


def test_passed_through_given_twice_and_constants() -> None:
    """A branch giving a graph input itself (Identity), the same value twice, an
    initializer of the graph, and one of its own: each result its own fresh buffer."""
    own = numpy_helper.from_array(np.full((1, 4), 3, np.float32), "own")
    then = _branch("then", [helper.make_node("Identity", ["x"], ["t"]),
                            helper.make_node("Identity", ["w"], ["tw"])], ["t", "t", "tw"])
    els = _branch("else", [helper.make_node("Sigmoid", ["x"], ["e"])], ["e", "e", "own"],
                  inits=[own])
    model = _if_model(then, els, [("a", TP.FLOAT, [None, None]), ("b", TP.FLOAT, [None, None]),
                                  ("k", TP.FLOAT, [None, None])],
                      inits=[numpy_helper.from_array(np.ones((1, 4), np.float32), "w")])
    # (onnxruntime 1.32 gives None for a value a branch yields twice: numpy's instead)
    compiled = infer.compile(model)
    for feeds in _feeds((2, 4), (5, 4)):
        x = feeds["x"]
        got = compiled.run(feeds)
        if x.sum() > 0:
            expected = [x, x, np.ones((1, 4), np.float32)]
        else:
            expected = [1 / (1 + np.exp(-x))] * 2 + [np.full((1, 4), 3, np.float32)]
        for name, want in zip("abk", expected, strict=True):
            np.testing.assert_allclose(got[name], want, rtol=1e-6, err_msg=name)
        assert got["a"] is not got["b"] and not np.shares_memory(got["a"], got["b"])


def test_nested_ifs_and_static_branch_shapes() -> None:
    """An If inside a branch (its condition from the outer graph's values); the inner
    branches have static shapes that differ, so the result's dim is dynamic."""
    inner_then = _branch("inner_then", [helper.make_node("Slice", ["x", "s0", "s1", "s2"],
                                                         ["it"])], ["it"])
    inner_else = _branch("inner_else", [helper.make_node("Tanh", ["x"], ["ie"])], ["ie"])
    then = _branch("then", [
        helper.make_node("ReduceMax", ["x"], ["m"], keepdims=0),
        helper.make_node("Greater", ["m", "one"], ["c2"]),
        helper.make_node("If", ["c2"], ["t"], then_branch=inner_then,
                         else_branch=inner_else)], ["t"])
    els = _branch("else", [helper.make_node("Abs", ["x"], ["e"])], ["e"])
    inits = [numpy_helper.from_array(np.array(1, np.float32), "one"),
             numpy_helper.from_array(np.array([0]), "s0"),
             numpy_helper.from_array(np.array([1]), "s1"),
             numpy_helper.from_array(np.array([0]), "s2")]
    model = _if_model(then, els, [("y", TP.FLOAT, [None, None])], inits=inits)
    feeds = _feeds((3, 4), (1, 4)) + [{"x": np.full((2, 4), 0.1, np.float32)}]
    check_against_onnxruntime(model, feeds)


def test_half_precision_branches() -> None:
    then = _branch("then", [helper.make_node("Cast", ["x"], ["h"], to=TP.FLOAT16),
                            helper.make_node("Exp", ["h"], ["t"])], ["t"], TP.FLOAT16)
    els = _branch("else", [helper.make_node("Cast", ["x"], ["e"], to=TP.FLOAT16)], ["e"],
                  TP.FLOAT16)
    model = _if_model(then, els, [("y", TP.FLOAT16, [None, None])])
    check_against_onnxruntime(model, _feeds((2, 4)), rtol=1e-3)


def test_a_failing_check_inside_a_branch() -> None:
    """A broadcast that only the then branch does: wrong shapes fail there, with the
    op's message, and the else branch runs on the same shapes."""
    then = _branch("then", [helper.make_node("Add", ["x", "b"], ["t"], name="add")], ["t"])
    els = _branch("else", [helper.make_node("Neg", ["x"], ["e"])], ["e"])
    nodes = [*_positive_sum(), helper.make_node("If", ["c"], ["y"], then_branch=then,
                                                else_branch=els)]
    model = make_model(nodes, [("x", TP.FLOAT, ["N", 4]), ("b", TP.FLOAT, ["M", 4])],
                       [("y", TP.FLOAT, [None, None])], [ZERO])
    compiled = infer.compile(model)
    x = np.ones((3, 4), np.float32)
    with pytest.raises(infer.ShapeError, match="Add node 'add'"):
        compiled.run({"x": x, "b": np.ones((2, 4), np.float32)})
    np.testing.assert_array_equal(compiled.run({"x": -x, "b": np.ones((2, 4), np.float32)})
                                  ["y"], x)
    check_against_onnxruntime(model, [{"x": x, "b": np.ones((1, 4), np.float32)},
                                      {"x": x, "b": np.ones((3, 4), np.float32)}])


def test_branches_of_different_ranks_are_refused() -> None:
    then = _branch("then", [helper.make_node("Relu", ["x"], ["t"])], ["t"])
    els = _branch("else", [helper.make_node("ReduceSum", ["x"], ["e"], keepdims=0)], ["e"],
                  rank=0)
    model = _if_model(then, els, [("y", TP.FLOAT, [None, None])])
    with pytest.raises(infer.UnsupportedError,
                       match=r"If.*'the_if'.*output #0: the branches give tensor<\?x4xf32> "
                             r"and tensor<f32>"):
        infer.compile(model)


def test_a_failing_check_after_the_if() -> None:
    """A check after the If fails with the If's result (a static buffer from the then
    branch, a dynamic one from the else) live: freed once, each time."""
    own = numpy_helper.from_array(np.full((2, 4), 3, np.float32), "own")
    then = _branch("then", [helper.make_node("Identity", ["own"], ["t"])], ["t"],
                   inits=[own])
    els = _branch("else", [helper.make_node("Tanh", ["x"], ["e"])], ["e"])
    nodes = [*_positive_sum(), helper.make_node("If", ["c"], ["y"], then_branch=then,
                                                else_branch=els),
             helper.make_node("Add", ["y", "b"], ["z"], name="after")]
    model = make_model(nodes, [("x", TP.FLOAT, ["N", 4]), ("b", TP.FLOAT, ["M", 4])],
                       [("z", TP.FLOAT, [None, None])], [ZERO])
    compiled = infer.compile(model)
    x, bad = np.ones((3, 4), np.float32), np.ones((5, 4), np.float32)
    for _ in range(3):
        for sign in (1, -1):
            with pytest.raises(infer.ShapeError, match="Add node 'after'"):
                compiled.run({"x": sign * x, "b": bad})
    check_against_onnxruntime(model, [{"x": x, "b": np.ones((2, 4), np.float32)},
                                      {"x": -x, "b": np.ones((3, 4), np.float32)}])


@pytest.mark.slow
@pytest.mark.parametrize("opt_level", [0, 3])
def test_convolutions_in_branches(opt_level: int) -> None:
    """Conv + Relu in one branch, a pool in the other, on a value computed before the If:
    the optimizer fuses and blocks the layout inside a branch as outside."""
    w = numpy_helper.from_array(R.standard_normal((8, 4, 3, 3)).astype(np.float32), "w")
    then = helper.make_graph([helper.make_node("Conv", ["h", "w"], ["t0"], pads=[1] * 4),
                              helper.make_node("Relu", ["t0"], ["t"])], "then", [],
                             [helper.make_tensor_value_info("t", TP.FLOAT, [None] * 4)])
    els = helper.make_graph([helper.make_node("MaxPool", ["h"], ["e"], kernel_shape=[2, 2])],
                            "else", [],
                            [helper.make_tensor_value_info("e", TP.FLOAT, [None] * 4)])
    nodes = [helper.make_node("Sigmoid", ["x"], ["h"]),
             helper.make_node("ReduceMean", ["x"], ["s"], keepdims=0),
             helper.make_node("Greater", ["s", "zero"], ["c"]),
             helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=els)]
    model = make_model(nodes, [("x", TP.FLOAT, ["N", 4, "H", "W"])],
                       [("y", TP.FLOAT, [None] * 4)], [ZERO, w])
    x = R.standard_normal((2, 4, 6, 5)).astype(np.float32)
    feeds = [{"x": np.abs(x) + 0.1}, {"x": -np.abs(x) - 0.1}, {"x": np.abs(x[:1, :, :4])}]
    check_against_onnxruntime(model, feeds, opt_level=opt_level)

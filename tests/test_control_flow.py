"""If with a condition computed at run time, end to end against onnxruntime: branches of
different result sizes from one compile, branches reading the graph's values and
initializers, results given twice or passed through, nested Ifs (in branches three deep,
in Loop and Scan bodies, a state carried through them), f16, run-time checks inside a
branch, and clear refusals."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer.dialects import graph as G
from infer.frontend.onnx_import import import_model

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
                       match=r"^unsupported op 'If' \(node 'the_if', opset 17\): output 'y': "
                             r"the branches give tensor<\?x4xf32> and tensor<f32> "
                             r"\(ranks 2 and 0\)$"):
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


# -- Ifs nested in Ifs, Loops and Scans ---------------------------------------------------

def _any_branch(name: str, nodes: list, outputs: list[str], inits: list | None = None):
    """A branch whose outputs' shapes are left to the importer."""
    return helper.make_graph(nodes, name, [], [helper.make_tensor_value_info(o, TP.FLOAT, None)
                                               for o in outputs], inits or [])


def _if(cond: str, outputs: list[str], then, els, name: str = "") -> object:
    return helper.make_node("If", [cond], outputs, then_branch=then, else_branch=els,
                            name=name)


def _bools(*names: str) -> list:
    return [(n, TP.BOOL, []) for n in names]


def _if_result_types(model) -> list[str]:
    """The types of the imported graph.ifs' results, outermost first."""
    return [str(r.type) for op in import_model(model).walk() if isinstance(op, G.IfOp)
            for r in op.results]


def _every_condition(names: tuple[str, ...], **feeds: np.ndarray) -> list[dict[str, np.ndarray]]:
    """`feeds` with each combination of the bool inputs `names`."""
    return [{**dict(zip(names, map(np.array, values), strict=True)), **feeds}
            for values in itertools.product((True, False), repeat=len(names))]


def test_an_if_in_a_then_branch_on_two_graph_conditions() -> None:
    inner = _if("c2", ["t"], _any_branch("it", [helper.make_node("Relu", ["x"], ["a"])], ["a"]),
                _any_branch("ie", [helper.make_node("Neg", ["x"], ["b"])], ["b"]))
    outer = _if("c1", ["y"], _any_branch("t", [inner], ["t"]),
                _any_branch("e", [helper.make_node("Abs", ["x"], ["e"])], ["e"]))
    model = make_model([outer], [*_bools("c1", "c2"), ("x", TP.FLOAT, [2, 3])],
                       [("y", TP.FLOAT, [2, 3])])
    feeds = _every_condition(("c1", "c2"), x=R.standard_normal((2, 3)).astype(np.float32))
    check_against_onnxruntime(model, feeds)


def test_three_levels_the_innermost_reading_the_outer_scopes() -> None:
    """The innermost branches read the graph's initializer w and `mid`, a value of the
    middle branch; their shapes differ ([2N, 3] or [N, 3]), so the result's first dim is
    dynamic at every level."""
    l3 = _if("c3", ["u"], _any_branch("l3t", [helper.make_node("Concat", ["mid", "x"], ["p"],
                                                                axis=0)], ["p"]),
             _any_branch("l3e", [helper.make_node("Mul", ["mid", "w"], ["q"])], ["q"]))
    l2 = _if("c2", ["t"], _any_branch("l2t", [helper.make_node("Sigmoid", ["x"], ["mid"]), l3],
                                      ["u"]),
             _any_branch("l2e", [helper.make_node("Add", ["x", "w"], ["b"])], ["b"]))
    l1 = _if("c1", ["y"], _any_branch("l1t", [l2], ["t"]),
             _any_branch("l1e", [helper.make_node("Abs", ["x"], ["e"])], ["e"]))
    w = numpy_helper.from_array(R.standard_normal((1, 3)).astype(np.float32), "w")
    model = make_model([l1, helper.make_node("ReduceSum", ["y"], ["z"], keepdims=1)],
                       [*_bools("c1", "c2", "c3"), ("x", TP.FLOAT, ["N", 3])],
                       [("y", TP.FLOAT, [None, 3]), ("z", TP.FLOAT, [1, 1])], [w])
    assert _if_result_types(model) == ["tensor<?x3xf32>"] * 3
    check_against_onnxruntime(model, [
        f for n in (1, 4) for f in _every_condition(
            ("c1", "c2", "c3"), x=R.standard_normal((n, 3)).astype(np.float32))])


def test_static_branch_shapes_that_differ_at_two_levels() -> None:
    """[6, 3] or [4, 3] inside, [2, 3] outside: the first dim is dynamic in both graph.ifs
    and in the Add after them."""
    inner = _if("c2", ["t"], _any_branch("it", [helper.make_node("Concat", ["x", "x", "x"], ["a"],
                                                                 axis=0)], ["a"]),
                _any_branch("ie", [helper.make_node("Concat", ["x", "x"], ["b"], axis=0)],
                            ["b"]))
    outer = _if("c1", ["y"], _any_branch("t", [inner], ["t"]),
                _any_branch("e", [helper.make_node("Abs", ["x"], ["e"])], ["e"]))
    one = numpy_helper.from_array(np.array(1, np.float32), "one")
    model = make_model([outer, helper.make_node("Add", ["y", "one"], ["z"])],
                       [*_bools("c1", "c2"), ("x", TP.FLOAT, [2, 3])],
                       [("z", TP.FLOAT, [None, 3])], [one])
    assert _if_result_types(model) == ["tensor<?x3xf32>"] * 2
    check_against_onnxruntime(model, _every_condition(
        ("c1", "c2"), x=R.standard_normal((2, 3)).astype(np.float32)))


def _count_body(nodes: list, outputs: list[str]):
    """A Loop body over the carried value v, passing its condition on."""
    return helper.make_graph(
        [helper.make_node("Identity", ["cond"], ["cond_out"]), *nodes], "body",
        [helper.make_tensor_value_info("i", TP.INT64, []),
         helper.make_tensor_value_info("cond", TP.BOOL, []),
         helper.make_tensor_value_info("v", TP.FLOAT, None)],
        [helper.make_tensor_value_info("cond_out", TP.BOOL, []),
         *(helper.make_tensor_value_info(o, TP.FLOAT, None) for o in outputs)])


def test_an_if_in_a_loop_body_in_an_if() -> None:
    """Even iterations append x to the carried value, odd ones subtract x's first row: the
    carried value's first dim is dynamic; the Loop is in a branch of an If."""
    grow = _if("even", ["nv"],
               _any_branch("grow", [helper.make_node("Concat", ["v", "x"], ["a"], axis=0)],
                           ["a"]),
               _any_branch("shift", [helper.make_node("Sub", ["v", "x0"], ["b"])], ["b"]))
    body = _count_body([helper.make_node("Mod", ["i", "two"], ["r"]),
                        helper.make_node("Equal", ["r", "zero"], ["even"]), grow,
                        helper.make_node("ReduceSum", ["nv"], ["row"], keepdims=0)],
                       ["nv", "row"])
    then = _any_branch("looped", [
        helper.make_node("Slice", ["x", "s0", "s1"], ["x0"]),
        helper.make_node("Loop", ["n", "", "x"], ["ly", "rows"], body=body)], ["ly", "rows"])
    els = _any_branch("flat", [helper.make_node("Neg", ["x"], ["ny"]),
                               helper.make_node("ReduceSum", ["x", "s1"], ["nr"], keepdims=0)],
                      ["ny", "nr"])
    inits = [numpy_helper.from_array(np.array(v, np.int64), name)
             for name, v in (("two", 2), ("zero", 0), ("s0", [0]), ("s1", [1]))]
    model = make_model([_if("c1", ["y", "sums"], then, els)],
                       [*_bools("c1"), ("n", TP.INT64, []), ("x", TP.FLOAT, [2, 3])],
                       [("y", TP.FLOAT, [None, 3]), ("sums", TP.FLOAT, [None])], inits)
    x = R.standard_normal((2, 3)).astype(np.float32)
    check_against_onnxruntime(model, [f for k in (1, 2, 5) for f in _every_condition(
        ("c1",), n=np.array(k, np.int64), x=x)])


def test_nested_ifs_in_a_scan_body() -> None:
    """Each step adds the slice to the state when it sums above 0, else subtracts or
    multiplies by a graph input's choice."""
    inner = _if("c2", ["bb"], _any_branch("sub", [helper.make_node("Sub", ["st", "xi"], ["b1"])],
                                          ["b1"]),
                _any_branch("mul", [helper.make_node("Mul", ["st", "xi"], ["b2"])], ["b2"]))
    step = _if("up", ["ns"], _any_branch("add", [helper.make_node("Add", ["st", "xi"], ["a"])],
                                         ["a"]),
               _any_branch("other", [inner], ["bb"]))
    vi = [helper.make_tensor_value_info(n, TP.FLOAT, [3]) for n in ("st", "xi", "ns", "yo")]
    body = helper.make_graph([helper.make_node("ReduceSum", ["xi"], ["sx"], keepdims=0),
                              helper.make_node("Greater", ["sx", "zero"], ["up"]), step,
                              helper.make_node("Identity", ["ns"], ["yo"])], "body",
                             vi[:2], vi[2:])
    scan = helper.make_node("Scan", ["s0", "xs"], ["s", "ys"], body=body, num_scan_inputs=1)
    model = make_model([scan], [*_bools("c2"), ("s0", TP.FLOAT, [3]), ("xs", TP.FLOAT, ["T", 3])],
                       [("s", TP.FLOAT, [3]), ("ys", TP.FLOAT, ["T", 3])], [ZERO])
    s0 = R.standard_normal(3).astype(np.float32)
    check_against_onnxruntime(model, [f for t in (1, 4) for f in _every_condition(
        ("c2",), s0=s0, xs=R.standard_normal((t, 3)).astype(np.float32))])


def test_a_streaming_state_through_nested_ifs() -> None:
    """A streaming detector's pattern: the state [2, B, H] (an LSTM's h and c) goes in and
    out; the outer If resets it, the inner runs the LSTM on it or a chain of simple ops."""
    hidden, size, batch, steps = 4, 3, 1, 5
    weights = [numpy_helper.from_array(
        (R.standard_normal(shape) * 0.5).astype(np.float32), name)
        for name, shape in (("W", (1, 4 * hidden, size)), ("R", (1, 4 * hidden, hidden)),
                            ("B", (1, 8 * hidden)))]
    axes = [numpy_helper.from_array(np.array(v, np.int64), name)
            for name, v in (("ax1", [1]), ("ax02", [0, 2]))]
    lstm = _any_branch("lstm", [
        helper.make_node("Split", ["state"], ["h0", "c0"], axis=0, num_outputs=2),
        helper.make_node("LSTM", ["x", "W", "R", "B", "", "h0", "c0"], ["Y", "hT", "cT"],
                         hidden_size=hidden),
        helper.make_node("Concat", ["hT", "cT"], ["s1"], axis=0),
        helper.make_node("Squeeze", ["Y", "ax1"], ["Ys"]),
        helper.make_node("ReduceMean", ["Ys", "ax02"], ["o1"], keepdims=0)], ["o1", "s1"])
    chain = _any_branch("chain", [
        helper.make_node("Tanh", ["state"], ["s2"]),
        helper.make_node("ReduceSum", ["x", "ax02"], ["xs"], keepdims=0),
        helper.make_node("Sigmoid", ["xs"], ["o2"])], ["o2", "s2"])
    reset = _any_branch("reset", [
        helper.make_node("Mul", ["state", "zero"], ["s3"]),
        helper.make_node("ReduceSum", ["x", "ax02"], ["o3"], keepdims=0)], ["o3", "s3"])
    detect = _if("c1", ["out", "state_out"],
                 _any_branch("run", [_if("c2", ["oi", "si"], lstm, chain)], ["oi", "si"]), reset)
    model = make_model([detect], [*_bools("c1", "c2"), ("x", TP.FLOAT, [steps, batch, size]),
                                  ("state", TP.FLOAT, [2, batch, hidden])],
                       [("out", TP.FLOAT, [batch]), ("state_out", TP.FLOAT, [2, batch, hidden])],
                       [*weights, *axes, ZERO], opset=18)
    x = R.standard_normal((steps, batch, size)).astype(np.float32)
    state = R.standard_normal((2, batch, hidden)).astype(np.float32)
    check_against_onnxruntime(model, _every_condition(("c1", "c2"), x=x, state=state))


# -- branches of different ranks: a scalar or its [1] -------------------------------------

def _step_if(inner_if: bool = True):
    """step = the scalar 0 where d == 1, else 2 / (d - 1) of shape [1] (as ONNX's AffineGrid
    body computes it), inside an If on c1 (whose else gives the [1] of 2 / d) when
    `inner_if`."""
    scalar = _any_branch("scalar", [helper.make_node("Identity", ["zero"], ["s0"])], ["s0"])
    one_d = _any_branch("one_d", [helper.make_node("Sub", ["df", "onef"], ["dm"]),
                                  helper.make_node("Div", ["twof", "dm"], ["s1"])], ["s1"])
    step = _if("d_is_one", ["step_d"], scalar, one_d, name="step_if")
    if not inner_if:
        return [step]
    outer = _if("c1", ["step"], _any_branch("nested", [step], ["step_d"]),
                _any_branch("flat", [helper.make_node("Div", ["twof", "df"], ["s2"])], ["s2"]),
                name="pick")
    return [outer]


def _steps_model(after: list, outputs: list, inputs: tuple = (), inits: tuple = ()):
    """d (one int64 of shape [1]) as a float `df`, `d_is_one`, then `after` (the step Ifs
    among them); `x` is a [N] input."""
    consts = [numpy_helper.from_array(np.array(v, np.float32), name)
              for name, v in (("onef", 1), ("twof", 2))]
    nodes = [helper.make_node("Cast", ["d"], ["df"], to=TP.FLOAT),
             helper.make_node("Equal", ["d", "one"], ["d_is_one"]),
             *after]
    return make_model(nodes, [*_bools("c1"), ("d", TP.INT64, [1]), ("x", TP.FLOAT, ["N"]),
                              *inputs],
                      outputs, [ZERO, *consts, *inits,
                                numpy_helper.from_array(np.array(1, np.int64), "one")])


def _step_feeds() -> list[dict[str, np.ndarray]]:
    x = R.standard_normal(5).astype(np.float32)
    return [f for d in (1, 4) for f in _every_condition(("c1",), d=np.array([d]), x=x)]


def test_a_scalar_or_its_one_element_tensor_broadcast_against_a_vector() -> None:
    """The step is a scalar or a [1] (by d at run time, in an If nested in another): as
    Mul's operand beside x [N], Sub's beside an initializer [5] (its first use) and as
    CastLike's type, the result is the same either way, so the If's result is typed
    [1]."""
    after = [*_step_if(), helper.make_node("Mul", ["x", "step"], ["m"]),
             helper.make_node("Sub", ["w", "step"], ["k"]),
             helper.make_node("CastLike", ["d", "step"], ["dc"]),
             helper.make_node("Add", ["m", "dc"], ["mk"]),
             helper.make_node("Add", ["mk", "k"], ["y"])]
    w = numpy_helper.from_array(R.standard_normal(5).astype(np.float32), "w")
    model = _steps_model(after, [("y", TP.FLOAT, [5])], inits=(w,))
    assert _if_result_types(model) == ["tensor<1xf32>"] * 2
    check_against_onnxruntime(model, _step_feeds())


@pytest.mark.parametrize(("after", "output", "refusal"), [
    ([], "step", r"^graph output 'step', output of If node 'pick', has rank 0 or 1 by the "
                 r"branch taken$"),
    ([helper.make_node("Mul", ["step", "zero"], ["y"], name="by_scalar")], "y",
     r"^unsupported op 'Mul' \(node 'by_scalar', opset 17\): input 'step', output of If "
     r"node 'pick', has rank 0 or 1 by the branch taken, and this op's result depends on "
     r"which$"),
    ([helper.make_node("Identity", ["step"], ["y"], name="copy")], "y",
     r"'Identity' \(node 'copy'.*input 'step'"),
])
def test_a_use_that_depends_on_the_branch_rank_is_refused(after, output, refusal) -> None:
    model = _steps_model([*_step_if(), *after], [(output, TP.FLOAT, [None])])
    with pytest.raises(infer.UnsupportedError, match=refusal):
        infer.compile(model)


def test_the_branch_rank_in_a_loop_body_is_refused() -> None:
    """The step as a Loop's next carried value: typed once for every iteration."""
    body = _count_body(_step_if(inner_if=False), ["step_d"])
    loop = helper.make_node("Loop", ["n", "", "x0"], ["v"], body=body, name="loop")
    bounds = [numpy_helper.from_array(np.array([v], np.int64), name)
              for name, v in (("lo", 0), ("hi", 1))]
    model = _steps_model([helper.make_node("Slice", ["x", "lo", "hi"], ["x0"]), loop],
                         [("v", TP.FLOAT, [None])], inputs=(("n", TP.INT64, []),),
                         inits=tuple(bounds))
    with pytest.raises(infer.UnsupportedError,
                       match=r"'Loop' \(node 'loop'.*body: output 'step_d', output of If "
                             r"node 'step_if', has rank 0 or 1"):
        infer.compile(model)

"""Loop and Scan end to end against onnxruntime: run-time trip counts, early exit by
condition, zero trips, carried values that grow, scan outputs (stacked rows) whose size
depends on the input, nested loops and a loop in an If branch, Scan's directions and axes,
at every optimization level; and clear errors and refusals."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer

from .helpers import check_against_onnxruntime, make_model, run_onnxruntime

R = np.random.default_rng(0)
F = TP.FLOAT


def _vi(name: str, elem: int = F, shape: list | None = None):
    return helper.make_tensor_value_info(name, elem, shape)


def _body(nodes: list, carried: list[str], outputs: list[str], inits: list | None = None):
    """A Loop body: (i, cond, carried...) -> (cond_out, outputs...)."""
    return helper.make_graph(nodes, "body", [_vi("i", TP.INT64, []), _vi("cond", TP.BOOL, []),
                                             *(_vi(c) for c in carried)],
                             [_vi("cond_out", TP.BOOL, []), *(_vi(o) for o in outputs)],
                             inits or [])


def _keep_going() -> helper.NodeProto:
    return helper.make_node("Identity", ["cond"], ["cond_out"])


def _trip(n: int) -> dict[str, np.ndarray]:
    return {"n": np.array(n, np.int64)}


@pytest.mark.slow
@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_run_time_trip_count_and_scan_rows(opt_level: int) -> None:
    """acc += x * i for n iterations (n a graph input); each iteration's acc a scan row.
    The body reads the graph's input x and an initializer of its own."""
    two = numpy_helper.from_array(np.array(2, np.float32), "two")
    body = _body([_keep_going(),
                  helper.make_node("Cast", ["i"], ["fi"], to=F),
                  helper.make_node("Mul", ["x", "fi"], ["xi"]),
                  helper.make_node("Mul", ["xi", "two"], ["x2"]),
                  helper.make_node("Add", ["acc", "x2"], ["acc_out"]),
                  helper.make_node("Identity", ["acc_out"], ["row"])],
                 ["acc"], ["acc_out", "row"], [two])
    model = make_model(
        [helper.make_node("Loop", ["n", "", "x"], ["y", "rows"], body=body, name="loop")],
        [("n", TP.INT64, []), ("x", F, ["N", 3])],
        [("y", F, ["N", 3]), ("rows", F, [None, "N", 3])])
    feeds = [{**_trip(n), "x": R.standard_normal((b, 3)).astype(np.float32)}
             for n, b in ((1, 1), (4, 2), (9, 5), (40, 3))]
    check_against_onnxruntime(model, feeds, opt_level=opt_level)


def test_early_exit_by_condition_without_trip_count() -> None:
    """Doubling until the sum passes a limit: no trip count, the condition decides."""
    body = _body([helper.make_node("Add", ["v", "v"], ["v_out"]),
                  helper.make_node("ReduceSum", ["v_out"], ["s"], keepdims=0),
                  helper.make_node("Less", ["s", "limit"], ["cond_out"]),
                  helper.make_node("Identity", ["s"], ["s_row"])],
                 ["v"], ["v_out", "s_row"])
    model = make_model(
        [helper.make_node("Loop", ["", "go", "x"], ["y", "sums"], body=body)],
        [("go", TP.BOOL, []), ("x", F, [2]), ("limit", F, [])],
        [("y", F, [2]), ("sums", F, [None])])
    feeds = [{"go": np.array(g), "x": np.array([0.5, 0.25], np.float32),
              "limit": np.array(lim, np.float32)}
             for g, lim in ((True, 10.0), (True, 1000.0), (False, 10.0), (True, 0.1))]
    check_against_onnxruntime(model, feeds)


def test_zero_trips_give_the_initial_values_and_no_rows() -> None:
    body = _body([_keep_going(), helper.make_node("Neg", ["v"], ["v_out"]),
                  helper.make_node("Identity", ["v_out"], ["row"])], ["v"], ["v_out", "row"])
    model = make_model([helper.make_node("Loop", ["n", "", "x"], ["y", "rows"], body=body)],
                       [("n", TP.INT64, []), ("x", F, [2, 3])],
                       [("y", F, [2, 3]), ("rows", F, [None, 2, 3])])
    compiled = infer.compile(model)
    x = R.standard_normal((2, 3)).astype(np.float32)
    for n in (0, -3):
        out = compiled.run({**_trip(n), "x": x})
        y, rows = out["y"], out["rows"]
        np.testing.assert_array_equal(y, x)
        assert rows.shape == (0, 2, 3)
    check_against_onnxruntime(model, [{**_trip(3), "x": x}])


def test_a_carried_value_that_grows() -> None:
    """acc = Concat(acc, x) each iteration: its first dim changes, so it is dynamic."""
    body = _body([_keep_going(), helper.make_node("Concat", ["acc", "x"], ["acc_out"], axis=0)],
                 ["acc"], ["acc_out"])
    model = make_model([helper.make_node("Loop", ["n", "", "x"], ["y"], body=body)],
                       [("n", TP.INT64, []), ("x", F, [1, 4])], [("y", F, [None, 4])])
    x = R.standard_normal((1, 4)).astype(np.float32)
    check_against_onnxruntime(model, [{**_trip(n), "x": x} for n in (0, 1, 5)])


@pytest.mark.slow
@pytest.mark.parametrize("opt_level", [0, 3])
def test_nested_loops_and_a_loop_in_a_branch(opt_level: int) -> None:
    """An outer Loop whose body runs an inner Loop (reading the outer body's carried
    value and iteration number) inside an If branch."""
    inner = helper.make_graph(
        [helper.make_node("Identity", ["c2"], ["c2_out"]),
         helper.make_node("Cast", ["i"], ["fi"], to=F),
         helper.make_node("Add", ["w", "fi"], ["w_next"]),
         helper.make_node("Mul", ["w_next", "v"], ["w_out"])],
        "inner", [_vi("j", TP.INT64, []), _vi("c2", TP.BOOL, []), _vi("w")],
        [_vi("c2_out", TP.BOOL, []), _vi("w_out")])
    then = helper.make_graph(
        [helper.make_node("Loop", ["k", "", "v"], ["t"], body=inner)], "then", [], [_vi("t")])
    els = helper.make_graph([helper.make_node("Neg", ["v"], ["e"])], "else", [], [_vi("e")])
    body = _body([_keep_going(),
                  helper.make_node("Greater", ["i", "one"], ["big"]),
                  helper.make_node("If", ["big"], ["v_out"], then_branch=then,
                                   else_branch=els),
                  helper.make_node("Identity", ["v_out"], ["row"])],
                 ["v"], ["v_out", "row"])
    one = numpy_helper.from_array(np.array(1, np.int64), "one")
    model = make_model([helper.make_node("Loop", ["n", "", "x"], ["y", "rows"], body=body)],
                       [("n", TP.INT64, []), ("k", TP.INT64, []), ("x", F, ["N"])],
                       [("y", F, ["N"]), ("rows", F, [None, "N"])], [one])
    feeds = [{**_trip(n), "k": np.array(k, np.int64),
              "x": (R.standard_normal(b) * 0.5).astype(np.float32)}
             for n, k, b in ((1, 2, 3), (2, 0, 1), (5, 3, 4))]
    check_against_onnxruntime(model, feeds, opt_level=opt_level, rtol=1e-4, atol=1e-4)


def test_rows_of_different_shapes_fail_at_run_time() -> None:
    """A scan output row of i+1 elements: the loop stops at the second row with a clear
    error (onnxruntime refuses it too), whatever the sizes."""
    body = _body([_keep_going(),
                  helper.make_node("Add", ["i", "one"], ["len"]),
                  helper.make_node("Unsqueeze", ["len", "zero"], ["len1"]),
                  helper.make_node("ConstantOfShape", ["len1"], ["row"],
                                   value=numpy_helper.from_array(np.ones(1, np.float32))),
                  helper.make_node("Identity", ["v"], ["v_out"])], ["v"], ["v_out", "row"],
                 [numpy_helper.from_array(np.array(1, np.int64), "one"),
                  numpy_helper.from_array(np.array([0], np.int64), "zero")])
    model = make_model([helper.make_node("Loop", ["n", "", "x"], ["y", "rows"], body=body,
                                         name="grow")],
                       [("n", TP.INT64, []), ("x", F, [2])],
                       [("y", F, [2]), ("rows", F, [None, None])])
    compiled = infer.compile(model)
    x = np.ones(2, np.float32)
    rows = compiled.run({**_trip(1), "x": x})["rows"]
    np.testing.assert_array_equal(rows, np.ones((1, 1), np.float32))
    with pytest.raises(infer.ShapeError, match=r"Loop node 'grow'.*scan output #0: dim 0 "
                       r"of a row is 2, of the first row 1"):
        compiled.run({**_trip(3), "x": x})


def test_a_carried_value_that_changes_rank_is_refused() -> None:
    body = _body([_keep_going(), helper.make_node("Unsqueeze", ["v", "zero"], ["v_out"])],
                 ["v"], ["v_out"], [numpy_helper.from_array(np.array([0], np.int64), "zero")])
    model = make_model([helper.make_node("Loop", ["n", "", "x"], ["y"], body=body,
                                         name="deeper")],
                       [("n", TP.INT64, []), ("x", F, [2])], [("y", F, [None, None])])
    with pytest.raises(infer.UnsupportedError,
                       match=r"Loop.*'deeper'.*carried value #0 is tensor<2xf32> and then "
                             r"tensor<1x2xf32>"):
        infer.compile(model)


def _scan_model(directions: list[int], axes: list[int], out_directions: list[int],
                out_axes: list[int], opset: int = 17):
    """A running sum over x's scan axis (state s), with a second scan input y (of its own
    direction and axis); rows: s and s * y."""
    body = helper.make_graph(
        [helper.make_node("Add", ["s", "xs"], ["s_out"]),
         helper.make_node("Mul", ["s_out", "ys"], ["p"]),
         helper.make_node("Identity", ["s_out"], ["row"])],
        "scan_body", [_vi("s"), _vi("xs"), _vi("ys")], [_vi("s_out"), _vi("row"), _vi("p")])
    node = helper.make_node("Scan", ["s0", "x", "y"], ["s", "rows", "products"], body=body,
                            num_scan_inputs=2, scan_input_directions=directions,
                            scan_input_axes=axes, scan_output_directions=out_directions,
                            scan_output_axes=out_axes)
    return make_model([node], [("s0", F, [3]), ("x", F, ["A", "B"]), ("y", F, ["C", "D"])],
                      [("s", F, [None]), ("rows", F, [None] * 2), ("products", F, [None] * 2)],
                      opset=opset)


@pytest.mark.slow
@pytest.mark.parametrize(("directions", "axes", "out_directions", "out_axes"), [
    ([0, 0], [0, 0], [0, 0], [0, 0]),
    ([1, 0], [0, 1], [0, 1], [1, 0]),
    ([0, 1], [1, -1], [1, 0], [-1, 1]),
])
def test_scan_directions_and_axes(directions, axes, out_directions, out_axes) -> None:
    model = _scan_model(directions, axes, out_directions, out_axes)
    feeds = []
    for t in (1, 4, 7):
        x_shape = [t, 3] if axes[0] == 0 else [3, t]
        y_shape = [t, 3] if axes[1] == 0 else [3, t]
        feeds.append({"s0": R.standard_normal(3).astype(np.float32),
                      "x": R.standard_normal(x_shape).astype(np.float32),
                      "y": R.standard_normal(y_shape).astype(np.float32)})
    check_against_onnxruntime(model, feeds)


@pytest.mark.slow
@pytest.mark.parametrize("directions", [[0, 0], [1, 0]])
def test_scan_of_opset_8_runs_each_batch_row(directions: list[int]) -> None:
    """Scan 8: a batch axis before the scan axis, a reversed scan input."""
    body = helper.make_graph([helper.make_node("Add", ["s", "xs"], ["s_out"]),
                              helper.make_node("Mul", ["s_out", "ys"], ["row"])], "b",
                             [_vi("s"), _vi("xs"), _vi("ys")], [_vi("s_out"), _vi("row")])
    node = helper.make_node("Scan", ["", "s0", "x", "y"], ["s", "rows"], body=body,
                            num_scan_inputs=2, directions=directions)
    model = make_model([node], [("s0", F, ["B", 3]), ("x", F, ["B", "T", 3]),
                                ("y", F, ["B", "T", 3])],
                       [("s", F, [None, None]), ("rows", F, [None, None, None])], opset=8)
    check_against_onnxruntime(model, [
        {"s0": R.standard_normal((b, 3)).astype(np.float32),
         "x": R.standard_normal((b, t, 3)).astype(np.float32),
         "y": R.standard_normal((b, t, 3)).astype(np.float32)} for b, t in ((1, 4), (3, 2))])


def test_scan_of_opset_8_with_sequence_lens_is_refused() -> None:
    body = helper.make_graph([helper.make_node("Add", ["s", "xs"], ["s_out"])], "b",
                             [_vi("s"), _vi("xs")], [_vi("s_out")])
    node = helper.make_node("Scan", ["lens", "s0", "x"], ["s"], body=body, num_scan_inputs=1,
                            name="old")
    model = make_model([node], [("lens", TP.INT32, [1]), ("s0", F, [1, 3]),
                                ("x", F, [1, 4, 3])], [("s", F, [None, None])], opset=8)
    with pytest.raises(infer.UnsupportedError, match=r"'Scan' \(node 'old', opset 8\): "
                       r"sequence_lens \(a length per batch row\) is not supported"):
        infer.compile(model)


def test_loop_outputs_against_onnxruntime_directly() -> None:
    """The sizes of a scan output with rows shaped by the input (a dynamic row dim)."""
    body = _body([_keep_going(), helper.make_node("Relu", ["v"], ["v_out"]),
                  helper.make_node("Sub", ["x", "v_out"], ["row"])], ["v"], ["v_out", "row"])
    model = make_model([helper.make_node("Loop", ["n", "", "x"], ["y", "rows"], body=body)],
                       [("n", TP.INT64, []), ("x", F, ["N"])],
                       [("y", F, ["N"]), ("rows", F, [None, "N"])])
    compiled = infer.compile(model)
    for n, b in ((2, 1), (3, 6)):
        feeds = {**_trip(n), "x": R.standard_normal(b).astype(np.float32)}
        ours, theirs = list(compiled.run(feeds).values()), run_onnxruntime(model, feeds)
        assert [o.shape for o in ours] == [t.shape for t in theirs] == [(b,), (n, b)]
        for o, t in zip(ours, theirs, strict=True):
            np.testing.assert_allclose(o, t, rtol=1e-6)


@pytest.mark.parametrize("opt_level", [0, 3])
def test_a_scan_inside_a_scan(opt_level: int) -> None:
    """Each row of the outer scan input is scanned by an inner Scan (a running sum); the
    outer carries the sum of the inner's final states."""
    inner = helper.make_graph([helper.make_node("Add", ["acc", "e"], ["acc_out"]),
                               helper.make_node("Identity", ["acc_out"], ["run"])], "inner",
                              [_vi("acc"), _vi("e")], [_vi("acc_out"), _vi("run")])
    outer = helper.make_graph(
        [helper.make_node("Scan", ["zero", "row"], ["last", "runs"], body=inner,
                          num_scan_inputs=1, scan_input_directions=[1]),
         helper.make_node("Add", ["total", "last"], ["total_out"])],
        "outer", [_vi("total"), _vi("row")], [_vi("total_out"), _vi("runs")])
    zero = numpy_helper.from_array(np.zeros(2, np.float32), "zero")
    model = make_model([helper.make_node("Scan", ["t0", "x"], ["total", "all_runs"], body=outer,
                                         num_scan_inputs=1)],
                       [("t0", F, [2]), ("x", F, ["N", "M", 2])],
                       [("total", F, [2]), ("all_runs", F, [None, None, 2])], [zero])
    check_against_onnxruntime(model, [{"t0": R.standard_normal(2).astype(np.float32),
                                       "x": R.standard_normal((n, m, 2)).astype(np.float32)}
                                      for n, m in ((1, 3), (4, 2))], opt_level=opt_level)


def test_scan_inputs_of_different_lengths_fail_at_run_time() -> None:
    """ONNX needs every scan input to have one length (onnxruntime fails otherwise): one
    longer or shorter than the others fails a gather instead of being read in part."""
    body = helper.make_graph([helper.make_node("Add", ["s", "x"], ["s1"]),
                              helper.make_node("Add", ["s1", "y"], ["s_out"])], "b",
                             [_vi("s"), _vi("x"), _vi("y")], [_vi("s_out")])
    node = helper.make_node("Scan", ["s0", "xs", "ys"], ["s"], body=body, num_scan_inputs=2)
    model = make_model([node], [("s0", F, [2]), ("xs", F, ["T", 2]), ("ys", F, ["U", 2])],
                       [("s", F, [2])])
    compiled = infer.compile(model)
    s0 = np.zeros(2, np.float32)
    ok = compiled.run({"s0": s0, "xs": np.ones((3, 2), np.float32),
                       "ys": np.ones((3, 2), np.float32)})
    np.testing.assert_array_equal(ok["s"], [6, 6])
    for a, b in ((3, 4), (4, 3)):
        with pytest.raises(infer.ShapeError, match="Gather: index 3 out of range"):
            compiled.run({"s0": s0, "xs": np.ones((a, 2), np.float32),
                          "ys": np.ones((b, 2), np.float32)})

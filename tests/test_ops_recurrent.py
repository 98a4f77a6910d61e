"""RNN, GRU and LSTM end to end against onnxruntime: every direction, several sequence
lengths and batch sizes from one compile, sequence_lens (zero-length rows included),
initial states, peepholes, clip, input_forget, linear_before_reset and other activations;
layout 1 (which onnxruntime does not run) against layout 0 transposed."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer

from .helpers import check_against_onnxruntime, make_model

R = np.random.default_rng(0)
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
HIDDEN, INPUT = 5, 3
SIZES = ((4, 2), (1, 3), (7, 3))  # (steps, batch)


def _model(kind: str, direction: str = "forward", layout: int = 0,
           extra: tuple[str, ...] = (), seed: int = 0, hidden: int = HIDDEN, **attrs: object):
    """One recurrent node on X [T, N, INPUT] (layout 1: [N, T, INPUT]) with constant W, R, B (and
    P) drawn from `seed`; `extra` adds inputs: lens (sequence_lens), h0, c0, and P."""
    gates, dirs = GATES[kind], 2 if direction == "bidirectional" else 1
    rng = np.random.default_rng(seed)
    inits = [numpy_helper.from_array(
        (rng.standard_normal(shape) * 0.5).astype(np.float32), name) for name, shape in (
            ("W", (dirs, gates * hidden, INPUT)), ("R", (dirs, gates * hidden, hidden)),
            ("B", (dirs, 2 * gates * hidden)))]
    state = [dirs, "N", hidden] if not layout else ["N", dirs, hidden]
    inputs = [("x", TP.FLOAT, ["T", "N", INPUT] if not layout else ["N", "T", INPUT])]
    names = ["x", "W", "R", "B", "", "", "", ""]
    for role, slot in (("lens", 4), ("h0", 5), ("c0", 6), ("P", 7)):
        if role not in extra:
            continue
        names[slot] = role
        if role == "lens":
            inputs.append(("lens", TP.INT32, ["N"]))
        elif role == "P":
            inits.append(numpy_helper.from_array(
                rng.standard_normal((dirs, 3 * hidden)).astype(np.float32), "P"))
        else:
            inputs.append((role, TP.FLOAT, state))
    while names[-1] == "":
        names.pop()
    outs = ["y", "yh"] + (["yc"] if kind == "LSTM" else [])
    node = helper.make_node(kind, names, outs, hidden_size=hidden, direction=direction,
                            layout=layout, **attrs)
    return make_model([node], inputs, [(o, TP.FLOAT, [None] * (4 if o == "y" else 3))
                                       for o in outs], inits, opset=14)


def _feeds(kind: str, direction: str, extra: tuple[str, ...], layout: int = 0,
           hidden: int = HIDDEN, sizes: tuple[tuple[int, int], ...] = SIZES
           ) -> list[dict[str, np.ndarray]]:
    dirs = 2 if direction == "bidirectional" else 1
    out = []
    for steps, batch in sizes:
        x = R.standard_normal((steps, batch, INPUT)).astype(np.float32)
        f = {"x": x if not layout else x.transpose(1, 0, 2)}
        if "lens" in extra:
            f["lens"] = R.integers(0, steps + 1, batch).astype(np.int32)
        for role in ("h0", "c0"):
            if role in extra:
                s = R.standard_normal((dirs, batch, hidden)).astype(np.float32)
                f[role] = s if not layout else s.transpose(1, 0, 2)
        out.append(f)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
def test_defaults(kind: str, direction: str) -> None:
    check_against_onnxruntime(_model(kind, direction), _feeds(kind, direction, ()))


@pytest.mark.slow
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
@pytest.mark.parametrize("kind", ["RNN", "GRU", "LSTM"])
def test_every_option(kind: str, direction: str) -> None:
    """sequence_lens (some 0), initial states, clip; GRU's linear_before_reset, LSTM's
    peepholes and input_forget."""
    extra = ("lens", "h0") + (("c0", "P") if kind == "LSTM" else ())
    attrs: dict[str, object] = {"clip": 1.5}
    if kind == "GRU":
        attrs["linear_before_reset"] = 1
    if kind == "LSTM":
        attrs["input_forget"] = 1
    check_against_onnxruntime(_model(kind, direction, extra=extra, **attrs),
                              _feeds(kind, direction, extra))


@pytest.mark.parametrize(("kind", "attrs"), [("LSTM", {}), ("GRU", {}),
                                              ("GRU", {"linear_before_reset": 1})])
def test_state_over_several_panels_and_row_tiles(kind: str, attrs: dict[str, int]) -> None:
    """Hidden size 38: the gates span several panels of R^T, the last zero-padded (GRU's
    candidate starts inside one), tiles of several panels and a remainder; batches of 1, 4
    and 7 (row tiles of 4, 2 and 1), rows of different lengths, both directions."""
    extra = ("lens", "h0")
    model = _model(kind, "bidirectional", extra=extra, hidden=38, **attrs)
    feeds = _feeds(kind, "bidirectional", extra, hidden=38, sizes=((5, 1), (3, 4), (6, 7)))
    check_against_onnxruntime(model, feeds)


def test_other_activations() -> None:
    """Alphas and betas consumed in order by the activations that take them."""
    model = _model("GRU", "bidirectional",
                   activations=["HardSigmoid", "LeakyRelu", "Sigmoid", "Elu"],
                   activation_alpha=[0.3, 0.05, 1.5], activation_beta=[0.4])
    check_against_onnxruntime(model, _feeds("GRU", "bidirectional", ()))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["GRU", "LSTM"])
def test_batchwise_layout_is_the_transposed_sequencewise(kind: str) -> None:
    extra = ("lens", "h0") + (("c0",) if kind == "LSTM" else ())
    seq = infer.compile(_model(kind, "bidirectional", extra=extra))
    batch = infer.compile(_model(kind, "bidirectional", layout=1, extra=extra))
    for f in _feeds(kind, "bidirectional", extra):
        f1 = {k: (v.transpose(1, 0, 2) if v.ndim == 3 else v) for k, v in f.items()}
        a, b = seq.run(f), batch.run(f1)
        np.testing.assert_allclose(b["y"], a["y"].transpose(2, 0, 1, 3), rtol=1e-6)
        for name in ("yh", "yc")[:1 + (kind == "LSTM")]:
            np.testing.assert_allclose(b[name], a[name].transpose(1, 0, 2), rtol=1e-6)


def test_sequence_length_past_the_steps_is_refused_at_run_time() -> None:
    compiled = infer.compile(_model("LSTM", extra=("lens",)))
    x = np.zeros((3, 2, INPUT), np.float32)
    with pytest.raises(infer.ShapeError):
        compiled.run({"x": x, "lens": np.array([3, 4], np.int32)})


def test_unsupported_activation_is_refused() -> None:
    with pytest.raises(infer.UnsupportedError, match="activation 'ScaledTanh'"):
        infer.compile(_model("RNN", activations=["ScaledTanh"], activation_alpha=[1.0],
                             activation_beta=[1.0]))


def test_half_precision() -> None:
    """f16 weights and inputs: computed in f32 between casts, rounded once."""
    model = _model("LSTM", "bidirectional", extra=("h0",))
    for t in model.graph.initializer:
        t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(t).astype(np.float16),
                                           t.name))
    for v in [*model.graph.input, *model.graph.output]:
        v.type.tensor_type.elem_type = TP.FLOAT16
    feeds = [{k: v.astype(np.float16) for k, v in f.items()}
             for f in _feeds("LSTM", "bidirectional", ("h0",))]
    check_against_onnxruntime(model, feeds, rtol=1e-2, atol=1e-2)

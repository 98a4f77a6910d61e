"""The recurrence of ONNX's RNN, GRU and LSTM, after their input GEMM.

The importer computes every step's input projection at once with `graph.matmul`
(`xw[d, t, n] = X[t, n] W[d]^T + Wb[d]`, one GEMM per direction over all steps); this op
runs the recurrence on it, per direction d, batch row n and step t (ONNX's gate order),
with R given as R^T in panels of P = RECURRENCE_PANEL columns: `rt[d, p, k, c]` =
R[d, p * P + c, k] ([dirs, ceil(gates * H / P), H, P], zeros past gates * H), so that a
panel's columns for every k are one contiguous stream (the importer lays out ONNX's R; a
constant R folds):

    rnn:   H = f(xw + H R^T + Rb)
    gru:   z = f(xw_z + H R_z^T + Rb_z)    r = f(xw_r + H R_r^T + Rb_r)
           h = g(xw_h + (r * H) R_h^T + Rb_h)      (linear_before_reset: r * (H R_h^T + Rb_h))
           H = (1 - z) * h + z * H
    lstm:  i = f(xw_i + H R_i^T + Rb_i + P_i * C)   f_ = f(xw_f + ... + P_f * C)
           c = g(xw_c + H R_c^T + Rb_c)            C = f_ * C + i * c
           o = f(xw_o + H R_o^T + Rb_o + P_o * C)  H = o * h(C)
           (input_forget: f_ = 1 - i)

Pre-activations are clipped to [-clip, clip] when `clip` > 0. A reverse direction runs
its row's valid steps backwards; steps at or past a row's `sequence_lens` give zeros in
`y` and leave the state alone. Results: y [T, dirs, N, H], y_h [dirs, N, H] and, for
lstm, y_c [dirs, N, H].
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
)
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.graph.base import TRAITS, GraphOp
from infer.dialects.graph.elementwise import ACTIVATIONS
from infer.dialects.graph.types import float_attr, int_attr, is_float

# gates per kind, and how many activations each direction takes (f, g, h)
GATES = {"rnn": 1, "gru": 3, "lstm": 4}
ACTIVATION_COUNT = {"rnn": 1, "gru": 2, "lstm": 3}
DIRECTIONS = ("forward", "reverse", "bidirectional")
OPTIONAL = ("initial_h", "initial_c", "peepholes", "sequence_lens")
RECURRENCE_PANEL = 16  # columns of R^T a panel holds: two AVX2 vectors of f32


@irdl_op_definition
class RecurrenceOp(GraphOp):
    """See the module's doc. `extras` are, in the order of OPTIONAL, those whose `has_`
    flag is set. `activations` name entries of `graph.ACTIVATIONS`, per direction in
    order (f, g, h); `activation_params` hold each one's params, in that order."""

    name = "graph.recurrence"
    ONNX_OP: ClassVar[str | None] = None  # the recurrence of RNN, GRU and LSTM
    FLOAT_ONLY: ClassVar[bool] = True
    FOLDABLE: ClassVar[bool] = False
    xw = operand_def(TensorType)
    rt = operand_def(TensorType)
    rb = operand_def(TensorType)
    extras = var_operand_def(TensorType)
    outs = var_result_def(TensorType)
    kind = prop_def(StringAttr)
    direction = prop_def(StringAttr, default_value=StringAttr("forward"))
    activations = prop_def(ArrayAttr[StringAttr])
    activation_params = prop_def(DenseArrayBase)
    clip = prop_def(FloatAttr, default_value=float_attr(0.0))
    input_forget = prop_def(IntegerAttr, default_value=int_attr(0))
    linear_before_reset = prop_def(IntegerAttr, default_value=int_attr(0))
    has_initial_h = prop_def(IntegerAttr, default_value=int_attr(0))
    has_initial_c = prop_def(IntegerAttr, default_value=int_attr(0))
    has_peepholes = prop_def(IntegerAttr, default_value=int_attr(0))
    has_sequence_lens = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def roles(cls, props) -> list[str]:
        """What each extra operand is."""
        return [r for r in OPTIONAL if cls.prop(props, f"has_{r}")]

    @classmethod
    def activation_list(cls, props) -> list[tuple[str, list[float]]]:
        """Each activation's name and params, in order."""
        names = [a.data for a in props["activations"].data]
        flat = list(props["activation_params"].get_values())
        out = []
        for name in names:
            n = ACTIVATIONS[name].n_params
            out.append((name, [float(v) for v in flat[:n]]))
            flat = flat[n:]
        return out

    @classmethod
    def check(cls, props, types):
        kind, direction = cls.prop(props, "kind"), cls.prop(props, "direction")
        if kind not in GATES:
            raise VerifyException(f"'{cls.name}' kind must be one of " + ", ".join(GATES))
        if direction not in DIRECTIONS:
            raise VerifyException(f"'{cls.name}' direction must be one of "
                                  + ", ".join(DIRECTIONS))
        names = [a.data for a in props["activations"].data]
        dirs = 2 if direction == "bidirectional" else 1
        if len(names) != dirs * ACTIVATION_COUNT[kind] or any(
                n not in ACTIVATIONS for n in names):
            raise VerifyException(f"'{cls.name}' {kind} takes {ACTIVATION_COUNT[kind]} "
                                  "activations per direction, of graph.ACTIVATIONS")
        if sum(ACTIVATIONS[n].n_params for n in names) != len(
                props["activation_params"].get_values()):
            raise VerifyException(f"'{cls.name}' activation_params do not match the "
                                  "activations")
        roles = cls.roles(props)
        if len(types) != 3 + len(roles):
            raise VerifyException(f"'{cls.name}' takes xw, rt, rb and "
                                  + (", ".join(roles) or "nothing else"))
        if kind != "lstm" and ("initial_c" in roles or "peepholes" in roles):
            raise VerifyException(f"'{cls.name}' {kind} has no cell state or peepholes")
        e = types[0].element_type
        typed = dict(zip(["xw", "rt", "rb", *roles], types, strict=True))
        lens = typed.pop("sequence_lens", None)
        if not is_float(e) or any(t.element_type != e for t in typed.values()):
            raise VerifyException(f"'{cls.name}' needs one float type for all but "
                                  "sequence_lens")
        if lens is not None and str(lens.element_type) not in ("i32", "si32"):
            raise VerifyException(f"'{cls.name}' sequence_lens must be i32")

    @classmethod
    def output_dims(cls, props, dims, consts):
        kind = cls.prop(props, "kind")
        gates = GATES[kind]
        xw, rt, rb = dims[:3]
        D.require(D.EQUAL, len(xw), 4, "xw's rank ([dirs, T, N, gates * H])")
        D.require(D.EQUAL, len(rt), 4, "rt's rank ([dirs, panels, H, panel width])")
        dirs, steps, batch = xw[0], xw[1], xw[2]
        hidden = rt[2]
        if not isinstance(hidden, int) or not isinstance(dirs, int):
            raise ValueError("the hidden size and the directions must be static")
        want = 2 if cls.prop(props, "direction") == "bidirectional" else 1
        if dirs != want:
            raise ValueError(f"xw has {dirs} directions, {want} expected")
        D.require(D.EQUAL, xw[3], gates * hidden, "xw's last dim (gates * H)")
        D.require(D.EQUAL, rt[0], dirs, "rt's directions")
        D.require(D.EQUAL, rt[1], -(-gates * hidden // RECURRENCE_PANEL), "rt's panels")
        D.require(D.EQUAL, rt[3], RECURRENCE_PANEL, "rt's panel width")
        D.require(D.EQUAL, len(rb), 2, "rb's rank")
        D.require(D.EQUAL, rb[0], dirs, "rb's directions")
        D.require(D.EQUAL, rb[1], gates * hidden, "rb's length (gates * H)")
        shapes = {"initial_h": [dirs, batch, hidden], "initial_c": [dirs, batch, hidden],
                  "peepholes": [dirs, 3 * hidden], "sequence_lens": [batch]}
        for role, d in zip(cls.roles(props), dims[3:], strict=True):
            want_dims = shapes[role]
            D.require(D.EQUAL, len(d), len(want_dims), f"{role}'s rank")
            for k, (x, y) in enumerate(zip(d, want_dims, strict=True)):
                D.require(D.EQUAL, x, y, f"{role}'s dim {k}")
        state = [dirs, batch, hidden]
        return [[steps, dirs, batch, hidden], state] + ([state] if kind == "lstm" else [])

    @classmethod
    def output_elements(cls, props, elements):
        n = 3 if cls.prop(props, "kind") == "lstm" else 2
        return [elements[0]] * n


__all__ = ["ACTIVATION_COUNT", "DIRECTIONS", "GATES", "OPTIONAL", "RECURRENCE_PANEL",
           "RecurrenceOp"]

"""RNN, GRU and LSTM: the input GEMM of every step at once as `graph.matmul` (the MatMul
kernel), then `graph.recurrence` on its result (dialects/graph/recurrent.py).

    xw[d] = MatMul(X, Transpose(W[d])) + Wb[d]     [dirs, T, N, gates * H]

The recurrence takes R transposed in panels of columns (`_panels`). layout 1
([N, T, ...]) is transposed in and out. With constant weights (as exporters write them)
the transposed W and R and the biases fold at compile time.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, StringAttr, f64

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import (
    NodeError,
    OpBuilder,
    OpFn,
    Unsupported,
    Value,
    built_from_other_ops,
    dims,
    element,
)

# ONNX's activation names -> graph.ACTIVATIONS, with ONNX's default params
ACTIVATIONS: dict[str, tuple[str, list[float]]] = {
    "Sigmoid": ("sigmoid", []),
    "Tanh": ("tanh", []),
    "Relu": ("relu", []),
    "LeakyRelu": ("leaky_relu", [0.01]),
    "HardSigmoid": ("hard_sigmoid", [0.2, 0.5]),
    "Elu": ("elu", [1.0]),
    "Softplus": ("softplus", []),
}
DEFAULTS = {"rnn": ["Tanh"], "gru": ["Sigmoid", "Tanh"], "lstm": ["Sigmoid", "Tanh", "Tanh"]}


def _activations(kind: str, dirs: int, names: list[str] | None, alpha: list[float] | None,
                 beta: list[float] | None) -> tuple[list[str], list[float]]:
    """graph.ACTIVATIONS names and their params, per direction. ONNX's alphas and betas
    are consumed in order by the activations that take them (as onnxruntime reads them)."""
    names = names or DEFAULTS[kind] * dirs
    if len(names) != len(DEFAULTS[kind]) * dirs:
        raise NodeError(f"{len(names)} activations given, {len(DEFAULTS[kind]) * dirs} "
                        "expected")
    alphas, betas = list(alpha or []), list(beta or [])
    out, params = [], []
    for name in names:
        known = next((v for k, v in ACTIVATIONS.items() if k.lower() == name.lower()), None)
        if known is None:
            raise Unsupported(f"activation '{name}' is not supported (supported: "
                              + ", ".join(ACTIVATIONS) + ")")
        graph_name, defaults = known
        mine = list(defaults)
        if len(mine) >= 1 and alphas:
            mine[0] = alphas.pop(0)
        if len(mine) >= 2 and betas:
            mine[1] = betas.pop(0)
        out.append(graph_name)
        params += mine
    return out, params


def _input_projection(b: OpBuilder, X: Value, W: Value, dirs: int) -> Value:
    """xw [dirs, T, N, gates * H]: per direction X W[d]^T, one GEMM over every step and
    batch row at once (a matmul broadcast over directions would be a GEMM per step)."""
    parts = []
    for d in range(dirs):
        wd = b.emit1(G.GatherOp, W, b.const(np.array(d, np.int64)), axis=0)  # [gates * H, I]
        xwd = b.emit1(G.MatMulOp, X, b.emit1(G.TransposeOp, wd, perm=[1, 0]))
        parts.append(b.emit1(G.UnsqueezeOp, xwd, b.ints([0])))
    return parts[0] if dirs == 1 else b.emit1(G.ConcatOp, *parts, axis=0)


def _panels(b: OpBuilder, R: Value, dirs: int, gh: int, hidden: int) -> Value:
    """R [dirs, gates * H, H] as graph.recurrence's rt: R^T in panels of
    RECURRENCE_PANEL columns, [dirs, panels, H, RECURRENCE_PANEL], zeros past the last
    column."""
    width = G.RECURRENCE_PANEL
    pad = -gh % width
    if pad:
        zeros = b.const(np.zeros((dirs, pad, hidden), G.numpy_dtype(element(R))))
        R = b.emit1(G.ConcatOp, R, zeros, axis=1)
    rows = b.emit1(G.ReshapeOp, R, b.ints([dirs, (gh + pad) // width, width, hidden]))
    return b.emit1(G.TransposeOp, rows, perm=[0, 1, 3, 2])


def _recurrent(kind: str) -> OpFn:
    gates = G.GATES[kind]

    def recurrent(b: OpBuilder, X: Value, W: Value, R: Value, B: Value | None = None,
                  sequence_lens: Value | None = None, initial_h: Value | None = None,
                  initial_c: Value | None = None, P: Value | None = None, *,
                  activation_alpha: list[float] | None = None,
                  activation_beta: list[float] | None = None,
                  activations: list[str] | None = None, clip: float | None = None,
                  direction: str = "forward", hidden_size: int | None = None,
                  input_forget: int = 0, layout: int = 0, linear_before_reset: int = 0
                  ) -> list[Value]:
        if direction not in G.DIRECTIONS:
            raise NodeError(f"direction '{direction}' is not one of "
                            + ", ".join(G.DIRECTIONS))
        dirs = 2 if direction == "bidirectional" else 1
        w_dims = dims(W)
        if len(w_dims) != 3 or len(dims(X)) != 3:
            raise NodeError("X and W must be 3-D")
        hidden = w_dims[1] // gates if isinstance(w_dims[1], int) else hidden_size
        if hidden is None or (hidden_size is not None and hidden != hidden_size):
            raise NodeError(f"hidden_size {hidden_size} does not match W's {w_dims[1]} "
                            f"rows ({gates} gates)")
        names, params = _activations(kind, dirs, activations, activation_alpha,
                                     activation_beta)
        if layout:
            X = b.emit1(G.TransposeOp, X, perm=[1, 0, 2])
            initial_h, initial_c = (None if v is None else b.emit1(G.TransposeOp, v,
                                                                    perm=[1, 0, 2])
                                    for v in (initial_h, initial_c))
        xw = _input_projection(b, X, W, dirs)
        gh = gates * hidden
        if B is not None:
            wb = b.emit1(G.SliceOp, B, b.ints([0]), b.ints([gh]), b.ints([1]), b.ints([1]))
            rb = b.emit1(G.SliceOp, B, b.ints([gh]), b.ints([2 * gh]), b.ints([1]),
                         b.ints([1]))
            xw = b.emit1(G.AddOp, xw, b.emit1(G.UnsqueezeOp, wb, b.ints([1, 2])))
        else:
            rb = b.const(np.zeros((dirs, gh), G.numpy_dtype(element(X))))
        if sequence_lens is not None and str(element(sequence_lens)) != "i32":
            raise NodeError(f"sequence_lens must be int32, got {element(sequence_lens)}")
        extras = {"initial_h": initial_h, "initial_c": initial_c, "peepholes": P,
                  "sequence_lens": sequence_lens}
        outs = b.emit(
            G.RecurrenceOp, xw, _panels(b, R, dirs, gh, hidden), rb,
            *(extras[r] for r in G.OPTIONAL), kind=kind,
            direction=direction, activations=ArrayAttr([StringAttr(n) for n in names]),
            activation_params=DenseArrayBase.from_list(f64, params),
            clip=None if clip is None else float(clip), input_forget=input_forget,
            linear_before_reset=linear_before_reset,
            **{f"has_{r}": int(extras[r] is not None) for r in G.OPTIONAL})
        if layout:
            outs = [b.emit1(G.TransposeOp, outs[0], perm=[2, 0, 1, 3]),
                    *(b.emit1(G.TransposeOp, v, perm=[1, 0, 2]) for v in outs[1:])]
        return outs

    recurrent.__name__ = kind
    return built_from_other_ops(recurrent)


OPS: dict[str, dict[int, OpFn]] = {
    "RNN": dict.fromkeys((7, 14, 22), _recurrent("rnn")),
    "GRU": dict.fromkeys((7, 14, 22), _recurrent("gru")),
    "LSTM": dict.fromkeys((7, 14, 22), _recurrent("lstm")),
}

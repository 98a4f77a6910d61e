"""A BERT-style transformer encoder built with onnx.helper, for the benchmarks: token and
position embeddings, then post-norm layers of multi-head self-attention (with the padding
mask) and a GELU feed-forward; batch and sequence length dynamic, weights seeded random.

    model = encoder_model(layers=4, hidden=256, heads=4)
    feeds = encoder_feeds(batch=1, sequence=128)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

VOCAB, MAX_POSITIONS = 1000, 512


def encoder_model(layers: int = 4, hidden: int = 256, heads: int = 4, seed: int = 0
                  ) -> onnx.ModelProto:
    """The encoder the module docstring describes, its weights drawn from `seed`."""
    g = _Graph(np.random.default_rng(seed), hidden)
    dh = hidden // heads
    shapes = (g.const("heads_shape", np.array([0, 0, heads, dh], np.int64)),
              g.const("merged_shape", np.array([0, 0, hidden], np.int64)))
    x = _embeddings(g)
    mask = _padding_mask(g)
    scale = g.const("scale", np.array(1 / np.sqrt(dh), np.float32))
    for i in range(layers):
        x = _encoder_layer(g, f"l{i}", x, mask, scale, shapes)
    g.nodes.append(helper.make_node("Identity", [x], ["hidden_states"]))
    graph = helper.make_graph(
        g.nodes, "encoder",
        [helper.make_tensor_value_info("input_ids", TP.INT64, ["batch", "sequence"]),
         helper.make_tensor_value_info("attention_mask", TP.INT64, ["batch", "sequence"])],
        [helper.make_tensor_value_info("hidden_states", TP.FLOAT,
                                       ["batch", "sequence", hidden])], g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model.ir_version = 9
    onnx.checker.check_model(model)
    return model


@dataclass
class _Graph:
    """The nodes and initializers built so far, in order; weights drawn from `rng`."""

    rng: np.random.Generator
    hidden: int
    inits: list[onnx.TensorProto] = field(default_factory=list)
    nodes: list[onnx.NodeProto] = field(default_factory=list)

    def weight(self, name: str, *shape: int, scale: float | None = None) -> str:
        std = scale if scale is not None else 1 / np.sqrt(shape[0])
        self.inits.append(numpy_helper.from_array(
            (self.rng.standard_normal(shape) * std).astype(np.float32), name))
        return name

    def const(self, name: str, value: np.ndarray) -> str:
        self.inits.append(numpy_helper.from_array(value, name))
        return name

    def node(self, op: str, ins: list[str], out: str, **attrs: object) -> str:
        self.nodes.append(helper.make_node(op, ins, [out], name=out, **attrs))
        return out

    def layer_norm(self, x: str, name: str) -> str:
        g = self.const(f"{name}.g", np.ones(self.hidden, np.float32))
        b = self.const(f"{name}.b", np.zeros(self.hidden, np.float32))
        return self.node("LayerNormalization", [x, g, b], name, axis=-1, epsilon=1e-12)

    def linear(self, x: str, name: str, n_in: int, n_out: int) -> str:
        y = self.node("MatMul", [x, self.weight(f"{name}.w", n_in, n_out)], f"{name}.mm")
        return self.node("Add", [y, self.const(f"{name}.b", np.zeros(n_out, np.float32))],
                         name)


def _embeddings(g: _Graph) -> str:
    """Tokens + positions 0..S-1, layer-normed."""
    tok = g.node("Gather", [g.weight("tok", VOCAB, g.hidden, scale=0.02), "input_ids"],
                 "tok_emb")
    shape = g.node("Shape", ["input_ids"], "ids_shape")
    seq = g.node("Gather", [shape, g.const("one", np.array(1, np.int64))], "seq_len")
    positions = g.node("Range", [g.const("zero", np.array(0, np.int64)), seq,
                                 g.const("step", np.array(1, np.int64))], "positions")
    pos = g.node("Gather", [g.weight("pos", MAX_POSITIONS, g.hidden, scale=0.02), positions],
                 "pos_emb")
    return g.layer_norm(g.node("Add", [tok, pos], "emb"), "emb_ln")


def _padding_mask(g: _Graph) -> str:
    """The additive mask: 0 where attended, -10000 at padding, shaped [B, 1, 1, S]."""
    mask = g.node("Cast", ["attention_mask"], "mask_f", to=TP.FLOAT)
    mask = g.node("Unsqueeze", [mask, g.const("mask_axes", np.array([1, 2], np.int64))],
                  "mask_4d")
    return g.node("Mul", [g.node("Sub", [g.const("one_f", np.array(1.0, np.float32)), mask],
                                 "mask_inv"), g.const("neg", np.array(-10000.0, np.float32))],
                  "mask_add")


def _encoder_layer(g: _Graph, p: str, x: str, mask: str, scale: str,
                   shapes: tuple[str, str]) -> str:
    """One post-norm layer named `p`: self-attention, then the GELU feed-forward.
    `shapes`: the reshapes' targets [B, S, heads, dh] and [B, S, hidden]."""
    hidden = g.hidden
    heads_shape, merged_shape = shapes

    def split_heads(t: str, name: str) -> str:
        r = g.node("Reshape", [t, heads_shape], f"{name}.r")
        return g.node("Transpose", [r], f"{name}.t", perm=[0, 2, 1, 3])

    q = split_heads(g.linear(x, f"{p}.q", hidden, hidden), f"{p}.qh")
    k = split_heads(g.linear(x, f"{p}.k", hidden, hidden), f"{p}.kh")
    v = split_heads(g.linear(x, f"{p}.v", hidden, hidden), f"{p}.vh")
    kt = g.node("Transpose", [k], f"{p}.kt", perm=[0, 1, 3, 2])
    scores = g.node("Mul", [g.node("MatMul", [q, kt], f"{p}.qk"), scale], f"{p}.scaled")
    probs = g.node("Softmax", [g.node("Add", [scores, mask], f"{p}.masked")], f"{p}.probs",
                   axis=-1)
    ctx = g.node("Transpose", [g.node("MatMul", [probs, v], f"{p}.ctx")], f"{p}.ctx_t",
                 perm=[0, 2, 1, 3])
    ctx = g.node("Reshape", [ctx, merged_shape], f"{p}.ctx_m")
    x = g.layer_norm(g.node("Add", [x, g.linear(ctx, f"{p}.o", hidden, hidden)], f"{p}.res1"),
                     f"{p}.ln1")
    h = g.node("Gelu", [g.linear(x, f"{p}.ff1", hidden, 4 * hidden)], f"{p}.gelu")
    return g.layer_norm(g.node("Add", [x, g.linear(h, f"{p}.ff2", 4 * hidden, hidden)],
                               f"{p}.res2"), f"{p}.ln2")


def encoder_feeds(batch: int = 1, sequence: int = 128, seed: int = 0) -> dict[str, np.ndarray]:
    """Token ids, and a mask with the last quarter of the first row padding."""
    rng = np.random.default_rng(seed)
    mask = np.ones((batch, sequence), np.int64)
    mask[0, sequence - sequence // 4:] = 0
    return {"input_ids": rng.integers(0, VOCAB, (batch, sequence), dtype=np.int64),
            "attention_mask": mask}

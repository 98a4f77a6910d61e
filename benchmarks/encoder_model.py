"""A BERT-style transformer encoder built with onnx.helper, for the benchmarks: token and
position embeddings, then post-norm layers of multi-head self-attention (with the padding
mask) and a GELU feed-forward; batch and sequence length dynamic, weights seeded random.

    model = encoder_model(layers=4, hidden=256, heads=4)
    feeds = encoder_feeds(batch=1, sequence=128)
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

VOCAB, MAX_POSITIONS = 1000, 512


def encoder_model(layers: int = 4, hidden: int = 256, heads: int = 4, seed: int = 0
                  ) -> onnx.ModelProto:
    rng = np.random.default_rng(seed)
    inits: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def weight(name: str, *shape: int, scale: float | None = None) -> str:
        std = scale if scale is not None else 1 / np.sqrt(shape[0])
        inits.append(numpy_helper.from_array(
            (rng.standard_normal(shape) * std).astype(np.float32), name))
        return name

    def const(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(value, name))
        return name

    def node(op: str, ins: list[str], out: str, **attrs: object) -> str:
        nodes.append(helper.make_node(op, ins, [out], name=out, **attrs))
        return out

    def layer_norm(x: str, name: str) -> str:
        g = const(f"{name}.g", np.ones(hidden, np.float32))
        b = const(f"{name}.b", np.zeros(hidden, np.float32))
        return node("LayerNormalization", [x, g, b], name, axis=-1, epsilon=1e-12)

    def linear(x: str, name: str, n_in: int, n_out: int) -> str:
        y = node("MatMul", [x, weight(f"{name}.w", n_in, n_out)], f"{name}.mm")
        return node("Add", [y, const(f"{name}.b", np.zeros(n_out, np.float32))], name)

    dh = hidden // heads
    heads_shape = const("heads_shape", np.array([0, 0, heads, dh], np.int64))
    merged_shape = const("merged_shape", np.array([0, 0, hidden], np.int64))
    # embeddings: tokens + positions 0..S-1
    tok = node("Gather", [weight("tok", VOCAB, hidden, scale=0.02), "input_ids"], "tok_emb")
    shape = node("Shape", ["input_ids"], "ids_shape")
    seq = node("Gather", [shape, const("one", np.array(1, np.int64))], "seq_len")
    positions = node("Range", [const("zero", np.array(0, np.int64)), seq,
                               const("step", np.array(1, np.int64))], "positions")
    pos = node("Gather", [weight("pos", MAX_POSITIONS, hidden, scale=0.02), positions],
               "pos_emb")
    x = layer_norm(node("Add", [tok, pos], "emb"), "emb_ln")
    # additive mask: 0 where attended, -10000 at padding, shaped [B, 1, 1, S]
    mask = node("Cast", ["attention_mask"], "mask_f", to=TP.FLOAT)
    mask = node("Unsqueeze", [mask, const("mask_axes", np.array([1, 2], np.int64))], "mask_4d")
    mask = node("Mul", [node("Sub", [const("one_f", np.array(1.0, np.float32)), mask],
                             "mask_inv"), const("neg", np.array(-10000.0, np.float32))],
                "mask_add")
    scale = const("scale", np.array(1 / np.sqrt(dh), np.float32))
    for i in range(layers):
        p = f"l{i}"

        def split_heads(t: str, name: str) -> str:
            r = node("Reshape", [t, heads_shape], f"{name}.r")
            return node("Transpose", [r], f"{name}.t", perm=[0, 2, 1, 3])

        q = split_heads(linear(x, f"{p}.q", hidden, hidden), f"{p}.qh")
        k = split_heads(linear(x, f"{p}.k", hidden, hidden), f"{p}.kh")
        v = split_heads(linear(x, f"{p}.v", hidden, hidden), f"{p}.vh")
        kt = node("Transpose", [k], f"{p}.kt", perm=[0, 1, 3, 2])
        scores = node("Mul", [node("MatMul", [q, kt], f"{p}.qk"), scale], f"{p}.scaled")
        probs = node("Softmax", [node("Add", [scores, mask], f"{p}.masked")], f"{p}.probs",
                     axis=-1)
        ctx = node("Transpose", [node("MatMul", [probs, v], f"{p}.ctx")], f"{p}.ctx_t",
                   perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, merged_shape], f"{p}.ctx_m")
        x = layer_norm(node("Add", [x, linear(ctx, f"{p}.o", hidden, hidden)], f"{p}.res1"),
                       f"{p}.ln1")
        h = node("Gelu", [linear(x, f"{p}.ff1", hidden, 4 * hidden)], f"{p}.gelu")
        x = layer_norm(node("Add", [x, linear(h, f"{p}.ff2", 4 * hidden, hidden)],
                            f"{p}.res2"), f"{p}.ln2")
    nodes.append(helper.make_node("Identity", [x], ["hidden_states"]))
    graph = helper.make_graph(
        nodes, "encoder",
        [helper.make_tensor_value_info("input_ids", TP.INT64, ["batch", "sequence"]),
         helper.make_tensor_value_info("attention_mask", TP.INT64, ["batch", "sequence"])],
        [helper.make_tensor_value_info("hidden_states", TP.FLOAT,
                                       ["batch", "sequence", hidden])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model.ir_version = 9
    onnx.checker.check_model(model)
    return model


def encoder_feeds(batch: int = 1, sequence: int = 128, seed: int = 0) -> dict[str, np.ndarray]:
    """Token ids, and a mask with the last quarter of the first row padding."""
    rng = np.random.default_rng(seed)
    mask = np.ones((batch, sequence), np.int64)
    mask[0, sequence - sequence // 4:] = 0
    return {"input_ids": rng.integers(0, VOCAB, (batch, sequence), dtype=np.int64),
            "attention_mask": mask}

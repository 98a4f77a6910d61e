"""The QDQ model: QuantizeLinear/DequantizeLinear pairs written around the quantized ops
of a float ONNX model, in the format onnxruntime's quantizer writes (and runs).

- Weights of Conv, MatMul and Gemm: int8, symmetric (zero point 0), one scale per output
  channel (Conv's axis 0, MatMul's and Gemm's N axis), stored quantized behind a
  DequantizeLinear.
- Bias of Conv and Gemm: int32 with scale s_x * s_w per channel and zero point 0, so an
  integer kernel adds it to its int32 accumulator as it is.
- Activations (the float inputs and outputs of Conv, MatMul, Gemm, Add, Mul, Concat and
  the pools): one QuantizeLinear -> DequantizeLinear per tensor, uint8 asymmetric or int8
  symmetric, over the calibrated range. A quantized op's output read only by a Relu (or a
  Clip from 0) is quantized after the activation instead, whose range is narrower: the
  pair computes as one op with a clamp, as onnxruntime folds it.
- Other float initializers those ops read (an Add's constant, say): per tensor, as the
  activations are, over their values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

QUANTIZED_OPS = frozenset({"Conv", "MatMul", "Gemm", "Add", "Mul", "Concat", "AveragePool",
                           "GlobalAveragePool", "MaxPool"})
ACTIVATIONS = ("uint8", "int8")
MIN_OPSET = 13  # per-axis DequantizeLinear


@dataclass(frozen=True)
class QParams:
    """A per-tensor scale and zero point of `dtype`."""

    scale: float
    zero_point: int
    dtype: np.dtype


def activation_params(lo: float, hi: float, dtype: str) -> QParams:
    """uint8 over [lo, hi] (asymmetric, 0 exact), or int8 symmetric over max(|lo|, |hi|)."""
    if dtype == "int8":
        scale = max(abs(lo), abs(hi)) / 127.0
        return QParams(scale if scale > 0 else 1.0, 0, np.dtype(np.int8))
    scale = (hi - lo) / 255.0
    if scale <= 0:
        return QParams(1.0, 0, np.dtype(np.uint8))
    return QParams(scale, int(np.clip(round(-lo / scale), 0, 255)), np.dtype(np.uint8))


def _quantize(x: np.ndarray, p: QParams) -> np.ndarray:
    info = np.iinfo(p.dtype)
    return np.clip(np.rint(x / p.scale) + p.zero_point, info.min, info.max).astype(p.dtype)


def weight_axis(node: onnx.NodeProto) -> int:
    """The output-channel axis of a Conv, MatMul or Gemm weight."""
    if node.op_type == "Conv":
        return 0
    if node.op_type == "Gemm":
        trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
        return 0 if trans_b else 1
    return 1


def per_channel_weight(w: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """(int8 weight, f32 scale per channel along `axis`), symmetric in [-127, 127]."""
    moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
    scale = (np.abs(moved).max(axis=1) / 127.0).astype(np.float32)
    scale[scale == 0] = 1.0
    shape = [1] * w.ndim
    shape[axis] = -1
    q = np.clip(np.rint(w / scale.reshape(shape)), -127, 127).astype(np.int8)
    return q, scale


class _Writer:
    """Collects the new initializers and Q/DQ nodes of the rewritten graph."""

    def __init__(self, graph: onnx.GraphProto) -> None:
        self.graph = graph
        self.inits: list[TensorProto] = []
        self.nodes: list[onnx.NodeProto] = []
        self.used = {n for node in graph.node for n in [*node.input, *node.output]}
        self.used |= {i.name for i in graph.initializer}

    def name(self, base: str) -> str:
        n, k = base, 0
        while n in self.used:
            k += 1
            n = f"{base}_{k}"
        self.used.add(n)
        return n

    def const(self, base: str, value: np.ndarray) -> str:
        n = self.name(base)
        self.inits.append(numpy_helper.from_array(value, n))
        return n

    def dequantize(self, q: str, scale: str, zero_point: str, out: str, axis: int | None
                   ) -> None:
        attrs = {} if axis is None else {"axis": axis}
        self.nodes.append(helper.make_node("DequantizeLinear", [q, scale, zero_point], [out],
                                           name=self.name(f"{out}_DequantizeLinear"), **attrs))

    def qdq(self, tensor: str, p: QParams) -> str:
        """A QuantizeLinear -> DequantizeLinear pair on `tensor`; the dequantized name."""
        scale = self.const(f"{tensor}_scale", np.array(p.scale, np.float32))
        zp = self.const(f"{tensor}_zero_point", np.array(p.zero_point, p.dtype))
        q = self.name(f"{tensor}_quantized")
        self.nodes.append(helper.make_node("QuantizeLinear", [tensor, scale, zp], [q],
                                           name=self.name(f"{tensor}_QuantizeLinear")))
        out = self.name(f"{tensor}_dequantized")
        self.dequantize(q, scale, zp, out, None)
        return out


def activation_tensors(model: onnx.ModelProto) -> list[str]:
    """The float activation tensors the QDQ model quantizes, in graph order."""
    inits = {i.name for i in model.graph.initializer}
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in model.graph.node:
        for i in node.input:
            consumers.setdefault(i, []).append(node)
    outputs = {o.name for o in model.graph.output}
    names: list[str] = []
    for node in model.graph.node:
        if node.op_type not in QUANTIZED_OPS:
            continue
        for k, i in enumerate(node.input):
            if i and i not in inits and not (node.op_type in ("Conv", "Gemm") and k == 2):
                names.append(i)
        for o in node.output:
            names.append(_after_activation(o, consumers, outputs))
    return list(dict.fromkeys(names))


def _after_activation(t: str, consumers: dict[str, list[onnx.NodeProto]], outputs: set[str]
                      ) -> str:
    """`t`, or the output of the Relu (or Clip from 0) that is its only reader."""
    users = consumers.get(t, [])
    if t in outputs or len(users) != 1 or users[0].op_type not in ("Relu", "Clip"):
        return t
    return users[0].output[0]


def write_qdq(model: onnx.ModelProto, ranges: dict[str, tuple[float, float]],
              activations: str = "uint8") -> onnx.ModelProto:
    """`model` (opset >= 13) with every tensor of `ranges` quantized as a QDQ pair, and the
    weights and biases of its Conv, MatMul and Gemm nodes quantized (module doc)."""
    if activations not in ACTIVATIONS:
        raise ValueError(f"activations must be one of {', '.join(ACTIVATIONS)}")
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    w = _Writer(g)
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    params = {t: activation_params(lo, hi, activations) for t, (lo, hi) in ranges.items()}
    dequantized = {t: w.qdq(t, p) for t, p in params.items()}
    weights: dict[tuple[str, int], tuple[str, np.ndarray]] = {}  # (name, axis) -> (dq, scale)

    def weight(name: str, axis: int) -> tuple[str, np.ndarray]:
        if (name, axis) not in weights:
            q, scale = per_channel_weight(inits[name].astype(np.float32), axis)
            qn = w.const(f"{name}_quantized", q)
            sn = w.const(f"{name}_scale", scale)
            zn = w.const(f"{name}_zero_point", np.zeros(len(scale), np.int8))
            out = w.name(f"{name}_dequantized")
            w.dequantize(qn, sn, zn, out, axis)
            weights[name, axis] = (out, scale)
        return weights[name, axis]

    def constant(name: str) -> str:
        value = inits[name].astype(np.float32)
        p = activation_params(min(float(value.min(initial=0)), 0.0),
                              max(float(value.max(initial=0)), 0.0), activations)
        sn = w.const(f"{name}_scale", np.array(p.scale, np.float32))
        zn = w.const(f"{name}_zero_point", np.array(p.zero_point, p.dtype))
        qn = w.const(f"{name}_quantized", _quantize(value, p))
        out = w.name(f"{name}_dequantized")
        w.dequantize(qn, sn, zn, out, None)
        return out

    constants: dict[str, str] = {}
    for node in g.node:
        new_inputs = list(node.input)
        quantized = node.op_type in QUANTIZED_OPS
        for k, i in enumerate(node.input):
            if i in dequantized:
                new_inputs[k] = dequantized[i]
            elif not quantized or i not in inits or inits[i].dtype.kind != "f":
                continue
            elif node.op_type in ("Conv", "MatMul", "Gemm") and k == 1:
                new_inputs[k] = weight(i, weight_axis(node))[0]
            elif node.op_type in ("Conv", "Gemm") and k == 2:
                new_inputs[k] = _bias(w, node, inits[i], params, weight, i)
            else:
                if i not in constants:
                    constants[i] = constant(i)
                new_inputs[k] = constants[i]
        del node.input[:]
        node.input.extend(new_inputs)
    # Each new node right after what it reads (a Q after the tensor's producer, its DQ
    # after it; a weight's DQ first), the graph's nodes keeping their order.
    at = {o: float(k) for k, node in enumerate(g.node) for o in node.output}
    merged = [(float(k), 0, node) for k, node in enumerate(g.node)]
    new = {n.output[0] for n in w.nodes}
    for j, node in enumerate(w.nodes, 1):
        at[node.output[0]] = at.get(node.input[0], -1.0) + (node.input[0] not in new) / 2
        merged.append((at[node.output[0]], j, node))
    del g.node[:]
    g.node.extend(n for _, _, n in sorted(merged, key=lambda e: (e[0], e[1])))
    g.initializer.extend(w.inits)
    # the float weights the quantized ones replace
    read = {i for n in g.node for i in n.input} | {o.name for o in g.output}
    kept = [i for i in g.initializer if i.name in read]
    del g.initializer[:]
    g.initializer.extend(kept)
    return m


def _bias(w: _Writer, node: onnx.NodeProto, b: np.ndarray, params: dict[str, QParams],
          weight: Callable[[str, int], tuple[str, np.ndarray]], name: str) -> str:
    """The int32 bias of a Conv or Gemm (scale s_x * s_w per channel), or the float one
    when its input or its shape does not allow it."""
    x = node.input[0]
    if x not in params or b.ndim != 1 or node.input[1] not in {
            i.name for i in w.graph.initializer}:
        return name
    _, s_w = weight(node.input[1], weight_axis(node))
    if len(s_w) != len(b):
        return name
    scale = np.float32(params[x].scale) * s_w  # in f32, as the scales are stored
    q = np.clip(np.rint(b / scale), -(2**31), 2**31 - 1).astype(np.int32)
    qn = w.const(f"{name}_quantized", q)
    sn = w.const(f"{name}_scale", scale)
    zn = w.const(f"{name}_zero_point", np.zeros(len(b), np.int32))
    out = w.name(f"{name}_dequantized")
    w.dequantize(qn, sn, zn, out, 0)
    return out

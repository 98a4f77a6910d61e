"""Differential testing: random valid ONNX graphs over the op set infer supports, compiled
by infer and compared with onnxruntime on the same random inputs.

A graph is a chain of 1-6 nodes over 1-3 graph inputs: each node takes its data operands
from values built so far (a value of the right element type; shapes broadcast where the
op allows), and its constant operands (axes, shapes, indices, weights) are drawn to fit
the shapes, which the generator tracks. Inputs have random ranks 1-4 with dims of 1-5
(size-1 dims broadcast), some declared symbolic (`dim_param`); element types f32, f64,
f16, 8- to 64-bit integers and bool, as each op allows. Operands that ops restrict (Log's,
Sqrt's, a divisor) pass through Abs and an offset first, so every graph is defined
everywhere; 4-D images feed convolutions, pools, normalizations, Pad and Resize. A node
onnxruntime has no kernel for on its operands' types (Neg on unsigned, Where on int16) is
dropped and another drawn, so that every graph can be compared.

`run_case(seed, index)` builds case `index` of `seed` and classifies it: passed (every
output has onnxruntime's shape, dtype and values), refused (infer's UnsupportedError: a
clear refusal is allowed), discarded (onnxruntime rejects the graph) or failed (anything
else: a mismatch, another exception). Values compare with NaN equal to NaN, exactly for
integers and bools, else within a tolerance per type (f16 results are rounded per op by
both, but ours from an exact f32 result; f32 reductions may sum in another order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

OPSET = 18
FLOATS = (TP.FLOAT, TP.DOUBLE, TP.FLOAT16)
INTS = (TP.INT32, TP.INT64, TP.INT8, TP.UINT8, TP.UINT16, TP.INT16)
NUMERIC = FLOATS + INTS
DTYPES = {TP.FLOAT: np.float32, TP.DOUBLE: np.float64, TP.FLOAT16: np.float16,
          TP.INT32: np.int32, TP.INT64: np.int64, TP.INT8: np.int8, TP.UINT8: np.uint8,
          TP.INT16: np.int16, TP.UINT16: np.uint16, TP.BOOL: np.bool_}
# (rtol, atol) by the least precise float type a graph computes in: a value rounded to
# f16 (or f32) anywhere stays that far off after a cast to a wider type. onnxruntime
# computes some f64 ops (HardSwish) through f32-precision steps: 1e-6, not 1e-15.
TOLERANCE = {TP.FLOAT16: (1e-2, 1e-2), TP.FLOAT: (1e-4, 1e-5), TP.DOUBLE: (1e-6, 1e-9)}


@dataclass
class Value:
    name: str
    elem: int
    shape: list[int]


@dataclass
class Graph:
    """A graph under construction."""

    rng: np.random.Generator
    inputs: list[onnx.ValueInfoProto] = field(default_factory=list)
    feeds: dict[str, np.ndarray] = field(default_factory=dict)
    nodes: list[onnx.NodeProto] = field(default_factory=list)
    inits: list[onnx.TensorProto] = field(default_factory=list)
    values: list[Value] = field(default_factory=list)
    ops: list[str] = field(default_factory=list)
    counter: int = 0

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def const(self, array: np.ndarray) -> str:
        name = self.fresh("c")
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(self, op: str, inputs: list[str], elem: int, shape: list[int], **attrs: object
             ) -> Value:
        out = Value(self.fresh(), elem, list(shape))
        self.nodes.append(helper.make_node(op, inputs, [out.name], **attrs))
        self.values.append(out)
        return out

    def add_input(self, elem: int, shape: list[int]) -> Value:
        name = f"x{len(self.inputs)}"
        symbolic = [f"{name}_d{i}" if self.rng.random() < 0.4 else d
                    for i, d in enumerate(shape)]
        self.inputs.append(helper.make_tensor_value_info(name, elem, symbolic))
        self.feeds[name] = random_array(self.rng, elem, shape)
        value = Value(name, elem, list(shape))
        self.values.append(value)
        return value

    def snapshot(self) -> tuple[int, ...]:
        return (len(self.inputs), len(self.nodes), len(self.inits), len(self.values))

    def restore(self, mark: tuple[int, ...]) -> None:
        """Drop what was built since `mark` (a node onnxruntime cannot run)."""
        for name in [i.name for i in self.inputs[mark[0]:]]:
            del self.feeds[name]
        del self.inputs[mark[0]:], self.nodes[mark[1]:], self.inits[mark[2]:]
        del self.values[mark[3]:]

    def elem_of(self, name: str) -> int:
        return next((v.elem for v in self.values if v.name == name), None) or next(
            t.data_type for t in self.inits if t.name == name)

    def pick(self, elems: tuple[int, ...], min_rank: int = 0) -> Value | None:
        """A value of one of `elems` (and at least `min_rank`), preferring the latest (so
        that the graph chains)."""
        fit = [v for v in self.values if v.elem in elems and len(v.shape) >= min_rank]
        if not fit:
            return None
        return fit[-1] if self.rng.random() < 0.6 else fit[self.rng.integers(len(fit))]


def random_array(rng: np.random.Generator, elem: int, shape: list[int]) -> np.ndarray:
    if elem == TP.BOOL:
        return np.asarray(rng.random(shape) < 0.5)
    if elem in INTS:
        low = 0 if np.dtype(DTYPES[elem]).kind == "u" else -9
        return np.asarray(rng.integers(low, 10, shape), DTYPES[elem])
    return np.asarray(rng.standard_normal(shape) * 2, DTYPES[elem])


def _positive(g: Graph, v: Value, offset: float = 0.5) -> str:
    """|v| + offset (1 for integers): a value safe for Log, Sqrt, a divisor."""
    a = g.node("Abs", [v.name], v.elem, v.shape)
    off = np.array(1 if v.elem in INTS else offset, DTYPES[v.elem])
    return g.node("Add", [a.name, g.const(off)], v.elem, v.shape).name


def _broadcast_partner(g: Graph, v: Value) -> tuple[str, list[int]]:
    """A second operand for `v` that broadcasts with it: an existing value of the same
    type and shape, or a new input of a shape that broadcasts (dims kept, set to 1, or
    leading dims dropped)."""
    same = [w for w in g.values if w.elem == v.elem and w.shape == v.shape and w is not v]
    if same and g.rng.random() < 0.4:
        w = same[g.rng.integers(len(same))]
        return w.name, w.shape
    rank = int(g.rng.integers(0, len(v.shape) + 1))
    shape = [1 if g.rng.random() < 0.3 else d for d in v.shape[len(v.shape) - rank:]]
    w = g.add_input(v.elem, shape)
    return w.name, _broadcast(v.shape, shape)


def _broadcast(a: list[int], b: list[int]) -> list[int]:
    return list(np.broadcast_shapes(tuple(a), tuple(b)))


# ---------------------------------------------------------------------------------------
# The ops: each builds one node (and the constants it needs) on values of `g`
# ---------------------------------------------------------------------------------------

UNARY_FLOAT = ["Neg", "Exp", "Sin", "Cos", "Tanh", "Sigmoid", "Relu", "Floor", "Ceil",
               "Round", "Erf", "Softplus", "Softsign", "Atan", "Sign", "Abs", "Elu", "Selu",
               "LeakyRelu", "HardSigmoid", "HardSwish", "Mish", "IsNaN"]
POSITIVE_ONLY = ["Log", "Sqrt", "Reciprocal"]
UNARY_INT = ["Neg", "Abs", "Sign"]
BINARY = ["Add", "Sub", "Mul", "Max", "Min"]
COMPARE = ["Greater", "Less", "Equal", "GreaterOrEqual", "LessOrEqual"]
REDUCE = ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
          "ReduceL2", "ReduceSumSquare", "ReduceLogSumExp"]


def _unary(g: Graph) -> Value | None:
    v = g.pick(NUMERIC)
    if v is None:
        return None
    if v.elem in INTS:
        op = UNARY_INT[g.rng.integers(len(UNARY_INT))]
        return g.node(op, [v.name], v.elem, v.shape)
    ops = UNARY_FLOAT + POSITIVE_ONLY
    op = ops[g.rng.integers(len(ops))]
    x = _positive(g, v) if op in POSITIVE_ONLY else v.name
    return g.node(op, [x], TP.BOOL if op == "IsNaN" else v.elem, v.shape)


def _binary(g: Graph) -> Value | None:
    v = g.pick(NUMERIC)
    if v is None:
        return None
    op = (BINARY + ["Div", "Pow"])[g.rng.integers(len(BINARY) + 2)]
    if op == "Pow" and v.elem in INTS:
        op = "Mul"
    other, shape = _broadcast_partner(g, v)
    if op == "Div":
        other = _positive(g, Value(other, v.elem, _shape_of(g, other)))
    if op == "Pow":  # a positive base, a small exponent
        base = _positive(g, v)
        exponent = g.node("Clip", [other, g.const(np.array(-2, DTYPES[v.elem])),
                                   g.const(np.array(2, DTYPES[v.elem]))], v.elem,
                          _shape_of(g, other))
        return g.node("Pow", [base, exponent.name], v.elem, shape)
    return g.node(op, [v.name, other], v.elem, shape)


def _shape_of(g: Graph, name: str) -> list[int]:
    return next(v.shape for v in g.values if v.name == name)


def _compare_where(g: Graph) -> Value | None:
    v = g.pick(NUMERIC)
    if v is None:
        return None
    other, shape = _broadcast_partner(g, v)
    op = COMPARE[g.rng.integers(len(COMPARE))]
    cond = g.node(op, [v.name, other], TP.BOOL, shape)
    if g.rng.random() < 0.3:
        logical = ["And", "Or", "Xor"][g.rng.integers(3)]
        flip = g.node("Not", [cond.name], TP.BOOL, shape)
        cond = g.node(logical, [cond.name, flip.name], TP.BOOL, shape)
    return g.node("Where", [cond.name, v.name, other], v.elem, shape)


def _cast(g: Graph) -> Value | None:
    v = g.pick((*NUMERIC, TP.BOOL))
    if v is None:
        return None
    to = (*NUMERIC, TP.BOOL)[g.rng.integers(len(NUMERIC) + 1)]
    x = v.name
    if v.elem in FLOATS and to in INTS:  # in the target's range (else undefined in ONNX)
        low = 0 if np.dtype(DTYPES[to]).kind == "u" else -100
        x = g.node("Clip", [x, g.const(np.array(low, DTYPES[v.elem])),
                            g.const(np.array(100, DTYPES[v.elem]))], v.elem, v.shape).name
    return g.node("Cast", [x], to, v.shape, to=to)


def _reduce(g: Graph) -> Value | None:
    v = g.pick(NUMERIC, min_rank=1)
    if v is None:
        return None
    op = REDUCE[g.rng.integers(len(REDUCE))]
    if v.elem in INTS and op in ("ReduceL2", "ReduceLogSumExp", "ReduceMean"):
        op = "ReduceSum"
    rank = len(v.shape)
    axes = sorted(set(g.rng.integers(-rank, rank, g.rng.integers(1, rank + 1)).tolist()))
    axes = sorted({a % rank for a in axes})
    keep = int(g.rng.integers(2))
    shape = [1 if i in axes else d for i, d in enumerate(v.shape) if keep or i not in axes]
    x = v.name
    if op == "ReduceProd":  # keep products in range: integers overflowing is undefined
        x = g.node("Tanh" if v.elem in FLOATS else "Sign", [x], v.elem, v.shape).name
    return g.node(op, [x, g.const(np.array(axes, np.int64))], v.elem, shape, keepdims=keep)


def _softmax(g: Graph) -> Value | None:
    v = g.pick(FLOATS, min_rank=1)
    if v is None:
        return None
    op = ["Softmax", "LogSoftmax"][g.rng.integers(2)]
    axis = int(g.rng.integers(-len(v.shape), len(v.shape)))
    return g.node(op, [v.name], v.elem, v.shape, axis=axis)


def _layout(g: Graph) -> Value | None:
    """Transpose, Reshape, Unsqueeze, Squeeze, Slice, Concat, Expand, Gather."""
    v = g.pick((*NUMERIC, TP.BOOL), min_rank=1)
    if v is None:
        return None
    rank = len(v.shape)
    op = ["Transpose", "Reshape", "Unsqueeze", "Squeeze", "Slice", "Concat", "Expand",
          "Gather"][g.rng.integers(8)]
    if op == "Transpose":
        perm = g.rng.permutation(rank).tolist()
        return g.node(op, [v.name], v.elem, [v.shape[p] for p in perm], perm=perm)
    if op == "Reshape":
        shape = [-1] if rank == 1 or g.rng.random() < 0.5 else [v.shape[0] * v.shape[1],
                                                                 *v.shape[2:]]
        out = [int(np.prod(v.shape))] if shape == [-1] else shape
        return g.node(op, [v.name, g.const(np.array(shape, np.int64))], v.elem, out)
    if op == "Unsqueeze":
        axis = int(g.rng.integers(0, rank + 1))
        return g.node(op, [v.name, g.const(np.array([axis], np.int64))], v.elem,
                      [*v.shape[:axis], 1, *v.shape[axis:]])
    if op == "Squeeze":
        ones = [i for i, d in enumerate(v.shape) if d == 1]
        if not ones or rank == 1:
            return g.node("Identity", [v.name], v.elem, v.shape)
        return g.node(op, [v.name, g.const(np.array(ones[:1], np.int64))], v.elem,
                      [d for i, d in enumerate(v.shape) if i != ones[0]])
    axis = int(g.rng.integers(rank))
    n = v.shape[axis]
    if op == "Slice":
        start = int(g.rng.integers(0, n))
        end = int(g.rng.integers(start + 1, n + 1))
        out = list(v.shape)
        out[axis] = end - start
        return g.node(op, [v.name, g.const(np.array([start], np.int64)),
                           g.const(np.array([end], np.int64)),
                           g.const(np.array([axis], np.int64))], v.elem, out)
    if op == "Concat":
        out = list(v.shape)
        out[axis] = 2 * n
        return g.node(op, [v.name, v.name], v.elem, out, axis=axis)
    if op == "Expand":
        target = [2 if d == 1 and g.rng.random() < 0.7 else d for d in v.shape]
        return g.node(op, [v.name, g.const(np.array(target, np.int64))], v.elem, target)
    k = int(g.rng.integers(1, 4))
    idx = g.rng.integers(-n, n, k).astype(np.int64)
    return g.node("Gather", [v.name, g.const(idx)], v.elem,
                  [*v.shape[:axis], k, *v.shape[axis + 1:]], axis=axis)


def _matmul(g: Graph) -> Value | None:
    v = g.pick((TP.FLOAT, TP.DOUBLE, TP.INT32, TP.INT64), min_rank=1)
    if v is None:
        return None
    k, n = v.shape[-1], int(g.rng.integers(1, 6))
    if len(v.shape) == 2 and v.elem in FLOATS and g.rng.random() < 0.4:
        w = g.const(random_array(g.rng, v.elem, [n, k]))
        bias = g.const(random_array(g.rng, v.elem, [n]))
        return g.node("Gemm", [v.name, w, bias], v.elem, [v.shape[0], n], transB=1,
                      alpha=float(g.rng.choice([1.0, 0.5])))
    w = g.const(random_array(g.rng, v.elem, [k, n]))
    return g.node("MatMul", [v.name, w], v.elem, [*v.shape[:-1], n])


def _clip(g: Graph) -> Value | None:
    v = g.pick(NUMERIC)
    if v is None:
        return None
    unsigned = np.dtype(DTYPES[v.elem]).kind == "u"
    lo, hi = sorted(g.rng.integers(0 if unsigned else -3, 4, 2).tolist())
    return g.node("Clip", [v.name, g.const(np.array(lo, DTYPES[v.elem])),
                           g.const(np.array(hi, DTYPES[v.elem]))], v.elem, v.shape)


def _image(g: Graph) -> Value:
    """A 4-D f32 value [N, C, H, W]: an existing one, or a new input."""
    found = [v for v in g.values if v.elem == TP.FLOAT and len(v.shape) == 4]
    if found and g.rng.random() < 0.7:
        return found[-1]
    shape = [int(g.rng.integers(1, 3)), int(g.rng.integers(1, 5)),
             int(g.rng.integers(3, 9)), int(g.rng.integers(3, 9))]
    return g.add_input(TP.FLOAT, shape)


def _window(g: Graph, x: Value, k: int, s: int, d: int, pads: list[int]
            ) -> list[int]:
    n, c, h, w = x.shape
    out = [(size + pads[i] + pads[i + 2] - d * (k - 1) - 1) // s + 1
           for i, size in enumerate((h, w))]
    return [n, c, *out]


def _spatial(g: Graph) -> Value | None:
    """Conv (grouped, strided, dilated, padded), MaxPool, AveragePool, global pools,
    BatchNormalization, InstanceNormalization, Pad, Resize (nearest) on a 4-D image."""
    x = _image(g)
    n, c, h, w = x.shape
    op = ["Conv", "Conv", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
          "BatchNormalization", "InstanceNormalization", "Pad", "Resize"][
        g.rng.integers(10)]
    k, stride, dil = int(g.rng.integers(1, 4)), int(g.rng.integers(1, 3)), 1
    pads = [int(p) for p in g.rng.integers(0, k, 4)] if k > 1 else [0, 0, 0, 0]
    if min(h + pads[0] + pads[2], w + pads[1] + pads[3]) < k:
        return None
    if op == "Conv":
        group = c if g.rng.random() < 0.3 else 1
        m = c if group > 1 else int(g.rng.integers(1, 6))
        if k > 1 and g.rng.random() < 0.3 and min(h, w) >= 2 * k:
            dil = 2
        if min(h + pads[0] + pads[2], w + pads[1] + pads[3]) < dil * (k - 1) + 1:
            return None
        wt = g.const(random_array(g.rng, TP.FLOAT, [m, c // group, k, k]) * 0.3)
        bias = g.const(random_array(g.rng, TP.FLOAT, [m]))
        out = _window(g, x, k, stride, dil, pads)
        return g.node("Conv", [x.name, wt, bias], TP.FLOAT, [n, m, *out[2:]],
                      kernel_shape=[k, k], strides=[stride, stride], dilations=[dil, dil],
                      pads=pads, group=group)
    if op in ("MaxPool", "AveragePool"):
        if any(p >= k for p in pads):
            return None
        attrs: dict[str, object] = {"kernel_shape": [k, k], "strides": [stride, stride],
                                    "pads": pads}
        if op == "AveragePool":
            attrs["count_include_pad"] = int(g.rng.integers(2))
        return g.node(op, [x.name], TP.FLOAT, _window(g, x, k, stride, 1, pads), **attrs)
    if op.startswith("Global"):
        return g.node(op, [x.name], TP.FLOAT, [n, c, 1, 1])
    if op == "BatchNormalization":
        stats = [g.const(random_array(g.rng, TP.FLOAT, [c])) for _ in range(3)]
        var = g.const(np.abs(random_array(g.rng, TP.FLOAT, [c])) + 0.5)
        return g.node(op, [x.name, *stats, var], TP.FLOAT, x.shape)
    if op == "InstanceNormalization":
        scale, bias = (g.const(random_array(g.rng, TP.FLOAT, [c])) for _ in range(2))
        return g.node(op, [x.name, scale, bias], TP.FLOAT, x.shape)
    if op == "Pad":
        p = [0, 0, int(g.rng.integers(0, 3)), int(g.rng.integers(0, 3))] * 2
        mode = ["constant", "reflect", "edge"][g.rng.integers(3)]
        if mode == "reflect" and (max(p[2], p[6]) >= h or max(p[3], p[7]) >= w):
            mode = "edge"
        return g.node(op, [x.name, g.const(np.array(p, np.int64))], TP.FLOAT,
                      [n, c, h + p[2] + p[6], w + p[3] + p[7]], mode=mode)
    scales = np.array([1, 1, 2, 2], np.float32)
    return g.node("Resize", [x.name, "", g.const(scales)], TP.FLOAT, [n, c, 2 * h, 2 * w],
                  mode="nearest")


BUILDERS: dict[str, Callable[[Graph], Value | None]] = {
    "unary": _unary, "binary": _binary, "compare": _compare_where, "cast": _cast,
    "reduce": _reduce, "softmax": _softmax, "layout": _layout, "matmul": _matmul,
    "clip": _clip, "spatial": _spatial,
}


@dataclass
class Case:
    model: onnx.ModelProto
    feeds: dict[str, np.ndarray]
    ops: list[str]
    tolerance: tuple[float, float]


_RUNNABLE: dict[tuple, bool] = {}


def runnable(g: Graph, node: onnx.NodeProto) -> bool:
    """Whether onnxruntime has a kernel for `node` on its operands' element types (the
    schema allows them and the CPU provider implements them): a one-node model of unknown
    shapes, sessions cached by op, types and integer attributes."""
    import onnxruntime as ort

    elems = [g.elem_of(i) if i else None for i in node.input]  # "": an omitted operand
    ints = tuple((a.name, a.i) for a in node.attribute if a.type == onnx.AttributeProto.INT)
    key = (node.op_type, tuple(elems), ints)
    if key not in _RUNNABLE:
        inputs = [helper.make_tensor_value_info(f"i{k}", e, None)
                  for k, e in enumerate(elems) if e is not None]
        probe = helper.make_node(node.op_type, [f"i{k}" if e is not None else ""
                                                for k, e in enumerate(elems)],
                                 [f"o{k}" for k in range(len(node.output))])
        probe.attribute.extend(node.attribute)
        graph = helper.make_graph([probe], "probe", inputs, [
            helper.make_value_info(f"o{k}", onnx.TypeProto()) for k in range(len(node.output))])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
        model.ir_version = 8
        try:
            ort.InferenceSession(model.SerializeToString(),
                                 providers=["CPUExecutionProvider"])
            _RUNNABLE[key] = True
        except Exception:  # noqa: BLE001 - no kernel or an invalid type: not runnable
            _RUNNABLE[key] = False
    return _RUNNABLE[key]


def make_case(seed: int, index: int, families: list[str] | None = None) -> Case:
    """Case `index` of `seed`: the same graph and inputs every time."""
    rng = np.random.default_rng([seed, index])
    g = Graph(rng)
    for _ in range(int(rng.integers(1, 4))):
        elem = [TP.FLOAT, TP.FLOAT, TP.DOUBLE, TP.FLOAT16, TP.INT32, TP.INT64, TP.BOOL,
                TP.INT8, TP.UINT8, TP.INT16, TP.UINT16][rng.integers(11)]
        g.add_input(elem, rng.integers(1, 6, rng.integers(1, 5)).tolist())
    names = families or list(BUILDERS)
    outs: list[Value] = []
    for _ in range(int(rng.integers(1, 7))):
        family = names[rng.integers(len(names))]
        mark = g.snapshot()
        built = BUILDERS[family](g)
        if built is not None and not all(runnable(g, n) for n in g.nodes[mark[1]:]):
            g.restore(mark)  # onnxruntime could not be compared with: build another
            built = None
        if built is not None:
            outs.append(built)
            g.ops.append(g.nodes[-1].op_type)
    if not outs:  # nothing applied to the inputs' types
        v = g.values[0]
        outs.append(g.node("Identity", [v.name], v.elem, v.shape))
        g.ops.append("Identity")
    results = [outs[-1]] + ([outs[0]] if len(outs) > 1 and rng.random() < 0.5 else [])
    graph = helper.make_graph(
        g.nodes, f"case_{seed}_{index}", g.inputs,
        [helper.make_tensor_value_info(v.name, v.elem, [None] * len(v.shape))
         for v in results], g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    precision = next((t for t in TOLERANCE if any(v.elem == t for v in g.values)), TP.DOUBLE)
    return Case(model, g.feeds, g.ops, TOLERANCE[precision])


@dataclass
class Outcome:
    status: str  # passed | refused | discarded | failed
    detail: str = ""


def compare(ours: np.ndarray, theirs: np.ndarray, tolerance: tuple[float, float]) -> str:
    """"" when `ours` matches onnxruntime's `theirs` (floats within (rtol, atol)), else
    what differs."""
    if ours.shape != theirs.shape or ours.dtype != theirs.dtype:
        return f"{ours.dtype}{list(ours.shape)} vs onnxruntime's {theirs.dtype}" \
               f"{list(theirs.shape)}"
    if ours.dtype.kind != "f":
        bad = ours != theirs
    else:
        rtol, atol = tolerance
        a, b = ours.astype(np.float64), theirs.astype(np.float64)
        close = np.isclose(a, b, rtol=rtol, atol=atol) | (np.isnan(a) & np.isnan(b))
        bad = ~close
    if bad.any():
        at = tuple(int(i) for i in np.argwhere(bad)[0])
        return f"{int(bad.sum())} of {bad.size} differ, e.g. at {at}: {ours[at]} vs {theirs[at]}"
    return ""


def run_case(seed: int, index: int, opt_level: int = 0,
             families: list[str] | None = None) -> Outcome:
    import onnxruntime as ort

    import infer

    case = make_case(seed, index, families)
    try:
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        session = ort.InferenceSession(case.model.SerializeToString(), options,
                                       providers=["CPUExecutionProvider"])
        with np.errstate(all="ignore"):
            theirs = session.run(None, case.feeds)
    except Exception as e:  # noqa: BLE001 - onnxruntime rejects the graph: not a test
        return Outcome("discarded", str(e).splitlines()[0][:160])
    try:
        # thousands of throwaway models: none stored in the user's compile cache
        compiled = infer.compile(case.model, opt_level=opt_level, verbose=False, cache=False)
        results = compiled.run(case.feeds)
        ours = [results[n] for n in compiled.output_names]  # one listed twice twice
    except infer.UnsupportedError as e:
        return Outcome("refused", str(e).splitlines()[0][:160])
    except Exception as e:  # noqa: BLE001 - any other failure is a finding
        return Outcome("failed", f"{type(e).__name__}: {str(e).splitlines()[0][:200]}")
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        diff = compare(a, b, case.tolerance)
        if diff:
            return Outcome("failed", f"output {i}: {diff}")
    return Outcome("passed")


__all__ = ["BUILDERS", "Case", "Outcome", "compare", "make_case", "run_case"]

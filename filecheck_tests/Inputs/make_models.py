"""Write the small .onnx models the import FileCheck tests read.

    python filecheck_tests/Inputs/make_models.py   # rewrites the *.onnx files beside it

Each model is a few nodes built with onnx.helper; weights are tiny and seeded, so the
files are deterministic and small enough to commit.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
RNG = np.random.default_rng(0)

Dims = Sequence[int | str | None]


def vi(name: str, dtype: int, shape: Dims | None) -> onnx.ValueInfoProto:
    return h.make_tensor_value_info(name, dtype, shape)


def init(name: str, array: np.ndarray) -> onnx.TensorProto:
    return numpy_helper.from_array(array, name)


def weights(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def save(
    name: str,
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    initializers: Sequence[onnx.TensorProto] = (),
    opset: int = 13,
    extra_opsets: Sequence[tuple[str, int]] = (),
    check: bool = True,
) -> None:
    graph = h.make_graph(nodes, name, inputs, outputs, list(initializers))
    opsets = [h.make_opsetid("", opset)] + [h.make_opsetid(d, v) for d, v in extra_opsets]
    model = h.make_model(graph, opset_imports=opsets, producer_name="make_models.py")
    if check:
        onnx.checker.check_model(model)
    onnx.save(model, os.path.join(HERE, f"{name}.onnx"))


def good_models() -> None:
    """The models the import tests read; the order of the groups fixes the seeded
    weights each gets."""
    _conv_models()
    _unsqueeze_softmax_clip_models()
    _slice_reduce_split_models()
    _shape_models()
    _elementwise_pooling_models()
    _graph_io_models()


def _conv_models() -> None:
    """Conv + Relu and an MLP in opset 9's style."""
    # Conv + Relu with a named dynamic batch dim and SAME_UPPER padding.
    save(
        "conv_relu",
        [
            h.make_node("Conv", ["x", "w", "b"], ["conv"], name="conv0",
                        auto_pad="SAME_UPPER", strides=[2, 2]),
            h.make_node("Relu", ["conv"], ["y"], name="relu0"),
        ],
        [vi("x", T.FLOAT, ["N", 3, 7, 7])],
        [vi("y", T.FLOAT, ["N", 4, 4, 4])],
        [init("w", weights(4, 3, 3, 3)), init("b", weights(4))],
    )
    # Opset 9 style: initializers also listed as graph inputs; MLP with Gemm, BN, Flatten.
    w, b = weights(5, 12), weights(5)
    bn = [init(n, np.abs(weights(3)) + 0.5) for n in ("scale", "bias", "mean", "var")]
    save(
        "mlp_opset9",
        [
            h.make_node("BatchNormalization", ["x", "scale", "bias", "mean", "var"], ["bn"],
                        epsilon=1e-3),
            h.make_node("Flatten", ["bn"], ["flat"]),
            h.make_node("Gemm", ["flat", "w", "b"], ["gemm"], transB=1, alpha=0.5),
            h.make_node("Softmax", ["gemm"], ["y"]),
        ],
        [vi("x", T.FLOAT, [2, 3, 2, 2]), vi("w", T.FLOAT, [5, 12]), vi("b", T.FLOAT, [5])]
        + [vi(n.name, T.FLOAT, [3]) for n in bn],
        [vi("y", T.FLOAT, [2, 5])],
        [init("w", w), init("b", b), *bn],
        opset=9,
    )


def _unsqueeze_softmax_clip_models() -> None:
    """Unsqueeze, Softmax and Clip across their opset variants."""
    # Unsqueeze: axes attribute (opset 11) and axes input (opset 13) give one graph form.
    save(
        "unsqueeze_v11",
        [h.make_node("Unsqueeze", ["x"], ["y"], axes=[0, -1])],
        [vi("x", T.FLOAT, [3, 4])],
        [vi("y", T.FLOAT, [1, 3, 4, 1])],
        opset=11,
    )
    save(
        "unsqueeze_v13",
        [h.make_node("Unsqueeze", ["x", "axes"], ["y"])],
        [vi("x", T.FLOAT, [3, 4])],
        [vi("y", T.FLOAT, [1, 3, 4, 1])],
        [init("axes", np.array([0, -1], np.int64))],
        opset=13,
    )
    # Softmax before 13 coerces to 2-D at `axis`.
    save(
        "softmax_v11",
        [h.make_node("Softmax", ["x"], ["y"], axis=1),
         h.make_node("LogSoftmax", ["x"], ["z"], axis=2)],
        [vi("x", T.FLOAT, [2, 3, 4])],
        [vi("y", T.FLOAT, [2, 3, 4]), vi("z", T.FLOAT, [2, 3, 4])],
        opset=11,
    )
    # Clip's bounds: attributes (opset 6), optional inputs (opset 11).
    save(
        "clip_v6",
        [h.make_node("Clip", ["x"], ["y"], min=0.0, max=6.0),
         h.make_node("Clip", ["x"], ["z"], min=-1.0)],
        [vi("x", T.FLOAT, [4])],
        [vi("y", T.FLOAT, [4]), vi("z", T.FLOAT, [4])],
        opset=7,
    )
    save(
        "clip_v13",
        [h.make_node("Clip", ["x", "lo", "hi"], ["y"]),
         h.make_node("Clip", ["x", "lo"], ["z"]),
         h.make_node("Clip", ["i", "", "ihi"], ["w"])],
        [vi("x", T.FLOAT, [4]), vi("i", T.INT32, [4])],
        [vi("y", T.FLOAT, [4]), vi("z", T.FLOAT, [4]), vi("w", T.INT32, [4])],
        [init("lo", np.array(0, np.float32)), init("hi", np.array(6, np.float32)),
         init("ihi", np.array(3, np.int32))],
    )


def _slice_reduce_split_models() -> None:
    """Slice, the reductions and Split across their opset variants."""
    # Slice: attributes (opset 9), inputs (opset 13).
    save(
        "slice_v9",
        [h.make_node("Slice", ["x"], ["y"], starts=[1], ends=[1000], axes=[1])],
        [vi("x", T.FLOAT, [2, 5])],
        [vi("y", T.FLOAT, [2, 4])],
        opset=9,
    )
    save(
        "slice_v13",
        [h.make_node("Slice", ["x", "starts", "ends", "axes"], ["y"])],
        [vi("x", T.FLOAT, [2, 5])],
        [vi("y", T.FLOAT, [2, 4])],
        [init("starts", np.array([1], np.int64)), init("ends", np.array([1000], np.int64)),
         init("axes", np.array([1], np.int64))],
    )
    # Reductions and Split across their opset variants.
    save(
        "reduce_split_v11",
        [h.make_node("ReduceMean", ["x"], ["mean"], axes=[1], keepdims=0),
         h.make_node("ReduceSum", ["x"], ["sum"]),
         h.make_node("Split", ["x"], ["s0", "s1"], axis=1, split=[2, 4])],
        [vi("x", T.FLOAT, [2, 6])],
        [vi("mean", T.FLOAT, [2]), vi("sum", T.FLOAT, [1, 1]), vi("s0", T.FLOAT, [2, 2]),
         vi("s1", T.FLOAT, [2, 4])],
        opset=11,
    )
    save(
        "reduce_split_v18",
        [h.make_node("ReduceMean", ["x", "axes"], ["mean"], keepdims=0),
         h.make_node("ReduceSum", ["x"], ["sum"]),
         h.make_node("Split", ["x", "split"], ["s0", "s1"], axis=1),
         h.make_node("Split", ["x"], ["t0", "t1", "t2"], axis=1, num_outputs=3)],
        [vi("x", T.FLOAT, [2, 6])],
        [vi("mean", T.FLOAT, [2]), vi("sum", T.FLOAT, [1, 1]), vi("s0", T.FLOAT, [2, 2]),
         vi("s1", T.FLOAT, [2, 4]), vi("t0", T.FLOAT, [2, 2]), vi("t1", T.FLOAT, [2, 2]),
         vi("t2", T.FLOAT, [2, 2])],
        [init("axes", np.array([1], np.int64)), init("split", np.array([2, 4], np.int64))],
        opset=18,
    )


def _shape_models() -> None:
    """Shape, Gather, Concat, Reshape and the other shape ops."""
    # Shape arithmetic with dynamic dims (the ShuffleNet-style chain).
    save(
        "shape_ops",
        [h.make_node("Shape", ["x"], ["shape"]),
         h.make_node("Gather", ["shape", "zero"], ["batch"], axis=0),
         h.make_node("Unsqueeze", ["batch", "zero_axes"], ["batch1"]),
         h.make_node("Concat", ["batch1", "minus1"], ["newshape"], axis=0),
         h.make_node("Reshape", ["x", "newshape"], ["flat"]),
         h.make_node("Transpose", ["x"], ["t"], perm=[0, 2, 3, 1]),
         h.make_node("Cast", ["flat"], ["y"], to=T.FLOAT16),
         h.make_node("ConstantOfShape", ["shape"], ["ones"],
                     value=h.make_tensor("v", T.INT64, [1], [1])),
         h.make_node("Expand", ["x", "eshape"], ["e"]),
         h.make_node("Shape", ["x"], ["tail"], start=-2)],
        [vi("x", T.FLOAT, ["batch", 3, "h", 5])],
        [vi("y", T.FLOAT16, [None] * 2), vi("t", T.FLOAT, [None] * 4),
         vi("ones", T.INT64, [None] * 4), vi("e", T.FLOAT, [None] * 5),
         vi("tail", T.INT64, [2])],
        [init("zero", np.array(0, np.int64)), init("zero_axes", np.array([0], np.int64)),
         init("minus1", np.array([-1], np.int64)), init("eshape", np.array([2, 1, 1, 1, 1],
                                                                            np.int64))],
        opset=15,
    )


def _elementwise_pooling_models() -> None:
    """Elementwise ops and pooling."""
    # Elementwise ops, comparisons, Where, variadic Sum/Max/Min/Mean, MatMul, pooling.
    save(
        "elementwise",
        [h.make_node("Add", ["a", "b"], ["add"]),
         h.make_node("Pow", ["add", "two"], ["pow"]),
         h.make_node("Less", ["a", "b"], ["less"]),
         h.make_node("Where", ["less", "a", "pow"], ["where"]),
         h.make_node("Sum", ["a", "b", "where"], ["sum"]),
         h.make_node("Mean", ["sum"], ["mean"]),
         h.make_node("LeakyRelu", ["mean"], ["lrelu"], alpha=0.1),
         h.make_node("HardSigmoid", ["lrelu"], ["hsig"]),
         h.make_node("Gelu", ["hsig"], ["gelu"], approximate="tanh"),
         h.make_node("MatMul", ["gelu", "m"], ["y"])],
        [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [3])],
        [vi("y", T.FLOAT, [2, 2])],
        [init("two", np.array(2, np.int64)), init("m", weights(3, 2))],
        opset=20,
    )
    save(
        "pooling",
        [h.make_node("MaxPool", ["x"], ["max"], kernel_shape=[3, 3], strides=[2, 2],
                     auto_pad="SAME_LOWER"),
         h.make_node("AveragePool", ["x"], ["avg"], kernel_shape=[2, 2], pads=[0, 0, 1, 1],
                     ceil_mode=1, count_include_pad=1),
         h.make_node("GlobalMaxPool", ["x"], ["gmax"]),
         h.make_node("LRN", ["x"], ["lrn"], size=3)],
        [vi("x", T.FLOAT, [1, 2, 6, 6])],
        [vi(n, T.FLOAT, [None] * 4) for n in ("max", "avg", "gmax", "lrn")],
        opset=19,
    )


def _graph_io_models() -> None:
    """Graph inputs' element types and names, and constants."""
    # Element types of graph inputs; names that are no identifiers; an unknown dim.
    types = [("f16", T.FLOAT16), ("f64", T.DOUBLE), ("i8", T.INT8), ("u8", T.UINT8),
             ("i16", T.INT16), ("u16", T.UINT16), ("i32", T.INT32), ("u32", T.UINT32),
             ("i64", T.INT64), ("u64", T.UINT64), ("bool", T.BOOL)]
    save(
        "dtypes",
        [h.make_node("Identity", [f"in_{n}"], [f"out_{n}"]) for n, _ in types]
        + [h.make_node("Relu", ["input:0"], ["3/relu"])],
        [vi(f"in_{n}", t, [2]) for n, t in types] + [vi("input:0", T.FLOAT, [None, "seq"])],
        [vi(f"out_{n}", t, [2]) for n, t in types] + [vi("3/relu", T.FLOAT, [None, "seq"])],
    )
    # Constant nodes, Dropout (mask unused) and a graph output that is a graph input.
    save(
        "constants",
        [h.make_node("Constant", [], ["c"], value=h.make_tensor("c", T.FLOAT, [2], [1, 2])),
         h.make_node("Constant", [], ["k"], value_ints=[3, 4]),
         h.make_node("Dropout", ["x", "ratio"], ["d", "mask"]),
         h.make_node("Mul", ["d", "c"], ["y"])],
        [vi("x", T.FLOAT, [2])],
        [vi("y", T.FLOAT, [2]), vi("k", T.INT64, [2]), vi("x", T.FLOAT, [2])],
        [init("ratio", np.array(0.3, np.float32))],
        opset=13,
    )


def bad_models() -> None:
    x, y = vi("x", T.FLOAT, [1, 3, 4, 4]), vi("y", T.FLOAT, [None] * 4)
    save("bad_op", [h.make_node("ImageDecoder", ["b"], ["y"], name="decode_3")],
         [vi("b", T.UINT8, [None])], [vi("y", T.UINT8, [None] * 3)], opset=20)
    save("bad_domain", [h.make_node("FusedConv", ["x"], ["y"], name="fc",
                                     domain="com.microsoft")],
         [x], [y], extra_opsets=[("com.microsoft", 1)])
    save("bad_opset", [h.make_node("Dropout", ["x"], ["y"])], [x], [y], opset=6, check=False)
    save("bad_types", [h.make_node("Add", ["x", "i"], ["y"], name="add_mixed")],
         [x, vi("i", T.INT64, [1])], [y])
    save("bad_shape", [h.make_node("Conv", ["x", "w"], ["y"], name="conv_bad")],
         [x], [y], [init("w", weights(2, 5, 1, 1))])
    save("bad_order", [h.make_node("Relu", ["t"], ["y"], name="second"),
                       h.make_node("Relu", ["x"], ["t"], name="first")],
         [x], [y], check=False)
    stats = [numpy_helper.from_array(np.ones(3, np.float32), n) for n in "sbmv"]
    save("bad_mask", [h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"],
                                  ["p", "mean", "var", "saved_mean", "saved_var"]),
                      h.make_node("ReduceSum", ["mean"], ["total"], keepdims=0),
                      h.make_node("Add", ["p", "total"], ["y"])],
         [x], [y], stats, opset=9)
    save("bad_attr", [h.make_node("LRN", ["x"], ["y"], name="lrn0")], [x], [y], check=False)
    with open(os.path.join(HERE, "not_a_model.onnx"), "w") as f:
        f.write("builtin.module {\n}\n")


if __name__ == "__main__":
    good_models()
    bad_models()

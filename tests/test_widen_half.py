"""widen-half: f16 ops compute in f32 and round once, as onnxruntime's kernels do."""

from __future__ import annotations

import numpy as np
from onnx import TensorProto as TP

from infer.context import make_context
from infer.frontend.onnx_import import import_model
from infer.pipeline import run_passes
from infer.transforms.graph_optimize import op_counts

from .helpers import check_against_onnxruntime, node_model

RNG = np.random.default_rng(7)


def test_half_ops_compute_between_casts():
    m = node_model("Softmax", [("x", TP.FLOAT16, [2, 8])], {"axis": -1})
    module = import_model(m)
    run_passes(module, make_context(), ["widen-half"])
    text = str(module)
    assert op_counts(module)["graph.cast"] == 2
    (softmax,) = [line for line in text.splitlines() if "graph.softmax" in line]
    assert softmax.endswith(": (tensor<2x8xf32>) -> tensor<2x8xf32>")


def test_half_shape_of_reads_no_data():
    m = node_model("Shape", [("x", TP.FLOAT16, ["N", 8])])
    module = import_model(m)
    run_passes(module, make_context(), ["widen-half"])
    assert op_counts(module)["graph.cast"] == 0


def test_half_sum_and_matmul_match_onnxruntime():
    """A long f16 sum drifts by many ulps when accumulated in f16; in f32 it matches."""
    x = RNG.uniform(0.5, 1.0, (3, 2048)).astype(np.float16)
    m = node_model("ReduceSum", [("x", TP.FLOAT16, [3, 2048])], {"keepdims": 0},
                   inits={"axes": np.array([1])}, opset=13)
    check_against_onnxruntime(m, {"x": x}, rtol=1e-3, atol=0)
    a = RNG.standard_normal((4, 512)).astype(np.float16)
    b = RNG.standard_normal((512, 3)).astype(np.float16)
    mm = node_model("MatMul", [("a", TP.FLOAT16, [4, 512]), ("b", TP.FLOAT16, [512, 3])])
    check_against_onnxruntime(mm, {"a": a, "b": b}, rtol=2e-3, atol=2e-2)

"""The packed GEMM (pack-matmul, select-gemm-blocking, graph.matmul_packed's kernel):
numerics of MatMul / Gemm with constant weights against numpy and onnxruntime, over shapes
that leave remainders in every dim, both element types, transposes, biases, fused
activations, batch dims and a dynamic M; each case also proves the packed path ran."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

from infer.context import make_context
from infer.dialects import graph as G
from infer.dialects.graph.evaluate import evaluate
from infer.errors import InferError
from infer.frontend.onnx_import import import_model
from infer.pipeline import compile_passes, graph_optimize_passes, run_passes, select_tile_passes
from infer.runtime.compiled_model import CompiledModel, compile_and_map

from .helpers import run_onnxruntime

RNG = np.random.default_rng(20261125)
ELEM = {np.float32: TP.FLOAT, np.float64: TP.DOUBLE}
# Caches small enough that MC, KC and NC all cut these shapes (KC = 8 with 16 lanes).
TINY = (2048, 16384, 65536)
HOST_LIKE = (48 * 1024, 1024 * 1024, 32 * 1024 * 1024)
# (NCHWc block = f32 lanes, vector registers): AVX-512's and AVX2's register tiles.
TARGETS = {"avx512": (16, 32), "avx2": (8, 16)}


def _model(nodes: Sequence[onnx.NodeProto], a_shape: Sequence[int | str],
           weights: dict[str, np.ndarray], dtype: type = np.float32,
           b_shape: Sequence[int | str] | None = None) -> onnx.ModelProto:
    """Nodes over input "a" (and "b" when b_shape is given) and constant `weights`."""
    inputs = [("a", a_shape)] + ([("b", b_shape)] if b_shape is not None else [])
    graph = helper.make_graph(
        list(nodes), "gemm",
        [helper.make_tensor_value_info(n, ELEM[dtype], list(s)) for n, s in inputs],
        [helper.make_tensor_value_info("y", ELEM[dtype], None)],
        [numpy_helper.from_array(w, n) for n, w in weights.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return onnx.shape_inference.infer_shapes(model)


def _compile(model: onnx.ModelProto, target: str = "avx512",
             caches: tuple[int, int, int] = TINY) -> CompiledModel:
    """Compiled at level 3 for `target` and `caches`; the graph must hold one packed
    matmul and no plain matmul or gemm."""
    block, registers = TARGETS[target]
    module = import_model(model)
    ctx = make_context()
    graph_stage = ["record-signature", *graph_optimize_passes(3, block),
                   *select_tile_passes(3, registers, block, caches)]
    run_passes(module, ctx, graph_stage)
    names = [op.name for op in module.walk()]
    assert names.count("graph.matmul_packed") == 1, names
    assert "graph.matmul" not in names and "graph.gemm" not in names
    module = import_model(model)
    run_passes(module, ctx, compile_passes(3, block, registers, caches))
    return compile_and_map(module)


def _rand(shape: Sequence[int], dtype: type = np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def _close(ours: np.ndarray, theirs: np.ndarray, k: int) -> None:
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    tol = (1e-12 if ours.dtype == np.float64 else 2e-6) * max(k, 16)
    np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol)


# (M, K, N): remainders of the register tile (6 rows, 32 / 16 columns) in M and N, a
# last panel with whole vectors only (N = 48) or a straddling one, K across KC slices.
SHAPES = [(1, 1, 1), (3, 7, 17), (7, 3, 1), (17, 17, 48), (6, 33, 32), (255, 65, 7),
          (13, 255, 100), (1000, 17, 3), (40, 1000, 65)]


@pytest.mark.slow
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_matmul_constant_weights(shape: tuple[int, int, int], target: str, dtype: type
                                 ) -> None:
    m, k, n = shape
    w = _rand((k, n), dtype)
    model = _model([helper.make_node("MatMul", ["a", "w"], ["y"])], [m, k], {"w": w}, dtype)
    a = _rand((m, k), dtype)
    _close(_compile(model, target).run({"a": a})["y"], a @ w, k)


@pytest.mark.slow
@pytest.mark.parametrize("caches", [TINY, HOST_LIKE], ids=["tiny", "host"])
def test_matmul_dynamic_m(caches: tuple[int, int, int]) -> None:
    """One compiled model for every M: whole tiles, each run-time remainder kernel."""
    k, n = 70, 45
    w = _rand((k, n))
    model = _model([helper.make_node("MatMul", ["a", "w"], ["y"])], ["m", k], {"w": w})
    compiled = _compile(model, caches=caches)
    for m in [1, 2, 3, 4, 5, 6, 7, 17, 255, 300]:
        a = _rand((m, k))
        _close(compiled.run({"a": a})["y"], a @ w, k)


def test_matmul_batched_lhs_and_broadcast_batch() -> None:
    """A [B1, B2, M, K] (dynamic B1) over one constant B: one GEMM over the batch dims'
    rows and M's; a seq-first [L, N, K] (dynamic N, as exported attention writes it) with a
    fused bias: L x N rows, past the register tile and a row block."""
    w = _rand((19, 37))
    model = _model([helper.make_node("MatMul", ["a", "w"], ["y"])], ["b", 3, 5, 19], {"w": w})
    compiled = _compile(model)
    for batch in (1, 2):
        a = _rand((batch, 3, 5, 19))
        _close(compiled.run({"a": a})["y"], a @ w, 19)
    bias = _rand((37,))
    model = _model([helper.make_node("MatMul", ["a", "w"], ["t"]),
                    helper.make_node("Add", ["t", "bias"], ["y"])], [197, "n", 19],
                   {"w": w, "bias": bias})
    compiled = _compile(model, caches=TINY)
    for n in (1, 2):
        a = _rand((197, n, 19))
        _close(compiled.run({"a": a})["y"], a @ w + bias, 19)


def test_matmul_wrong_inner_dim_is_an_error() -> None:
    """A dynamic K of A is checked against the packed weights' before the kernel runs."""
    w = _rand((8, 5))
    model = _model([helper.make_node("MatMul", ["a", "w"], ["y"])], ["m", "k"], {"w": w})
    compiled = _compile(model)
    a = np.ones((3, 8), np.float32)
    _close(compiled.run({"a": a})["y"], a @ w, 8)
    with pytest.raises(InferError, match="inner dims"):
        compiled.run({"a": np.ones((3, 9), np.float32)})


GEMM_BIAS = {"none": None, "row": (29,), "row_2d": (1, 29), "scalar": (1,)}


@pytest.mark.slow
@pytest.mark.parametrize("bias", GEMM_BIAS)
@pytest.mark.parametrize("trans_b", [0, 1])
def test_gemm_constant_weights(trans_b: int, bias: str) -> None:
    m, k, n = 11, 23, 29
    w = _rand((n, k) if trans_b else (k, n))
    weights = {"w": w}
    inputs = ["a", "w"]
    if GEMM_BIAS[bias] is not None:
        weights["c"] = _rand(GEMM_BIAS[bias])
        inputs.append("c")
    node = helper.make_node("Gemm", inputs, ["y"], transB=trans_b, alpha=0.75, beta=1.5)
    model = _model([node], ["m", k], weights)
    a = _rand((m, k))
    (theirs,) = run_onnxruntime(model, {"a": a})
    _close(_compile(model).run({"a": a})["y"], theirs, k)


@pytest.mark.slow
@pytest.mark.parametrize("act", ["Relu", "Sigmoid"])
def test_fused_activation(act: str) -> None:
    """Gemm + activation, fused at level 2, runs the activation over the finished rows."""
    m, k, n = 9, 40, 50
    weights = {"w": _rand((k, n)), "c": _rand((n,))}
    nodes = [helper.make_node("Gemm", ["a", "w", "c"], ["t"]),
             helper.make_node(act, ["t"], ["y"])]
    model = _model(nodes, ["m", k], weights)
    a = _rand((m, k))
    (theirs,) = run_onnxruntime(model, {"a": a})
    _close(_compile(model).run({"a": a})["y"], theirs, k)


# (A's shape in the model, B's, [(A, B) shapes fed]): B computed at run time and packed
# before the matmul; batch dims of both, broadcast either way, dynamic M and K.
RUNTIME = {
    "2d": (["m", 20], [20, 37], [((7, 20), (20, 37)), ((1, 20), (20, 37))]),
    "batched": ([2, "m", 9], [2, 9, 33], [((2, 13, 9), (2, 9, 33))]),
    "broadcast": ([3, "m", 9], [2, 1, 9, 16], [((3, 6, 9), (2, 1, 9, 16))]),
    "b_batched": (["m", 9], [4, 9, 50], [((8, 9), (4, 9, 50))]),
    "dynamic_k": (["m", "k"], ["k", 40], [((11, 3), (3, 40)), ((6, 300), (300, 40))]),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", RUNTIME)
def test_matmul_runtime_weights(case: str) -> None:
    a_shape, b_shape, feeds = RUNTIME[case]
    model = _model([helper.make_node("MatMul", ["a", "b"], ["y"])], a_shape, {},
                   b_shape=b_shape)
    compiled = _compile(model)
    for a_dims, b_dims in feeds:
        a, b = _rand(a_dims), _rand(b_dims)
        _close(compiled.run({"a": a, "b": b})["y"], a @ b, a_dims[-1])


@pytest.mark.slow
def test_gemm_runtime_weights_transposed() -> None:
    """Gemm(transB) of two run-time operands: B's rows packed as panel columns."""
    node = helper.make_node("Gemm", ["a", "b", "c"], ["y"], transB=1, beta=0.5)
    model = _model([node], ["m", 24], {"c": _rand((35,))}, b_shape=[35, 24])
    a, b = _rand((10, 24)), _rand((35, 24))
    (theirs,) = run_onnxruntime(model, {"a": a, "b": b})
    _close(_compile(model).run({"a": a, "b": b})["y"], theirs, 24)


def test_packing_round_trips_and_evaluates() -> None:
    """The panels hold B with zero padding; the op's numpy form is the matmul it packs."""
    b = _rand((5, 37))
    packed = G.pack_matmul_weights(b, 16)
    assert packed.shape == (3, 5, 16)
    assert not packed[2, :, 5:].any()
    np.testing.assert_array_equal(G.unpack_matmul_weights(packed, 37), b)
    a = _rand((4, 5))
    op = G.MatMulPackedOp.make([G.ConstantOp(a).output, G.ConstantOp(packed).output],
                               {"n": G.int_attr(37)})
    np.testing.assert_allclose(evaluate(op, [a, packed])[0], a @ b, rtol=1e-5)
    bt = np.stack([b.T, 2 * b.T])  # [2, N, K]: pack_panels of batched, transposed rows
    pack = G.PackPanelsOp.make([G.ConstantOp(bt).output],
                               {"width": G.int_attr(16), "transposed": G.int_attr(1)})
    np.testing.assert_array_equal(evaluate(pack, [bt])[0], np.stack([packed, 2 * packed]))


def test_host_cache_sizes_are_bytes_by_level() -> None:
    """What the API passes to select-gemm-blocking: L1 <= L2 <= L3 bytes, each at least a
    KiB (sysfs writes "48K"; a unit read wrong gives 48), which the pass accepts."""
    from infer.codegen.target import host_cache_sizes
    from infer.transforms.gemm_blocking import CACHES, SelectGemmBlockingPass

    l1, l2, l3 = host_cache_sizes(CACHES)
    assert 1024 <= l1 <= l2 <= l3
    SelectGemmBlockingPass(l1, l2, l3)

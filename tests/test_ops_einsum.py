"""Einsum end to end against onnxruntime: contractions, diagonals, implicit outputs,
broadcast `...` dims (one of extent 1), three operands, integers and dynamic shapes; bad
equations refused at compile time."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper

import infer

from .helpers import check_against_onnxruntime, make_model

R = np.random.default_rng(0)


def _model(equation: str, shapes: list[list], elem: int = TP.FLOAT, out_rank: int = 0):
    names = [f"x{i}" for i in range(len(shapes))]
    node = helper.make_node("Einsum", names, ["y"], equation=equation)
    return make_model([node], [(n, elem, s) for n, s in zip(names, shapes, strict=True)],
                      [("y", elem, [f"o{k}" for k in range(out_rank)])], opset=12)


CASES = [  # equation, operand shapes (as fed), output rank
    ("ij,jk->ik", [(3, 4), (4, 5)], 2),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 2)], 3),
    ("...ij,...jk->...ik", [(1, 3, 4), (3, 4, 2)], 3),
    ("...ij,...jk", [(2, 1, 3, 4), (1, 5, 4, 2)], 4),
    ("ii->i", [(4, 4)], 1),
    ("ii", [(3, 3)], 0),
    ("ij->", [(3, 5)], 0),
    ("i,i", [(6,), (6,)], 0),
    ("ij,kj", [(3, 4), (2, 4)], 2),
    ("abc,cd->abd", [(2, 3, 4), (4, 5)], 3),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)], 2),
    ("b i j -> b j i", [(2, 3, 4)], 3),
]


@pytest.mark.parametrize(("equation", "shapes", "rank"), CASES, ids=[c[0] for c in CASES])
def test_against_onnxruntime(equation: str, shapes: list, rank: int) -> None:
    dynamic = [[f"d{i}_{k}" for k in range(len(s))] for i, s in enumerate(shapes)]
    model = _model(equation, dynamic, out_rank=rank)
    feeds = {f"x{i}": R.standard_normal(s).astype(np.float32) for i, s in enumerate(shapes)}
    check_against_onnxruntime(model, feeds)


def test_integers() -> None:
    model = _model("ij,jk->ik", [[3, 4], [4, 2]], TP.INT32, 2)
    check_against_onnxruntime(model, {"x0": R.integers(-5, 5, (3, 4)).astype(np.int32),
                                      "x1": R.integers(-5, 5, (4, 2)).astype(np.int32)})


@pytest.mark.parametrize(("equation", "message"), [
    ("ij,jk->iz", "bad output term"),
    ("ij->i", "does not fit an operand of rank 3"),
    ("i1->i", "bad term"),
])
def test_bad_equations_are_refused(equation: str, message: str) -> None:
    with pytest.raises(infer.InvalidModelError, match=message):
        infer.compile(_model(equation, [[2, 3, 4]] if "does not" in message else
                             [[2, 3], [3, 2]][: equation.split("->")[0].count(",") + 1],
                             out_rank=1))


@pytest.mark.parametrize(("a", "c"), [((4,), (4,)), ((4,), (2, 4, 3)), ((2, 3, 4), (4,)),
                                      ((2, 1, 3, 4), (5, 4, 2)), ((3, 4), (4, 2))])
def test_integer_matmul_is_an_einsum(a: tuple, c: tuple) -> None:
    """MatMul on integers (the matmul kernels take floats) imports as the equal Einsum,
    1-D operands and broadcast batch dims included (found by the differential tester)."""
    node = helper.make_node("MatMul", ["a", "c"], ["y"])
    out_rank = len(np.broadcast_shapes(a[:-2], c[:-2])) + (len(a) > 1) + (len(c) > 1)
    model = make_model([node], [("a", TP.INT64, list(a)), ("c", TP.INT64, list(c))],
                       [("y", TP.INT64, [f"o{k}" for k in range(out_rank)])], opset=13)
    check_against_onnxruntime(model, {"a": R.integers(-9, 9, a).astype(np.int64),
                                      "c": R.integers(-9, 9, c).astype(np.int64)})

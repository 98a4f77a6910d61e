"""TfIdfVectorizer against onnxruntime: every mode, with and without weights, uni- and
bigrams with skips, 1-D and batched input of run-time length, a gram listed twice, and the
numpy form (constant folding's) against the compiled op."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper
from onnx.reference import ReferenceEvaluator

import infer
from infer.dialects import graph as G
from infer.dialects.graph.evaluate import evaluate
from infer.frontend.onnx_import import import_model

from .helpers import check_against_onnxruntime, make_model

R = np.random.default_rng(0)
# unigrams 2, 3, 5, 7 (entries 0-3), bigrams (2,3) (5,4) (7,7) (3,2) (entries 4-7)
POOL = [2, 3, 5, 7, 2, 3, 5, 4, 7, 7, 3, 2]
COUNTS = [0, 4]
INDEXES = [0, 1, 2, 3, 4, 5, 6, 7]


def _model(mode: str, rank: int, min_gram: int = 1, max_gram: int = 2, skip: int = 0,
           weights: bool = False, elem: int = TP.INT64, pool: list[int] = POOL,
           indexes: list[int] = INDEXES):
    attrs = {"mode": mode, "min_gram_length": min_gram, "max_gram_length": max_gram,
             "max_skip_count": skip, "ngram_counts": COUNTS, "ngram_indexes": indexes,
             "pool_int64s": pool}
    size = max(indexes) + 1
    if weights:
        attrs["weights"] = R.uniform(0.5, 2, size).astype(np.float32).tolist()
    node = helper.make_node("TfIdfVectorizer", ["x"], ["y"], **attrs)
    shape = ["n"] if rank == 1 else ["b", "n"]
    return make_model([node], [("x", elem, shape)],
                      [("y", TP.FLOAT, [size] if rank == 1 else ["b", size])], opset=9)


@pytest.mark.parametrize("mode", ["TF", "IDF", "TFIDF"])
@pytest.mark.parametrize("weights", [False, True])
def test_modes(mode: str, weights: bool) -> None:
    model = _model(mode, 2, skip=2, weights=weights)
    feeds = [{"x": R.integers(1, 9, (3, 12)).astype(np.int64)},
             {"x": R.integers(1, 9, (1, 3)).astype(np.int64)}]
    check_against_onnxruntime(model, feeds)


@pytest.mark.parametrize(("min_gram", "max_gram", "skip"), [(1, 1, 3), (2, 2, 0), (2, 2, 4),
                                                            (1, 2, 1)])
def test_gram_lengths_and_skips(min_gram: int, max_gram: int, skip: int) -> None:
    model = _model("TF", 1, min_gram, max_gram, skip, elem=TP.INT32)
    check_against_onnxruntime(model, [{"x": R.integers(1, 9, n).astype(np.int32)}
                                      for n in (16, 2, 1)])


def test_a_gram_listed_twice_counts_into_its_last_entry() -> None:
    """As ONNX's reference (onnxruntime refuses such a pool)."""
    pool = [2, 3, 2, 5, 4, 7, 7, 3, 2]  # unigram 2 twice; entries 0..3 then bigrams
    indexes = [0, 1, 2, 3, 4, 5, 6]
    model = _model("TF", 1, pool=pool, indexes=indexes)
    x = np.array([2, 3, 2, 5, 4, 2], np.int64)
    (want,) = ReferenceEvaluator(model).run(None, {"x": x})
    np.testing.assert_array_equal(infer.compile(model).run({"x": x})["y"], want)
    assert want[2] == 3 and want[0] == 0


def test_numpy_form_matches_the_compiled_op() -> None:
    model = _model("TFIDF", 2, skip=1, weights=True)
    x = R.integers(1, 9, (2, 10)).astype(np.int64)
    op = next(o for o in import_model(model).walk() if isinstance(o, G.TfIdfVectorizerOp))
    tables = [G.constant_value(v) for v in op.operands[1:]]
    (folded,) = evaluate(op, [x, *tables])
    np.testing.assert_allclose(folded, infer.compile(model).run({"x": x})["y"], rtol=1e-6)

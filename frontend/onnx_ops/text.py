"""ONNX importers: text features (TfIdfVectorizer over integer token ids)."""

from __future__ import annotations

import numpy as np

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import NodeError, OpBuilder, OpFn, Unsupported, Value


def tfidf_vectorizer(b: OpBuilder, x: Value, *, mode: str, min_gram_length: int,
                     max_gram_length: int, max_skip_count: int, ngram_counts: list[int],
                     ngram_indexes: list[int], pool_int64s: list[int] | None = None,
                     pool_strings: list[str] | None = None,
                     weights: list[float] | None = None) -> Value:
    """The pool becomes constant gram tables (`graph.gram_tables`); weights default to 1."""
    if pool_strings:
        raise Unsupported("string tokens (pool_strings) are not supported")
    if not pool_int64s or not ngram_indexes:
        raise NodeError("needs pool_int64s and ngram_indexes")
    if not 1 <= min_gram_length <= max_gram_length or max_skip_count < 0:
        raise NodeError(f"bad gram lengths [{min_gram_length}, {max_gram_length}] or skip "
                        f"{max_skip_count}")
    size = max(ngram_indexes) + 1
    w = np.ones(size, np.float32) if not weights else np.asarray(weights, np.float32)
    if w.shape != (size,):
        raise NodeError(f"weights must have {size} entries, one per output")
    tables = G.gram_tables(list(pool_int64s), list(ngram_counts), list(ngram_indexes),
                           min_gram_length, max_gram_length)
    return b.emit1(G.TfIdfVectorizerOp, x, *(b.const(t) for t in tables), b.const(w),
                   size=size, max_skip=max_skip_count, mode=mode)


OPS: dict[str, dict[int, OpFn]] = {
    "TfIdfVectorizer": {9: tfidf_vectorizer},
}

"""Text features: TfIdfVectorizer over integer token ids."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr, TensorType, f32
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from infer.dialects.graph.base import TRAITS, GraphOp

MODES = ("TF", "IDF", "TFIDF")


@irdl_op_definition
class TfIdfVectorizerOp(GraphOp):
    """Counts of n-grams of token ids per row of x ([C] or [N, C] -> [size] or [N, size]),
    then weighted by `mode`: TF the count, IDF weights[j] where the count is nonzero,
    TFIDF weights[j] * count. The n-grams are 1-D i64 tables (constants, from ONNX's
    pool): `pool` holds their tokens back to back, each gram g `lengths[g]` long from
    `starts[g]`, counted into output entry `outputs[g]`. A gram of n tokens matches
    tokens s, s + d, ..., s + (n - 1) d of a row for each skip distance d - 1 up to
    `max_skip` (a unigram once, at d = 1)."""

    name = "graph.tfidf_vectorizer"
    ONNX_OP: ClassVar[str | None] = "TfIdfVectorizer"
    x = operand_def(TensorType)
    pool = operand_def(TensorType)
    starts = operand_def(TensorType)
    lengths = operand_def(TensorType)
    outputs = operand_def(TensorType)
    weights = operand_def(TensorType)
    y = result_def(TensorType)
    size = prop_def(IntegerAttr)
    max_skip = prop_def(IntegerAttr)
    mode = prop_def(StringAttr)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        x = types[0]
        if not isinstance(x.element_type, IntegerType) or len(x.get_shape()) not in (1, 2):
            raise VerifyException(f"'{cls.name}' x must be a 1-D or 2-D integer tensor")
        if any(t.element_type != IntegerType(64) or len(t.get_shape()) != 1
               for t in types[1:5]):
            raise VerifyException(f"'{cls.name}' gram tables must be 1-D i64")
        if types[5].element_type != f32:
            raise VerifyException(f"'{cls.name}' weights must be f32")
        if cls.prop(props, "mode") not in MODES:
            raise VerifyException(f"'{cls.name}' mode must be one of {', '.join(MODES)}")

    @classmethod
    def output_dims(cls, props, dims, consts):
        size = cls.prop(props, "size")
        return [[size] if len(dims[0]) == 1 else [dims[0][0], size]]

    @classmethod
    def output_elements(cls, props, elements):
        return [f32]

    def numpy(self, x: np.ndarray, pool: np.ndarray, starts: np.ndarray,
              lengths: np.ndarray, outputs: np.ndarray, weights: np.ndarray) -> np.ndarray:
        rows = x.reshape(1, -1) if x.ndim == 1 else x
        counts = np.zeros((rows.shape[0], self.size.value.data), np.float32)
        for start, n, out in zip(starts, lengths, outputs, strict=True):
            gram = pool[start:start + n]
            for d in range(1, 2 if n == 1 else self.max_skip.value.data + 2):
                span = (n - 1) * d
                for s in range(rows.shape[1] - span):
                    hit = (rows[:, s:s + span + 1:d] == gram).all(axis=1)
                    counts[:, out] += hit
        mode = self.mode.data
        y = counts if mode == "TF" else (counts > 0) * weights if mode == "IDF" else \
            counts * weights
        return y.astype(np.float32).reshape(-1) if x.ndim == 1 else y.astype(np.float32)


def gram_tables(pool: list[int], ngram_counts: list[int], ngram_indexes: list[int],
                min_gram: int, max_gram: int) -> tuple[np.ndarray, ...]:
    """ONNX's pool as (pool, starts, lengths, outputs): the grams of sizes in [min_gram,
    max_gram], each with its output entry (a gram listed twice counts into its last)."""
    grams: dict[tuple[int, ...], tuple[int, int, int]] = {}
    gram_id = 0
    for size, begin in enumerate(ngram_counts, start=1):
        end = ngram_counts[size] if size < len(ngram_counts) else len(pool)
        for start in range(begin, end - size + 1, size):
            if min_gram <= size <= max_gram:
                key = tuple(pool[start:start + size])
                grams.pop(key, None)
                grams[key] = (start, size, ngram_indexes[gram_id])
            gram_id += 1
    table = np.array(list(grams.values()), np.int64).reshape(-1, 3)
    return (np.array(pool, np.int64), table[:, 0].copy(), table[:, 1].copy(),
            table[:, 2].copy())


__all__ = ["TfIdfVectorizerOp", "gram_tables"]

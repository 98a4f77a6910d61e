"""Lowering of TfIdfVectorizer: per row and gram (its tokens, length and output entry
read from the constant tables), a scan over skip distances and start positions counting
the matches, then the weighting of the counts."""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerType, TensorType, f32, i64
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.lowering.graph_ops.base import Lowering, lowers
from infer.lowering.graph_ops.index import to_float
from infer.lowering.graph_ops.operands import to_index, view
from infer.lowering.loop_builder import Index

i1 = IntegerType(1)


@lowers(graph.TfIdfVectorizerOp)
def _tfidf_vectorizer(s: Lowering, op: graph.TfIdfVectorizerOp, ins: list[SSAValue]
                      ) -> list[SSAValue]:
    b = s.b
    x, pool, starts, lengths, outputs, weights = ins
    dims = b.dims(x)
    (y,) = s.alloc_results(op, ins)
    size = op.size.value.data
    element = cast(TensorType, op.x.type).element_type
    if len(dims) == 1:  # one row
        x = view(s, x, [1, dims[0]], TensorType(element, [1, DYNAMIC_INDEX]))
        y = view(s, y, [1, size], TensorType(f32, [1, size]))
    rows, cols = b.dims(x)
    (grams,) = b.dims(starts)
    max_skip = op.max_skip.value.data

    def token(r: SSAValue, at: Index) -> SSAValue:
        v = b.load(x, [r, at])
        return v if v.type == i64 else b.insert(arith.ExtSIOp(v, i64)).results[0]

    with b.loop_nest([rows, size]) as (r, j):
        b.store(b.const(0.0, f32), y, [r, j])
    with b.loop_nest([rows, grams]) as (r, g):
        start = to_index(b, b.load(starts, [g]))
        n = to_index(b, b.load(lengths, [g]))
        out = to_index(b, b.load(outputs, [g]))
        unigram = b.cmpi("eq", b.idx(n), b.idx(1))
        distances = Index(b, b.select(unigram, b.idx(1), b.idx(max_skip + 1)))

        def per_distance(dv: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
            d = Index(b, dv) + 1
            span = (n - 1) * d

            def per_start(sv: SSAValue, c: list[SSAValue]) -> list[SSAValue]:
                def same(jv: SSAValue, m: list[SSAValue]) -> list[SSAValue]:
                    at = Index(b, sv) + Index(b, jv) * d
                    eq = b.cmpi("eq", token(r, at), b.load(pool, [start + Index(b, jv)]))
                    return [b.insert(arith.AndIOp(m[0], eq)).results[0]]

                (hit,) = b.reduce_loop(0, n, [b.const(1, i1)], same)
                return [b.select(hit, b.insert(arith.AddiOp(c[0], b.idx(1))).results[0],
                                 c[0])]

            return b.reduce_loop(0, cols - span, c, per_start)

        (count,) = b.reduce_loop(0, distances, [b.idx(0)], per_distance)
        b.store(b.add(b.load(y, [r, out]), to_float(b, Index(b, count), f32)), y, [r, out])
    mode = op.mode.data
    if mode != "TF":
        with b.loop_nest([rows, size]) as (r, j):
            c, w = b.load(y, [r, j]), b.load(weights, [j])
            if mode == "IDF":
                v = b.select(b.cmpf("ogt", c, b.const(0.0, f32)), w, b.const(0.0, f32))
            else:
                v = b.mul(w, c)
            b.store(v, y, [r, j])
    return [s.root_of(y) if len(dims) == 1 else y]

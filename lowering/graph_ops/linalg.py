"""MatMul and Gemm → loop nests whose innermost loop LLVM vectorizes: the ones pack-matmul
leaves (below level 3, 1-D operands, Gemm's transA, small run-time weights, ...); the
others run the packed GEMM kernel of gemm.py.

Default order i-k-j: the output row is initialised (0, or beta * C for Gemm), then

    y[i, j] += a[i, k] * b[k, j]      (j innermost: contiguous loads and stores of b and y,
                                       a[i, k] a loop-invariant scalar; no reassociation)

When the right operand's contraction dim is the contiguous one (Gemm's transB, MatMul
with a 1-D right operand) the order is i-j-k: a dot product per output element into a
loop-carried accumulator whose adds carry `reassoc`, so LLVM may split it into vector
partial sums. A fused activation is applied to each finished row (i-k-j) or to each dot
product before its store (i-j-k).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import f64
from xdsl.ir import SSAValue

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.graph_ops.base import Lowering, element_type, lowers, optional
from infer.lowering.graph_ops.elementwise import epilogue, result_dims
from infer.lowering.graph_ops.index import broadcast_index
from infer.lowering.loop_builder import REDUCE, Index, LoopBuilder, static_product, storage_type

Idx: TypeAlias = "list[Dim | SSAValue]"


def _dot(b: LoopBuilder, k: Dim, a_at: Callable[[SSAValue], Idx], a: SSAValue,
         b_at: Callable[[SSAValue], Idx], bm: SSAValue, init: SSAValue) -> SSAValue:
    """init + sum_k a[a_at(k)] * b[b_at(k)], reassociable."""

    def body(kv: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
        # B may hold f16 (a weight stored as f16): widened to the accumulator's type.
        prod = b.mul(b.load(a, a_at(kv)), b.widen(b.load(bm, b_at(kv)), init.type), REDUCE)
        return [b.add(acc[0], prod, REDUCE)]

    return b.reduce_loop(0, k, [init], body)[0]


@lowers(graph.MatMulOp, outline=True)
def _matmul(s: Lowering, op: graph.MatMulOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    a, bm = ins
    # The result's dims from these operand dims: batch dims broadcast at run time.
    ad, bd = b.dims(a), b.dims(bm)
    yd = result_dims(s, op, [ad, bd])
    et = element_type(op)
    y = s.alloc(yd, et)
    a_vec, b_vec = len(ad) == 1, len(bd) == 1
    n_batch = len(yd) - (not a_vec) - (not b_vec)
    m: Dim = 1 if a_vec else ad[-2]
    k = ad[-1]
    zero = b.const(0.0, et)
    act = epilogue(op)

    # numpy rules: a 1-D operand is a row (left) or a column (right) whose dim is dropped;
    # ab / bb: the operands' batch indices (computed once per batch and row)
    def a_at(ab: Idx, i: SSAValue | int, kv: SSAValue | int) -> Idx:
        return [kv] if a_vec else [*ab, i, kv]

    def b_at(bb: Idx, kv: SSAValue | int, j: SSAValue | int) -> Idx:
        return [kv] if b_vec else [*bb, kv, j]

    def y_at(bt: Sequence[SSAValue], i: SSAValue | int, j: SSAValue | int) -> Idx:
        return [*bt, *([] if a_vec else [i]), *([] if b_vec else [j])]

    # one row of Y an iteration, on any thread
    row_work = static_product([k] if b_vec else [k, bd[-1]], 2)
    with b.parallel([*yd[:n_batch], m], row_work) as (*bt, i):
        ab = [] if a_vec else broadcast_index(bt, ad[:-2], yd[:n_batch])
        bb = [] if b_vec else broadcast_index(bt, bd[:-2], yd[:n_batch])
        if b_vec:  # matrix-vector: one dot product per row
            acc = _dot(b, k, lambda kv: a_at(ab, i, kv), a, lambda kv: b_at(bb, kv, 0), bm,
                       zero)
            b.store(act(b, acc) if act else acc, y, y_at(bt, i, 0))
        else:
            n = bd[-1]
            with b.loop(0, n) as j:
                b.store(zero, y, y_at(bt, i, j))
            with b.loop(0, k) as kv:
                av = b.load(a, a_at(ab, i, kv))
                with b.loop(0, n) as j:
                    acc = b.load(y, y_at(bt, i, j))
                    prod = b.mul(av, b.widen(b.load(bm, b_at(bb, kv, j)), et))
                    b.store(b.add(acc, prod), y, y_at(bt, i, j))
            if act is not None:  # the finished row, still in cache
                with b.loop(0, n) as j:
                    b.store(act(b, b.load(y, y_at(bt, i, j))), y, y_at(bt, i, j))
    return [y]


@lowers(graph.GemmOp, outline=True)
def _gemm(s: Lowering, op: graph.GemmOp, ins: list[SSAValue]) -> list[SSAValue]:
    """Y = alpha * A' B' + beta * C; alpha scales A's scalar (i-k-j) or the dot (i-j-k)."""
    (y,) = s.alloc_results(op, ins)
    b = s.b
    a, bm = ins[:2]
    (c,) = optional(ins, 2)
    alpha, beta = op.alpha.value.data, op.beta.value.data
    trans_a, trans_b = bool(op.transA.value.data), bool(op.transB.value.data)
    et = element_type(op)
    ad, yd = b.dims(a), b.dims(y)
    m, n = yd
    k = ad[0] if trans_a else ad[1]
    cd = b.dims(c) if c is not None else []
    with_c = c is not None and beta != 0.0

    def a_at(i: SSAValue, kv: SSAValue) -> Idx:
        return [kv, i] if trans_a else [i, kv]

    def b_at(kv: SSAValue, j: SSAValue) -> Idx:
        return [j, kv] if trans_b else [kv, j]

    def scaled(v: SSAValue, factor: float) -> SSAValue:
        return v if factor == 1.0 else b.mul(v, b.const(factor, et))

    def bias(i: SSAValue, j: SSAValue) -> SSAValue:
        assert c is not None
        return scaled(b.load(c, broadcast_index([i, j], cd)), beta)

    zero = b.const(0.0, et)
    act = epilogue(op)
    if trans_b:  # rows of A and B are contiguous in k: dot products, each on any thread
        with b.parallel([m, n], static_product([k], 2)) as (i, j):
            acc = _dot(b, k, lambda kv: a_at(i, kv), a, lambda kv: b_at(kv, j), bm, zero)
            acc = scaled(acc, alpha)
            acc = b.add(acc, bias(i, j)) if with_c else acc
            b.store(act(b, acc) if act else acc, y, [i, j])
        return [y]
    with b.parallel([m], static_product([k, n], 2)) as (i,):  # one row of Y on any thread
        with b.loop(0, n) as j:
            b.store(bias(i, j) if with_c else zero, y, [i, j])
        with b.loop(0, k) as kv:
            av = scaled(b.load(a, a_at(i, kv)), alpha)
            with b.loop(0, n) as j:
                acc = b.load(y, [i, j])
                bv = b.widen(b.load(bm, b_at(kv, j)), et)
                b.store(b.add(acc, b.mul(av, bv)), y, [i, j])
        if act is not None:  # the finished row, still in cache
            with b.loop(0, n) as j:
                b.store(act(b, b.load(y, [i, j])), y, [i, j])
    return [y]


@lowers(graph.DetOp)
def _det(s: Lowering, op: graph.DetOp, ins: list[SSAValue]) -> list[SSAValue]:
    """LU elimination with partial pivoting, in f64 on a copy of each matrix: det is the
    product of the pivots, negated per row swap (0 once a column has no pivot)."""
    b = s.b
    x = ins[0]
    xd = b.dims(x)
    m = xd[-1]
    (y,) = s.alloc_results(op, ins)
    element = element_type(op)
    a = s.alloc([m, m], f64)
    one, zero = b.const(1.0, f64), b.const(0.0, f64)
    with b.loop_nest(xd[:-2]) as batch:
        with b.loop_nest([m, m]) as (i, j):
            v = b.load(x, [*batch, i, j])
            b.store(v if v.type == f64 else b.insert(arith.ExtFOp(v, f64)).results[0], a, [i, j])

        def column(k: SSAValue, det: list[SSAValue]) -> list[SSAValue]:
            def larger(i: SSAValue, best: list[SSAValue]) -> list[SSAValue]:
                v = b.unary(math.AbsFOp, b.load(a, [i, k]))
                wins = b.cmpf("ogt", v, best[0])
                return [b.select(wins, v, best[0]), b.select(wins, i, best[1])]

            start = b.unary(math.AbsFOp, b.load(a, [k, k]))
            _, p = b.reduce_loop(Index(b, k) + 1, m, [start, k], larger)
            with b.loop(0, m) as j:  # rows k and p swapped (a no-op when p == k)
                top, low = b.load(a, [k, j]), b.load(a, [p, j])
                b.store(low, a, [k, j])
                b.store(top, a, [p, j])
            pivot = b.load(a, [k, k])
            singular = b.cmpf("oeq", pivot, zero)
            with b.loop(Index(b, k) + 1, m) as i:
                f = b.select(singular, zero, b.div(b.load(a, [i, k]), pivot))
                with b.loop(Index(b, k) + 1, m) as j:
                    b.store(b.sub(b.load(a, [i, j]), b.mul(f, b.load(a, [k, j]))), a, [i, j])
            swapped = b.cmpi("ne", p, k)
            sign = b.select(swapped, b.const(-1.0, f64), one)
            return [b.mul(det[0], b.mul(sign, pivot))]

        (det,) = b.reduce_loop(0, m, [one], column)
        b.store(det if element == f64 else b.insert(arith.TruncFOp(det, element)).results[0],
                y, batch)
    s.free(a)  # the working copy: graph-to-loops frees only results
    return [y]


@lowers(graph.EinsumOp)
def _einsum(s: Lowering, op: graph.EinsumOp, ins: list[SSAValue]) -> list[SSAValue]:
    """A loop per output label, a reduction nest over the summed labels, and the product
    of the operands' elements at each point (a broadcast dim of extent 1 read at 0)."""
    b = s.b
    dims = [b.dims(v) for v in ins]
    terms = graph.parse_einsum(op.equation.data, [len(d) for d in dims])
    extent = terms.extents(dims)
    (y,) = s.alloc_results(op, ins)
    element = storage_type(element_type(op))
    summed = terms.summed

    def at(i: int, iv: dict[str, SSAValue]) -> list[Dim | SSAValue]:
        return [iv[label] if not label.isdigit() or d == extent[label]
                else b.select(b.cmpi("eq", b.idx(d), b.idx(1)), b.idx(0), iv[label])
                for label, d in zip(terms.inputs[i], dims[i], strict=True)]

    with b.loop_nest([extent[label] for label in terms.output]) as out_ivs:
        iv = dict(zip(terms.output, out_ivs, strict=True))

        def term(ivs: list[SSAValue], acc: list[SSAValue]) -> list[SSAValue]:
            iv.update(zip(summed, ivs, strict=True))
            product = b.load(ins[0], at(0, iv))
            for i in range(1, len(ins)):
                product = b.mul(product, b.load(ins[i], at(i, iv)))
            return [b.add(acc[0], product)]

        (total,) = b.fold([extent[label] for label in summed], [b.const(0, element)], term)
        b.store(total, y, out_ivs)
    return [y]

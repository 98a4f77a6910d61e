"""ai.onnx.ml's support vector machines, SVMClassifier and SVMRegressor, from graph ops
as onnxruntime's kernels compute them: the kernel between each row and each support
vector (a GEMM; RBF from the squared norms and that GEMM), then for the classifier one
decision per pair of classes (a GEMM by coefficients laid out per pair at import), a vote
per decision and the label of the most votes (the first on a tie).

Probability outputs (prob_a and prob_b: onnxruntime's iterative pairwise coupling) and
the liblinear form without support vectors are refused."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import Float64Type, f32

from infer.dialects import graph as G
from infer.frontend.onnx_ops.builder import (
    NodeError,
    OpBuilder,
    Unsupported,
    Value,
    built_from_other_ops,
    dims,
)
from infer.frontend.onnx_ops.ml_trees import as_rows, class_labels, to_f32, transformed


def _kernels(b: OpBuilder, x: Value, kernel_type: str, params: list[float] | None,
             support_vectors: list[float], count: int) -> Value:
    """K [N, count]: the kernel of each row of x with each support vector."""
    x = to_f32(b, as_rows(b, x))  # onnxruntime computes in float
    features = len(support_vectors) // count
    if features * count != len(support_vectors) or features < 1:
        raise NodeError(f"{len(support_vectors)} support vector values are not {count} "
                        "vectors")
    if isinstance(dims(x)[-1], int) and dims(x)[-1] != features:
        raise NodeError(f"the input has {dims(x)[-1]} features, the support vectors "
                        f"{features}")
    gamma, coef0, degree = (list(params) + [0.0, 0.0, 0.0])[:3] if params else (0.0,) * 3
    sv = np.asarray(support_vectors, np.float32).reshape(count, features)
    if kernel_type == "RBF":  # |x - v|^2 = |x|^2 - 2 x.v + |v|^2, never below 0
        xx = b.emit1(G.ReduceSumOp, b.emit1(G.MulOp, x, x), b.ints([1]), keepdims=1)
        vv = b.const((sv.astype(np.float64) ** 2).sum(axis=1).astype(np.float32))
        dot = b.emit1(G.GemmOp, x, b.const(sv), vv, alpha=-2.0, transB=1)
        d2 = b.emit1(G.MaxOp, b.emit1(G.AddOp, dot, xx), b.const(np.float32(0)))
        return b.emit1(G.ExpOp, b.emit1(G.MulOp, d2, b.const(np.float32(-gamma))))
    if kernel_type == "LINEAR":
        return b.emit1(G.GemmOp, x, b.const(sv), transB=1)
    if kernel_type not in ("POLY", "SIGMOID"):
        raise NodeError(f"kernel_type {kernel_type}")
    dot = b.emit1(G.GemmOp, x, b.const(sv), b.const(np.float32(coef0)), alpha=gamma,
                  transB=1)
    if kernel_type == "SIGMOID":
        return b.emit1(G.TanhOp, dot)
    if degree == 2:
        return b.emit1(G.MulOp, dot, dot)
    return b.emit1(G.PowOp, dot, b.const(np.float32(degree)))


def _sum_in_double(b: OpBuilder, k: Value, w: np.ndarray, bias: np.ndarray | np.float32
                   ) -> Value:
    """k @ w + bias summed in f64, then f32, as onnxruntime sums the decisions: the
    kernels of unscaled features are large and their weighted sum cancels."""
    k64 = b.emit1(G.CastOp, k, to=Float64Type())
    out = b.emit1(G.GemmOp, k64, b.const(w.astype(np.float64)),
                  b.const(np.asarray(bias, np.float64)))
    return b.emit1(G.CastOp, out, to=f32)


@built_from_other_ops
def svm_classifier(
    b: OpBuilder, x: Value, *, classlabels_ints: list[int] | None = None,
    classlabels_strings: list[str] | None = None, coefficients: list[float],
    kernel_params: list[float] | None = None, kernel_type: str = "LINEAR",
    post_transform: str = "NONE", prob_a: list[float] | None = None,
    prob_b: list[float] | None = None, rho: list[float], support_vectors: list[float] | None = None,
    vectors_per_class: list[int] | None = None,
) -> list[Value]:
    labels = classlabels_ints if classlabels_ints is not None else classlabels_strings
    if prob_a or prob_b:
        raise Unsupported("probability outputs (prob_a, prob_b)")
    if not vectors_per_class or not support_vectors:
        raise Unsupported("the liblinear form (no support vectors)")
    n = len(labels or [])
    if n < 2 or len(vectors_per_class) != n:
        raise NodeError(f"{len(vectors_per_class)} vectors_per_class for {n} classes")
    count = sum(vectors_per_class)
    pairs = n * (n - 1) // 2
    if len(coefficients) != (n - 1) * count or len(rho) != pairs:
        raise NodeError(f"{len(coefficients)} coefficients and {len(rho)} rho for {n} "
                        f"classes of {count} support vectors")
    coef = np.asarray(coefficients, np.float32).reshape(n - 1, count)
    first = np.concatenate([[0], np.cumsum(vectors_per_class)])
    # decision p of classes (i, j): class i's vectors by coefficient row j - 1, class
    # j's by row i; a positive one votes for i, else for j
    w = np.zeros((count, pairs), np.float32)
    wins = np.zeros((pairs, n), np.float32)
    losses = np.zeros((pairs, n), np.float32)
    p = 0
    for i in range(n - 1):
        for j in range(i + 1, n):
            w[first[i]:first[i + 1], p] = coef[j - 1, first[i]:first[i + 1]]
            w[first[j]:first[j + 1], p] = coef[i, first[j]:first[j + 1]]
            wins[p, i] = losses[p, j] = 1
            p += 1
    k = _kernels(b, x, kernel_type, kernel_params, support_vectors, count)
    decisions = _sum_in_double(b, k, w, np.asarray(rho, np.float32))
    positive = b.emit1(G.CastOp, b.emit1(G.GreaterOp, decisions, b.const(np.float32(0))),
                       to=f32)
    votes = b.emit1(G.AddOp, b.emit1(G.MatMulOp, positive, b.const(wins - losses)),
                    b.const(losses.sum(axis=0)))
    best = b.emit1(G.ArgMaxOp, votes, axis=1, keepdims=0)
    if n == 2:  # one decision: onnxruntime's scores are [-d, d]
        if post_transform != "NONE":
            raise Unsupported(f"post_transform {post_transform} of a two-class SVM")
        scores = b.emit1(G.ConcatOp, b.emit1(G.NegOp, decisions), decisions, axis=1)
    else:
        scores = transformed(b, decisions, post_transform)
    return [class_labels(b, labels, best), scores]


@built_from_other_ops
def svm_regressor(
    b: OpBuilder, x: Value, *, coefficients: list[float], kernel_params: list[float] | None = None,
    kernel_type: str = "LINEAR", n_supports: int = 0, one_class: int = 0,
    post_transform: str = "NONE", rho: list[float], support_vectors: list[float] | None = None,
) -> Value:
    if post_transform != "NONE":
        raise Unsupported(f"post_transform {post_transform} of a regressor")
    if not n_supports or not support_vectors:
        raise Unsupported("the liblinear form (no support vectors)")
    if len(coefficients) != n_supports or not rho:
        raise NodeError(f"{len(coefficients)} coefficients for {n_supports} support vectors")
    k = _kernels(b, x, kernel_type, kernel_params, support_vectors, n_supports)
    w = np.asarray(coefficients, np.float32).reshape(n_supports, 1)
    y = _sum_in_double(b, k, w, np.float32(rho[0]))
    if one_class:  # +1 inside the class, -1 outside
        inside = b.emit1(G.GreaterOp, y, b.const(np.float32(0)))
        return b.emit1(G.WhereOp, inside, b.const(np.float32(1)), b.const(np.float32(-1)))
    return y


OPS = {"SVMClassifier": {1: svm_classifier}, "SVMRegressor": {1: svm_regressor}}

"""Classical machine-learning models (ONNX's ai.onnx.ml domain): tree ensembles.

The other ai.onnx.ml ops (linear models, scalers, encoders) are built from graph ops of
the default domain by the importer (frontend/onnx_ops/ml.py)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr, TensorType
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.graph.base import TRAITS, GraphOp
from infer.dialects.graph.types import int_attr, is_float

# How the leaves' weights of one target combine over the trees; a target no leaf reached
# is 0 (as onnxruntime's has_score).
AGGREGATES = ("SUM", "AVERAGE", "MIN", "MAX")
# A branch node's children by how its feature compares with its threshold, in this order
# in `next`: below, equal, above, unordered (the feature is NaN).
BRANCHES = ("lt", "eq", "gt", "nan")


@irdl_op_definition
class TreeEnsembleOp(GraphOp):
    """Decision trees over the rows of `x` [N, F], their leaf weights aggregated per
    target into [N, targets].

    The trees share packed node arrays (`nodes` of them): a branch node compares feature
    `feature[n]` of the row with `threshold[n]` (x's type) and goes to
    `next[n, k]`, k by the outcome in BRANCHES order (every ONNX branch mode, and the
    missing-value rule, is a choice of those four children). A leaf's four children are
    itself. Tree t starts at node `roots[t]` and reaches its leaf in at most `depth[t]`
    steps. Leaf n adds `weight[e]` to target `target[e]` for e in
    `leaf_start[n] .. leaf_start[n + 1]`, combined by `aggregate` (AVERAGE: the sum over
    the number of trees). `features` is the largest feature index a node reads, plus one:
    x must have that many columns."""

    name = "graph.tree_ensemble"
    ONNX_OP: ClassVar[str | None] = "TreeEnsemble"
    FOLDABLE: ClassVar[bool] = False  # a model's output, never a constant's
    x = operand_def(TensorType)
    feature = operand_def(TensorType)
    threshold = operand_def(TensorType)
    next = operand_def(TensorType)
    roots = operand_def(TensorType)
    depth = operand_def(TensorType)
    leaf_start = operand_def(TensorType)
    target = operand_def(TensorType)
    weight = operand_def(TensorType)
    output = result_def(TensorType)
    targets = prop_def(IntegerAttr, default_value=int_attr(1))
    aggregate = prop_def(StringAttr, default_value=StringAttr("SUM"))
    features = prop_def(IntegerAttr, default_value=int_attr(0))  # largest feature read + 1
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        x, feature, threshold, nxt, roots, depth, start, target, weight = types
        i64 = IntegerType(64)
        if not is_float(x.element_type) or threshold.element_type != x.element_type:
            raise VerifyException(f"'{cls.name}' x must be float and its thresholds of x's "
                                  "type")
        if not is_float(weight.element_type):
            raise VerifyException(f"'{cls.name}' weights must be float")
        for what, t in (("feature", feature), ("next", nxt), ("roots", roots),
                        ("depth", depth), ("leaf_start", start), ("target", target)):
            if t.element_type != i64:
                raise VerifyException(f"'{cls.name}' {what} must be i64")
        if cls.prop(props, "aggregate") not in AGGREGATES:
            raise VerifyException(f"'{cls.name}' aggregate must be one of "
                                  f"{', '.join(AGGREGATES)}")
        if cls.prop(props, "targets") < 1:
            raise VerifyException(f"'{cls.name}' needs at least one target")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, feature, threshold, nxt, roots, depth, start, target, weight = dims
        if len(x) != 2:
            raise ValueError("x must be [rows, features]")
        if len(feature) != 1 or threshold != feature or nxt != [feature[0], len(BRANCHES)] \
                or len(start) != 1:
            raise ValueError("feature, threshold, next and leaf_start must describe the "
                             "same nodes")
        if len(roots) != 1 or depth != roots or len(target) != 1 or weight != target:
            raise ValueError("roots and depth must be per tree, target and weight per "
                             "leaf entry")
        D.require(D.AT_LEAST, x[1], cls.prop(props, "features"),
                  "x's column count (the trees read features up to one less)")
        return [[x[0], cls.prop(props, "targets")]]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[8]]


__all__ = ["AGGREGATES", "BRANCHES", "TreeEnsembleOp"]

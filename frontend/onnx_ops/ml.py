"""ONNX's ai.onnx.ml domain (`ML_OPS`): classical models as converted by skl2onnx and
onnxmltools. Tree ensembles are `graph.tree_ensemble` (ml_trees.py); the linear models,
scalers and encoders are built here from graph ops of the default domain. Scores, labels
and their edge cases follow onnxruntime's kernels, which is what these models are run
with and tested against; string labels and categories are refused for now."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    Float64Type,
    IntegerType,
    StringAttr,
    f32,
    i64,
)
from xdsl.ir import Attribute

from infer.dialects import graph as G
from infer.frontend.onnx_ops import ml_svm, ml_trees
from infer.frontend.onnx_ops.builder import (
    NodeError,
    OpBuilder,
    OpFn,
    Unsupported,
    Value,
    built_from_other_ops,
    dims,
    element,
)
from infer.frontend.onnx_ops.ml_trees import as_rows, class_labels, to_f32, transformed
from infer.frontend.onnx_values import KeyedRows

ML_DOMAIN = "ai.onnx.ml"


def _float(b: OpBuilder, x: Value) -> Value:
    """x as f32, or f64 if it is: what these ops compute in."""
    if element(x) in (f32, Float64Type()):
        return x
    return b.emit1(G.CastOp, x, to=f32)


def _const_like(b: OpBuilder, x: Value, values: Sequence[float] | np.ndarray) -> Value:
    return b.const(np.asarray(values, G.numpy_dtype(element(x))))


@built_from_other_ops
def array_feature_extractor(b: OpBuilder, x: Value, indices: Value) -> Value:
    """x's last-axis elements at `indices` (flattened); a 1-D x is one row."""
    x = as_rows(b, x)
    flat = b.emit1(G.ReshapeOp, indices, b.ints([-1]))
    return b.emit1(G.GatherOp, x, flat, axis=-1)


@built_from_other_ops
def binarizer(b: OpBuilder, x: Value, *, threshold: float = 0.0) -> Value:
    above = b.emit1(G.GreaterOp, x, _const_like(b, x, threshold))
    return b.emit1(G.WhereOp, above, _const_like(b, x, 1), _const_like(b, x, 0))


@built_from_other_ops
def scaler(b: OpBuilder, x: Value, *, offset: list[float] | None = None,
           scale: list[float] | None = None) -> Value:
    """(x - offset) * scale in f32, per last-axis element (or one for all)."""
    x = to_f32(b, x)
    if offset is not None:
        x = b.emit1(G.SubOp, x, _const_like(b, x, offset))
    if scale is not None:
        x = b.emit1(G.MulOp, x, _const_like(b, x, scale))
    return x


@built_from_other_ops
def normalizer(b: OpBuilder, x: Value, *, norm: str = "MAX") -> Value:
    """Each row over its max |x|, L1 or L2 norm (at least 1e-30, as the reference)."""
    x = as_rows(b, _float(b, x))
    axes = b.ints([1])
    if norm == "MAX":
        size = b.emit1(G.ReduceMaxOp, b.emit1(G.AbsOp, x), axes, keepdims=1)
    elif norm == "L1":
        size = b.emit1(G.ReduceL1Op, x, axes, keepdims=1)
    elif norm == "L2":
        size = b.emit1(G.ReduceL2Op, x, axes, keepdims=1)
    else:
        raise NodeError(f"norm {norm} is not MAX, L1 or L2")
    size = b.emit1(G.MaxOp, size, _const_like(b, x, 1e-30))
    return b.emit1(G.DivOp, x, size)


def _linear(b: OpBuilder, x: Value, coefficients: list[float],
            intercepts: list[float] | None, outputs: int) -> Value:
    """x [N, F] times the [outputs, F] coefficients, plus the intercepts."""
    x = as_rows(b, _float(b, x))
    features = len(coefficients) // max(outputs, 1)
    if outputs < 1 or features * outputs != len(coefficients):
        raise NodeError(f"{len(coefficients)} coefficients are not {outputs} rows")
    if intercepts is not None and len(intercepts) not in (outputs, 1):
        raise NodeError(f"{len(intercepts)} intercepts for {outputs} outputs")
    w = _const_like(b, x, np.asarray(coefficients).reshape(outputs, features))
    bias = _const_like(b, x, intercepts) if intercepts else None
    return b.emit1(G.GemmOp, x, w, bias, transB=1)


@built_from_other_ops
def linear_regressor(b: OpBuilder, x: Value, *, coefficients: list[float],
                     intercepts: list[float] | None = None, post_transform: str = "NONE",
                     targets: int = 1) -> Value:
    if post_transform != "NONE":
        raise Unsupported(f"post_transform {post_transform} of a regressor")
    return _linear(b, x, coefficients, intercepts, targets)


@built_from_other_ops
def linear_classifier(b: OpBuilder, x: Value, *, coefficients: list[float],
                      classlabels_ints: list[int] | None = None,
                      classlabels_strings: list[str] | None = None,
                      intercepts: list[float] | None = None, multi_class: int = 0,
                      post_transform: str = "NONE") -> list[Value]:
    """Scores and the best class's label, as onnxruntime computes them: a row of
    coefficients per intercept; one row for two classes is its binary form: class 1
    where s > 0, scores [1 - p, p] with p = sigmoid(s) under LOGISTIC, else s (its
    other transforms do not apply there)."""
    del multi_class  # unused by onnxruntime and the reference alike
    labels = classlabels_ints if classlabels_ints is not None else classlabels_strings
    if not labels:
        raise NodeError("one of classlabels_ints and classlabels_strings is required")
    if not intercepts:  # onnxruntime counts the classes by them
        raise NodeError("intercepts must not be empty")
    n, rows = len(labels), len(intercepts)
    scores = _linear(b, x, coefficients, intercepts, rows)
    if n == 2 and rows == 1:
        best = b.emit1(G.CastOp, b.emit1(G.GreaterOp, scores, _const_like(b, scores, 0)),
                       to=i64)
        best = b.emit1(G.SqueezeOp, best, b.ints([1]))
        if post_transform not in ("NONE", "LOGISTIC", "SOFTMAX"):
            raise Unsupported(f"post_transform {post_transform} of a two-class model")
        p = b.emit1(G.SigmoidOp, scores) if post_transform == "LOGISTIC" else scores
        pair = b.emit1(G.ConcatOp, b.emit1(G.SubOp, _const_like(b, p, [[1.0]]), p), p, axis=1)
        return [class_labels(b, labels, best), pair]
    if rows != n:
        raise NodeError(f"{rows} intercepts for {n} class labels")
    best = b.emit1(G.ArgMaxOp, scores, axis=1, keepdims=0)
    return [class_labels(b, labels, best), transformed(b, scores, post_transform)]


@built_from_other_ops
def one_hot_encoder(b: OpBuilder, x: Value, *, cats_int64s: list[int] | None = None,
                    cats_strings: list[str] | None = None, zeros: int = 1) -> Value:
    """[..., categories] floats, 1 where x is that category (input shape kept)."""
    if cats_strings is not None or cats_int64s is None:
        raise Unsupported("string categories")
    if element(x) != i64:  # onnxruntime looks up static_cast<int64_t>(x)
        x = b.emit1(G.CastOp, x, to=i64)
    cats = np.asarray(cats_int64s, np.int64)
    hit = b.emit1(G.EqualOp, b.emit1(G.UnsqueezeOp, x, b.ints([-1])), b.const(cats))
    onehot = b.emit1(G.CastOp, hit, to=f32)
    if zeros:
        return onehot
    # zeros=0: a value of no category fails the run, as in onnxruntime. Gather checks its
    # indices at run time: each row takes entry 1 - (found) of a one-entry table of 1s,
    # out of range where the value is of no category (and a factor of 1 where it is).
    found = b.emit1(G.ReduceMaxOp, b.emit1(G.CastOp, hit, to=i64), b.ints([-1]), keepdims=1)
    unknown = b.emit1(G.SubOp, b.const(np.ones(1, np.int64)), found)
    ones = b.emit1(G.GatherOp, b.const(np.ones(1, np.float32)), unknown, axis=0)
    return b.emit1(G.MulOp, onehot, ones)


@built_from_other_ops
def imputer(b: OpBuilder, x: Value, *, imputed_value_floats: list[float] | None = None,
            imputed_value_int64s: list[int] | None = None,
            replaced_value_float: float = 0.0, replaced_value_int64: int = 0) -> Value:
    """x with each missing value (NaN, or the replaced value) replaced by the imputed one
    of its last-axis position (or one for all)."""
    if G.is_float(element(x)):
        if not imputed_value_floats:
            raise NodeError("a float input needs imputed_value_floats")
        missing = (b.emit1(G.IsNaNOp, x) if np.isnan(replaced_value_float)
                   else b.emit1(G.EqualOp, x, _const_like(b, x, replaced_value_float)))
        fill = _const_like(b, x, imputed_value_floats)
    else:
        if not imputed_value_int64s:
            raise NodeError("an integer input needs imputed_value_int64s")
        missing = b.emit1(G.EqualOp, x, _const_like(b, x, replaced_value_int64))
        fill = _const_like(b, x, imputed_value_int64s)
    return b.emit1(G.WhereOp, missing, fill, x)


@built_from_other_ops
def feature_vectorizer(b: OpBuilder, *xs: Value, inputdimensions: list[int]) -> Value:
    """The inputs' rows side by side as f32, each cut or zero-padded to its dimension."""
    if len(xs) != len(inputdimensions):
        raise NodeError(f"{len(xs)} inputs for {len(inputdimensions)} inputdimensions")
    parts = []
    for x, width in zip(xs, inputdimensions, strict=True):
        x = as_rows(b, to_f32(b, x))
        have = dims(x)[-1]
        if not isinstance(have, int):
            raise Unsupported("an input whose last dim is known only at run time")
        if have > width:
            x = b.emit1(G.SliceOp, x, b.ints([0]), b.ints([width]), b.ints([-1]))
        elif have < width:
            pads = [0] * len(dims(x)) * 2
            pads[2 * len(dims(x)) - 1] = width - have
            x = b.emit1(G.PadOp, x, b.ints(pads))
        parts.append(x)
    return parts[0] if len(parts) == 1 else b.emit1(G.ConcatOp, *parts, axis=-1)


@built_from_other_ops
def zip_map(b: OpBuilder, x: Value, *, classlabels_int64s: list[int] | None = None,
            classlabels_strings: list[str] | None = None) -> list[KeyedRows]:
    """Each row of scores as a map from the class labels: the scores tensor itself, which
    the runtime returns as a list of dicts (so only as a graph output)."""
    keys = classlabels_int64s if classlabels_int64s is not None else classlabels_strings
    if not keys or (classlabels_int64s is not None and classlabels_strings is not None):
        raise NodeError("exactly one of classlabels_int64s and classlabels_strings is "
                        "required")
    shape = dims(x)
    if element(x) != f32 or len(shape) != 2:
        raise NodeError("the input must be an f32 matrix [rows, classes]")
    if isinstance(shape[1], int) and shape[1] != len(keys):
        raise NodeError(f"{shape[1]} columns for {len(keys)} class labels")
    return [KeyedRows(x, tuple(keys))]


def keyed_rows_entry(at: int, keys: Sequence[int] | Sequence[str]) -> Attribute:
    """A ZipMap output's entry of graph.STRUCTURED_ATTR: one f32 tensor and its keys."""
    key_attrs = [StringAttr(k) if isinstance(k, str) else G.int_attr(k) for k in keys]
    return DictionaryAttr({"at": G.int_attr(at), "count": G.int_attr(1), "element": f32,
                           "sequence": G.int_attr(1), "optional": G.int_attr(0),
                           "packed": G.int_attr(0), "keys": ArrayAttr(key_attrs)})


def label_encoder_table(attrs: dict[str, object]) -> tuple[np.ndarray, np.ndarray]:
    """A LabelEncoder's keys, and its values with the default appended (the value of a key
    not found): from the list attributes (keys_strings, values_int64s, ...) or, since
    version 4, tensors. The defaults are the spec's: "_Unused", -1, -0.0."""
    def pick(kind: str) -> np.ndarray:
        found = [(n, v) for n, v in attrs.items() if n.startswith(kind + "_")]
        if len(found) != 1:
            raise NodeError(f"exactly one {kind}_* attribute is required")
        name, v = found[0]
        if name.endswith("_tensor"):
            return np.asarray(v).reshape(-1)
        return np.asarray(v, {"strings": object, "int64s": np.int64,
                              "floats": np.float32}[name.split("_", 1)[1]])

    keys, values = pick("keys"), pick("values")
    if len(keys) != len(values):
        raise NodeError(f"{len(keys)} keys for {len(values)} values")
    if values.dtype.kind in "OUS":
        default: object = attrs.get("default_string", "_Unused")
        values = values.astype(object)
    elif values.dtype.kind in "iu":
        default = attrs.get("default_int64", -1)
    else:
        default = attrs.get("default_float", -0.0)
    if "default_tensor" in attrs:
        default = np.asarray(attrs["default_tensor"]).reshape(-1)[0]
    return keys, np.concatenate([values, np.asarray([default], values.dtype)])


@built_from_other_ops
def label_encoder(
    b: OpBuilder, x: Value, *, keys_strings: list[str] | None = None,
    keys_int64s: list[int] | None = None, keys_floats: list[float] | None = None,
    keys_tensor: np.ndarray | None = None, values_strings: list[str] | None = None,
    values_int64s: list[int] | None = None, values_floats: list[float] | None = None,
    values_tensor: np.ndarray | None = None, default_string: str | None = None,
    default_int64: int | None = None, default_float: float | None = None,
    default_tensor: np.ndarray | None = None,
) -> Value:
    """Each element's value by its key (numeric keys; string keys are onnx_strings'):
    the first key equal to it (NaN keys match NaN), else the default."""
    given = {k: v for k, v in locals().items() if k not in ("b", "x") and v is not None}
    keys, values = label_encoder_table(given)
    if keys.dtype.kind in "OUS" or values.dtype == object:
        raise Unsupported("string keys or values of a numeric input")
    keys = keys.astype(G.numpy_dtype(element(x)))
    expanded = b.emit1(G.UnsqueezeOp, x, b.ints([-1]))
    hit = b.emit1(G.EqualOp, expanded, b.const(keys))
    if keys.dtype.kind == "f" and np.isnan(keys).any():
        both = b.emit1(G.AndOp, b.emit1(G.IsNaNOp, expanded), b.const(np.isnan(keys)))
        hit = b.emit1(G.OrOp, hit, both)
    return pick_values(b, hit, values)


def pick_values(b: OpBuilder, hit: Value, values: np.ndarray) -> Value:
    """values[k] for the first k where `hit` [..., keys] holds, else the last (the
    default)."""
    index = _first_hit(b, hit, len(values) - 1)
    return b.emit1(G.GatherOp, b.const(values), index, axis=0)


def _first_hit(b: OpBuilder, hit: Value, missing: int) -> Value:
    ints = b.emit1(G.CastOp, hit, to=i64)
    first = b.emit1(G.ArgMaxOp, ints, axis=-1, keepdims=0)
    found = b.emit1(G.CastOp, b.emit1(G.ReduceMaxOp, ints, b.ints([-1]), keepdims=0),
                    to=IntegerType(1))
    return b.emit1(G.WhereOp, found, first, b.const(np.asarray(missing, np.int64)))


ML_OPS: dict[str, dict[int, OpFn]] = {
    "ArrayFeatureExtractor": {1: array_feature_extractor},
    "Binarizer": {1: binarizer},
    "FeatureVectorizer": {1: feature_vectorizer},
    "Imputer": {1: imputer},
    "LabelEncoder": {2: label_encoder},
    "LinearClassifier": {1: linear_classifier},
    "LinearRegressor": {1: linear_regressor},
    "Normalizer": {1: normalizer},
    "OneHotEncoder": {1: one_hot_encoder},
    "Scaler": {1: scaler},
    "ZipMap": {1: zip_map},
    **ml_trees.OPS,
    **ml_svm.OPS,
}

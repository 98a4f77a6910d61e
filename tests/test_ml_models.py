"""ONNX's ai.onnx.ml domain: scikit-learn models converted by skl2onnx, and hand-built
tree ensembles over every branch mode, missing values and aggregate, against
onnxruntime's outputs; forms infer refuses name the op and why."""

from __future__ import annotations

import re
import warnings

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import skl2onnx
from onnx import TensorProto
from onnx import helper as h
from sklearn.compose import ColumnTransformer
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, make_regression
from sklearn.ensemble import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import (
    Binarizer,
    MinMaxScaler,
    Normalizer,
    OneHotEncoder,
    StandardScaler,
)
from sklearn.svm import SVC, SVR

import infer
from infer.errors import InferError, UnsupportedError

ML = h.make_opsetid("ai.onnx.ml", 3)


def _ort(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[object]:
    s = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run(None, feeds)


def _same(model: onnx.ModelProto, feeds: dict[str, np.ndarray], rtol: float = 1e-5,
          atol: float = 1e-5) -> infer.CompiledModel:
    """infer's outputs equal onnxruntime's: labels exactly, scores (and ZipMap's dicts)
    within the tolerance. The compiled model."""
    expected = _ort(model, feeds)
    compiled = infer.compile(model)
    got = compiled.run(feeds)
    assert list(got) == [o.name for o in model.graph.output]
    for name, want in zip(got, expected, strict=True):
        have = got[name]
        if isinstance(want, list):  # ZipMap: one {label: score} per row
            assert [list(d) for d in have] == [list(d) for d in want], name
            have = np.array([list(d.values()) for d in have])
            want = np.array([list(d.values()) for d in want])
        if want.dtype.kind in "iu":
            np.testing.assert_array_equal(have, want, err_msg=name)
        else:
            np.testing.assert_allclose(have, want, rtol=rtol, atol=atol, err_msg=name)
    return compiled


def _converted(model, x: np.ndarray, zipmap: bool = False) -> onnx.ModelProto:
    options = None if zipmap or not hasattr(model, "predict_proba") else {"zipmap": False}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return skl2onnx.to_onnx(model, x[:1], options=options,
                                target_opset={"": 17, "ai.onnx.ml": 3})


def _data(name: str) -> tuple[np.ndarray, np.ndarray]:
    loader = {"iris": load_iris, "cancer": load_breast_cancer, "digits": load_digits}[name]
    x, y = loader(return_X_y=True)
    return x.astype(np.float32), y


def _regression(targets: int = 1) -> tuple[np.ndarray, np.ndarray]:
    x, y = make_regression(120, 8, n_targets=targets, random_state=0)
    return x.astype(np.float32), y


CLASSIFIERS = {
    # trees: multiclass sums with softmax, two-class margins (mixed weights, LOGISTIC)
    # and probabilities (all weights positive), votes averaged over a forest
    "gradient_boosting_3": ("iris", lambda: GradientBoostingClassifier(n_estimators=10)),
    "gradient_boosting_2": ("cancer", lambda: GradientBoostingClassifier(n_estimators=10)),
    "random_forest_2": ("cancer", lambda: RandomForestClassifier(8, max_depth=6,
                                                                 random_state=0)),
    "random_forest_digits": ("digits", lambda: RandomForestClassifier(10, max_depth=8,
                                                                      random_state=0)),
    # linear: one row of coefficients for two classes, several for more
    "logistic_2": ("cancer", lambda: make_pipeline(StandardScaler(),
                                                   LogisticRegression(max_iter=300))),
    "logistic_digits": ("digits", lambda: make_pipeline(MinMaxScaler(),
                                                        LogisticRegression(max_iter=50))),
    "normalized": ("iris", lambda: make_pipeline(Normalizer(), StandardScaler(), Binarizer(),
                                                 LogisticRegression())),
    # support vector machines: a vote per pair of classes, each kernel
    "svm_rbf_3": ("iris", SVC),
    "svm_poly": ("iris", lambda: SVC(kernel="poly", degree=3)),
    "svm_sigmoid": ("iris", lambda: SVC(kernel="sigmoid")),
    "svm_rbf_2": ("cancer", lambda: make_pipeline(StandardScaler(), SVC())),
}


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_classifier_matches_onnxruntime(name: str) -> None:
    data, make = CLASSIFIERS[name]
    x, y = _data(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a few solver iterations are enough to compare
        fitted = make().fit(x, y)
    model = _converted(fitted, x)
    # a cubic kernel's scores carry three times the kernel's rounding
    _same(model, {model.graph.input[0].name: x[::3]}, rtol=1e-4 if "svm" in name else 1e-5)


def test_svm_on_unscaled_features() -> None:
    """Unscaled features (areas in the thousands): the decisions sum large kernels that
    cancel, which onnxruntime sums in double, as infer does; in float the labels of a
    quarter of the rows flip. The kernels themselves are float sums of terms near 1e6,
    whose rounding (in either runtime's order) moves the decisions by ~0.03."""
    x, y = _data("cancer")
    x = x[:, :5]
    _same(_converted(SVC(kernel="linear").fit(x, y), x), {"X": x}, rtol=0, atol=0.05)


def test_zipmap_returns_a_dict_per_row() -> None:
    """skl2onnx's default output: ZipMap's list of {label: probability}, as onnxruntime."""
    x, y = _data("iris")
    model = _converted(RandomForestClassifier(4, max_depth=3, random_state=0).fit(x, y), x,
                       zipmap=True)
    assert any(n.op_type == "ZipMap" for n in model.graph.node)
    _same(model, {"X": x[::10]})
    session = infer.InferenceSession(model.SerializeToString())
    assert session.get_outputs()[1].type == "seq(map(int64,tensor(float)))"


def test_one_hot_encoded_columns() -> None:
    """Scaling and one-hot encoding side by side (ColumnTransformer: ArrayFeatureExtractor,
    Scaler, OneHotEncoder, Concat); a category never seen fails the run, as in
    onnxruntime."""
    x, y = _data("iris")
    x = np.column_stack([x, (x[:, 0] > 5.8) + 2 * (x[:, 1] > 3)]).astype(np.float32)
    columns = ColumnTransformer([("num", StandardScaler(), [0, 1, 2, 3]),
                                 ("cat", OneHotEncoder(), [4])])
    model = _converted(make_pipeline(columns, LogisticRegression(max_iter=500)).fit(x, y), x)
    compiled = _same(model, {"X": x[::5]})
    unseen = x[:2].copy()
    unseen[1, 4] = 7
    with pytest.raises(InferError, match="out of range"):
        compiled.run({"X": unseen})


@pytest.mark.parametrize("make", [
    lambda: RandomForestRegressor(6, max_depth=5, random_state=0),
    lambda: GradientBoostingRegressor(n_estimators=15),
    LinearRegression,
    SVR,
], ids=["random_forest", "gradient_boosting", "linear", "svm"])
def test_regressor_matches_onnxruntime(make) -> None:
    x, y = _regression()
    model = _converted(make().fit(x, y), x)
    _same(model, {"X": x}, rtol=1e-5, atol=1e-4)


def _tree_model(modes: list[str], aggregate: str = "SUM", missing: list[int] | None = None,
                x_type: int = TensorProto.FLOAT, targets: int = 2) -> onnx.ModelProto:
    """Two trees over 3 features: tree 0 a root of `modes[0]` with a branch of
    `modes[1]` on its true side; tree 1 one node of `modes[2]`. Leaves weigh both
    targets (some only one, for MIN/MAX)."""
    attrs = dict(
        nodes_treeids=[0, 0, 0, 0, 0, 1, 1, 1],
        nodes_nodeids=[0, 1, 2, 3, 4, 0, 1, 2],
        nodes_featureids=[0, 1, 0, 0, 0, 2, 0, 0],
        nodes_values=[0.5, -1.0, 0, 0, 0, 2.0, 0, 0],
        nodes_modes=[modes[0], modes[1], "LEAF", "LEAF", "LEAF", modes[2], "LEAF", "LEAF"],
        nodes_truenodeids=[1, 3, 0, 0, 0, 1, 0, 0],
        nodes_falsenodeids=[2, 4, 0, 0, 0, 2, 0, 0],
        target_treeids=[0, 0, 0, 0, 1, 1, 1],
        target_nodeids=[2, 3, 3, 4, 1, 2, 2],
        target_ids=[0, 0, 1, 1, 0, 0, 1],
        target_weights=[1.0, 2.0, -3.0, 4.0, 10.0, -20.0, 0.25],
        n_targets=targets, aggregate_function=aggregate,
    )
    if missing is not None:
        attrs["nodes_missing_value_tracks_true"] = missing + [0] * (8 - len(missing))
    node = h.make_node("TreeEnsembleRegressor", ["x"], ["y"], domain="ai.onnx.ml", **attrs)
    graph = h.make_graph([node], "trees", [h.make_tensor_value_info("x", x_type, [None, 3])],
                         [h.make_tensor_value_info("y", TensorProto.FLOAT, [None, targets])])
    return h.make_model(graph, opset_imports=[ML, h.make_opsetid("", 17)])


# rows at, below and above every threshold, and NaN in each feature
_ROWS = np.array([[0.5, -1.0, 2.0], [0.4, -1.5, 1.0], [0.6, 0.0, 3.0], [np.nan, -1.0, 2.0],
                  [0.0, np.nan, 2.0], [1.0, 0.0, np.nan], [-7.0, -1.0, 2.5]], np.float32)
_MODES = ["BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"]


@pytest.mark.parametrize("mode", _MODES)
def test_branch_modes_at_and_around_thresholds(mode: str) -> None:
    modes = [mode, _MODES[(_MODES.index(mode) + 1) % 6], _MODES[(_MODES.index(mode) + 3) % 6]]
    _same(_tree_model(modes), {"x": _ROWS})
    _same(_tree_model(modes, missing=[1, 0, 0, 0, 0, 1]), {"x": _ROWS})


@pytest.mark.parametrize("aggregate", ["SUM", "AVERAGE", "MIN", "MAX"])
def test_aggregates(aggregate: str) -> None:
    """MIN and MAX over the trees that weigh a target (0 where none does: target 2)."""
    _same(_tree_model(["BRANCH_LEQ", "BRANCH_GT", "BRANCH_LT"], aggregate, targets=3),
          {"x": _ROWS})


def test_double_input_compares_in_double() -> None:
    """A double feature just above a float threshold goes the way onnxruntime's double
    comparison sends it."""
    model = _tree_model(["BRANCH_LEQ", "BRANCH_LEQ", "BRANCH_LEQ"], x_type=TensorProto.DOUBLE)
    x = np.array([[0.5 + 1e-12, -1.0, 2.0], [0.5, -1.0 - 1e-12, 2.0 + 1e-13]], np.float64)
    _same(model, {"x": x})


def test_svm_probabilities_are_refused() -> None:
    """onnxruntime's pairwise coupling of an SVM's probabilities is not built: refused at
    compile time, naming the node."""
    x, y = _data("iris")
    model = _converted(SVC(probability=True, random_state=0).fit(x, y), x)
    with pytest.raises(UnsupportedError, match="SVMClassifier.*probability outputs"):
        infer.compile(model)


def _encoder(x_type: int, y_type: int, shape: list[int], **attrs: object) -> onnx.ModelProto:
    node = h.make_node("LabelEncoder", ["x"], ["y"], domain="ai.onnx.ml", **attrs)
    graph = h.make_graph([node], "encode", [h.make_tensor_value_info("x", x_type, shape)],
                         [h.make_tensor_value_info("y", y_type, shape)])
    return h.make_model(graph, opset_imports=[h.make_opsetid("ai.onnx.ml", 4),
                                              h.make_opsetid("", 17)])


def test_label_encoder_numbers_and_strings() -> None:
    """Keys found (the first of repeated ones), keys missing (the default), NaN keys
    matching NaN, string keys to numbers and to strings, as onnxruntime maps them."""
    T = TensorProto
    ints = _encoder(T.INT64, T.FLOAT, [2, 3], keys_int64s=[3, 1, 3, -5],
                    values_floats=[0.5, 1.5, 9.0, -2.0], default_float=7.0)
    _same(ints, {"x": np.array([[3, 1, 0], [-5, 3, 2]], np.int64)})
    floats = _encoder(T.FLOAT, T.INT64, [4], keys_floats=[0.25, float("nan"), -1.0],
                      values_int64s=[10, 20, 30])
    _same(floats, {"x": np.array([-1.0, np.nan, 0.25, 5.0], np.float32)})
    words = _encoder(T.STRING, T.STRING, [3], keys_strings=["cat", "dog", ""],
                     values_strings=["Katze", "Hund", "leer"], default_string="?")
    feeds = {"x": np.array(["dog", "", "bird"], object)}
    got = infer.compile(words).run(feeds)["y"]
    assert got.tolist() == _ort(words, feeds)[0].tolist() == ["Hund", "leer", "?"]


@pytest.mark.parametrize("post", ["NONE", "LOGISTIC", "SOFTMAX"])
def test_two_class_linear_scores_as_onnxruntime(post: str) -> None:
    """One row of coefficients for two classes: onnxruntime's scores are [1 - p, p] (p the
    score, or its sigmoid under LOGISTIC; SOFTMAX is not applied), not [-s, s]."""
    node = h.make_node("LinearClassifier", ["x"], ["y", "z"], domain="ai.onnx.ml",
                       coefficients=[0.5, -1.0, 2.0], intercepts=[0.25],
                       classlabels_ints=[3, 7], post_transform=post)
    graph = h.make_graph([node], "linear", [h.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                     [None, 3])],
                         [h.make_tensor_value_info("y", TensorProto.INT64, [None]),
                          h.make_tensor_value_info("z", TensorProto.FLOAT, [None, 2])])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("ai.onnx.ml", 1),
                                               h.make_opsetid("", 17)])
    _same(model, {"x": np.array([[1, 0, 0], [0, 1, 0.1], [0, 0, 1]], np.float32)})


@pytest.mark.parametrize("post", ["NONE", "LOGISTIC", "SOFTMAX"])
@pytest.mark.parametrize("weights", [[0.2, 0.9], [-0.7, 0.4]], ids=["positive", "mixed"])
def test_two_class_tree_scores_as_onnxruntime(weights: list[float], post: str) -> None:
    """Weights of class 0 only for two labels: onnxruntime's binary form (its label cut
    and score pair by the weights' signs and the transform)."""
    node = h.make_node(
        "TreeEnsembleClassifier", ["x"], ["y", "z"], domain="ai.onnx.ml",
        nodes_treeids=[0, 0, 0], nodes_nodeids=[0, 1, 2], nodes_featureids=[0, 0, 0],
        nodes_values=[0.5, 0, 0], nodes_modes=["BRANCH_LEQ", "LEAF", "LEAF"],
        nodes_truenodeids=[1, 0, 0], nodes_falsenodeids=[2, 0, 0], class_treeids=[0, 0],
        class_nodeids=[1, 2], class_ids=[0, 0], class_weights=weights, base_values=[0.1],
        classlabels_int64s=[4, 9], post_transform=post)
    graph = h.make_graph([node], "tree", [h.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                   [None, 1])],
                         [h.make_tensor_value_info("y", TensorProto.INT64, [None]),
                          h.make_tensor_value_info("z", TensorProto.FLOAT, [None, 2])])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("ai.onnx.ml", 1),
                                               h.make_opsetid("", 17)])
    _same(model, {"x": np.array([[0.0], [1.0]], np.float32)})


def test_refusals_name_the_op_and_why() -> None:
    model = _tree_model(["BRANCH_LEQ", "BRANCH_LEQ", "BRANCH_LEQ"])
    model.graph.node[0].attribute.append(h.make_attribute("post_transform", "PROBIT"))
    with pytest.raises(UnsupportedError, match="TreeEnsembleRegressor.*post_transform PROBIT"):
        infer.compile(model)
    model = _tree_model(["BRANCH_LEQ", "BRANCH_LEQ", "BRANCH_LEQ"])
    _attribute(model, "nodes_featureids").ints[1] = 7  # node 1 of tree 0 reads feature 7
    with pytest.raises(InferError, match="column count"):
        infer.compile(model)
    model = _tree_model(["BRANCH_LEQ", "BRANCH_LEQ", "BRANCH_LEQ"])
    _attribute(model, "nodes_truenodeids").ints[0] = 9  # a child that does not exist
    with pytest.raises(InferError, match="tree 0 has no node 9"):
        infer.compile(model)
    model = _tree_model(["BRANCH_LEQ", "BRANCH_LEQ", "BRANCH_LEQ"])
    _attribute(model, "nodes_truenodeids").ints[1] = 1  # a loop, and node 3 a second root
    with pytest.raises(InferError, match="tree 0 has 2 roots"):
        infer.compile(model)


def _attribute(model: onnx.ModelProto, name: str) -> onnx.AttributeProto:
    return next(a for a in model.graph.node[0].attribute if a.name == name)


def test_digits_example_agrees_with_onnxruntime(capsys: pytest.CaptureFixture[str]) -> None:
    """The demo's trained model: examples/digits.py exits 0 only when every held-out
    label and probability matches onnxruntime's."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "digits.py"
    spec = importlib.util.spec_from_file_location("digits_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--trees", "5", "--reps", "1"]) == 0
    out = capsys.readouterr().out
    accuracy = float(re.search(r"accuracy  infer\s+([0-9.]+)", out).group(1))
    assert accuracy > 0.8, out  # five trees still read most digits

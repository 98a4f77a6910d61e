"""Classical models (ONNX's ai.onnx.ml domain, as skl2onnx converts scikit-learn models):
infer against onnxruntime at one thread.

    python benchmarks/ml_models.py [--reps 41] [--write]

Models trained here on scikit-learn's own data (no download): on the 8x8 digits (64
features, 10 classes) a random forest, gradient boosting, a scaled logistic regression and
an RBF SVM; on a synthetic regression (20 features) a random forest, gradient boosting and
a linear model. Each at one row and at a batch of 512 rows (scores, not ZipMap's dicts).
Each row is light_models.py's `bench_model`: the median over `--reps` interleaved calls
of each engine, infer's compile time and the largest difference of the outputs.
`--write` puts the table in docs/ml_models.md.
"""

from __future__ import annotations

import argparse
import os
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import skl2onnx
from light_models import bench_model, table
from sklearn.base import is_classifier
from sklearn.datasets import load_digits, make_regression
from sklearn.ensemble import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

DOC = Path(__file__).resolve().parent.parent / "docs" / "ml_models.md"
BATCH = 512

CLASSIFIERS: dict[str, Callable[[], object]] = {
    "random forest (100 trees)": lambda: RandomForestClassifier(100, random_state=0),
    "gradient boosting (50 x 10 trees)": lambda: GradientBoostingClassifier(n_estimators=50),
    "logistic regression, scaled": lambda: make_pipeline(StandardScaler(),
                                                         LogisticRegression(max_iter=500)),
    "SVM, RBF kernel": SVC,
}
REGRESSORS: dict[str, Callable[[], object]] = {
    "random forest (100 trees)": lambda: RandomForestRegressor(100, max_depth=12,
                                                               random_state=0),
    "gradient boosting (200 trees)": lambda: GradientBoostingRegressor(n_estimators=200),
    "linear": LinearRegression,
}


def converted(model: object, x: np.ndarray) -> onnx.ModelProto:
    options = {"zipmap": False} if is_classifier(model) else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return skl2onnx.to_onnx(model, x[:1], options=options)


def cases() -> list[tuple[str, onnx.ModelProto, np.ndarray]]:
    out = []
    digits, labels = load_digits(return_X_y=True)
    digits = digits.astype(np.float32)
    for name, make in CLASSIFIERS.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out.append((f"digits: {name}", converted(make().fit(digits, labels), digits),
                        digits))
    x, y = make_regression(2000, 20, noise=5.0, random_state=0)
    x = x.astype(np.float32)
    for name, make in REGRESSORS.items():
        out.append((f"regression: {name}", converted(make().fit(x, y), x), x))
    return out


def main() -> None:
    os.environ.setdefault("INFER_CACHE_DIR", "")  # every model compiled, none stored
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=41)
    parser.add_argument("--write", action="store_true", help="write docs/ml_models.md")
    args = parser.parse_args()
    rows = []
    for label, model, x in cases():
        name = model.graph.input[0].name
        for rows_in, feed in (("1 row", x[:1]), (f"{BATCH} rows", x[:BATCH])):
            rows.append(bench_model(f"{label}, {rows_in}", model, {name: feed}, args.reps))
            print(f"{rows[-1]['model']}: {rows[-1].get('ratio', rows[-1].get('error'))}",
                  flush=True)
    text = "\n".join(table(rows))
    print(text)
    if args.write:
        DOC.write_text(
            "# Classical models (ai.onnx.ml)\n\n"
            "`python benchmarks/ml_models.py --write`: scikit-learn models converted by "
            "skl2onnx, infer against onnxruntime at one thread, median ms over interleaved "
            "calls on this machine (see the script's doc for the models). Tree ensembles "
            "are one native kernel over node arrays packed at compile time "
            "(lowering/graph_ops/tree_ensemble.py); the SVM, linear and preprocessing "
            "ops are graph ops (frontend/onnx_ops/ml.py, ml_svm.py).\n\n" + text + "\n")


if __name__ == "__main__":
    main()

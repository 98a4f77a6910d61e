"""A trained model doing its task: a random forest learns handwritten digits (the 8x8
images scikit-learn ships, no download), skl2onnx converts it to ONNX (tree ensemble and
ZipMap of ONNX's ai.onnx.ml domain), infer compiles it, and both infer and onnxruntime
classify the held-out images: accuracy, agreement and the time of one batch.

    python examples/digits.py [--trees 100] [--reps 20]

Exit status 1 when infer's predictions differ from onnxruntime's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from collections.abc import Callable

import numpy as np
import onnxruntime as ort
import skl2onnx
from sklearn.datasets import load_digits
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

import infer


def _median_ms(run: Callable[[], object], reps: int) -> float:
    run()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trees", type=int, default=100, help="trees in the forest")
    p.add_argument("--reps", type=int, default=20, help="timed batches per runtime")
    args = p.parse_args(argv)

    images, digits = load_digits(return_X_y=True)
    x_train, x_test, y_train, y_test = train_test_split(
        images.astype(np.float32), digits, test_size=0.3, random_state=0, stratify=digits)
    start = time.perf_counter()
    forest = RandomForestClassifier(args.trees, random_state=0).fit(x_train, y_train)
    trained = time.perf_counter() - start
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # skl2onnx's notes on opset choices
        model = skl2onnx.to_onnx(forest, x_train[:1])
    start = time.perf_counter()
    compiled = infer.compile(model)
    compile_s = time.perf_counter() - start
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name

    ours = compiled.run({name: x_test})
    theirs = session.run(None, {name: x_test})
    labels, probabilities = ours["output_label"], ours["output_probability"]
    agree = int(np.sum(labels == theirs[0]))
    worst = max(abs(p[k] - q[k]) for p, q in zip(probabilities, theirs[1], strict=True)
                for k in q)
    ms_infer = _median_ms(lambda: compiled.run({name: x_test}), args.reps)
    ms_ort = _median_ms(lambda: session.run(None, {name: x_test}), args.reps)

    nodes = sum(tree.tree_.node_count for tree in forest.estimators_)
    print(f"digits: a random forest of {args.trees} trees ({nodes} nodes) trained on "
          f"{len(x_train)} images in {trained:.1f} s; infer compiled it in {compile_s:.1f} s")
    print(f"  held-out images      {len(x_test)}")
    print(f"  accuracy  infer      {np.mean(labels == y_test):.4f}")
    print(f"  accuracy  onnxruntime {np.mean(theirs[0] == y_test):.4f}")
    print(f"  same label           {agree}/{len(x_test)}; largest probability difference "
          f"{worst:.2e}")
    print(f"  one batch  infer {ms_infer:.2f} ms, onnxruntime {ms_ort:.2f} ms "
          f"(median of {args.reps})")
    print(f"  first test image: infer says {labels[0]} "
          f"(p={probabilities[0][int(labels[0])]:.2f}), the truth is {y_test[0]}")
    return 0 if agree == len(x_test) and worst < 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())

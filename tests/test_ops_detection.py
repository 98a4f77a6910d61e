"""NonMaxSuppression end to end against onnxruntime: many random boxes (so the merge
sort runs several passes), both box formats, optional inputs absent or given, equal
scores (kept in index order), and several sizes from one compile."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto as TP
from onnx import helper

from .helpers import check_against_onnxruntime, make_model

R = np.random.default_rng(0)


def _model(inputs: int = 5, center_point_box: int = 0):
    names = ["boxes", "scores", "max_out", "iou", "score_min"][:inputs]
    node = helper.make_node("NonMaxSuppression", names, ["selected"],
                            center_point_box=center_point_box)
    types = [("boxes", TP.FLOAT, ["b", "n", 4]), ("scores", TP.FLOAT, ["b", "c", "n"]),
             ("max_out", TP.INT64, [1]), ("iou", TP.FLOAT, [1]), ("score_min", TP.FLOAT, [1])]
    return make_model([node], types[:inputs], [("selected", TP.INT64, ["k", 3])], opset=11)


def _feeds(batches: int, classes: int, n: int, max_out: int, iou: float, score_min: float,
           centered: bool = False, inputs: int = 5) -> dict[str, np.ndarray]:
    corner = R.uniform(0, 10, (batches, n, 2)).astype(np.float32)
    size = R.uniform(0.5, 4, (batches, n, 2)).astype(np.float32)
    if centered:
        boxes = np.concatenate([corner, size], axis=2)
    else:  # opposite corners in either order
        boxes = np.concatenate([corner, corner + size], axis=2)
        flip = R.random((batches, n)) < 0.3
        boxes[flip] = boxes[flip][:, [2, 3, 0, 1]]
    scores = R.random((batches, classes, n)).astype(np.float32)
    scores[:, :, ::7] = 0.5  # equal scores: kept in index order
    feeds = {"boxes": boxes, "scores": scores, "max_out": np.array([max_out], np.int64),
             "iou": np.array([iou], np.float32), "score_min": np.array([score_min], np.float32)}
    return dict(list(feeds.items())[:inputs])


@pytest.mark.parametrize("center_point_box", [0, 1])
def test_against_onnxruntime(center_point_box: int) -> None:
    centered = bool(center_point_box)
    feeds = [_feeds(2, 3, 200, 20, 0.3, 0.2, centered),
             _feeds(1, 1, 37, 1000, 0.5, 0.0, centered),
             _feeds(3, 2, 5, 2, 0.0, 0.9, centered),
             _feeds(1, 2, 0, 5, 0.5, 0.1, centered)]
    check_against_onnxruntime(_model(5, center_point_box), feeds)


@pytest.mark.parametrize("inputs", [2, 3, 4])
def test_optional_inputs_absent(inputs: int) -> None:
    """Absent, max_output is 0 (nothing kept), the IoU threshold 0 and no score filter."""
    check_against_onnxruntime(_model(inputs), [_feeds(2, 2, 60, 8, 0.4, 0.0, inputs=inputs),
                                               _feeds(1, 3, 9, -1, 0.4, 0.0, inputs=inputs)])

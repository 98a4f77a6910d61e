"""Batch inference on a local Ray cluster (`infer.ray_batch`): every row of a dataset through
a compiled artifact loaded once per worker, the same outputs as calling the model."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer.errors import ArtifactError

from .helpers import make_model

ray = pytest.importorskip("ray")  # an optional extra; the test setup installs it
from infer import ray_batch  # noqa: E402 - needs ray

R = np.random.default_rng(3)
W = R.standard_normal((16, 10)).astype(np.float32)
X = R.standard_normal((300, 16)).astype(np.float32)


def _model(batch: int | str) -> onnx.ModelProto:
    return make_model([helper.make_node("MatMul", ["x", "w"], ["y"]),
                       helper.make_node("Softmax", ["y"], ["p"], axis=-1)],
                      [("x", TP.FLOAT, [batch, 16])], [("p", TP.FLOAT, [batch, 10])],
                      [numpy_helper.from_array(W, "w")])


@pytest.mark.slow
def test_a_dataset_through_two_workers(tmp_path: Path) -> None:
    """One local cluster (its start is most of the time) for both kinds of batch dims."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        ray.data.DataContext.get_current().enable_progress_bars = False
        for batch in ("N", 1):
            _through_two_workers(tmp_path, batch)
        _one_block_through_both_workers(tmp_path)
    finally:
        ray.shutdown()


def _one_block_through_both_workers(tmp_path: Path) -> None:
    """A dataset of one array is one block, which one actor would take whole: split into
    blocks of a batch, a task each, shared by the actors."""
    path = tmp_path / "one_block.infer"
    compiled = infer.compile(_model("N"))
    compiled.save(path)
    ds = ray.data.from_numpy(X)  # one block, one column "data"
    out = ray_batch.predict(ds, path, {"x": "data"}, concurrency=2, batch_size=25).materialize()
    got = np.concatenate([b["p"] for b in out.iter_batches(batch_size=None,
                                                           batch_format="numpy")])
    np.testing.assert_allclose(np.sort(got, axis=0),
                               np.sort(compiled.run({"x": X})["p"], axis=0), rtol=1e-6)
    tasks = re.search(r"MapBatches\(ArtifactPredictor\): (\d+) tasks executed", out.stats())
    assert tasks is not None and int(tasks.group(1)) == len(X) // 25, out.stats()


def _through_two_workers(tmp_path: Path, batch: int | str) -> None:
    """Any batch size for a dynamic batch dim; row by row for a model of batch 1."""
    path = tmp_path / f"m{batch}.infer"
    compiled = infer.compile(_model(batch))
    compiled.save(path, sign_key=b"a shared secret of 32 bytes!!!!!")
    ds = ray.data.from_items([{"id": i, "x": X[i]} for i in range(len(X))],
                             override_num_blocks=6)
    out = ray_batch.predict(ds, path, {"x": "x"}, concurrency=2, batch_size=32, keep=("id",),
                            verify_key=b"a shared secret of 32 bytes!!!!!")
    rows = sorted(out.take_all(), key=lambda r: r["id"])
    assert [r["id"] for r in rows] == list(range(len(X)))
    got = np.stack([r["p"] for r in rows])
    expected = np.concatenate([compiled.run({"x": X[i:i + 1]})["p"] for i in range(len(X))])
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)


def test_a_damaged_or_unsigned_artifact_is_refused_before_any_worker(tmp_path: Path) -> None:
    path = tmp_path / "m.infer"
    infer.compile(_model("N")).save(path)
    ds = None  # never reached: the artifact is checked first
    with pytest.raises(ArtifactError, match="not signed, and a verify key was given"):
        ray_batch.predict(ds, path, {"x": "data"}, verify_key=b"a shared secret of 32 bytes!!")
    data = path.read_bytes()
    with pytest.raises(ArtifactError, match="corrupt section 'object'"):
        ray_batch.predict(ds, data[:-1] + bytes([data[-1] ^ 1]), {"x": "data"})


def test_a_missing_column_is_named() -> None:
    """The predictor itself, as a worker runs it (no cluster needed)."""
    compiled = infer.compile(_model("N"))
    predictor = ray_batch.ArtifactPredictor.__new__(ray_batch.ArtifactPredictor)
    predictor.model, predictor.columns, predictor.keep = compiled, {"x": "pixels"}, ()
    with pytest.raises(KeyError, match="the batch has no column 'pixels' \\(its columns: data"):
        predictor({"data": X[:4]})
    predictor.columns = {"x": "data"}
    np.testing.assert_array_equal(predictor({"data": X[:4]})["p"],
                                  compiled.run({"x": X[:4]})["p"])

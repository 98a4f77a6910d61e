"""Batch inference over a dataset on Ray: a compiled artifact, loaded once per worker, run on
each batch of a Ray Data dataset (`pip install infer-compiler[ray]`).

    ds = ray.data.read_numpy("images/")                    # a column "data"
    out = infer.ray_batch.predict(ds, "model.infer", {"input": "data"}, concurrency=2)

What a worker gets is the artifact's bytes (native code and weights, put in Ray's object
store once, so each machine fetches them once, not once per task), never the compiler:
loading maps the code in milliseconds, and a worker holds one copy of the weights (as
aligned buffers the code reads) plus its batches. So the cluster scales past one machine
as far as Ray's scheduler does; every machine must have the CPU features the artifact was
compiled for (`infer-compile --target x86-64-v3` makes one for a fleet of mixed CPUs), and
infer's runtime installed (it is what maps the code and checks inputs).

A model input with a dynamic first dim takes a batch of any size at once; one whose first
dim is 1 runs a batch row by row.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from infer.errors import ArtifactError
from infer.runtime.artifact import read_sections
from infer.runtime.compiled_model import artifact_from_bytes


class ArtifactPredictor:
    """A callable class for `Dataset.map_batches`: each Ray actor loads the artifact once,
    then maps batches (dicts of numpy columns) to batches of the model's outputs.

    `artifact`: the artifact's bytes, an ObjectRef to them, or a path each worker can read.
    `columns`: {model input: dataset column} (by default each input reads the column of
    its name). `keep`: columns passed through to the output (ids, file names). `threads`:
    of the model's parallel loops (None: one per physical core).
    """

    def __init__(self, artifact: Any, columns: Mapping[str, str] | None = None,
                 keep: tuple[str, ...] = (), verify_key: object = None,
                 threads: int | None = None) -> None:
        import ray

        if isinstance(artifact, list):  # an ObjectRef in a list, so Ray passes it as is
            (artifact,) = artifact
        if isinstance(artifact, ray.ObjectRef):
            artifact = ray.get(artifact)
        if isinstance(artifact, str | os.PathLike):
            with open(artifact, "rb") as f:
                artifact = f.read()
        self.model = artifact_from_bytes(bytes(artifact), verify_key=verify_key,
                                         threads=threads)
        self.columns = dict(columns or {n: n for n in self.model.input_names})
        self.keep = keep

    def _run_rows(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """A batch through a model whose inputs take one row: row by row, stacked."""
        n = len(next(iter(feeds.values())))
        rows = [self.model.run({k: v[i:i + 1] for k, v in feeds.items()}) for i in range(n)]
        return {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        missing = [c for c in self.columns.values() if c not in batch]
        if missing:
            raise KeyError(f"the batch has no column '{missing[0]}' (its columns: "
                           f"{', '.join(batch)})")
        feeds = {name: np.ascontiguousarray(batch[col]) for name, col in self.columns.items()}
        one_row = any(s.shape and s.shape[0] == 1 for s in self.model.inputs
                      if s.name in feeds)
        n = len(next(iter(feeds.values())))
        outputs = self._run_rows(feeds) if one_row and n != 1 else self.model.run(feeds)
        out = {k: v for k, v in outputs.items() if isinstance(v, np.ndarray)}
        out.update({k: batch[k] for k in self.keep})
        return out


def predict(dataset: Any, artifact: str | os.PathLike | bytes,
            columns: Mapping[str, str] | None = None, *, concurrency: int = 1,
            batch_size: int = 32, keep: tuple[str, ...] = (), verify_key: object = None,
            num_cpus: float = 1) -> Any:
    """`dataset` mapped through the artifact by `concurrency` actors of `num_cpus` CPUs
    each, in batches of `batch_size` rows (lazy, as Ray Data is: consume the result); each
    actor runs the model on as many threads as it has CPUs (at least one)."""
    import ray
    from ray.data.dataset import MaterializedDataset

    data = artifact if isinstance(artifact, bytes) else Path(artifact).read_bytes()
    try:  # damage and a wrong signature are told here, not in every worker
        read_sections(data, verify_key)
    except ValueError as e:
        where = "the artifact" if isinstance(artifact, bytes) else f"'{artifact}'"
        raise ArtifactError(f"cannot use {where}: {e}") from None
    ref = ray.put(data)  # once in the object store, not once per actor
    # A dataset made from arrays in memory (from_numpy, from_pandas) is a block per array,
    # and a block goes to one actor: split into blocks of a batch each, so that every
    # actor has work. Done before the actors start, which would leave no CPU for the
    # split's tasks (a lazy dataset's blocks come from its files, as Ray reads them).
    if isinstance(dataset, MaterializedDataset) and \
            dataset.num_blocks() < 2 * concurrency:
        dataset = dataset.repartition(target_num_rows_per_block=batch_size).materialize()
    return dataset.map_batches(
        ArtifactPredictor,
        fn_constructor_args=([ref], columns, keep, verify_key, max(1, int(num_cpus))),
        batch_size=batch_size, batch_format="numpy",
        compute=ray.data.ActorPoolStrategy(size=concurrency), num_cpus=num_cpus)

"""Calibration: the model's float tensors observed over sample inputs.

Data: an .npz file with one array per model input, samples stacked along the first axis,
or a folder of such files (read in name order). An array of the input's rank is cut along
its first axis into batches of the input's batch size (its first dim, 1 when dynamic); an
array of one more dim is one input per row. Names, dtypes and shapes are checked against
the model's inputs before anything runs, and every error names the file and the input.

The values are observed by running the model compiled by infer with the tensors to
calibrate added as outputs (level 1: no fusion hides them).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, shape_inference

from infer.api import compile as compile_model
from infer.errors import InputError
from infer.model_zoo import graph_inputs

Feeds = dict[str, np.ndarray]


def _npz_files(data: str | os.PathLike) -> list[Path]:
    path = Path(data)
    if path.is_dir():
        files = sorted(path.glob("*.npz"))
        if not files:
            raise InputError(f"calibration data '{path}': no .npz file in the folder")
        return files
    if not path.is_file():
        raise InputError(f"calibration data '{path}': no such file or folder")
    return [path]


def _input_types(model: onnx.ModelProto) -> dict[str, tuple[np.dtype, list[int | None]]]:
    out = {}
    for i in graph_inputs(model):
        t = i.type.tensor_type
        dtype = helper.tensor_dtype_to_np_dtype(t.elem_type)
        dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
        out[i.name] = (np.dtype(dtype), dims)
    return out


def _batches(name: str, array: np.ndarray, dims: list[int | None], where: str
             ) -> list[np.ndarray]:
    """`array` cut into the model's inputs of `name` (see the module doc)."""
    if array.ndim == len(dims) + 1:
        rows = list(array)
    elif array.ndim == len(dims):
        size = dims[0] if dims and dims[0] else 1
        if len(array) % size:
            raise InputError(f"{where}: input '{name}' has {len(array)} rows, not a multiple "
                             f"of the model's batch of {size}")
        rows = [array[i:i + size] for i in range(0, len(array), size)]
    else:
        raise InputError(f"{where}: input '{name}' has rank {array.ndim}; the model's input "
                         f"has rank {len(dims)} (or one more, one sample per row)")
    for r in rows:
        wrong = [k for k, (got, want) in enumerate(zip(r.shape, dims, strict=True))
                 if want is not None and got != want]
        if wrong:
            raise InputError(f"{where}: input '{name}' of shape {tuple(r.shape)} per sample; "
                             f"the model's is {tuple(d or '?' for d in dims)}")
    return rows


def load_samples(model: onnx.ModelProto, data: str | os.PathLike) -> list[Feeds]:
    """Every calibration sample of `data` as the model's feeds, checked (module doc)."""
    types = _input_types(model)
    samples: list[Feeds] = []
    for f in _npz_files(data):
        where = f"calibration data '{f}'"
        try:
            arrays = dict(np.load(f, allow_pickle=False))
        except (OSError, ValueError) as e:
            raise InputError(f"{where}: not a readable .npz file ({e})") from None
        unknown = sorted(set(arrays) - set(types))
        missing = sorted(set(types) - set(arrays))
        if unknown or missing:
            raise InputError(f"{where}: " + "; ".join(
                [f"no model input named {', '.join(map(repr, unknown))}"] * bool(unknown)
                + [f"missing input {', '.join(map(repr, missing))}"] * bool(missing))
                + f" (the model's inputs: {', '.join(types)})")
        per_input = {}
        for name, (dtype, dims) in types.items():
            a = arrays[name]
            if a.dtype != dtype:
                raise InputError(f"{where}: input '{name}' is {a.dtype}, the model's is {dtype}")
            per_input[name] = _batches(name, a, dims, where)
        counts = {len(v) for v in per_input.values()}
        if len(counts) != 1:
            raise InputError(f"{where}: the inputs have different numbers of samples")
        samples += [{n: v[i] for n, v in per_input.items()} for i in range(counts.pop())]
    if not samples:
        raise InputError(f"calibration data '{data}' holds no sample")
    return samples


def float_tensors(model: onnx.ModelProto, names: list[str]) -> onnx.ModelProto:
    """The model with the tensors `names` added as outputs, typed by shape inference."""
    inferred = shape_inference.infer_shapes(model)
    known = {v.name: v for v in [*inferred.graph.value_info, *inferred.graph.input]}
    m = onnx.ModelProto()
    m.CopyFrom(model)
    present = {o.name for o in m.graph.output}
    for n in names:
        if n in present:
            continue
        if n not in known:
            raise InputError(f"cannot calibrate tensor '{n}': shape inference gives it no type")
        m.graph.output.append(known[n])
    return m


def observe(model: onnx.ModelProto, names: list[str], samples: list[Feeds],
            passes: int, progress: bool = True) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    """(pass, {tensor: values}) for each sample, `passes` times over the samples."""
    compiled = compile_model(float_tensors(model, names), opt_level=1, cache=False,
                             verbose=False)
    for p in range(passes):
        rows = samples
        if progress:
            from tqdm import tqdm

            rows = tqdm(samples, desc=f"calibrating ({p + 1}/{passes})", unit="sample")
        for feeds in rows:
            out = compiled.run(feeds)
            yield p, {n: np.asarray(out[n]) for n in names}



"""Sequences and optionals at a model's boundary, passed as tensors of one name.

record-signature places them (`structured` for outputs, `structured_inputs` for inputs,
from the importer's graph.STRUCTURED_ATTR and graph.STRUCTURED_INPUTS_ATTR):
- an optional is first a bool, whether it holds a value, then its value's tensors
  (placeholders when it holds nothing);
- a sequence known when compiling (an output only) is its tensors, one per element;
- a packed sequence, whose length and shapes are known only at run time, is four tensors:

      data         the elements' values one after another (row-major), 1-D
      offsets      n + 1 int64s: element k is data[offsets[k]:offsets[k + 1]]
      dims         the elements' shapes one after another, int64
      dim_offsets  n + 1 int64s: element k's shape is dims[dim_offsets[k]:dim_offsets[k + 1]]

  The importer builds and reads the same layout with graph ops
  (frontend/onnx_packed_sequences.py); `pack` and `unpack` are its numpy side;
- ZipMap's rows of maps are one [rows, keys] tensor, `keys` the maps' keys;
- a string tensor is three: its elements' UTF-8 bytes one after another (u8, 1-D), then
  where each element starts and where it ends in them (int64, the tensor's shape)
  (frontend/onnx_strings.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from infer.abi import encode_strings
from infer.errors import InputError
from infer.runtime.signature import dtype_from_name


@dataclass(frozen=True)
class StructuredValue:
    """A sequence or optional input or output: its place among the model's inputs or
    outputs, how many tensors stand for its value (after an optional's flag), their
    element type, and its form."""

    name: str
    at: int
    count: int
    dtype: np.dtype
    sequence: bool
    optional: bool
    packed: bool = False
    string: bool = False
    # ZipMap's rows of maps: the keys of each row's map (its tensor is [rows, keys])
    keys: tuple[int, ...] | tuple[str, ...] | None = None

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "at": self.at, "count": self.count,
                "dtype": self.dtype.name, "sequence": self.sequence,
                "optional": self.optional, "packed": self.packed, "string": self.string,
                "keys": None if self.keys is None else list(self.keys)}

    @staticmethod
    def from_json(d: dict[str, Any]) -> StructuredValue:
        return StructuredValue(str(d["name"]), int(d["at"]), int(d["count"]),
                               dtype_from_name(d["dtype"]), bool(d["sequence"]),
                               bool(d["optional"]), bool(d["packed"]),
                               bool(d.get("string", False)),
                               None if d.get("keys") is None else tuple(d["keys"]))

    def onnx_type(self, tensor: str) -> str:
        """How onnxruntime types it, given its element's `tensor(...)`."""
        if self.keys is not None:
            key = "string" if self.keys and isinstance(self.keys[0], str) else "int64"
            return f"seq(map({key},{tensor}))"
        tensor = "tensor(string)" if self.string else tensor
        kind = f"seq({tensor})" if self.sequence else tensor
        return f"optional({kind})" if self.optional else kind


def pack(q: StructuredValue, value: object, placeholders: list[tuple[int, ...]]
         ) -> list[np.ndarray]:
    """The tensors that pass input `q`'s `value` (a list of arrays for a sequence, None for
    an empty optional); `placeholders` are the shapes of an empty optional's tensors."""
    if q.optional:
        if value is None:
            empty = (pack_sequence(q, []) if q.packed
                     else [np.zeros(s, q.dtype) for s in placeholders])
            return [np.array(False), *empty]
        return [np.array(True), *pack(_held(q), value, placeholders)]
    if q.string:
        return pack_strings(q, value)
    if q.sequence:
        if not isinstance(value, list | tuple):
            raise InputError(f"input '{q.name}' is a sequence: pass a list of arrays, got "
                             f"{type(value).__name__}")
        return pack_sequence(q, list(value))
    return [np.asarray(value)]


def _held(q: StructuredValue) -> StructuredValue:
    return StructuredValue(q.name, q.at, q.count, q.dtype, q.sequence, False, q.packed)


def pack_sequence(q: StructuredValue, elements: list[object]) -> list[np.ndarray]:
    arrays = []
    for k, e in enumerate(elements):
        a = e if isinstance(e, np.ndarray) else np.asarray(e)
        if a.dtype != q.dtype:
            raise InputError(f"input '{q.name}': element #{k} has dtype {a.dtype}, the "
                             f"sequence holds {q.dtype}")
        arrays.append(np.require(a, requirements="C"))  # keeps 0-d arrays 0-d
    sizes = [a.size for a in arrays]
    ranks = [a.ndim for a in arrays]
    data = (np.concatenate([a.reshape(-1) for a in arrays]) if arrays
            else np.zeros(0, q.dtype))
    return [data, np.cumsum([0, *sizes], dtype=np.int64),
            np.array([d for a in arrays for d in a.shape], np.int64),
            np.cumsum([0, *ranks], dtype=np.int64)]


def pack_strings(q: StructuredValue, value: object) -> list[np.ndarray]:
    a = np.asarray(value)
    if a.dtype.kind not in "OUS":
        raise InputError(f"input '{q.name}' holds strings: pass an array of str, got "
                         f"{a.dtype}")
    try:
        return encode_strings(a)
    except (TypeError, UnicodeError) as e:
        raise InputError(f"input '{q.name}': an element is not a string ({e})") from None


def unpack(q: StructuredValue, tensors: list[np.ndarray]) -> object:
    """Output `q`'s value from its tensors: a list of arrays, an array, or None."""
    if q.optional:
        if not bool(tensors[0]):
            return None
        return unpack(_held(q), tensors[1:])
    if q.keys is not None:  # onnxruntime's ZipMap: a list of {label: score} dicts
        return [dict(zip(q.keys, row.tolist(), strict=True)) for row in tensors[0]]
    if q.string:
        data, starts, ends = (t.view(np.uint8) if k == 0 else t for k, t in enumerate(tensors))
        out = np.empty(starts.shape, object)
        flat = out.reshape(-1)
        for k, (s, e) in enumerate(zip(starts.reshape(-1), ends.reshape(-1), strict=True)):
            flat[k] = data[s:e].tobytes().decode()
        return out
    if q.packed:
        data, offsets, dims, dim_offsets = tensors
        return [data[offsets[k]:offsets[k + 1]]
                .reshape(tuple(dims[dim_offsets[k]:dim_offsets[k + 1]].tolist())).copy()
                for k in range(len(offsets) - 1)]
    return list(tensors) if q.sequence else tensors[0]

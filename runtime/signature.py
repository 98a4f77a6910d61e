"""What a compiled model takes and returns, and the checks on feeds before native code runs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import ml_dtypes  # noqa: F401 - registers the narrow dtypes' names (bfloat16, int4...)
import numpy as np

from infer.abi import ANONYMOUS_DIM
from infer.errors import InputError

# Static size, dim_param (equal names get equal sizes, but ANONYMOUS_DIM names no symbol),
# or unnamed dynamic.
Dim = int | str | None


@dataclass(frozen=True)
class TensorSpec:
    name: str
    dtype: np.dtype
    shape: tuple[Dim, ...]

    def describe(self) -> str:
        dims = ", ".join("?" if d is None else str(d) for d in self.shape)
        return f"{self.dtype}[{dims}]"

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "dtype": self.dtype.name, "shape": list(self.shape)}

    @staticmethod
    def from_json(d: dict[str, object]) -> TensorSpec:
        shape = d["shape"]
        assert isinstance(shape, list)
        return TensorSpec(str(d["name"]), dtype_from_name(d["dtype"]), tuple(shape))


def dtype_from_name(name: object) -> np.dtype:
    """The dtype of a `dtype.name` (ml_dtypes' narrow types included: imported with the
    graph types)."""
    if not isinstance(name, str):
        raise TypeError(f"a dtype name must be a string, got {name!r}")
    return np.dtype(name)


def check_feeds(specs: list[TensorSpec], feeds: Mapping[str, object]) -> list[np.ndarray]:
    """The feeds as C-contiguous arrays in input order; InputError on any mismatch. It runs
    on every call of a small model: feeds that are what the model asks cost a few
    operations each (names compared by count, shapes as tuples, no copy)."""
    if len(feeds) != len(specs):
        _check_names(specs, feeds)  # raises: a name is unknown or missing
    arrays: list[np.ndarray] = []
    bound: dict[str, tuple[int, str]] = {}
    for s in specs:
        a = feeds.get(s.name)
        if a is None and s.name not in feeds:
            _check_names(specs, feeds)  # raises: as many feeds, so one is unknown
        if not isinstance(a, np.ndarray):
            a = _as_array(s, a)
        if a.dtype != s.dtype:
            raise InputError(f"input '{s.name}': expected dtype {s.dtype}, got {a.dtype}")
        if a.shape != s.shape:  # equal only where every dim is static
            _check_shape(s, a.shape, bound)
        arrays.append(a if a.flags.c_contiguous else np.require(a, requirements="C"))
    return arrays


def _as_array(s: TensorSpec, value: object) -> np.ndarray:
    """A feed that is not an array: a list or tuple of numbers converted to the input's
    dtype (as onnxruntime converts a list: floats to an integer input truncate), anything
    else as numpy makes it (a Python float is float64, then refused for a float32 input)."""
    if not isinstance(value, list | tuple):
        return np.asarray(value)
    try:
        return np.asarray(value, dtype=s.dtype)
    except (ValueError, TypeError, OverflowError) as e:
        raise InputError(f"input '{s.name}': cannot convert the list to {s.dtype}: "
                         f"{str(e).splitlines()[0]}") from None


def _check_names(specs: list[TensorSpec], feeds: Mapping[str, object]) -> None:
    """InputError for the first feed the model does not take, else the first it lacks."""
    names = {s.name for s in specs}
    unknown = [k for k in feeds if k not in names]
    if unknown:
        raise InputError(
            f"unknown input name '{unknown[0]}'; the model's inputs are "
            + ", ".join(f"'{s.name}'" for s in specs)
        )
    for s in specs:
        if s.name not in feeds:
            raise InputError(f"missing input '{s.name}' ({s.describe()})")


def _check_shape(s: TensorSpec, shape: tuple[int, ...], bound: dict[str, tuple[int, str]]
                 ) -> None:
    """InputError unless `shape` has the rank and static sizes of `s` and its named dims
    the sizes they had in earlier inputs (`bound`, which it extends)."""
    if len(shape) != len(s.shape):
        raise InputError(
            f"input '{s.name}': expected rank {len(s.shape)} {s.describe()}, "
            f"got shape {tuple(shape)}"
        )
    for j, (want, got) in enumerate(zip(s.shape, shape, strict=True)):
        if isinstance(want, int) and want != got:
            raise InputError(
                f"input '{s.name}': dim {j} must be {want} ({s.describe()}), "
                f"got shape {tuple(shape)}"
            )
        if isinstance(want, str) and want != ANONYMOUS_DIM:
            if want in bound and bound[want][0] != got:
                size, where = bound[want]
                raise InputError(
                    f"dim '{want}' is {size} in input '{where}' but {got} in input '{s.name}'"
                )
            bound[want] = (got, s.name)




"""What a compiled model takes and returns, and the checks on feeds before native code runs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, StringAttr, TensorType

from infer.dialects.graph import numpy_dtype
from infer.errors import InputError

Dim = int | str | None  # static size, symbolic name (dim_param), or unnamed dynamic


@dataclass(frozen=True)
class TensorSpec:
    name: str
    dtype: np.dtype
    shape: tuple[Dim, ...]

    def describe(self) -> str:
        dims = ", ".join("?" if d is None else str(d) for d in self.shape)
        return f"{self.dtype}[{dims}]"


def _specs(types, attrs: ArrayAttr | None, default: str) -> list[TensorSpec]:
    specs = []
    for i, t in enumerate(types):
        assert isinstance(t, TensorType)
        d = attrs.data[i].data if attrs is not None else {}
        name_attr = d.get("graph.name")
        name = name_attr.data if isinstance(name_attr, StringAttr) else f"{default}{i}"
        dim_names = d.get("graph.dims")
        shape: list[Dim] = []
        for j, n in enumerate(t.get_shape()):
            if n != DYNAMIC_INDEX:
                shape.append(n)
            elif isinstance(dim_names, ArrayAttr) and isinstance(dim_names.data[j], StringAttr):
                shape.append(dim_names.data[j].data or None)
            else:
                shape.append(None)
        specs.append(TensorSpec(name, numpy_dtype(t.element_type), tuple(shape)))
    return specs


def signature(f: func.FuncOp) -> tuple[list[TensorSpec], list[TensorSpec]]:
    """Input and output specs of a graph-level function (names from the importer)."""
    ft = f.function_type
    return (
        _specs(ft.inputs.data, f.arg_attrs, "input"),
        _specs(ft.outputs.data, f.res_attrs, "output"),
    )


def check_feeds(specs: list[TensorSpec], feeds: Mapping[str, object]) -> list[np.ndarray]:
    """The feeds as C-contiguous arrays in input order; InputError on any mismatch."""
    names = {s.name for s in specs}
    unknown = [k for k in feeds if k not in names]
    if unknown:
        raise InputError(
            f"unknown input name '{unknown[0]}'; the model's inputs are "
            + ", ".join(f"'{s.name}'" for s in specs)
        )
    arrays: list[np.ndarray] = []
    bound: dict[str, tuple[int, str]] = {}
    for s in specs:
        if s.name not in feeds:
            raise InputError(f"missing input '{s.name}' ({s.describe()})")
        a = feeds[s.name]
        if not isinstance(a, np.ndarray):
            a = np.asarray(a)
        if a.dtype != s.dtype:
            raise InputError(f"input '{s.name}': expected dtype {s.dtype}, got {a.dtype}")
        if a.ndim != len(s.shape):
            raise InputError(
                f"input '{s.name}': expected rank {len(s.shape)} {s.describe()}, "
                f"got shape {tuple(a.shape)}"
            )
        for j, (want, got) in enumerate(zip(s.shape, a.shape, strict=True)):
            if isinstance(want, int) and want != got:
                raise InputError(
                    f"input '{s.name}': dim {j} must be {want} ({s.describe()}), "
                    f"got shape {tuple(a.shape)}"
                )
            if isinstance(want, str):
                if want in bound and bound[want][0] != got:
                    size, where = bound[want]
                    raise InputError(
                        f"dim '{want}' is {size} in input '{where}' but {got} in input '{s.name}'"
                    )
                bound[want] = (got, s.name)
        arrays.append(np.require(a, requirements="C"))  # keeps 0-d arrays 0-d
    return arrays




"""Element types (ONNX's, as builtin types) and the attribute helpers of graph ops."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    f32,
    i64,
)
from xdsl.ir import Attribute, Operation

from infer.dialects.dims import DYN, Dim

# ---------------------------------------------------------------------------------------
# Element types: ONNX's, as builtin types (signless iN is the signed ONNX intN).
# ---------------------------------------------------------------------------------------

FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)

_NP_OF_WIDTH_SIGNED = {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_NP_OF_WIDTH_UNSIGNED = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def is_float(t: Attribute) -> bool:
    return isinstance(t, FLOAT_TYPES)


def numpy_dtype(t: Attribute) -> np.dtype:
    """The numpy dtype of a builtin element type."""
    if isinstance(t, Float32Type):
        return np.dtype(np.float32)
    if isinstance(t, Float64Type):
        return np.dtype(np.float64)
    if isinstance(t, Float16Type):
        return np.dtype(np.float16)
    if isinstance(t, IntegerType):
        width = t.width.data
        if t.signedness.data == Signedness.UNSIGNED:
            return np.dtype(_NP_OF_WIDTH_UNSIGNED[width])
        return np.dtype(_NP_OF_WIDTH_SIGNED[width])
    raise ValueError(f"no numpy dtype for element type {t}")


def element_type_of(dtype: np.dtype) -> Attribute:
    """The builtin element type of a numpy dtype."""
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        return f32
    if dtype == np.float64:
        return Float64Type()
    if dtype == np.float16:
        return Float16Type()
    if dtype == np.bool_:
        return IntegerType(1)
    if dtype.kind == "i":
        return IntegerType(dtype.itemsize * 8)
    if dtype.kind == "u":
        return IntegerType(dtype.itemsize * 8, Signedness.UNSIGNED)
    raise ValueError(f"unsupported dtype {dtype}")


def tensor_type(shape: Sequence[Dim], element: Attribute) -> TensorType:
    return TensorType(element, [d if isinstance(d, int) else DYNAMIC_INDEX for d in shape])


def dims_of(t: Attribute) -> list[Dim]:
    """The dims of a tensor type, with DYN for dynamic ones."""
    assert isinstance(t, TensorType)
    return [DYN if d == DYNAMIC_INDEX else d for d in t.get_shape()]


def compatible(inferred: TensorType, declared: TensorType) -> bool:
    """Same element type and rank, and equal dims wherever both are static."""
    if inferred.element_type != declared.element_type:
        return False
    a, b = inferred.get_shape(), declared.get_shape()
    return len(a) == len(b) and all(
        x == y or DYNAMIC_INDEX in (x, y) for x, y in zip(a, b, strict=True)
    )


# ---------------------------------------------------------------------------------------
# Attribute helpers
# ---------------------------------------------------------------------------------------


def ints_attr(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def int_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


def float_attr(value: float) -> FloatAttr:
    return FloatAttr(value, f32)


def get_ints(op: Operation | Mapping[str, Attribute], name: str) -> list[int] | None:
    props = op.properties if isinstance(op, Operation) else op
    a = props.get(name)
    return None if a is None else list(cast(DenseArrayBase, a).get_values())


# The interface of a model's entry function, as argument / result attributes: the ONNX
# name of each input and output, and the names of its dims (`dim_param`, "" if none).
NAME_ATTR = "graph.name"
DIMS_ATTR = "graph.dims"
# The dim name exporters write for "unknown": like "", an independent dynamic dim, not a
# symbol shared by every "?" of the model (kept as written: onnxruntime reports it so).
ANONYMOUS_DIM = "?"


__all__ = [
    "NAME_ATTR",
    "DIMS_ATTR",
    "ANONYMOUS_DIM",
    "FLOAT_TYPES",
    "is_float",
    "numpy_dtype",
    "element_type_of",
    "tensor_type",
    "dims_of",
    "compatible",
    "ints_attr",
    "int_attr",
    "float_attr",
    "get_ints",
]

"""Element types (ONNX's, as builtin types) and the attribute helpers of graph ops."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    DenseArrayBase,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
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

from infer import abi
from infer.dialects.dims import DYN, Dim

# ---------------------------------------------------------------------------------------
# Element types: ONNX's, as builtin types (signless iN is the signed ONNX intN).
# ---------------------------------------------------------------------------------------

# Floats of 8 bits or fewer (ONNX's float8 and float4 types): stored, converted and cast,
# never computed on (see `NARROW_TYPES`).
SMALL_FLOAT_TYPES = (Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type, Float8E5M2FNUZType,
                     Float8E8M0FNUType, Float4E2M1FNType)
FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type, *SMALL_FLOAT_TYPES)

# Element types numpy has no dtype of, with ml_dtypes' (ONNX's reference uses them): bf16,
# the small floats and the 4- and 2-bit integers. Buffers hold them as ml_dtypes lays them
# out, one element per byte (the sub-byte integers in the low bits, not sign-extended) or
# two for bf16; casts convert them (lowering/narrow_types.py) and `widen-half` turns any
# other op on them into one on f32 or i32 between casts.
NARROW_TYPES: dict[Attribute, np.dtype] = {
    BFloat16Type(): np.dtype(ml_dtypes.bfloat16),
    Float8E4M3FNType(): np.dtype(ml_dtypes.float8_e4m3fn),
    Float8E4M3FNUZType(): np.dtype(ml_dtypes.float8_e4m3fnuz),
    Float8E5M2Type(): np.dtype(ml_dtypes.float8_e5m2),
    Float8E5M2FNUZType(): np.dtype(ml_dtypes.float8_e5m2fnuz),
    Float8E8M0FNUType(): np.dtype(ml_dtypes.float8_e8m0fnu),
    Float4E2M1FNType(): np.dtype(ml_dtypes.float4_e2m1fn),
    IntegerType(4): np.dtype(ml_dtypes.int4),
    IntegerType(4, Signedness.UNSIGNED): np.dtype(ml_dtypes.uint4),
    IntegerType(2): np.dtype(ml_dtypes.int2),
    IntegerType(2, Signedness.UNSIGNED): np.dtype(ml_dtypes.uint2),
}
_NARROW_OF_DTYPE = {v: k for k, v in NARROW_TYPES.items()}

_NP_OF_WIDTH_SIGNED = {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_NP_OF_WIDTH_UNSIGNED = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def is_float(t: Attribute) -> bool:
    return isinstance(t, FLOAT_TYPES)


def is_narrow(t: Attribute) -> bool:
    return t in NARROW_TYPES


def numpy_dtype(t: Attribute) -> np.dtype:
    """The numpy dtype of a builtin element type."""
    if t in NARROW_TYPES:
        return NARROW_TYPES[t]
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
    if dtype in _NARROW_OF_DTYPE:
        return _NARROW_OF_DTYPE[dtype]
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
# On a function: its outputs that are sequences or optionals, {name: {at, count, element,
# sequence, optional, packed}}: their place among the model's outputs, how many tensors
# stand for each, the tensors' element type, whether the value is a sequence, whether the
# first tensor is an i1 saying if an optional holds the value, and whether a sequence is
# packed in four tensors (runtime/structured.py). Each tensor is a result whose NAME_ATTR
# is the output's name. STRUCTURED_INPUTS_ATTR says the same of arguments.
STRUCTURED_ATTR = "graph.structured_outputs"
STRUCTURED_INPUTS_ATTR = "graph.structured_inputs"
# The hidden input the runtime fills with the number of the run (a u64 scalar: 0, 1, 2,
# ... per compiled model), from which the random ops draw; no user passes it.
RUN_COUNTER = abi.RUN_COUNTER
ANONYMOUS_DIM = abi.ANONYMOUS_DIM


__all__ = [
    "NAME_ATTR",
    "DIMS_ATTR",
    "STRUCTURED_ATTR",
    "STRUCTURED_INPUTS_ATTR",
    "ANONYMOUS_DIM",
    "RUN_COUNTER",
    "FLOAT_TYPES",
    "SMALL_FLOAT_TYPES",
    "NARROW_TYPES",
    "is_float",
    "is_narrow",
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

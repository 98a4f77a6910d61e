"""Builtin element types (ONNX's element types, as MLIR builtin types: signless iN is the
signed ONNX intN) and their numpy dtypes: a fact of the builtin types, read by the graph
dialect, the lowering and codegen alike."""

from __future__ import annotations

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    f32,
)
from xdsl.ir import Attribute

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

"""The tensor types and the attribute helpers of graph ops (element types: element_types.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    TensorType,
    f32,
    i64,
)
from xdsl.ir import Attribute, Operation

from infer import abi
from infer.dialects.dims import DYN, Dim
from infer.dialects.element_types import (  # noqa: F401 - the graph dialect's element types
    FLOAT_TYPES,
    NARROW_TYPES,
    SMALL_FLOAT_TYPES,
    element_type_of,
    is_float,
    is_narrow,
    numpy_dtype,
)


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

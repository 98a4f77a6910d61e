"""graph.constant: a tensor constant whose data are raw bytes, and how weights print."""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar, cast

import numpy as np
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from infer.dialects.graph.types import element_type_of, numpy_dtype, tensor_type

# ---------------------------------------------------------------------------------------
# Printing options: large weights are elided unless asked for.
# ---------------------------------------------------------------------------------------


@dataclass
class PrintOptions:
    """`elide_weights_above`: constants with more elements print as `elided<hash>`."""

    elide_weights_above: int | None = None


PRINT_OPTIONS = PrintOptions()


@contextmanager
def elide_weights(above: int | None):
    old = PRINT_OPTIONS.elide_weights_above
    PRINT_OPTIONS.elide_weights_above = above
    try:
        yield
    finally:
        PRINT_OPTIONS.elide_weights_above = old


def constant_value(value: SSAValue) -> np.ndarray | None:
    """The numpy value of a tensor defined by a non-elided `graph.constant`, else None."""
    owner = value.owner
    if isinstance(owner, ConstantOp):
        return owner.numpy()
    return None


# ---------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """A tensor constant. Its data are raw bytes (no Python lists), read as a numpy view.

    Printed as `graph.constant dense<...> : tensor<...>` (hex for large data), or as
    `graph.constant elided<"hash"> : tensor<...>` when printing elides weights; an elided
    constant parses back without data and cannot be compiled.
    """

    name = "graph.constant"
    value = opt_prop_def(DenseIntOrFPElementsAttr)
    ONNX_OP: ClassVar[str | None] = "Constant"
    elided = opt_prop_def(StringAttr)
    output = result_def(TensorType)
    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: DenseIntOrFPElementsAttr | np.ndarray):
        if isinstance(value, np.ndarray):
            value = dense_from_numpy(value)
        super().__init__(properties={"value": value}, result_types=[value.type])

    def numpy(self) -> np.ndarray | None:
        if self.value is None:
            return None
        t = cast(TensorType, self.output.type)
        dtype = numpy_dtype(t.element_type)
        data = np.frombuffer(self.value.data.data, dtype=dtype)
        return data.reshape(t.get_shape())

    def verify_(self) -> None:
        t = self.output.type
        if (self.value is None) == (self.elided is None):
            raise VerifyException("'graph.constant' needs exactly one of a value or elided")
        if not isinstance(t, TensorType) or not t.has_static_shape():
            raise VerifyException(f"'graph.constant' needs a static tensor type, got {t}")
        if self.value is not None and self.value.type != t:
            raise VerifyException(
                f"'graph.constant' value type {self.value.type} differs from result type {t}"
            )

    def print(self, printer: Printer) -> None:
        t = cast(TensorType, self.output.type)
        limit = PRINT_OPTIONS.elide_weights_above
        n = int(np.prod(t.get_shape()))
        if self.elided is not None or (limit is not None and n > limit):
            digest = (
                self.elided.data
                if self.elided is not None
                else hashlib.sha1(cast(DenseIntOrFPElementsAttr, self.value).data.data)
                .hexdigest()[:12]
            )
            printer.print_string(f' elided<"{digest}"> : ')
        else:
            value = cast(DenseIntOrFPElementsAttr, self.value)
            # xDSL prints inf/nan as hex ints it then parses as integer values: use hex data.
            if n <= 16 and np.isfinite(cast(np.ndarray, self.numpy())).all():
                printer.print_string(" ")
                printer.print_attribute(value)  # `dense<[...]> : type`
                return
            printer.print_string(f' dense<"0x{value.data.data.hex().upper()}"> : ')
        printer.print_attribute(t)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        if parser.parse_optional_keyword("elided") is not None:
            parser.parse_punctuation("<")
            digest = parser.parse_str_literal()
            parser.parse_punctuation(">")
            parser.parse_punctuation(":")
            t = parser.parse_type()
            return cls.build(properties={"elided": StringAttr(digest)}, result_types=[t])
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense elements attribute")
        return cls.build(properties={"value": value}, result_types=[value.type])


def dense_from_numpy(array: np.ndarray) -> DenseIntOrFPElementsAttr:
    """A dense attribute holding `array`'s bytes (one copy, no Python lists)."""
    # np.ascontiguousarray would turn a 0-d array into a 1-d one: keep the shape.
    array = np.require(array, requirements="C")
    t = tensor_type(list(array.shape), element_type_of(array.dtype))
    if array.dtype == np.bool_:
        array = array.astype(np.int8)
    return DenseIntOrFPElementsAttr(t, BytesAttr(array.tobytes()))


__all__ = [
    "PrintOptions",
    "PRINT_OPTIONS",
    "elide_weights",
    "constant_value",
    "ConstantOp",
    "dense_from_numpy",
]

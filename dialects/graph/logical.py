"""Logical, bitwise and integer-arithmetic elementwise ops (And/Or/Xor/Not, Bitwise*,
BitShift, BitCast, Mod), the comparisons beyond the basic ones and PRelu."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr, TensorType
from xdsl.irdl import AnyAttr, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from infer.dialects.graph.base import (
    TRAITS,
    BinaryOp,
    GraphOp,
    OrderedCompareOp,
    UnaryOp,
    check_broadcasts_to,
    same_element_type,
)
from infer.dialects.graph.types import int_attr, is_float, numpy_dtype

_BOOL = IntegerType(1)


def _require_bool(cls: type[GraphOp], types: list[TensorType]) -> None:
    for t in types:
        if t.element_type != _BOOL:
            raise VerifyException(f"'{cls.name}' expects bool (i1) tensors, got {t}")


def _require_int(cls: type[GraphOp], types: list[TensorType]) -> None:
    """Integers of any width and signedness, but not bool."""
    for t in types:
        e = t.element_type
        if not isinstance(e, IntegerType) or e == _BOOL:
            raise VerifyException(f"'{cls.name}' expects integer tensors, got {t}")


# ---------------------------------------------------------------------------------------
# Logical ops on bool tensors
# ---------------------------------------------------------------------------------------


class LogicalBinaryOp(BinaryOp):
    @classmethod
    def check(cls, props, types):
        _require_bool(cls, types)


@irdl_op_definition
class AndOp(LogicalBinaryOp):
    name = "graph.and"
    ONNX_OP: ClassVar[str | None] = "And"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.logical_and(a, b)


@irdl_op_definition
class OrOp(LogicalBinaryOp):
    name = "graph.or"
    ONNX_OP: ClassVar[str | None] = "Or"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.logical_or(a, b)


@irdl_op_definition
class XorOp(LogicalBinaryOp):
    name = "graph.xor"
    ONNX_OP: ClassVar[str | None] = "Xor"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.logical_xor(a, b)


@irdl_op_definition
class NotOp(UnaryOp):
    name = "graph.not"
    ONNX_OP: ClassVar[str | None] = "Not"

    @classmethod
    def check(cls, props, types):
        _require_bool(cls, types)

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.logical_not(x)


# ---------------------------------------------------------------------------------------
# Bitwise ops on integer tensors
# ---------------------------------------------------------------------------------------


class IntBinaryOp(BinaryOp):
    @classmethod
    def check(cls, props, types):
        _require_int(cls, types)
        super().check(props, types)


@irdl_op_definition
class BitwiseAndOp(IntBinaryOp):
    name = "graph.bitwise_and"
    ONNX_OP: ClassVar[str | None] = "BitwiseAnd"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.bitwise_and(a, b)


@irdl_op_definition
class BitwiseOrOp(IntBinaryOp):
    name = "graph.bitwise_or"
    ONNX_OP: ClassVar[str | None] = "BitwiseOr"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.bitwise_or(a, b)


@irdl_op_definition
class BitwiseXorOp(IntBinaryOp):
    name = "graph.bitwise_xor"
    ONNX_OP: ClassVar[str | None] = "BitwiseXor"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.bitwise_xor(a, b)


@irdl_op_definition
class BitwiseNotOp(UnaryOp):
    name = "graph.bitwise_not"
    ONNX_OP: ClassVar[str | None] = "BitwiseNot"

    @classmethod
    def check(cls, props, types):
        _require_int(cls, types)

    def numpy(self, x: np.ndarray) -> np.ndarray:
        return np.invert(x)


@irdl_op_definition
class BitShiftOp(IntBinaryOp):
    """Z = X << Y or X >> Y (arithmetic for signed X). A shift by a negative amount or by
    the width or more leaves only the sign fill: -1 for a negative X shifted right, else 0
    (ONNX's definition since opset 28; older opsets only had unsigned X)."""

    name = "graph.bit_shift"
    direction = prop_def(StringAttr)
    ONNX_OP: ClassVar[str | None] = "BitShift"

    @classmethod
    def check(cls, props, types):
        super().check(props, types)
        if cls.prop(props, "direction") not in ("LEFT", "RIGHT"):
            raise VerifyException("'graph.bit_shift' direction must be \"LEFT\" or \"RIGHT\"")

    def numpy(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        width = x.dtype.itemsize * 8
        # as unsigned, a negative amount is >= width too
        out_of_range = y.astype(np.dtype(f"u{x.dtype.itemsize}")) >= width
        amount = np.where(out_of_range, 0, y).astype(x.dtype)
        if self.direction.data == "LEFT":
            return np.where(out_of_range, 0, np.left_shift(x, amount))
        fill = np.where(x < 0, -1, 0) if x.dtype.kind == "i" else 0
        return np.where(out_of_range, fill, np.right_shift(x, amount))


@irdl_op_definition
class ModOp(BinaryOp):
    """fmod = 0: the remainder of the floor division (the divisor's sign, Python's %);
    fmod = 1: of the truncating division (the dividend's sign, C's fmod). An integer
    remainder by zero is 0 (numpy's, the reference's), never undefined behaviour."""

    name = "graph.mod"
    fmod = prop_def(IntegerAttr, default_value=int_attr(0))
    ONNX_OP: ClassVar[str | None] = "Mod"

    @classmethod
    def check(cls, props, types):
        super().check(props, types)
        if cls.prop(props, "fmod") not in (0, 1):
            raise VerifyException("'graph.mod' fmod must be 0 or 1")
        if types[0].element_type == _BOOL:
            raise VerifyException("'graph.mod' expects numeric tensors, got bool")

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.fmod(a, b) if self.fmod.value.data else np.mod(a, b)


# ---------------------------------------------------------------------------------------
# Comparisons (the others are in `elementwise`, their bases in `base`) and PRelu
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class LessOrEqualOp(OrderedCompareOp):
    name = "graph.less_or_equal"
    ONNX_OP: ClassVar[str | None] = "LessOrEqual"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.less_equal(a, b)


@irdl_op_definition
class GreaterOrEqualOp(OrderedCompareOp):
    name = "graph.greater_or_equal"
    ONNX_OP: ClassVar[str | None] = "GreaterOrEqual"

    def numpy(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.greater_equal(a, b)


@irdl_op_definition
class PReluOp(GraphOp):
    """y = x < 0 ? slope * x : x, slope broadcast to x (never growing it)."""

    name = "graph.prelu"
    X = operand_def(TensorType)
    slope = operand_def(TensorType)
    Y = result_def(TensorType)
    traits = TRAITS
    ONNX_OP: ClassVar[str | None] = "PRelu"

    @classmethod
    def check(cls, props, types):
        same_element_type(cls, types)
        if types[0].element_type == _BOOL:
            raise VerifyException("'graph.prelu' expects numeric tensors, got bool")

    @classmethod
    def output_dims(cls, props, dims, consts):
        check_broadcasts_to(dims[1], dims[0], "slope")
        return [list(dims[0])]

    def numpy(self, x: np.ndarray, slope: np.ndarray) -> np.ndarray:
        return np.where(x < 0, x * slope, x)


@irdl_op_definition
class BitCastOp(GraphOp):
    """The input's bits read as element type `to`, of the same width (bool is a byte)."""

    name = "graph.bit_cast"
    input = operand_def(TensorType)
    output = result_def(TensorType)
    to = prop_def(AnyAttr())
    traits = TRAITS
    ONNX_OP: ClassVar[str | None] = "BitCast"

    @classmethod
    def check(cls, props, types):
        src, to = types[0].element_type, props.get("to")
        if not isinstance(to, IntegerType) and not is_float(to):
            raise VerifyException(f"'graph.bit_cast' to must be an integer or float type, got {to}")
        if numpy_dtype(src).itemsize != numpy_dtype(to).itemsize:
            raise VerifyException(f"'graph.bit_cast' from {src} to {to}: the widths differ")

    @classmethod
    def output_elements(cls, props, elements):
        return [props["to"]]

    def numpy(self, x: np.ndarray) -> np.ndarray:
        to = numpy_dtype(self.to)
        return x.view(to) if to != np.bool_ else x != 0


__all__ = [
    "AndOp",
    "OrOp",
    "XorOp",
    "NotOp",
    "BitwiseAndOp",
    "BitwiseOrOp",
    "BitwiseXorOp",
    "BitwiseNotOp",
    "BitShiftOp",
    "BitCastOp",
    "ModOp",
    "LessOrEqualOp",
    "GreaterOrEqualOp",
    "PReluOp",
]

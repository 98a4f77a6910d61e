"""What the qnn ops share: the 8-bit types, the pass that expands them, and the checks of
quantized operands, zero points and scales their verifiers and shape functions make."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IntegerType, Signedness, TensorType
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.graph.base import GraphOp, normalize_axis

EIGHT_BIT = (IntegerType(8), IntegerType(8, Signedness.UNSIGNED))
# The pass that rewrites every qnn op into graph ops before the lowering.
CANONICALIZE = "qnn-canonicalize"


def check_quantized(cls: type[GraphOp], t: TensorType, what: str) -> None:
    if t.element_type not in EIGHT_BIT:
        raise VerifyException(f"'{cls.name}': {what} must be 8-bit integers, got {t}")


def check_zero_point(cls: type[GraphOp], zp: TensorType, of: TensorType, what: str) -> None:
    if zp.element_type != of.element_type:
        raise VerifyException(f"'{cls.name}': {what} must be {of.element_type} like its "
                              f"operand, got {zp}")
    if zp.get_num_dims() > 1:
        raise VerifyException(f"'{cls.name}': {what} must be a scalar or 1-D, got {zp}")


def check_per(length: list[D.Dim], dim: D.Dim, what: str) -> None:
    """A 1-D zero point or scale has one element, or one per `dim`."""
    if length:
        if isinstance(length[0], int) and isinstance(dim, int) and length[0] not in (1, dim):
            raise ValueError(f"{what} has {length[0]} elements, not 1"
                             + (f" or {dim}" if dim != 1 else ""))
        D.require(D.BROADCAST_TO, length[0], dim, what)


def check_positive(value: np.ndarray | None, what: str) -> None:
    if value is not None and not bool(np.all(np.asarray(value, np.float64) > 0)):
        raise ValueError(f"{what} must be positive, got {np.asarray(value).tolist()}")


def minus(q: np.ndarray, zero_point: np.ndarray) -> np.ndarray:
    return q.astype(np.int32) - zero_point.astype(np.int32)



def along_axis(v: np.ndarray, axis: int, rank: int) -> np.ndarray:
    """A scale or zero point shaped to broadcast against a rank-`rank` tensor: one element
    as a scalar, 1-D along `axis`."""
    if v.ndim != 1 or v.size == 1:
        return v.reshape(())
    shape = [1] * rank
    shape[normalize_axis(axis, rank, "axis")] = -1
    return v.reshape(shape)

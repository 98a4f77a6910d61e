"""Running sums and products along an axis: CumSum and CumProd."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr, TensorType
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from infer.dialects.graph.base import TRAITS, GraphOp, normalize_axis
from infer.dialects.graph.types import int_attr

KINDS = {"sum": np.add, "prod": np.multiply}


@irdl_op_definition
class CumulativeOp(GraphOp):
    """y[..., i, ...] = x[..., 0, ...] op ... op x[..., i, ...] along `axis` (`kind` sum
    or prod), in the element type; `exclusive` leaves x[i] out (y starts at the identity),
    `reverse` runs from the end. The axis is a 0-d or 1-element integer operand, constant
    or read at run time (checked within [-rank, rank))."""

    name = "graph.cumulative"
    ONNX_OP: ClassVar[str | None] = "CumSum"  # and CumProd (`kind`)
    x = operand_def(TensorType)
    axis = operand_def(TensorType)
    y = result_def(TensorType)
    kind = prop_def(StringAttr, default_value=StringAttr("sum"))
    exclusive = prop_def(IntegerAttr, default_value=int_attr(0))
    reverse = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if cls.prop(props, "kind") not in KINDS:
            raise VerifyException(f"'{cls.name}' kind must be sum or prod")
        a = types[1]
        if not isinstance(a.element_type, IntegerType) or a.get_shape() not in ((), (1,)):
            raise VerifyException(f"'{cls.name}' axis must be a 0-d or 1-element integer "
                                  "tensor")
        if not types[0].get_shape():
            raise VerifyException(f"'{cls.name}' input must have rank 1 or more")

    def numpy(self, x: np.ndarray, axis: np.ndarray) -> np.ndarray:
        a = normalize_axis(int(axis.reshape(-1)[0]), x.ndim, "axis")
        op = KINDS[self.kind.data]
        if x.shape[a] == 0:
            return x
        if self.reverse.value.data:
            x = np.flip(x, a)
        y = op.accumulate(x, axis=a, dtype=x.dtype)
        if self.exclusive.value.data:  # shifted by one, the identity first
            first = np.full_like(np.take(y, [0], axis=a), 0 if op is np.add else 1)
            y = np.concatenate([first, np.delete(y, -1, axis=a)], axis=a)
        return np.flip(y, a) if self.reverse.value.data else y


__all__ = ["CumulativeOp"]

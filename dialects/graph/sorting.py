"""Ops that order data: TopK and Unique.

The order is ONNX's reference order (numpy's sort): by value, NaN above every number, and
equal values (NaNs included) by their index, the lower first, whichever way values go.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType
from xdsl.irdl import irdl_op_definition, operand_def, opt_prop_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.dims import DYN
from infer.dialects.graph.base import TRAITS, GraphOp, const_ints, normalize_axis
from infer.dialects.graph.types import int_attr


def sorted_order(x: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """The indices that sort x along `axis` in the order of this module's doc."""
    index = np.indices(x.shape)[axis]
    if descending:  # NaN first, then larger values; ties by index
        return np.flip(np.lexsort((-index, x), axis=axis), axis=axis)
    return np.lexsort((index, x), axis=axis)


@irdl_op_definition
class TopKOp(GraphOp):
    """The k largest (or smallest) elements along `axis` and their indices, in order (see
    the module's doc; unsorted results are returned sorted). k is a 1-element i64 operand,
    constant or read at run time (checked within [0, dim])."""

    name = "graph.top_k"
    ONNX_OP: ClassVar[str | None] = "TopK"
    x = operand_def(TensorType)
    k = operand_def(TensorType)
    values = result_def(TensorType)
    indices = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(-1))
    largest = prop_def(IntegerAttr, default_value=int_attr(1))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        x, k = types[0], types[1]
        if not x.get_shape():
            raise VerifyException(f"'{cls.name}' input must have rank 1 or more")
        if k.element_type != IntegerType(64) or k.get_shape() not in ((1,), ()):
            raise VerifyException(f"'{cls.name}' k must be a 1-element i64 tensor")
        normalize_axis(cls.prop(props, "axis"), len(x.get_shape()), "axis")

    @classmethod
    def output_dims(cls, props, dims, consts):
        axis = normalize_axis(cls.prop(props, "axis"), len(dims[0]), "axis")
        k = const_ints(consts, 1)
        out = list(dims[0])
        if k is None:
            out[axis] = DYN
        else:
            n = dims[0][axis]
            if k[0] < 0 or (isinstance(n, int) and k[0] > n):
                raise ValueError(f"k = {k[0]} is not within [0, {n}]")
            out[axis] = k[0]
        return [out, list(out)]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[0], IntegerType(64)]

    def numpy(self, data: np.ndarray, k: np.ndarray) -> list[np.ndarray]:
        axis = normalize_axis(self.axis.value.data, data.ndim, "axis")
        order = sorted_order(data, axis, bool(self.largest.value.data))
        top = np.take(order, np.arange(int(k.reshape(-1)[0])), axis=axis)
        return [np.take_along_axis(data, top, axis=axis), top.astype(np.int64)]


@irdl_op_definition
class UniqueOp(GraphOp):
    """The distinct elements of x (flattened), or its distinct slices along `axis`: y, in
    ascending order (`sorted`, slices compared lexicographically; NaNs equal and above
    every number, -0 equal to 0) or in order of first occurrence; the index of each one's
    first occurrence, the index in y of every element (slice) of x, and each one's count.
    Their number is known at run time."""

    name = "graph.unique"
    ONNX_OP: ClassVar[str | None] = "Unique"
    FOLDABLE: ClassVar[bool] = False  # its size is the data's: the type keeps it dynamic
    x = operand_def(TensorType)
    y = result_def(TensorType)
    indices = result_def(TensorType)
    inverse_indices = result_def(TensorType)
    counts = result_def(TensorType)
    axis = opt_prop_def(IntegerAttr)
    sorted = prop_def(IntegerAttr, default_value=int_attr(1))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        axis = cls.prop(props, "axis")
        if axis is not None:
            normalize_axis(axis, len(types[0].get_shape()), "axis")

    @classmethod
    def output_dims(cls, props, dims, consts):
        axis = cls.prop(props, "axis")
        if axis is None:
            return [[DYN], [DYN], [D.product(dims[0])], [DYN]]
        axis = normalize_axis(axis, len(dims[0]), "axis")
        y = list(dims[0])
        y[axis] = DYN
        return [y, [DYN], [dims[0][axis]], [DYN]]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[0], *[IntegerType(64)] * 3]


__all__ = ["TopKOp", "UniqueOp", "sorted_order"]

"""Detection post-processing: NonMaxSuppression."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, var_operand_def
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.dims import DYN
from infer.dialects.graph.base import TRAITS, GraphOp
from infer.dialects.graph.types import int_attr, is_float


@irdl_op_definition
class NonMaxSuppressionOp(GraphOp):
    """Per batch and class, boxes in order of score (highest first, ties by index) that
    pass `score_threshold` (when given: score > it), each kept unless its IoU with one
    already kept exceeds `iou_threshold`, at most `max_output` per class (0 when not
    positive). The kept ones as [batch, class, box] rows of an i64 [count, 3] tensor
    whose count is known at run time. Boxes are [y1, x1, y2, x2] (any two opposite
    corners) or, with `center_point_box`, [x, y, width, height]; IoU as ONNX's reference
    computes it (a box of no area suppresses nothing)."""

    name = "graph.non_max_suppression"
    ONNX_OP: ClassVar[str | None] = "NonMaxSuppression"
    FOLDABLE: ClassVar[bool] = False  # its size is the data's: the type keeps it dynamic
    boxes = operand_def(TensorType)
    scores = operand_def(TensorType)
    max_output = operand_def(TensorType)
    iou_threshold = operand_def(TensorType)
    score_threshold = var_operand_def(TensorType)
    selected = result_def(TensorType)
    center_point_box = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        boxes, scores = types[0], types[1]
        if not is_float(boxes.element_type) or scores.element_type != boxes.element_type:
            raise VerifyException(f"'{cls.name}' boxes and scores must be one float type")
        if types[2].element_type != IntegerType(64):
            raise VerifyException(f"'{cls.name}' max_output must be i64")
        for t in types[3:]:
            if t.element_type != boxes.element_type:
                raise VerifyException(f"'{cls.name}' thresholds must have the boxes' type")
        for t in types[2:]:
            if t.get_shape() not in ((), (1,)):
                raise VerifyException(f"'{cls.name}' max_output and thresholds must have "
                                      "one element")
        if cls.prop(props, "center_point_box") not in (0, 1):
            raise VerifyException(f"'{cls.name}' center_point_box must be 0 or 1")

    @classmethod
    def output_dims(cls, props, dims, consts):
        boxes, scores = dims[0], dims[1]
        if len(boxes) != 3 or len(scores) != 3:
            raise ValueError("boxes must be [batches, boxes, 4] and scores [batches, "
                             "classes, boxes]")
        D.require(D.EQUAL, boxes[2], 4, "the boxes' last dim")
        D.require(D.EQUAL, boxes[0], scores[0], "the boxes' and scores' batches")
        D.require(D.EQUAL, boxes[1], scores[2], "the boxes' count and the scores'")
        return [[DYN, 3]]

    @classmethod
    def output_elements(cls, props, elements):
        return [IntegerType(64)]


__all__ = ["NonMaxSuppressionOp"]

"""Control flow: `graph.if` (ONNX's If) and `graph.loop` (ONNX's Loop; Scan is imported
as one), their subgraphs as regions.

    %y = graph.if %cond : tensor<i1> -> (tensor<?x4xf32>) {
      %a = graph.relu %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
      graph.yield %a : tensor<2x4xf32>
    } else {
      %b = graph.concat %x, %x {axis = 0 : i64} : ...
      graph.yield %b : tensor<4x4xf32>
    }

The branches read values of the enclosing function directly (ONNX's implicit captures:
the regions are not isolated from above). Each yields one value per result, of the
result's element type and rank; a dim the branches disagree on is dynamic in the result.

    %v, %s = graph.loop %n, %go, %v0 : (tensor<i64>, tensor<i1>, tensor<1xf32>)
        -> (tensor<1xf32>, tensor<?x1xf32>) {
    ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v_in: tensor<1xf32>):
      %v_out = graph.add %v_in, %x : ...
      graph.yield %c, %v_out, %v_out : tensor<i1>, tensor<1xf32>, tensor<1xf32>
    }

runs its body while the iteration number `%i` (from 0) is below the trip count `%n` and
the condition holds (`%go`, then what the body yields first). The loop-carried values
(`%v0`, then the body's next ones) are typed once for all iterations: a dim that changes
between them is dynamic. The values the body yields after those (its scan outputs) are
stacked along a new first axis: `%s` holds one row per iteration.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from infer.dialects.graph.base import GraphCanonicalizationPatterns
from infer.dialects.graph.types import compatible


@irdl_op_definition
class YieldOp(IRDLOperation):
    """The values a branch of `graph.if` gives its results, or an iteration of
    `graph.loop` its next condition, carried values and scan rows."""

    name = "graph.yield"
    ONNX_OP: ClassVar[str | None] = None  # a branch's outputs
    FOLDABLE: ClassVar[bool] = False
    values = var_operand_def(TensorType)
    traits = traits_def(IsTerminator())

    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[list(values)])


def joined_type(types: Sequence[Attribute]) -> TensorType | None:
    """The result type of branches yielding `types`: their element type and rank, with a
    dim static where all agree; None when element types or ranks differ."""
    first = cast(TensorType, types[0])
    shapes = [cast(TensorType, t).get_shape() for t in types]
    if any(cast(TensorType, t).element_type != first.element_type
           or len(s) != len(shapes[0]) for t, s in zip(types, shapes, strict=True)):
        return None
    dims = [d if all(s[i] == d for s in shapes) else DYNAMIC_INDEX
            for i, d in enumerate(shapes[0])]
    return TensorType(first.element_type, dims)


@irdl_op_definition
class IfOp(IRDLOperation):
    """ONNX's If: the `then` region's values where `cond` (one bool) holds, else the
    `else` region's."""

    name = "graph.if"
    ONNX_OP: ClassVar[str | None] = "If"
    FOLDABLE: ClassVar[bool] = False  # (a constant condition is taken at import)
    cond = operand_def(TensorType)
    outs = var_result_def(TensorType)
    then_region = region_def("single_block")
    else_region = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect(), GraphCanonicalizationPatterns())

    def __init__(self, cond: SSAValue, result_types: Sequence[Attribute], then_block: Block,
                 else_block: Block):
        super().__init__(operands=[cond], result_types=[list(result_types)],
                         regions=[Region(then_block), Region(else_block)])

    def branches(self) -> tuple[Region, Region]:
        return self.then_region, self.else_region

    def yielded(self, region: Region) -> list[SSAValue]:
        last = region.block.last_op
        return list(last.values) if isinstance(last, YieldOp) else []

    def verify_(self) -> None:
        t = self.cond.type
        if not (isinstance(t, TensorType) and str(t.element_type) == "i1"
                and all(d == 1 for d in t.get_shape())):
            raise VerifyException(f"'graph.if' needs a condition of one i1, got {t}")
        for region, which in ((self.then_region, "then"), (self.else_region, "else")):
            if not isinstance(region.block.last_op, YieldOp):
                raise VerifyException(f"'graph.if': the {which} branch must end with "
                                      "graph.yield")
            values = self.yielded(region)
            if len(values) != len(self.outs):
                raise VerifyException(f"'graph.if': the {which} branch yields {len(values)} "
                                      f"values for {len(self.outs)} results")
            for k, (v, r) in enumerate(zip(values, self.outs, strict=True)):
                if not compatible(cast(TensorType, v.type), cast(TensorType, r.type)):
                    raise VerifyException(f"'graph.if': the {which} branch's value #{k} "
                                          f"({v.type}) does not fit result #{k} ({r.type})")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)
        printer.print_string(" -> (")
        printer.print_list([r.type for r in self.outs], printer.print_attribute)
        printer.print_string(") ")
        printer.print_region(self.then_region)
        printer.print_string(" else ")
        printer.print_region(self.else_region)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        cond = parser.parse_operand()
        parser.parse_punctuation(":")
        cond_type = parser.parse_type()
        parser.parse_punctuation("->")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        then_region = parser.parse_region()
        parser.parse_keyword("else")
        else_region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if cond.type != cond_type:
            parser.raise_error(f"condition of type {cond.type}, not {cond_type}")
        op = cls.build(operands=[cond], result_types=[types],
                       regions=[then_region, else_region])
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op


def _one_element(t: Attribute, element: str) -> bool:
    return (isinstance(t, TensorType) and str(t.element_type) == element
            and all(d == 1 for d in t.get_shape()))


@irdl_op_definition
class LoopOp(IRDLOperation):
    """ONNX's Loop: the body runs while `iteration < trip_count` and the condition
    holds; results are the last carried values, then each scan output's rows."""

    name = "graph.loop"
    ONNX_OP: ClassVar[str | None] = "Loop"
    FOLDABLE: ClassVar[bool] = False
    trip_count = operand_def(TensorType)
    cond = operand_def(TensorType)
    initial = var_operand_def(TensorType)
    outs = var_result_def(TensorType)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(self, trip_count: SSAValue, cond: SSAValue, initial: Sequence[SSAValue],
                 result_types: Sequence[Attribute], body: Block):
        super().__init__(operands=[trip_count, cond, list(initial)],
                         result_types=[list(result_types)], regions=[Region(body)])

    @property
    def carried(self) -> int:
        return len(self.initial)

    def yielded(self) -> list[SSAValue]:
        last = self.body.block.last_op
        return list(last.values) if isinstance(last, YieldOp) else []

    def verify_(self) -> None:
        if not _one_element(self.trip_count.type, "i64"):
            raise VerifyException("'graph.loop' needs a trip count of one i64, got "
                                  f"{self.trip_count.type}")
        if not _one_element(self.cond.type, "i1"):
            raise VerifyException(f"'graph.loop' needs a condition of one i1, got "
                                  f"{self.cond.type}")
        n = self.carried
        args = self.body.block.args
        if len(args) != n + 2:
            raise VerifyException(f"'graph.loop': the body takes {len(args)} arguments for "
                                  f"{n} carried values (expected {n + 2})")
        if not (_one_element(args[0].type, "i64") and _one_element(args[1].type, "i1")):
            raise VerifyException("'graph.loop': the body's first arguments must be the "
                                  "iteration number (one i64) and the condition (one i1)")
        if len(self.outs) < n:
            raise VerifyException(f"'graph.loop' has {len(self.outs)} results for {n} "
                                  "carried values")
        for k, (v, a, r) in enumerate(zip(self.initial, args[2:], self.outs, strict=False)):
            if a.type != r.type:
                raise VerifyException(f"'graph.loop': carried value #{k} is {a.type} in the "
                                      f"body but {r.type} as a result")
            if not compatible(cast(TensorType, v.type), cast(TensorType, a.type)):
                raise VerifyException(f"'graph.loop': carried value #{k}'s initial value "
                                      f"({v.type}) does not fit {a.type}")
        if not isinstance(self.body.block.last_op, YieldOp):
            raise VerifyException("'graph.loop': the body must end with graph.yield")
        values = self.yielded()
        if len(values) != len(self.outs) + 1:
            raise VerifyException(f"'graph.loop': the body yields {len(values)} values for "
                                  f"a condition and {len(self.outs)} results")
        if not _one_element(values[0].type, "i1"):
            raise VerifyException("'graph.loop': the body must yield its condition (one "
                                  f"i1) first, got {values[0].type}")
        for k, (v, a) in enumerate(zip(values[1:], args[2:], strict=False)):
            if not compatible(cast(TensorType, v.type), cast(TensorType, a.type)):
                raise VerifyException(f"'graph.loop': the body's next carried value #{k} "
                                      f"({v.type}) does not fit {a.type}")
        for k, (v, r) in enumerate(zip(values[1 + n:], self.outs[n:], strict=True)):
            row = TensorType(cast(TensorType, r.type).element_type,
                             cast(TensorType, r.type).get_shape()[1:])
            if r.type.get_num_dims() == 0 or not compatible(cast(TensorType, v.type), row):
                raise VerifyException(f"'graph.loop': scan output #{k}'s rows ({v.type}) do "
                                      f"not stack into {r.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(" : (")
        printer.print_list([v.type for v in self.operands], printer.print_attribute)
        printer.print_string(") -> (")
        printer.print_list([r.type for r in self.outs], printer.print_attribute)
        printer.print_string(") ")
        printer.print_region(self.body, print_entry_block_args=True)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    @classmethod
    def parse(cls, parser: Parser) -> LoopOp:
        operands = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                     parser.parse_operand)
        parser.parse_punctuation(":")
        in_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN,
                                                     parser.parse_type)
        parser.parse_punctuation("->")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        body = parser.parse_region()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if [v.type for v in operands] != in_types:
            parser.raise_error(f"operands of types {[str(v.type) for v in operands]}, not "
                               f"{[str(t) for t in in_types]}")
        if len(operands) < 2:
            parser.raise_error("graph.loop takes a trip count, a condition and its "
                               "carried values")
        op = cls.build(operands=[operands[0], operands[1], operands[2:]],
                       result_types=[types], regions=[body])
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op


__all__ = ["IfOp", "LoopOp", "YieldOp", "joined_type"]

"""Control flow: `graph.if` (ONNX's If), `graph.loop` (ONNX's Loop) and `graph.scan`
(ONNX's Scan), their subgraphs as regions.

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

    %s, %ys = graph.scan %s0, %xs {num_scan_inputs = 1 : i64,
        scan_input_axes = array<i64: 0>, scan_input_directions = array<i64: 1>,
        scan_output_axes = array<i64: 1>, scan_output_directions = array<i64: 0>}
        : (tensor<3xf32>, tensor<?x3xf32>) -> (tensor<3xf32>, tensor<3x?xf32>) {
    ^bb0(%s_in: tensor<3xf32>, %x: tensor<3xf32>):
      %s_out = graph.add %s_in, %x : ...
      graph.yield %s_out, %s_out : tensor<3xf32>, tensor<3xf32>
    }

runs its body once per slice of the scan inputs (the operands after the states) along
their axes, the last slice first for a reversed one; the states are carried as a loop's
are, and each row the body yields after them is stacked along its scan output's axis (the
last iteration's first for a reversed one). `expand-scan` rewrites it as the graph.loop
that ONNX's definition describes, before lowering.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IntegerAttr, TensorType
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
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


def _print_with_body(printer: Printer, operands: Sequence[SSAValue],
                     props: dict[str, Attribute], results: Sequence[SSAValue],
                     body: Region) -> None:
    """` %a, %b {props} : (operand types) -> (result types) {body}` of graph.loop/scan."""
    printer.print_string(" ")
    printer.print_list(operands, printer.print_operand)
    if props:
        printer.print_op_attributes(props)
    printer.print_string(" : (")
    printer.print_list([v.type for v in operands], printer.print_attribute)
    printer.print_string(") -> (")
    printer.print_list([r.type for r in results], printer.print_attribute)
    printer.print_string(") ")
    printer.print_region(body, print_entry_block_args=True)


def _parse_with_body(parser: Parser, props: bool
                     ) -> tuple[list[SSAValue], dict[str, Attribute], list[Attribute], Region]:
    """What `_print_with_body` prints: operands, properties, result types, body."""
    operands = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_operand)
    found = parser.parse_optional_attr_dict() if props else {}
    parser.parse_punctuation(":")
    in_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    parser.parse_punctuation("->")
    types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    body = parser.parse_region()
    if [v.type for v in operands] != in_types:
        parser.raise_error(f"operands of types {[str(v.type) for v in operands]}, not "
                           f"{[str(t) for t in in_types]}")
    return operands, found, types, body


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
        _print_with_body(printer, self.operands, {}, self.outs, self.body)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)

    @classmethod
    def parse(cls, parser: Parser) -> LoopOp:
        operands, _, types, body = _parse_with_body(parser, props=False)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if len(operands) < 2:
            parser.raise_error("graph.loop takes a trip count, a condition and its "
                               "carried values")
        op = cls.build(operands=[operands[0], operands[1], operands[2:]],
                       result_types=[types], regions=[body])
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op


def _ints(attr: DenseArrayBase) -> list[int]:
    return [int(v) for v in attr.get_values()]


@irdl_op_definition
class ScanOp(IRDLOperation):
    """ONNX's Scan (opset 9 on): states carried over the slices of the scan inputs; the
    results are the final states, then the scan outputs (module docstring)."""

    name = "graph.scan"
    ONNX_OP: ClassVar[str | None] = "Scan"
    FOLDABLE: ClassVar[bool] = False
    EXPANDED_BY: ClassVar[str] = "expand-scan"  # lowered as the graph.loop it makes
    inputs = var_operand_def(TensorType)
    outs = var_result_def(TensorType)
    body = region_def("single_block")
    num_scan_inputs = prop_def(IntegerAttr)
    scan_input_axes = prop_def(DenseArrayBase)
    scan_input_directions = prop_def(DenseArrayBase)
    scan_output_axes = prop_def(DenseArrayBase)
    scan_output_directions = prop_def(DenseArrayBase)
    traits = traits_def(RecursiveMemoryEffect())

    @property
    def states(self) -> int:
        return len(self.inputs) - self.num_scan_inputs.value.data

    def axes(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """The scan inputs' axes and directions, then the scan outputs'."""
        return (_ints(self.scan_input_axes), _ints(self.scan_input_directions),
                _ints(self.scan_output_axes), _ints(self.scan_output_directions))

    def yielded(self) -> list[SSAValue]:
        last = self.body.block.last_op
        return list(last.values) if isinstance(last, YieldOp) else []

    def verify_(self) -> None:
        m = self.num_scan_inputs.value.data
        n = len(self.inputs) - m
        k = len(self.outs) - n
        in_axes, in_dirs, out_axes, out_dirs = self.axes()
        if not 0 < m <= len(self.inputs) or k < 0:
            raise VerifyException(f"'graph.scan' has {len(self.inputs)} operands, "
                                  f"{len(self.outs)} results and {m} scan inputs")
        if (len(in_axes), len(in_dirs), len(out_axes), len(out_dirs)) != (m, m, k, k):
            raise VerifyException("'graph.scan' needs an axis and a direction per scan input "
                                  "and per scan output")
        args = self.body.block.args
        if len(args) != n + m:
            raise VerifyException(f"'graph.scan': the body takes {len(args)} arguments for "
                                  f"{n} states and {m} scan inputs")
        for k_, (v, a, r) in enumerate(zip(self.inputs, args, self.outs, strict=False)):
            if k_ >= n:
                break
            if a.type != r.type or not compatible(cast(TensorType, v.type),
                                                  cast(TensorType, a.type)):
                raise VerifyException(f"'graph.scan': state #{k_} is {v.type} initially, "
                                      f"{a.type} in the body and {r.type} as a result")
        for j, (v, a, ax) in enumerate(zip(self.inputs[n:], args[n:], in_axes, strict=True)):
            t = cast(TensorType, v.type)
            shape = t.get_shape()
            if not 0 <= ax < len(shape):
                raise VerifyException(f"'graph.scan': scan input #{j}'s axis {ax} is out of "
                                      f"range for {t}")
            if not compatible(TensorType(t.element_type, shape[:ax] + shape[ax + 1:]),
                              cast(TensorType, a.type)):
                raise VerifyException(f"'graph.scan': scan input #{j} ({t}) does not slice "
                                      f"along axis {ax} into {a.type}")
        if not isinstance(self.body.block.last_op, YieldOp):
            raise VerifyException("'graph.scan': the body must end with graph.yield")
        values = self.yielded()
        if len(values) != len(self.outs):
            raise VerifyException(f"'graph.scan': the body yields {len(values)} values for "
                                  f"{len(self.outs)} results")
        for j, (v, a) in enumerate(zip(values[:n], args[:n], strict=True)):
            if not compatible(cast(TensorType, v.type), cast(TensorType, a.type)):
                raise VerifyException(f"'graph.scan': the body's next state #{j} ({v.type}) "
                                      f"does not fit {a.type}")
        for j, (v, r, ax) in enumerate(zip(values[n:], self.outs[n:], out_axes, strict=True)):
            rt = cast(TensorType, r.type)
            shape = rt.get_shape()
            if not 0 <= ax < len(shape) or not compatible(
                    cast(TensorType, v.type),
                    TensorType(rt.element_type, shape[:ax] + shape[ax + 1:])):
                raise VerifyException(f"'graph.scan': scan output #{j}'s rows ({v.type}) do "
                                      f"not stack along axis {ax} into {r.type}")

    def print(self, printer: Printer) -> None:
        _print_with_body(printer, self.inputs, self.properties, self.outs, self.body)

    @classmethod
    def parse(cls, parser: Parser) -> ScanOp:
        operands, props, types, body = _parse_with_body(parser, props=True)
        return cls.build(operands=[operands], result_types=[types], regions=[body],
                         properties=props)


__all__ = ["IfOp", "LoopOp", "ScanOp", "YieldOp", "joined_type"]

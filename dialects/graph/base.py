"""Abstract bases of graph ops: shared syntax, verification and type inference from one
shape function per op, and the operand/axis helpers shape functions use."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    f16,
    f32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.operations import OptPropertyDef
from xdsl.irdl.operations import VarOperandDef as VarOperandDefT
from xdsl.irdl.operations import VarResultDef as VarResultDefT
from xdsl.parser import Parser
from xdsl.pattern_rewriter import RewritePattern
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.dims import Dim
from infer.dialects.graph.constant import constant_value
from infer.dialects.graph.types import compatible, dims_of, get_ints, is_float, tensor_type


@dataclass(frozen=True)
class SymbolicShape:
    """A 1-D integer operand known as dims of some tensor rather than as data (`shape.of`):
    ints where static, `DYN` in type inference. Shape functions get it through `consts`."""

    dims: tuple[Dim, ...]


class HasSymbolicShape(ABC):
    """Ops of other dialects (`shape.of`) whose result is a shape known symbolically."""

    @abstractmethod
    def symbolic_shape(self) -> list[Dim]: ...


def operand_values(operands: Sequence[SSAValue]) -> list[np.ndarray | SymbolicShape | None]:
    """What shape functions know of each operand: its constant value, a shape expressed in
    dims (an array when all of them are static), or None."""
    out: list[np.ndarray | SymbolicShape | None] = []
    for o in operands:
        v: np.ndarray | SymbolicShape | None = constant_value(o)
        if v is None and isinstance(o.owner, HasSymbolicShape):
            ds = o.owner.symbolic_shape()
            v = (np.array(ds, dtype=np.int64) if all(isinstance(d, int) for d in ds)
                 else SymbolicShape(tuple(ds)))
        out.append(v)
    return out


# ---------------------------------------------------------------------------------------
# Base classes
# ---------------------------------------------------------------------------------------


class GraphOp(IRDLOperation, ABC):
    """Shared syntax, verification and type inference of graph ops.

    Subclasses define `output_dims` (and `output_elements` when it is not the first
    operand's element type). Operands that are shape-like (Reshape's shape, Slice's starts)
    are read through `consts`, the values of operands defined by constants (or None).

    Each op also states, once, the facts the rest of the compiler and docs/operators.md
    read: `ONNX_OP`, the ONNX op type imported as this op (None: made by passes only);
    `FLOAT_ONLY`, whether its first operand must be a float tensor (checked here);
    `F16_WEIGHT`, the operand its lowering may read as f16 and compute with in f32 (a
    weight stored as f16: `store-weights-f16`), None for none; and its numpy semantics,
    either a `numpy(self, *operands)` method (which `evaluate` calls; helpers several
    ops share are in `numpy_semantics`) or `FOLDABLE = False` (never constant-folded).
    """

    ONNX_OP: ClassVar[str | None]
    FLOAT_ONLY: ClassVar[bool] = False
    F16_WEIGHT: ClassVar[int | None] = None
    FOLDABLE: ClassVar[bool] = True

    @classmethod
    def prop(cls, props: Mapping[str, Attribute], name: str) -> Any:
        """The value of property `name` in `props` (int, float, str, list of ints for an
        array, else the attribute), the op definition's default where it is absent; None
        for an absent optional property. Shape functions, which get a mapping rather than
        an op, read properties through it, so no default is restated."""
        attr = props.get(name)
        if attr is None:
            definition = cls.get_irdl_definition().properties[name]
            attr = definition.default_value
            if attr is None:
                if isinstance(definition, OptPropertyDef):
                    return None
                raise VerifyException(f"'{cls.name}' needs the property '{name}'")
        if isinstance(attr, IntegerAttr | FloatAttr):
            return attr.value.data
        if isinstance(attr, StringAttr):
            return attr.data
        if isinstance(attr, DenseArrayBase):
            return list(attr.get_values())
        return attr

    @classmethod
    def output_dims(
        cls,
        props: Mapping[str, Attribute],
        dims: list[list[Dim]],
        consts: list[np.ndarray | None],
    ) -> list[list[Dim]]:
        return [list(dims[0])]

    @classmethod
    def output_elements(
        cls, props: Mapping[str, Attribute], elements: list[Attribute]
    ) -> list[Attribute]:
        return [elements[0]]

    @classmethod
    def check(
        cls, props: Mapping[str, Attribute], types: list[TensorType]
    ) -> None:
        """Verify operand element types and attributes; raise VerifyException."""

    @classmethod
    def infer(
        cls, operands: Sequence[SSAValue], props: Mapping[str, Attribute]
    ) -> list[TensorType]:
        """Result types of this op applied to `operands` with properties `props`."""
        types = [o.type for o in operands]
        for t in types:
            if not isinstance(t, TensorType):
                raise VerifyException(f"'{cls.name}' expects tensor operands, got {t}")
        first = cast(TensorType, types[0]) if types else None
        if cls.FLOAT_ONLY and first is not None and not is_float(first.element_type):
            raise VerifyException(f"'{cls.name}' expects a floating-point tensor, got {first}")
        cls.check(props, cast(list[TensorType], types))
        consts = operand_values(operands)
        try:
            out_dims = cls.output_dims(props, [dims_of(t) for t in types], consts)
        except ValueError as e:
            raise VerifyException(f"'{cls.name}': {e}") from e
        elements = cls.output_elements(props, [cast(TensorType, t).element_type for t in types])
        return [tensor_type(d, e) for d, e in zip(out_dims, elements, strict=True)]

    @classmethod
    def make(
        cls,
        operands: Sequence[SSAValue | Operation],
        props: Mapping[str, Attribute] | None = None,
        result_types: Sequence[Attribute] | None = None,
    ) -> GraphOp:
        """Build the op, inferring result types unless given."""
        values = [SSAValue.get(o) for o in operands]
        props = dict(props or {})
        if result_types is None:
            result_types = cls.infer(values, props)
        return cls.build(
            operands=cls._segments(values),
            result_types=cls._result_segments(list(result_types)),
            properties=props,
        )

    @classmethod
    def _segments(cls, values: list[SSAValue]) -> list[SSAValue | list[SSAValue]]:
        """Split a flat operand list into the op definition's operand groups.

        At most one group is optional or variadic, so lengths decide the split.
        """
        defs = cls.get_irdl_definition().operands
        variadic = [i for i, (_, d) in enumerate(defs) if isinstance(d, VarOperandDefT)]
        if not variadic:
            if len(values) != len(defs):
                raise VerifyException(
                    f"'{cls.name}' expects {len(defs)} operands, got {len(values)}"
                )
            return list(values)
        v = variadic[0]
        n_fixed = len(defs) - 1
        if len(values) < n_fixed:
            raise VerifyException(
                f"'{cls.name}' expects at least {n_fixed} operands, got {len(values)}"
            )
        n_var = len(values) - n_fixed
        return [*values[:v], list(values[v : v + n_var]), *values[v + n_var :]]

    @classmethod
    def _result_segments(cls, types: list[Attribute]) -> list[Attribute | list[Attribute]]:
        """Split a flat result type list into the result groups: at most one is variadic,
        the last (as LayerNormalization's optional statistics after Y)."""
        defs = cls.get_irdl_definition().results
        if defs and isinstance(defs[-1][1], VarResultDefT):
            n_fixed = len(defs) - 1
            return [*types[:n_fixed], types[n_fixed:]]
        return list(types)

    def verify_(self) -> None:
        inferred = type(self).infer(list(self.operands), self.properties)
        declared = [r.type for r in self.results]
        if len(inferred) != len(declared):
            raise VerifyException(
                f"'{self.name}' has {len(declared)} results, expected {len(inferred)}"
            )
        for i, (a, b) in enumerate(zip(inferred, declared, strict=True)):
            if not isinstance(b, TensorType) or not compatible(a, b):
                raise VerifyException(
                    f"'{self.name}' result #{i} has type {b}, but its operands give {a}"
                )

    # -- syntax -----------------------------------------------------------------------

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        defaults = type(self).get_irdl_definition().properties
        attrs = {
            k: v
            for k, v in self.properties.items()
            if k not in defaults or v != defaults[k].default_value
        }
        attrs.update(self.attributes)
        if attrs:
            printer.print_string(" ")
            printer.print_attr_dict(attrs)
        printer.print_string(" : ")
        # not print_operation_type, which adds the location that print_op prints after us
        printer.print_function_type(self.operand_types, self.result_types)

    @classmethod
    def parse(cls, parser: Parser) -> GraphOp:
        pos = parser.pos
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand, "operand"
        ) if parser.parse_optional_punctuation(":") is None else None
        attrs: dict[str, Attribute] = {}
        if unresolved is not None:
            attrs = parser.parse_optional_attr_dict()
            parser.parse_punctuation(":")
        else:
            unresolved = []
        ftype = parser.parse_function_type()
        operands = parser.resolve_operands(unresolved, ftype.inputs.data, pos)
        prop_names = cls.get_irdl_definition().properties
        props = {k: v for k, v in attrs.items() if k in prop_names}
        other = {k: v for k, v in attrs.items() if k not in prop_names}
        op = cls.build(
            operands=cls._segments(list(operands)),
            result_types=cls._result_segments(list(ftype.outputs.data)),
            properties=props,
            attributes=other,
        )
        return op



# op class -> its canonicalization patterns: filled by `canonicalize`, which imports the ops
# (so they cannot import it) and which the dialect's package imports after them.
CANONICALIZATION_PATTERNS: dict[type[Operation], tuple[RewritePattern, ...]] = {}


class GraphCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    """Canonicalization patterns of a graph op, looked up by its class."""

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        return CANONICALIZATION_PATTERNS.get(op, ())

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()


TRAITS = traits_def(Pure(), GraphCanonicalizationPatterns())


class UnaryOp(GraphOp, ABC):
    """y = f(x), elementwise, same type."""

    X = operand_def(TensorType)
    Y = result_def(TensorType)
    traits = TRAITS


class FloatUnaryOp(UnaryOp, ABC):
    FLOAT_ONLY: ClassVar[bool] = True


class BinaryOp(GraphOp, ABC):
    """C = A op B with numpy broadcasting; both operands have one element type."""

    A = operand_def(TensorType)
    B = operand_def(TensorType)
    C = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def check(cls, props: Mapping[str, Attribute], types: list[TensorType]) -> None:
        if types[0].element_type != types[1].element_type:
            raise VerifyException(
                f"'{cls.name}' operands have different element types: "
                f"{types[0].element_type} and {types[1].element_type}"
            )

    @classmethod
    def output_dims(cls, props, dims, consts):
        return [D.broadcast(dims)]


class CompareOp(BinaryOp, ABC):
    @classmethod
    def output_elements(cls, props, elements):
        return [IntegerType(1)]


class OrderedCompareOp(CompareOp, ABC):
    """A comparison of order, which ONNX defines on numbers only (bool has no order: a
    signed i1 compare would order true below false)."""

    @classmethod
    def check(cls, props, types):
        super().check(props, types)
        if types[0].element_type == IntegerType(1):
            raise VerifyException(f"'{cls.name}' expects numeric tensors, got bool")


class VariadicOp(GraphOp, ABC):
    """Sum, Max, Min, Mean: elementwise over any number of broadcast inputs."""

    inputs = var_operand_def(TensorType)
    output = result_def(TensorType)
    traits = TRAITS

    @classmethod
    def check(cls, props, types):
        if not types:
            raise VerifyException(f"'{cls.name}' needs at least one input")
        if any(t.element_type != types[0].element_type for t in types):
            raise VerifyException(f"'{cls.name}' inputs have different element types")

    @classmethod
    def output_dims(cls, props, dims, consts):
        return [D.broadcast(dims)]


def normalize_axis(axis: int, rank: int, what: str) -> int:
    if not -rank <= axis < max(rank, 1):
        raise ValueError(f"{what} {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def const_ints(consts: list[np.ndarray | None], i: int) -> list[int] | None:
    if i >= len(consts) or not isinstance(consts[i], np.ndarray):
        return None
    return [int(v) for v in np.asarray(consts[i]).reshape(-1)]


def symbolic_dims(consts: Sequence[object], i: int) -> list[Dim] | None:
    """The dims of operand i when it is a `SymbolicShape` (see `operand_values`)."""
    v = consts[i] if i < len(consts) else None
    return list(v.dims) if isinstance(v, SymbolicShape) else None


def same_element_type(cls: type[GraphOp], types: list[TensorType]) -> None:
    """All operands of one element type, but for an f16 weight of f32 operands (at
    `cls.F16_WEIGHT`), which the lowering widens as it reads it."""
    e = types[0].element_type
    for i, t in enumerate(types[1:], 1):
        if i == cls.F16_WEIGHT and e == f32 and t.element_type == f16:
            continue
        if t.element_type != e:
            raise VerifyException(
                f"'{cls.name}' operands have different element types: {e} and {t.element_type}"
            )



def check_broadcasts_to(p: Sequence[Dim], x: Sequence[Dim], what: str) -> None:
    """Raise ValueError unless `p` broadcasts to `x` without growing it."""
    if len(p) > len(x):
        raise ValueError(f"{what} {D.format_shape(p)} outranks {D.format_shape(x)}")
    for d, e in zip(reversed(p), reversed(x), strict=False):  # p may be shorter
        if isinstance(d, int) and d != 1 and isinstance(e, int) and d != e:
            raise ValueError(f"{what} {D.format_shape(p)} does not broadcast to "
                             f"{D.format_shape(x)}")
        D.require(D.BROADCAST_TO, d, e, f"{what} dim")


def tile_sizes(op: Operation, name: str, default: tuple[int, int], fields: str
               ) -> tuple[int, int]:
    """A discardable tile attribute `name = array<i64: fields>` of two positive sizes
    (a select pass writes it for the target), else `default`."""
    attr = op.attributes.get(name)
    if attr is None:
        return default
    values = attr.get_values() if isinstance(attr, DenseArrayBase) else ()
    if len(values) != 2 or not all(isinstance(v, int) and v >= 1 for v in values):
        raise VerifyException(f"'{op.name}' {name} must be array<i64: {fields}> of positive "
                              f"sizes, got {attr}")
    return int(values[0]), int(values[1])


def spatial_attrs(props, n: int, kernel: Sequence[int]):
    strides = get_ints(props, "strides") or [1] * n
    dilations = get_ints(props, "dilations") or [1] * n
    pads = get_ints(props, "pads") or [0] * (2 * n)
    if len(strides) != n or len(dilations) != n or len(pads) != 2 * n or len(kernel) != n:
        raise ValueError(
            f"strides/dilations/pads/kernel_shape do not match {n} spatial dims"
        )
    if min(strides) < 1 or min(dilations) < 1 or min(pads) < 0 or min(kernel) < 1:
        raise ValueError("strides, dilations and kernel dims must be >= 1, pads >= 0")
    return strides, dilations, pads


def window_out(size: Dim, k: int, s: int, d: int, pb: int, pe: int, ceil: bool = False) -> Dim:
    """Output length of a sliding window (conv/pool) along one dim."""
    span = size + (pb + pe) - (d * (k - 1) + 1)
    out = (span + (s - 1)) // s + 1 if ceil else span // s + 1
    if ceil and isinstance(out, int) and isinstance(size, int) and (out - 1) * s >= size + pb:
        out -= 1  # the last window must start inside the input or the begin padding
    if isinstance(out, int) and out < 1:
        raise ValueError(f"window of {k} (dilation {d}) does not fit input length {size}")
    D.require(D.AT_LEAST, size + (pb + pe), d * (k - 1) + 1, "padded input length")
    return out


__all__ = [
    "OrderedCompareOp",
    "SymbolicShape",
    "HasSymbolicShape",
    "operand_values",
    "GraphOp",
    "GraphCanonicalizationPatterns",
    "TRAITS",
    "UnaryOp",
    "FloatUnaryOp",
    "BinaryOp",
    "CompareOp",
    "VariadicOp",
    "normalize_axis",
    "const_ints",
    "symbolic_dims",
    "same_element_type",
    "check_broadcasts_to",
    "spatial_attrs",
    "window_out",
]

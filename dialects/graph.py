"""The `graph` dialect: one op per ONNX operator, on tensors whose dims may be dynamic.

Ops mirror the newest ONNX opset: the importer upgrades older opsets (attributes that later
became inputs, such as Unsqueeze's axes or Slice's starts, arrive here as operands). Each op
states its shape function once (`output_dims`, over `dims.Dim`), used for type inference and
verification here and for run-time sizes by the lowering.

Syntax (uniform for all ops but `graph.constant`):

    %y = graph.conv %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<?x3x224x224xf32>,
         tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<?x64x112x112xf32>
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    f32,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.operations import VarOperandDef as VarOperandDefT
from xdsl.irdl.operations import VarResultDef as VarResultDefT
from xdsl.parser import Parser
from xdsl.pattern_rewriter import RewritePattern
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, HasCanonicalizationPatternsTrait, Pure
from xdsl.utils.exceptions import VerifyException

from infer.dialects import dims as D
from infer.dialects.dims import DYN, Dim

# ---------------------------------------------------------------------------------------
# Element types: ONNX's, as builtin types (signless iN is the signed ONNX intN).
# ---------------------------------------------------------------------------------------

FLOAT_TYPES = (Float16Type, BFloat16Type, Float32Type, Float64Type)

_NP_OF_WIDTH_SIGNED = {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_NP_OF_WIDTH_UNSIGNED = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def is_float(t: Attribute) -> bool:
    return isinstance(t, FLOAT_TYPES)


def numpy_dtype(t: Attribute) -> np.dtype:
    """The numpy dtype of a builtin element type."""
    if isinstance(t, Float32Type):
        return np.dtype(np.float32)
    if isinstance(t, Float64Type):
        return np.dtype(np.float64)
    if isinstance(t, Float16Type):
        return np.dtype(np.float16)
    if isinstance(t, IntegerType):
        width = t.width.data
        if t.signedness.data == Signedness.UNSIGNED:
            return np.dtype(_NP_OF_WIDTH_UNSIGNED[width])
        return np.dtype(_NP_OF_WIDTH_SIGNED[width])
    raise ValueError(f"no numpy dtype for element type {t}")


def element_type_of(dtype: np.dtype) -> Attribute:
    """The builtin element type of a numpy dtype."""
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        return f32
    if dtype == np.float64:
        return Float64Type()
    if dtype == np.float16:
        return Float16Type()
    if dtype == np.bool_:
        return IntegerType(1)
    if dtype.kind == "i":
        return IntegerType(dtype.itemsize * 8)
    if dtype.kind == "u":
        return IntegerType(dtype.itemsize * 8, Signedness.UNSIGNED)
    raise ValueError(f"unsupported dtype {dtype}")


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


def get_int(props: Mapping[str, Attribute], name: str, default: int) -> int:
    a = props.get(name)
    return default if a is None else cast(IntegerAttr, a).value.data


def get_float(props: Mapping[str, Attribute], name: str, default: float) -> float:
    a = props.get(name)
    return default if a is None else cast(FloatAttr, a).value.data


def get_str(props: Mapping[str, Attribute], name: str, default: str) -> str:
    a = props.get(name)
    return default if a is None else cast(StringAttr, a).data


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
    """

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
        defs = cls.get_irdl_definition().results
        if len(defs) == 1 and isinstance(defs[0][1], VarResultDefT):
            return [types]
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
        printer.print_operation_type(self)

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



class GraphCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    """Canonicalization patterns of a graph op, looked up by its class in
    `graph_canonicalize.PATTERNS` (imported on first use: the patterns import this module)."""

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        from infer.dialects.graph_canonicalize import patterns_for

        return patterns_for(op)

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()


_TRAITS = traits_def(Pure(), GraphCanonicalizationPatterns())


class UnaryOp(GraphOp, ABC):
    """y = f(x), elementwise, same type."""

    X = operand_def(TensorType)
    Y = result_def(TensorType)
    traits = _TRAITS


class FloatUnaryOp(UnaryOp, ABC):
    @classmethod
    def check(cls, props: Mapping[str, Attribute], types: list[TensorType]) -> None:
        if not is_float(types[0].element_type):
            raise VerifyException(
                f"'{cls.name}' expects a floating-point tensor, got {types[0]}"
            )


class BinaryOp(GraphOp, ABC):
    """C = A op B with numpy broadcasting; both operands have one element type."""

    A = operand_def(TensorType)
    B = operand_def(TensorType)
    C = result_def(TensorType)
    traits = _TRAITS

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


class VariadicOp(GraphOp, ABC):
    """Sum, Max, Min, Mean: elementwise over any number of broadcast inputs."""

    inputs = var_operand_def(TensorType)
    output = result_def(TensorType)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if not types:
            raise VerifyException(f"'{cls.name}' needs at least one input")
        if any(t.element_type != types[0].element_type for t in types):
            raise VerifyException(f"'{cls.name}' inputs have different element types")

    @classmethod
    def output_dims(cls, props, dims, consts):
        return [D.broadcast(dims)]


def _normalize_axis(axis: int, rank: int, what: str) -> int:
    if not -rank <= axis < max(rank, 1):
        raise ValueError(f"{what} {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def _const_ints(consts: list[np.ndarray | None], i: int, what: str) -> list[int] | None:
    if i >= len(consts) or not isinstance(consts[i], np.ndarray):
        return None
    return [int(v) for v in np.asarray(consts[i]).reshape(-1)]


def _symbolic_dims(consts: Sequence[object], i: int) -> list[Dim] | None:
    """The dims of operand i when it is a `SymbolicShape` (see `operand_values`)."""
    v = consts[i] if i < len(consts) else None
    return list(v.dims) if isinstance(v, SymbolicShape) else None


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


@irdl_op_definition
class ConstantOfShapeOp(GraphOp):
    name = "graph.constant_of_shape"
    input = operand_def(TensorType)
    output = result_def(TensorType)
    value = opt_prop_def(DenseIntOrFPElementsAttr)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if types[0].element_type != i64:
            raise VerifyException("'graph.constant_of_shape' shape must be an i64 tensor")
        v = props.get("value")
        if v is not None and len(cast(DenseIntOrFPElementsAttr, v)) != 1:
            raise VerifyException("'graph.constant_of_shape' value must have one element")

    @classmethod
    def output_dims(cls, props, dims, consts):
        if len(dims[0]) != 1:
            raise ValueError("shape operand must be 1-D")
        shape = _const_ints(consts, 0, "shape")
        symbolic = _symbolic_dims(consts, 0)
        if symbolic is not None:
            return [symbolic]
        if shape is None:
            n = dims[0][0]
            if not isinstance(n, int):
                raise ValueError("shape operand of unknown length")
            return [[DYN] * n]
        if any(d < 0 for d in shape):
            raise ValueError(f"negative dim in shape {shape}")
        return [shape]

    @classmethod
    def output_elements(cls, props, elements):
        v = props.get("value")
        return [cast(DenseIntOrFPElementsAttr, v).get_element_type() if v else f32]


def range_length(start: Dim, limit: Dim, delta: Dim) -> Dim:
    """ONNX Range's element count max(ceil((limit - start) / delta), 0) on integer dims
    (ints, DYN, or the lowering's run-time values). A delta known only at run time uses
    ceil(a / d) = -floor(-a / d), which holds for either sign of d."""
    if isinstance(delta, int):
        if delta == 0:
            raise ValueError("delta must not be zero")
        n = D.ceil_div(limit - start, delta) if delta > 0 else D.ceil_div(start - limit, -delta)
    else:
        n = 0 - ((start - limit) // delta)
    return max(n, 0) if isinstance(n, int) else n.max(0)


def float_range_length(start: np.generic, limit: np.generic, delta: np.generic) -> int:
    """Range's element count for float scalars, as onnxruntime computes it: limit - start
    in the element type, divided by delta in double precision."""
    q = np.ceil(float(limit - start) / float(delta)) if delta != 0 else np.nan
    if not np.isfinite(q):
        raise ValueError(f"range({start}, {limit}, {delta}) has no finite length")
    return max(int(q), 0)


@irdl_op_definition
class RangeOp(GraphOp):
    """y[i] = start + i * delta for i < max(ceil((limit - start) / delta), 0).

    start, limit, delta: scalars (rank 0, or one element) of one float or signed integer
    type. The length is static when all three are constants, symbolic when they come from
    a `shape.of` (`SymbolicShape`: DYN in type inference, the map evaluated on run-time
    dims in the lowering), else known at run time only."""

    name = "graph.range"
    start = operand_def(TensorType)
    limit = operand_def(TensorType)
    delta = operand_def(TensorType)
    output = result_def(TensorType)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        e = types[0].element_type
        if any(t.element_type != e for t in types):
            raise VerifyException("'graph.range' start, limit and delta must have one type")
        if not (isinstance(e, Float32Type | Float64Type) or (
                isinstance(e, IntegerType) and e.width.data in (16, 32, 64)
                and e.signedness.data != Signedness.UNSIGNED)):
            raise VerifyException(f"'graph.range' needs f32, f64, i16, i32 or i64, got {e}")
        if any(t.get_shape() not in ((), (1,)) for t in types):
            raise VerifyException("'graph.range' start, limit and delta must be scalars")

    @classmethod
    def output_dims(cls, props, dims, consts):
        arrays = [c.reshape(-1)[0] if isinstance(c, np.ndarray) else None for c in consts]
        if any(isinstance(a, np.floating) for a in arrays):  # then all are floats
            if arrays[2] is not None and arrays[2] == 0:
                raise ValueError("delta must not be zero")
            if any(a is None for a in arrays):
                return [[DYN]]
            return [[float_range_length(*cast(list[np.generic], arrays))]]
        scalars: list[Dim] = []
        for a, c in zip(arrays, consts, strict=True):
            symbolic = c.dims[0] if isinstance(c, SymbolicShape) else DYN
            scalars.append(int(a) if a is not None else symbolic)
        return [[range_length(*scalars)]]


# ---------------------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class ReluOp(UnaryOp):
    name = "graph.relu"


@irdl_op_definition
class SigmoidOp(FloatUnaryOp):
    name = "graph.sigmoid"


@irdl_op_definition
class TanhOp(FloatUnaryOp):
    name = "graph.tanh"


@irdl_op_definition
class ExpOp(FloatUnaryOp):
    name = "graph.exp"


@irdl_op_definition
class LogOp(FloatUnaryOp):
    name = "graph.log"


@irdl_op_definition
class SqrtOp(FloatUnaryOp):
    name = "graph.sqrt"


@irdl_op_definition
class ErfOp(FloatUnaryOp):
    name = "graph.erf"


@irdl_op_definition
class ReciprocalOp(FloatUnaryOp):
    name = "graph.reciprocal"


@irdl_op_definition
class FloorOp(FloatUnaryOp):
    name = "graph.floor"


@irdl_op_definition
class CeilOp(FloatUnaryOp):
    name = "graph.ceil"


@irdl_op_definition
class NegOp(UnaryOp):
    name = "graph.neg"


@irdl_op_definition
class AbsOp(UnaryOp):
    name = "graph.abs"


@irdl_op_definition
class IdentityOp(UnaryOp):
    name = "graph.identity"


@irdl_op_definition
class DropoutOp(UnaryOp):
    """Inference-mode dropout: the identity (the mask output is not supported)."""

    name = "graph.dropout"


@irdl_op_definition
class LeakyReluOp(FloatUnaryOp):
    name = "graph.leaky_relu"
    alpha = prop_def(FloatAttr, default_value=float_attr(0.01))


@irdl_op_definition
class HardSigmoidOp(FloatUnaryOp):
    name = "graph.hard_sigmoid"
    alpha = prop_def(FloatAttr, default_value=float_attr(0.2))
    beta = prop_def(FloatAttr, default_value=float_attr(0.5))


@irdl_op_definition
class HardSwishOp(FloatUnaryOp):
    name = "graph.hard_swish"


@irdl_op_definition
class GeluOp(FloatUnaryOp):
    name = "graph.gelu"
    approximate = prop_def(StringAttr, default_value=StringAttr("none"))

    @classmethod
    def check(cls, props, types):
        super().check(props, types)
        if get_str(props, "approximate", "none") not in ("none", "tanh"):
            raise VerifyException("'graph.gelu' approximate must be \"none\" or \"tanh\"")


@irdl_op_definition
class ClipOp(GraphOp):
    """y = min(max(x, min), max); min and max are scalar tensors (the importer fills ±inf)."""

    name = "graph.clip"
    input = operand_def(TensorType)
    min = operand_def(TensorType)
    max = operand_def(TensorType)
    output = result_def(TensorType)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        for t in types[1:]:
            if t.get_shape() not in ((), (1,)):
                raise VerifyException(f"'graph.clip' bounds must be scalars, got {t}")
            if t.element_type != types[0].element_type:
                raise VerifyException("'graph.clip' bounds must have the input's element type")


@irdl_op_definition
class CastOp(GraphOp):
    name = "graph.cast"
    input = operand_def(TensorType)
    output = result_def(TensorType)
    to = prop_def(AnyAttr())
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        to = props.get("to")
        if not (is_float(to) or isinstance(to, IntegerType)):
            raise VerifyException(f"'graph.cast' to must be an integer or float type, got {to}")

    @classmethod
    def output_elements(cls, props, elements):
        return [props["to"]]


@irdl_op_definition
class AddOp(BinaryOp):
    name = "graph.add"


@irdl_op_definition
class SubOp(BinaryOp):
    name = "graph.sub"


@irdl_op_definition
class MulOp(BinaryOp):
    name = "graph.mul"


@irdl_op_definition
class DivOp(BinaryOp):
    name = "graph.div"


@irdl_op_definition
class PowOp(BinaryOp):
    name = "graph.pow"


@irdl_op_definition
class EqualOp(CompareOp):
    name = "graph.equal"


@irdl_op_definition
class LessOp(CompareOp):
    name = "graph.less"


@irdl_op_definition
class GreaterOp(CompareOp):
    name = "graph.greater"


@irdl_op_definition
class WhereOp(GraphOp):
    name = "graph.where"
    condition = operand_def(TensorType)
    X = operand_def(TensorType)
    Y = operand_def(TensorType)
    output = result_def(TensorType)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if types[0].element_type != IntegerType(1):
            raise VerifyException("'graph.where' condition must be a bool (i1) tensor")
        if types[1].element_type != types[2].element_type:
            raise VerifyException("'graph.where' branches have different element types")

    @classmethod
    def output_dims(cls, props, dims, consts):
        return [D.broadcast(dims)]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[1]]


@irdl_op_definition
class SumOp(VariadicOp):
    name = "graph.sum"


@irdl_op_definition
class MaxOp(VariadicOp):
    name = "graph.max"


@irdl_op_definition
class MinOp(VariadicOp):
    name = "graph.min"


@irdl_op_definition
class MeanOp(VariadicOp):
    name = "graph.mean"


# ---------------------------------------------------------------------------------------
# Linear algebra and convolution
# ---------------------------------------------------------------------------------------


def _same_float(cls: type[GraphOp], types: list[TensorType]) -> None:
    e = types[0].element_type
    if not is_float(e):
        raise VerifyException(f"'{cls.name}' expects floating-point tensors, got {types[0]}")
    for t in types[1:]:
        if t.element_type != e:
            raise VerifyException(
                f"'{cls.name}' operands have different element types: {e} and {t.element_type}"
            )


# Activations that conv / gemm / matmul apply to their result (an epilogue fused by the
# graph optimizer): name -> number of `activation_params`.
ACTIVATIONS: dict[str, int] = {
    "relu": 0,
    "clip": 2,  # min, max
    "sigmoid": 0,
    "tanh": 0,
    "hard_sigmoid": 2,  # alpha, beta
    "hard_swish": 0,
    "leaky_relu": 1,  # alpha
    "gelu": 0,
    "gelu_tanh": 0,
}


def activation_of(props: Mapping[str, Attribute]) -> tuple[str, list[float]] | None:
    """The fused activation of a conv / gemm / matmul and its parameters, or None."""
    name = props.get("activation")
    if name is None:
        return None
    params = props.get("activation_params")
    values = [] if params is None else [float(v) for v in cast(DenseArrayBase, params).get_values()]
    return cast(StringAttr, name).data, values


def _check_activation(cls: type[GraphOp], props: Mapping[str, Attribute]) -> None:
    if props.get("activation_params") is not None and props.get("activation") is None:
        raise VerifyException(f"'{cls.name}' has activation_params but no activation")
    act = activation_of(props)
    if act is None:
        return
    name, params = act
    if name not in ACTIVATIONS:
        raise VerifyException(
            f"'{cls.name}' unknown activation \"{name}\" (known: {', '.join(ACTIVATIONS)})"
        )
    if len(params) != ACTIVATIONS[name]:
        raise VerifyException(
            f"'{cls.name}' activation \"{name}\" takes {ACTIVATIONS[name]} params, "
            f"got {len(params)}"
        )


@irdl_op_definition
class MatMulOp(GraphOp):
    """numpy.matmul: batch dims broadcast, 1-D operands promoted and the dim dropped."""

    name = "graph.matmul"
    A = operand_def(TensorType)
    B = operand_def(TensorType)
    Y = result_def(TensorType)
    activation = opt_prop_def(StringAttr)
    activation_params = opt_prop_def(DenseArrayBase)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        _same_float(cls, types)
        _check_activation(cls, props)

    @classmethod
    def output_dims(cls, props, dims, consts):
        a, b = dims
        if not a or not b:
            raise ValueError("operands must have rank >= 1")
        a2 = [1, *a] if len(a) == 1 else list(a)
        b2 = [*b, 1] if len(b) == 1 else list(b)
        k_a, k_b = a2[-1], b2[-2]
        if isinstance(k_a, int) and isinstance(k_b, int) and k_a != k_b:
            raise ValueError(
                f"contraction dims differ: {D.format_shape(a)} x {D.format_shape(b)}"
            )
        batch = D.broadcast([a2[:-2], b2[:-2]])
        out = [*batch, a2[-2], b2[-1]]
        if len(a) == 1:
            out.pop(-2)
        if len(b) == 1:
            out.pop(-1)
        return [out]


@irdl_op_definition
class GemmOp(GraphOp):
    """Y = alpha * A' @ B' + beta * C, with A' = A^T if transA, C broadcast to (M, N)."""

    name = "graph.gemm"
    A = operand_def(TensorType)
    B = operand_def(TensorType)
    C = var_operand_def(TensorType)
    Y = result_def(TensorType)
    alpha = prop_def(FloatAttr, default_value=float_attr(1.0))
    beta = prop_def(FloatAttr, default_value=float_attr(1.0))
    transA = prop_def(IntegerAttr, default_value=int_attr(0))
    transB = prop_def(IntegerAttr, default_value=int_attr(0))
    activation = opt_prop_def(StringAttr)
    activation_params = opt_prop_def(DenseArrayBase)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        _same_float(cls, types)
        _check_activation(cls, props)
        if len(types) > 3:
            raise VerifyException("'graph.gemm' takes at most one bias")

    @classmethod
    def output_dims(cls, props, dims, consts):
        a, b = dims[0], dims[1]
        if len(a) != 2 or len(b) != 2:
            raise ValueError(f"A and B must be 2-D, got {D.format_shape(a)}, {D.format_shape(b)}")
        m, k = (a[1], a[0]) if get_int(props, "transA", 0) else (a[0], a[1])
        k2, n = (b[1], b[0]) if get_int(props, "transB", 0) else (b[0], b[1])
        if isinstance(k, int) and isinstance(k2, int) and k != k2:
            raise ValueError(f"contraction dims differ: {k} and {k2}")
        if len(dims) == 3:
            D.broadcast([[m, n], dims[2]])
            if len(dims[2]) > 2:
                raise ValueError("C must be broadcastable to (M, N)")
        return [[m, n]]


def _check_broadcasts_to(p: Sequence[Dim], x: Sequence[Dim], what: str) -> None:
    """Raise ValueError unless `p` broadcasts to `x` without growing it."""
    if len(p) > len(x):
        raise ValueError(f"{what} {D.format_shape(p)} outranks {D.format_shape(x)}")
    for d, e in zip(reversed(p), reversed(x), strict=False):  # p may be shorter
        if isinstance(d, int) and d != 1 and isinstance(e, int) and d != e:
            raise ValueError(f"{what} {D.format_shape(p)} does not broadcast to "
                             f"{D.format_shape(x)}")


@irdl_op_definition
class AttentionOp(GraphOp):
    """Y = softmax(scale * Q @ K^T + mask, axis=-1) @ V: scaled dot-product attention.

    Q is [..., M, D]; K is [..., N, D], or K^T [..., D, N] when `k_transposed` = 1; V is
    [..., N, Dv]; batch dims broadcast as in MatMul; the optional additive mask broadcasts
    to the scores [..., M, N]. Y is [..., M, Dv].
    """

    name = "graph.attention"
    Q = operand_def(TensorType)
    K = operand_def(TensorType)
    V = operand_def(TensorType)
    mask = var_operand_def(TensorType)
    Y = result_def(TensorType)
    scale = prop_def(FloatAttr, default_value=float_attr(1.0))
    k_transposed = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        _same_float(cls, types)
        if len(types) > 4:
            raise VerifyException("'graph.attention' takes at most one mask")

    @classmethod
    def output_dims(cls, props, dims, consts):
        q, k, v = dims[:3]
        if min(len(q), len(k), len(v)) < 2:
            raise ValueError("Q, K and V must have rank >= 2")
        n, d = (k[-1], k[-2]) if get_int(props, "k_transposed", 0) else (k[-2], k[-1])
        for a, c, what in ((q[-1], d, "Q and K depths"), (n, v[-2], "K and V lengths")):
            if isinstance(a, int) and isinstance(c, int) and a != c:
                raise ValueError(f"{what} differ: {a} and {c}")
        batch = D.broadcast([q[:-2], k[:-2], v[:-2]])
        if len(dims) == 4:
            _check_broadcasts_to(dims[3], [*batch, q[-2], n], "mask")
        return [[*batch, q[-2], v[-1]]]


def _spatial_attrs(props, n: int, kernel: Sequence[int]):
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
    return out


class ConvLikeOp(GraphOp, ABC):
    """Operands and properties shared by graph.conv and graph.conv_nchwc: X, W, then
    optionally the bias B [M] and, after it, a summand Z of Y's shape (a residual Add fused
    by the graph optimizer; B is then present, zero if need be);
    Y = activation(conv(X, W) + B + Z)."""

    X = operand_def(TensorType)
    W = operand_def(TensorType)
    B = var_operand_def(TensorType)
    Y = result_def(TensorType)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    dilations = opt_prop_def(DenseArrayBase)
    group = prop_def(IntegerAttr, default_value=int_attr(1))
    activation = opt_prop_def(StringAttr)
    activation_params = opt_prop_def(DenseArrayBase)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        _same_float(cls, types)
        _check_activation(cls, props)
        if len(types) > 4:
            raise VerifyException(f"'{cls.name}' takes at most a bias and a summand")


@irdl_op_definition
class ConvOp(ConvLikeOp):
    """N-D convolution, NCHW layout; pads are [begin..., end...] (auto_pad resolved).

    Y = activation(conv(X, W) + B + Z), B and Z optional (see ConvLikeOp).
    """

    name = "graph.conv"

    @classmethod
    def output_dims(cls, props, dims, consts):
        out = cls._conv_dims(props, dims[:3])
        _check_summand(dims, out[0])
        return out

    @classmethod
    def _conv_dims(cls, props, dims):
        x, w = dims[0], dims[1]
        if len(x) < 3 or len(w) != len(x):
            raise ValueError(
                f"X {D.format_shape(x)} and W {D.format_shape(w)} must have one rank >= 3"
            )
        n = len(x) - 2
        kernel = w[2:]
        if not all(isinstance(k, int) for k in kernel):
            raise ValueError("kernel dims must be static")
        g = get_int(props, "group", 1)
        if g < 1:
            raise ValueError(f"group must be >= 1, got {g}")
        c_in, m = x[1], w[0]
        if isinstance(m, int) and m % g:
            raise ValueError(f"output channels {m} not divisible by group {g}")
        if isinstance(c_in, int) and isinstance(w[1], int) and c_in != w[1] * g:
            raise ValueError(f"input channels {c_in} != {w[1]} x group {g}")
        if len(dims) == 3 and (len(dims[2]) != 1 or
                               (isinstance(dims[2][0], int) and isinstance(m, int)
                                and dims[2][0] != m)):
            raise ValueError(f"bias {D.format_shape(dims[2])} must be [{m}]")
        strides, dilations, pads = _spatial_attrs(props, n, cast(list[int], kernel))
        spatial = [
            window_out(x[2 + i], cast(int, kernel[i]), strides[i], dilations[i], pads[i],
                       pads[n + i])
            for i in range(n)
        ]
        return [[x[0], m, *spatial]]


class PoolOp(GraphOp, ABC):
    X = operand_def(TensorType)
    Y = result_def(TensorType)
    kernel_shape = prop_def(DenseArrayBase)
    strides = opt_prop_def(DenseArrayBase)
    pads = opt_prop_def(DenseArrayBase)
    dilations = opt_prop_def(DenseArrayBase)
    ceil_mode = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if not is_float(types[0].element_type):
            raise VerifyException(f"'{cls.name}' expects a floating-point tensor")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(x) < 3:
            raise ValueError(f"input {D.format_shape(x)} must have rank >= 3")
        n = len(x) - 2
        kernel = get_ints(props, "kernel_shape") or []
        strides, dilations, pads = _spatial_attrs(props, n, kernel)
        ceil = bool(get_int(props, "ceil_mode", 0))
        spatial = [
            window_out(x[2 + i], kernel[i], strides[i], dilations[i], pads[i], pads[n + i], ceil)
            for i in range(n)
        ]
        return [[x[0], x[1], *spatial]]


@irdl_op_definition
class MaxPoolOp(PoolOp):
    name = "graph.max_pool"


@irdl_op_definition
class AveragePoolOp(PoolOp):
    name = "graph.average_pool"
    count_include_pad = prop_def(IntegerAttr, default_value=int_attr(0))


class GlobalPoolOp(GraphOp, ABC):
    X = operand_def(TensorType)
    Y = result_def(TensorType)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if not is_float(types[0].element_type) or len(types[0].get_shape()) < 3:
            raise VerifyException(f"'{cls.name}' expects a float tensor of rank >= 3")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        return [[x[0], x[1], *([1] * (len(x) - 2))]]


@irdl_op_definition
class GlobalAveragePoolOp(GlobalPoolOp):
    name = "graph.global_average_pool"


@irdl_op_definition
class GlobalMaxPoolOp(GlobalPoolOp):
    name = "graph.global_max_pool"


def _check_summand(dims: list[list[Dim]], out: list[Dim]) -> None:
    """A conv's optional 4th operand Z is added to Y: it must have Y's dims."""
    z = dims[3] if len(dims) == 4 else out
    if len(z) != len(out) or any(
        isinstance(a, int) and isinstance(b, int) and a != b for a, b in zip(z, out, strict=False)
    ):
        raise ValueError(
            f"summand {D.format_shape(dims[3])} must have the output's shape "
            f"{D.format_shape(out)}"
        )


# ---------------------------------------------------------------------------------------
# Blocked channel layout (NCHWc), introduced by graph-optimize level 3
#
# A blocked tensor [N, C/c, *spatial, c] holds channel k*c + j at [:, k, ..., j]: the c
# channels of a block are contiguous, so a kernel computes c output channels as one
# vector (c = 16 with AVX-512, 8 with AVX2) with every input pixel broadcast once per
# block. The layout pass (transforms/layout.py) converts convs whose channels divide by
# c (and image stems, which read their few input channels in NCHW), lets elementwise
# ops, pooling, BatchNormalization and channel concats work on the blocked tensors in
# between, and reorders back where an op needs NCHW.
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class ToNchwcOp(GraphOp):
    """[N, C, *spatial] -> [N, C/block, *spatial, block]; C must divide by `block`."""

    name = "graph.to_nchwc"
    X = operand_def(TensorType)
    Y = result_def(TensorType)
    block = prop_def(IntegerAttr)
    traits = _TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        c = get_int(props, "block", 0)
        if len(x) < 3 or c < 1:
            raise ValueError(f"needs rank >= 3 and block >= 1, got {D.format_shape(x)}, {c}")
        if not isinstance(x[1], int) or x[1] % c:
            raise ValueError(f"channels {x[1]} must be static and divide by the block {c}")
        return [[x[0], x[1] // c, *x[2:], c]]


@irdl_op_definition
class FromNchwcOp(GraphOp):
    """[N, C/c, *spatial, c] -> [N, C, *spatial]: back to plain NCHW."""

    name = "graph.from_nchwc"
    X = operand_def(TensorType)
    Y = result_def(TensorType)
    traits = _TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(x) < 4 or not isinstance(x[1], int) or not isinstance(x[-1], int):
            raise ValueError(f"expects a blocked tensor [N, C/c, ..., c], got {D.format_shape(x)}")
        return [[x[0], x[1] * x[-1], *x[2:-1]]]


@irdl_op_definition
class ConvNchwcOp(ConvLikeOp):
    """graph.conv on blocked tensors: X [N, C/c, *sp, c] -> Y [N, M/c, *osp, c].

    W is packed [M/c, Cg/ci, *kernel, ci, c] where Cg = C/group is the input channels of a
    group and ci = min(c, Cg) (ci = 1 for a depthwise conv): output channel m of input
    channel j (within m's group) tap t has weight W[m // c, j // ci, t, j % ci, m % c].
    B is [M] as in graph.conv; the optional summand Z is blocked like Y. Properties are
    graph.conv's (strides, pads, dilations, group, activation).

    X may also be plain NCHW [N, C, *sp] (rank W's - 2; group 1, ci = Cg = C, W packed
    [M/c, 1, *kernel, C, c]): y[n, m, o] = sum_{j, t} W[m // c, 0, t, j, m % c] *
    x[n, j, o*s - p + t*d]. That is the image stem, whose few channels fill no block: it
    reads its input as is and writes blocked.
    """

    name = "graph.conv_nchwc"

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, w = dims[0], dims[1]
        n = len(w) - 4
        plain = len(x) == n + 2  # an NCHW input [N, C, *sp]
        if n < 1 or len(x) != n + (2 if plain else 3):
            raise ValueError(
                f"X {D.format_shape(x)} and W {D.format_shape(w)} are not a blocked (or NCHW) "
                "input [N, C/c, *sp, c] and packed weights [M/c, Cg/ci, *k, ci, c]"
            )
        if not all(isinstance(d, int) for d in [x[1], *w, *([] if plain else [x[-1]])]):
            raise ValueError("channels, blocks and weights must be static")
        mb, cgb, ci, co = cast(int, w[0]), cast(int, w[1]), cast(int, w[-2]), cast(int, w[-1])
        c = co if plain else cast(int, x[-1])
        cin = cast(int, x[1]) * (1 if plain else c)
        g = get_int(props, "group", 1)
        if plain and (g != 1 or cgb != 1 or ci != cin):
            raise ValueError(
                f"W {D.format_shape(w)} does not pack an NCHW input of {cin} channels "
                f"[M/c, 1, *k, {cin}, c] (group 1 only)"
            )
        if co != c or g < 1 or cin % g or cgb * ci * g != cin or (mb * c) % g:
            raise ValueError(
                f"W {D.format_shape(w)} does not pack {cin} input channels in {g} groups "
                f"with block {c}"
            )
        if len(dims) >= 3 and (len(dims[2]) != 1 or dims[2][0] not in (mb * c, DYN)):
            raise ValueError(f"bias {D.format_shape(dims[2])} must be [{mb * c}]")
        kernel = cast(list[int], w[2:-2])
        strides, dilations, pads = _spatial_attrs(props, n, kernel)
        spatial = [
            window_out(x[2 + i], kernel[i], strides[i], dilations[i], pads[i], pads[n + i])
            for i in range(n)
        ]
        out = [x[0], mb, *spatial, c]
        _check_summand(dims, out)
        return [out]


class PoolNchwcOp(PoolOp, ABC):
    """A pool of PoolOp's attributes on a blocked tensor [N, C/c, *sp, c]."""

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(x) < 4:
            raise ValueError(f"input {D.format_shape(x)} must be blocked [N, C/c, *sp, c]")
        (y,) = super().output_dims(props, [x[:-1]], consts)
        return [[*y, x[-1]]]


@irdl_op_definition
class MaxPoolNchwcOp(PoolNchwcOp):
    name = "graph.max_pool_nchwc"


@irdl_op_definition
class AveragePoolNchwcOp(PoolNchwcOp):
    name = "graph.average_pool_nchwc"
    count_include_pad = prop_def(IntegerAttr, default_value=int_attr(0))


@irdl_op_definition
class BatchNormalizationOp(GraphOp):
    """Inference form: Y = (X - mean) / sqrt(var + epsilon) * scale + B, per channel."""

    name = "graph.batch_normalization"
    X = operand_def(TensorType)
    scale = operand_def(TensorType)
    B = operand_def(TensorType)
    mean = operand_def(TensorType)
    var = operand_def(TensorType)
    Y = result_def(TensorType)
    epsilon = prop_def(FloatAttr, default_value=float_attr(1e-5))
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        _same_float(cls, types)

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(x) < 2:
            raise ValueError(f"input {D.format_shape(x)} must have rank >= 2")
        for p in dims[1:]:
            if len(p) != 1 or (isinstance(p[0], int) and isinstance(x[1], int) and p[0] != x[1]):
                raise ValueError(f"parameter {D.format_shape(p)} must be [{x[1]}]")
        return [list(x)]


@irdl_op_definition
class LRNOp(GraphOp):
    name = "graph.lrn"
    X = operand_def(TensorType)
    Y = result_def(TensorType)
    size = prop_def(IntegerAttr)
    alpha = prop_def(FloatAttr, default_value=float_attr(1e-4))
    beta = prop_def(FloatAttr, default_value=float_attr(0.75))
    bias = prop_def(FloatAttr, default_value=float_attr(1.0))
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if not is_float(types[0].element_type) or len(types[0].get_shape()) < 3:
            raise VerifyException("'graph.lrn' expects a float tensor of rank >= 3")
        if get_int(props, "size", 1) < 1:
            raise VerifyException("'graph.lrn' size must be >= 1")


@irdl_op_definition
class LayerNormalizationOp(GraphOp):
    """Y = (X - mean) / sqrt(var + epsilon) * Scale + B, mean and var over axes axis.. .

    ONNX LayerNormalization's Y (the Mean and InvStdDev outputs are not supported); Scale
    and the optional B broadcast to X's shape.
    """

    name = "graph.layer_normalization"
    X = operand_def(TensorType)
    Scale = operand_def(TensorType)
    B = var_operand_def(TensorType)
    Y = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(-1))
    epsilon = prop_def(FloatAttr, default_value=float_attr(1e-5))
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        _same_float(cls, types)
        if len(types) > 3:
            raise VerifyException("'graph.layer_normalization' takes at most one bias")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        _normalize_axis(get_int(props, "axis", -1), len(x), "axis")
        for p, what in zip(dims[1:], ("Scale", "B"), strict=False):
            _check_broadcasts_to(p, x, what)
        return [list(x)]


class AxisSoftmaxOp(GraphOp, ABC):
    input = operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(-1))
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if not is_float(types[0].element_type):
            raise VerifyException(f"'{cls.name}' expects a floating-point tensor")
        rank = len(types[0].get_shape())
        try:
            _normalize_axis(get_int(props, "axis", -1), rank, "axis")
        except ValueError as e:
            raise VerifyException(f"'{cls.name}': {e}") from e


@irdl_op_definition
class SoftmaxOp(AxisSoftmaxOp):
    name = "graph.softmax"


@irdl_op_definition
class LogSoftmaxOp(AxisSoftmaxOp):
    name = "graph.log_softmax"


class ReduceOp(GraphOp, ABC):
    """Reduction over `axes` (an optional 1-D i64 operand; none means all axes)."""

    data = operand_def(TensorType)
    axes = var_operand_def(TensorType)
    reduced = result_def(TensorType)
    keepdims = prop_def(IntegerAttr, default_value=int_attr(1))
    noop_with_empty_axes = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = _TRAITS

    @classmethod
    def reduced_axes(cls, props, rank: int, consts: list[np.ndarray | None]) -> list[int]:
        if len(consts) < 2:
            return [] if get_int(props, "noop_with_empty_axes", 0) else list(range(rank))
        axes = _const_ints(consts, 1, "axes")
        if axes is None:
            raise ValueError("axes must be a constant")
        if not axes and not get_int(props, "noop_with_empty_axes", 0):
            return list(range(rank))
        return sorted({_normalize_axis(a, rank, "axis") for a in axes})

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        axes = cls.reduced_axes(props, len(x), consts)
        keep = get_int(props, "keepdims", 1)
        return [[1 if i in axes else d for i, d in enumerate(x) if keep or i not in axes]]


@irdl_op_definition
class ReduceMeanOp(ReduceOp):
    name = "graph.reduce_mean"


@irdl_op_definition
class ReduceSumOp(ReduceOp):
    name = "graph.reduce_sum"


@irdl_op_definition
class ReduceMaxOp(ReduceOp):
    name = "graph.reduce_max"


@irdl_op_definition
class ReduceMinOp(ReduceOp):
    name = "graph.reduce_min"


# ---------------------------------------------------------------------------------------
# Shape manipulation
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class ReshapeOp(GraphOp):
    """Reshape to the 1-D i64 `shape` operand; 0 copies the input dim, -1 is inferred."""

    name = "graph.reshape"
    data = operand_def(TensorType)
    shape = operand_def(TensorType)
    reshaped = result_def(TensorType)
    allowzero = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if types[1].element_type != i64 or len(types[1].get_shape()) != 1:
            raise VerifyException("'graph.reshape' shape must be a 1-D i64 tensor")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        shape: Sequence[Dim] | None = _const_ints(consts, 1, "shape")
        if shape is None:
            shape = _symbolic_dims(consts, 1)
        if shape is None:
            n = dims[1][0]
            if not isinstance(n, int):
                raise ValueError("shape operand of unknown length")
            return [[DYN] * n]
        return [reshape_dims(x, shape, bool(get_int(props, "allowzero", 0)))]


def reshape_dims(x: Sequence[Dim], shape: Sequence[Dim], allowzero: bool = False) -> list[Dim]:
    """Output dims of Reshape(x, shape) following ONNX's 0 / -1 rules.

    Non-int entries of `shape` are sizes given as dims of some tensor (never -1; taken as
    they are: only a zero-sized tensor would make one 0)."""
    if shape.count(-1) > 1:
        raise ValueError(f"shape {list(shape)} has more than one -1")
    out: list[Dim] = []
    for i, s in enumerate(shape):
        if not isinstance(s, int):
            out.append(s)
        elif s == 0 and not allowzero:
            if i >= len(x):
                raise ValueError(f"shape {list(shape)} copies dim {i} of a rank-{len(x)} input")
            out.append(x[i])
        elif s < -1:
            raise ValueError(f"invalid dim {s} in shape {list(shape)}")
        else:
            out.append(s)
    if -1 in shape:
        j = list(shape).index(-1)
        # Dims copied by 0 cancel out of both products, so [N, 3, 4] -> [0, -1] is [N, 12].
        copied = {i for i, s in enumerate(shape) if isinstance(s, int) and s == 0 and not allowzero}
        known = D.product([d for i, d in enumerate(out) if i != j and i not in copied])
        total = D.product([d for i, d in enumerate(x) if i not in copied])
        if isinstance(known, int) and isinstance(total, int):
            if known == 0 or total % known:
                raise ValueError(f"cannot reshape {D.format_shape(x)} to {list(shape)}")
        out[j] = total // known
    else:
        total, new = D.product(x), D.product(out)
        if isinstance(total, int) and isinstance(new, int) and total != new:
            raise ValueError(f"cannot reshape {D.format_shape(x)} to {list(shape)}")
    return out


@irdl_op_definition
class FlattenOp(GraphOp):
    name = "graph.flatten"
    input = operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(1))
    traits = _TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        axis = get_int(props, "axis", 1)
        if not -len(x) <= axis <= len(x):
            raise ValueError(f"axis {axis} is out of range for rank {len(x)}")
        axis = axis + len(x) if axis < 0 else axis
        return [[D.product(x[:axis]), D.product(x[axis:])]]


@irdl_op_definition
class TransposeOp(GraphOp):
    name = "graph.transpose"
    data = operand_def(TensorType)
    transposed = result_def(TensorType)
    perm = opt_prop_def(DenseArrayBase)
    traits = _TRAITS

    @classmethod
    def permutation(cls, props, rank: int) -> list[int]:
        perm = get_ints(props, "perm")
        return list(reversed(range(rank))) if perm is None else perm

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        perm = cls.permutation(props, len(x))
        if sorted(perm) != list(range(len(x))):
            raise ValueError(f"perm {perm} is not a permutation of {len(x)} axes")
        return [[x[p] for p in perm]]


@irdl_op_definition
class ChannelShuffleOp(GraphOp):
    """y[:, i*g + j] = x[:, j*(C/g) + i]: channels seen as [g, C/g], transposed (ShuffleNet).

    What Reshape(N, g, C/g, ...) → Transpose(0, 2, 1, ...) → Reshape(N, C, ...) computes."""

    name = "graph.channel_shuffle"
    input = operand_def(TensorType)
    output = result_def(TensorType)
    groups = prop_def(IntegerAttr)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if get_int(props, "groups", 1) < 1:
            raise VerifyException("'graph.channel_shuffle' groups must be >= 1")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        g = get_int(props, "groups", 1)
        if len(x) < 2:
            raise ValueError(f"input of rank {len(x)} has no channel dim")
        if isinstance(x[1], int) and x[1] % g:
            raise ValueError(f"{x[1]} channels do not split into {g} groups")
        return [list(x)]


@irdl_op_definition
class ShapeOp(GraphOp):
    name = "graph.shape"
    data = operand_def(TensorType)
    shape = result_def(TensorType)
    start = prop_def(IntegerAttr, default_value=int_attr(0))
    end = opt_prop_def(IntegerAttr)
    traits = _TRAITS

    @classmethod
    def bounds(cls, props, rank: int) -> tuple[int, int]:
        start = get_int(props, "start", 0)
        end = get_int(props, "end", rank)
        start = min(max(start + rank if start < 0 else start, 0), rank)
        end = min(max(end + rank if end < 0 else end, 0), rank)
        return start, max(start, end)

    @classmethod
    def output_dims(cls, props, dims, consts):
        start, end = cls.bounds(props, len(dims[0]))
        return [[end - start]]

    @classmethod
    def output_elements(cls, props, elements):
        return [i64]


@irdl_op_definition
class GatherOp(GraphOp):
    name = "graph.gather"
    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    output = result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(0))
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        e = types[1].element_type
        if not (isinstance(e, IntegerType) and e.width.data in (32, 64)):
            raise VerifyException("'graph.gather' indices must be i32 or i64")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x, idx = dims
        axis = _normalize_axis(get_int(props, "axis", 0), len(x), "axis")
        return [[*x[:axis], *idx, *x[axis + 1 :]]]


@irdl_op_definition
class SliceOp(GraphOp):
    """data[starts:ends:steps] along `axes`; all four are 1-D constant operands."""

    name = "graph.slice"
    data = operand_def(TensorType)
    starts = operand_def(TensorType)
    ends = operand_def(TensorType)
    axes = operand_def(TensorType)
    steps = operand_def(TensorType)
    output = result_def(TensorType)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        for t in types[1:]:
            if len(t.get_shape()) != 1 or t.element_type not in (i64, IntegerType(32)):
                raise VerifyException("'graph.slice' starts/ends/axes/steps must be 1-D ints")

    @classmethod
    def normalized(cls, x: Sequence[Dim], consts) -> list[tuple[int, int, int, int]] | None:
        """(axis, start, end, step) per sliced axis, clamped, or None when not constant."""
        vals = [_const_ints(consts, i, "") for i in range(1, 5)]
        if any(v is None for v in vals):
            return None
        starts, ends, axes, steps = cast(list[list[int]], vals)
        if not len(starts) == len(ends) == len(axes) == len(steps):
            raise ValueError("starts, ends, axes and steps differ in length")
        out = []
        for s, e, a, st in zip(starts, ends, axes, steps, strict=True):
            a = _normalize_axis(a, len(x), "axis")
            if st == 0:
                raise ValueError("slice step must not be 0")
            out.append((a, s, e, st))
        return out

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = list(dims[0])
        spec = cls.normalized(x, consts)
        if spec is None:
            # Bounds computed at run time (PyTorch's chunk: ends = (C + 1) / 2 from Shape):
            # the sliced axes are dynamic until shape fusion makes the bounds constants.
            axes = _const_ints(consts, 3, "axes")
            if axes is None:
                return [[DYN] * len(x)]
            sliced = {_normalize_axis(a, len(x), "axis") for a in axes}
            return [[DYN if i in sliced else d for i, d in enumerate(x)]]
        for a, s, e, st in spec:
            n = x[a]
            if not isinstance(n, int):
                x[a] = DYN  # clamping to the run-time size decides; the lowering computes it
                continue
            x[a] = len(range(*slice(s, e, st).indices(n)))
        return [x]


@irdl_op_definition
class ConcatOp(GraphOp):
    name = "graph.concat"
    inputs = var_operand_def(TensorType)
    concat_result = result_def(TensorType)
    axis = prop_def(IntegerAttr)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if not types:
            raise VerifyException("'graph.concat' needs at least one input")
        if any(t.element_type != types[0].element_type for t in types):
            raise VerifyException("'graph.concat' inputs have different element types")

    @classmethod
    def output_dims(cls, props, dims, consts):
        rank = len(dims[0])
        axis = _normalize_axis(get_int(props, "axis", 0), rank, "axis")
        out = list(dims[0])
        total: Dim = 0
        for s in dims:
            if len(s) != rank:
                raise ValueError("inputs have different ranks")
            for i, d in enumerate(s):
                if i != axis and isinstance(d, int) and isinstance(out[i], int) and d != out[i]:
                    raise ValueError(f"inputs differ in dim {i}: {out[i]} and {d}")
                if i != axis and not isinstance(out[i], int):
                    out[i] = d
            total = total + s[axis]
        out[axis] = total
        return [out]


class AxesOp(GraphOp, ABC):
    data = operand_def(TensorType)
    axes = var_operand_def(TensorType)
    output = result_def(TensorType)
    traits = _TRAITS


@irdl_op_definition
class UnsqueezeOp(AxesOp):
    name = "graph.unsqueeze"

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        axes = _const_ints(consts, 1, "axes")
        if axes is None:
            raise ValueError("axes must be a constant")
        rank = len(x) + len(axes)
        norm = sorted(_normalize_axis(a, rank, "axis") for a in axes)
        if len(set(norm)) != len(norm):
            raise ValueError(f"repeated axis in {axes}")
        out: list[Dim] = []
        it = iter(x)
        for i in range(rank):
            out.append(1 if i in norm else next(it))
        return [out]


@irdl_op_definition
class SqueezeOp(AxesOp):
    name = "graph.squeeze"

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        if len(dims) < 2:
            if not all(isinstance(d, int) for d in x):
                raise ValueError("squeezing all unit dims needs a static shape")
            return [[d for d in x if d != 1]]
        axes = _const_ints(consts, 1, "axes")
        if axes is None:
            raise ValueError("axes must be a constant")
        norm = {_normalize_axis(a, len(x), "axis") for a in axes}
        for a in norm:
            if isinstance(x[a], int) and x[a] != 1:
                raise ValueError(f"cannot squeeze axis {a} of size {x[a]}")
        return [[d for i, d in enumerate(x) if i not in norm]]


@irdl_op_definition
class ExpandOp(GraphOp):
    name = "graph.expand"
    input = operand_def(TensorType)
    shape = operand_def(TensorType)
    output = result_def(TensorType)
    traits = _TRAITS

    @classmethod
    def output_dims(cls, props, dims, consts):
        shape: Sequence[Dim] | None = _const_ints(consts, 1, "shape")
        if shape is None:
            shape = _symbolic_dims(consts, 1)
        if shape is None:  # known at run time only: each entry is dynamic
            n = dims[1][0] if len(dims[1]) == 1 else None
            if not isinstance(n, int):
                raise ValueError("shape must be a 1-D tensor of static length")
            shape = [DYN] * n
        return [D.broadcast([dims[0], shape])]


@irdl_op_definition
class SplitOp(GraphOp):
    name = "graph.split"
    input = operand_def(TensorType)
    split = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    axis = prop_def(IntegerAttr, default_value=int_attr(0))
    num_outputs = prop_def(IntegerAttr)
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if get_int(props, "num_outputs", 1) < 1:
            raise VerifyException("'graph.split' num_outputs must be >= 1")

    @classmethod
    def sizes(cls, props, x: Sequence[Dim], consts) -> list[Dim]:
        axis = _normalize_axis(get_int(props, "axis", 0), len(x), "axis")
        n = get_int(props, "num_outputs", 1)
        split = _const_ints(consts, 1, "split")
        if split is None and len(consts) > 1:
            return [DYN] * n  # sizes known only at run time
        if split is not None:
            if len(split) != n:
                raise ValueError(f"split has {len(split)} sizes for {n} outputs")
            if min(split) < 0 or (isinstance(x[axis], int) and sum(split) != x[axis]):
                raise ValueError(f"split sizes {split} do not add up to dim {x[axis]}")
            return list(split)
        d = x[axis]
        part = D.ceil_div(d, n)
        return [part] * (n - 1) + [d - part * (n - 1)]

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        axis = _normalize_axis(get_int(props, "axis", 0), len(x), "axis")
        return [[s if i == axis else d for i, d in enumerate(x)]
                for s in cls.sizes(props, x, consts)]

    @classmethod
    def output_elements(cls, props, elements):
        return [elements[0]] * get_int(props, "num_outputs", 1)


@irdl_op_definition
class PadOp(GraphOp):
    """Pad `data` by the 1-D i64 constant `pads` ([begin..., end...] per axis; negative
    crops); mode "constant" fills with the scalar `constant_value`."""

    name = "graph.pad"
    data = operand_def(TensorType)
    pads = operand_def(TensorType)
    constant_value = operand_def(TensorType)
    output = result_def(TensorType)
    mode = prop_def(StringAttr, default_value=StringAttr("constant"))
    traits = _TRAITS

    @classmethod
    def check(cls, props, types):
        if types[1].element_type != i64 or len(types[1].get_shape()) != 1:
            raise VerifyException("'graph.pad' pads must be a 1-D i64 tensor")
        if types[2].get_shape() not in ((), (1,)) or types[2].element_type != types[0].element_type:
            raise VerifyException("'graph.pad' constant_value must be a scalar of data's type")
        if get_str(props, "mode", "constant") not in ("constant", "reflect", "edge", "wrap"):
            raise VerifyException("'graph.pad' mode must be constant, reflect, edge or wrap")

    @classmethod
    def output_dims(cls, props, dims, consts):
        x = dims[0]
        pads = _const_ints(consts, 1, "pads")
        if pads is None:  # sizes known at run time only (the lowering needs constants)
            return [[DYN] * len(x)]
        if len(pads) != 2 * len(x):
            raise ValueError(f"pads has {len(pads)} values for rank {len(x)}")
        out = [d + (pads[i] + pads[len(x) + i]) for i, d in enumerate(x)]
        if any(isinstance(d, int) and d < 0 for d in out):
            raise ValueError(f"pads {pads} crop {D.format_shape(x)} below size 0")
        return [out]


GRAPH = Dialect(
    "graph",
    [
        ConstantOp,
        ConstantOfShapeOp,
        RangeOp,
        ReluOp,
        SigmoidOp,
        TanhOp,
        ExpOp,
        LogOp,
        SqrtOp,
        ErfOp,
        ReciprocalOp,
        FloorOp,
        CeilOp,
        NegOp,
        AbsOp,
        IdentityOp,
        DropoutOp,
        LeakyReluOp,
        HardSigmoidOp,
        HardSwishOp,
        GeluOp,
        ClipOp,
        CastOp,
        AddOp,
        SubOp,
        MulOp,
        DivOp,
        PowOp,
        EqualOp,
        LessOp,
        GreaterOp,
        WhereOp,
        SumOp,
        MaxOp,
        MinOp,
        MeanOp,
        MatMulOp,
        GemmOp,
        AttentionOp,
        ConvOp,
        MaxPoolOp,
        AveragePoolOp,
        GlobalAveragePoolOp,
        GlobalMaxPoolOp,
        ToNchwcOp,
        FromNchwcOp,
        ConvNchwcOp,
        MaxPoolNchwcOp,
        AveragePoolNchwcOp,
        BatchNormalizationOp,
        LRNOp,
        LayerNormalizationOp,
        SoftmaxOp,
        LogSoftmaxOp,
        ReduceMeanOp,
        ReduceSumOp,
        ReduceMaxOp,
        ReduceMinOp,
        ReshapeOp,
        FlattenOp,
        TransposeOp,
        ChannelShuffleOp,
        ShapeOp,
        GatherOp,
        SliceOp,
        ConcatOp,
        UnsqueezeOp,
        SqueezeOp,
        ExpandOp,
        SplitOp,
        PadOp,
    ],
)

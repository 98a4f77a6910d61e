"""The base layer of the graph lowerings: the state of lowering one function (`Lowering`),
and the registry that the op families fill with `@lowers(OpClass, ...)`.

A lowering is a function `(s, op, ins) -> outs` from the op (typed by the classes it is
registered for) and the buffers of its operands to the buffers of its results, which it
builds with `s.b` (a `LoopBuilder`). `graph-to-loops` imports the families (importing
`infer.lowering.graph_ops` registers them all) and looks lowerings up by op class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableSet, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue

from infer.dialects import dims as D
from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.lowering.loop_builder import Index, LoopBuilder, storage_type

LoweringFn = Callable[["Lowering", Operation, list[SSAValue]], list[SSAValue]]
# Outlined kernels of a module: signature -> (function name, result types, the results
# passed in as arguments by the caller).
Kernels = dict[tuple[object, ...], tuple[str, list[Attribute], list[int]]]

OpT = TypeVar("OpT", bound=Operation)
# A lowering as written for the op classes it is registered for (`lowers`).
OpLowering = Callable[["Lowering", OpT, list[SSAValue]], list[SSAValue]]


def memref_type(t: Attribute) -> MemRefType:
    assert isinstance(t, TensorType), t
    return MemRefType(storage_type(t.element_type), t.get_shape())


def element_type(op: Operation) -> Attribute:
    """The element type of `op`'s first result (as the graph types it: signedness kept)."""
    t = op.results[0].type
    assert isinstance(t, TensorType)
    return t.element_type


def operand_element(op: Operation, i: int = 0) -> Attribute:
    """The element type of `op`'s operand i (as the graph types it: signedness kept)."""
    t = op.operands[i].type
    assert isinstance(t, TensorType)
    return t.element_type


def optional(ins: Sequence[SSAValue], *at: int) -> list[SSAValue | None]:
    """The operand buffers at positions `at`, None where absent (optional operands such as
    a conv's bias B and summand Z)."""
    return [ins[i] if i < len(ins) else None for i in at]


class Buffers(MutableSet[SSAValue]):
    """A set of buffers that iterates in insertion order: what is emitted per buffer (the
    frees of a failing run-time check) comes out the same in every process, where a set
    of SSA values iterates by their ids."""

    def __init__(self, values: Iterable[SSAValue] = ()) -> None:
        self._values = dict.fromkeys(values)

    def __contains__(self, value: object) -> bool:
        return value in self._values

    def __iter__(self) -> Iterator[SSAValue]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def add(self, value: SSAValue) -> None:
        self._values[value] = None

    def discard(self, value: SSAValue) -> None:
        self._values.pop(value, None)

    def update(self, values: Iterable[SSAValue]) -> None:
        self._values.update(dict.fromkeys(values))


@dataclass
class Lowering:
    """State of lowering one function: the builder, buffer aliases and module globals."""

    b: LoopBuilder
    module: ModuleOp
    globals_count: list[int]
    kernels: Kernels = field(default_factory=dict)
    root: dict[SSAValue, SSAValue] = field(default_factory=dict)
    owned: Buffers = field(default_factory=Buffers)
    # Graph values computed inside their users' lowerings (see `inlined_if`):
    # value -> (its op, the buffers of that op's operands). Such a value has no buffer.
    inlined: dict[SSAValue, tuple[Operation, list[SSAValue]]] = field(default_factory=dict)
    freed: set[SSAValue] = field(default_factory=set)
    # Buffers the op being lowered may write its result into: owned, not a view, of no
    # enclosing scope, and read by nothing after this op (set by graph-to-loops per op).
    reusable: set[SSAValue] = field(default_factory=set)
    # Set by graph-to-loops' emission walk for an op with regions: lower a region's ops
    # at the builder's point (the walk's buffers for the values they capture, and the
    # given buffers for the region's arguments), leaving the buffers in `outer` alone;
    # returns fresh buffers for what its yield gives.
    emit_region: Callable[[Sequence[Operation], set[SSAValue], dict[SSAValue, SSAValue]],
                          list[SSAValue]] | None = None
    # Concat inputs a kernel writes in place (shape_ops.concat_placements): graph value ->
    # (its concat, byte offset in the concat's buffer); the buffers made so far (the
    # bytes, the concat's view of them), and the values written in place.
    placements: dict[SSAValue, tuple[Operation, int]] = field(default_factory=dict)
    concat_buffers: dict[Operation, tuple[SSAValue, SSAValue]] = field(default_factory=dict)
    in_place: set[SSAValue] = field(default_factory=set)

    @contextmanager
    def checking(self, op: Operation, ins: Sequence[SSAValue]) -> Iterator[None]:
        """The run-time checks stated while this runs are `op`'s (operand buffers `ins`)."""
        if self.b.checks is None:
            yield
            return
        with self.b.checks.on(op, ins):
            yield

    def free(self, root: SSAValue) -> None:
        self.b.insert(memref.DeallocOp.get(root))
        self.freed.add(root)

    def out_dims(self, op: Operation, ins: list[SSAValue]) -> list[list[Dim]]:
        """The op's result dims from its shape function, as run-time `index` values."""
        assert isinstance(op, graph.GraphOp)
        consts = [graph.constant_value(o) for o in op.operands]
        # A kernel taking dims at run time (RUN_TIME_DIMS) sizes its results from the
        # static operand types of the op it was built for: its key holds the result types.
        dims = [_static_dims(self.b.dims(v), o.type) for v, o in zip(ins, op.operands, strict=True)]
        return type(op).output_dims(op.properties, dims, consts)

    def typed_dims(self, dims: Sequence[Dim], t: Attribute) -> list[Dim]:
        """`dims` made to agree with tensor type `t`: its static sizes, and run-time values
        where it is dynamic even if the shape function folded them (the buffer's memref
        type must match what users of the result were typed against)."""
        assert isinstance(t, TensorType)
        out: list[Dim] = []
        for d, static in zip(dims, t.get_shape(), strict=True):
            if static != DYNAMIC_INDEX:
                D.require(D.EQUAL, d, static, "result dim and its type's")
                out.append(static)
            else:  # an int here would make the memref's dim static
                out.append(Index(self.b, self.b.idx(d)) if isinstance(d, int) else d)
        return out

    def alloc_results(self, op: Operation, ins: list[SSAValue]) -> list[SSAValue]:
        """Fresh buffers for all results of `op`, sized by its shape function."""
        outs = []
        for dims, res in zip(self.out_dims(op, ins), op.results, strict=True):
            t = res.type
            assert isinstance(t, TensorType)
            outs.append(self.alloc(self.typed_dims(dims, t), t.element_type))
        return outs

    def alloc(self, dims: list[Dim], element: Attribute) -> SSAValue:
        buf = self.b.alloc(dims, element)
        self.owned.add(buf)
        return buf

    def copy(self, src: SSAValue, dims: Sequence[Dim] | None = None) -> SSAValue:
        """A fresh buffer with the elements of `src` (of its first `dims`, if given)."""
        dims = list(dims) if dims is not None else self.b.dims(src)
        t = src.type
        assert isinstance(t, MemRefType)
        dst = self.alloc(dims, t.element_type)
        with self.b.loop_nest(dims) as ivs:
            self.b.store(self.b.load(src, ivs), dst, ivs)
        return dst

    def alias(self, view: SSAValue, of: SSAValue) -> SSAValue:
        """Record that `view` shares `of`'s memory (freed with it)."""
        self.root[view] = self.root_of(of)
        return view

    def root_of(self, buf: SSAValue) -> SSAValue:
        return self.root.get(buf, buf)

    def global_constant(self, value: DenseIntOrFPElementsAttr) -> SSAValue:
        t = value.type
        assert isinstance(t, TensorType)
        mt = memref_type(t)
        if mt.element_type != t.element_type:  # ui8 data stored as i8: same bytes
            value = DenseIntOrFPElementsAttr(
                TensorType(mt.element_type, t.get_shape()), value.data
            )
        name = f"__constant_{self.globals_count[0]}"
        self.globals_count[0] += 1
        g = memref.GlobalOp.get(StringAttr(name), mt, value, constant=UnitAttr(), alignment=64)
        self.module.body.block.add_op(g)
        return self.b.insert(memref.GetGlobalOp(name, mt)).results[0]


# ---------------------------------------------------------------------------------------
# The registry, filled by the decorators below when the families are imported
# ---------------------------------------------------------------------------------------

# graph op class -> its lowering
LOWERINGS: dict[type[Operation], LoweringFn] = {}
# Op classes lowered as calls to shared kernel functions (`outline=True`). Their
# lowerings may depend only on operand types and the op's properties and discardable
# attributes (the kernel key), never on the values of constant operands.
OUTLINED: set[type[Operation]] = set()
# Of an outlined class, which operand dims its kernels take at run time: operand index ->
# dims (of a memref with the identity layout). Ops that differ only there share a kernel,
# whose lowering reads those dims from its arguments (DenseNet's 1x1 convs, one per input
# width, then share one kernel per image size). The lowering still sees the first such
# op, for the choices its static shape makes (how to split the work).
RUN_TIME_DIMS: dict[type[Operation], Callable[[Operation], dict[int, tuple[int, ...]]]] = {}
# Lowering-level fusion: predicates telling which ops may be lowered not alone but inside
# their users' lowerings, with no buffer between (an elementwise op in its only user's
# loop nest; a shape.of in each of its users).
INLINED_INTO_USER: list[Callable[[Operation], bool]] = []

# How graph-to-loops lowers an op, as `plan-loops` writes it on the op (a discardable
# attribute, so `infer-opt` shows it): absent, the op is lowered where it stands into a
# buffer of its own; IN_USER, inside its users' lowerings (a predicate above accepts it);
# KERNEL, as a call to the shared kernel function of its signature (its class is OUTLINED).
LOWERING_ATTR = "lowering"
IN_USER = "in_user"
KERNEL = "kernel"


def _static_dims(dims: list[Dim], t: Attribute) -> list[Dim]:
    """`dims`, each static one of shaped type `t` as it is there."""
    if not isinstance(t, TensorType | MemRefType):
        return dims
    return [d if n == DYNAMIC_INDEX else n for d, n in zip(dims, t.get_shape(), strict=True)]


def lowers(*classes: type[OpT], outline: bool = False,
           run_time_dims: Callable[[OpT], dict[int, tuple[int, ...]]] | None = None,
           ) -> Callable[[OpLowering[OpT]], OpLowering[OpT]]:
    """Register the decorated function as the lowering of op `classes`; with `outline`,
    the op may be lowered into one kernel function per distinct signature (KERNEL), which
    takes the operand dims `run_time_dims` names at run time (RUN_TIME_DIMS)."""

    def register(fn: OpLowering[OpT]) -> OpLowering[OpT]:
        for cls in classes:
            assert cls not in LOWERINGS, f"two lowerings for {cls.__name__}"
            LOWERINGS[cls] = fn  # type: ignore[assignment]  # called only with a cls op
            if outline:
                OUTLINED.add(cls)
                if run_time_dims is not None:
                    RUN_TIME_DIMS[cls] = run_time_dims  # type: ignore[assignment]
        return fn

    return register


def inlined_if(pred: Callable[[Operation], bool]) -> Callable[[Operation], bool]:
    """Register `pred`: the ops it accepts may be computed inside their users' lowerings
    (IN_USER); each user's lowering reads them from `Lowering.inlined`."""
    INLINED_INTO_USER.append(pred)
    return pred

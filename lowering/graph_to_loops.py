"""`graph-to-loops`: graph ops on tensors → buffers (memref) and scf loop nests.

Each function's tensors become memrefs of the same (possibly dynamic) shape. Every graph
op is lowered by the function registered for its class in one of the family modules of
`lowering/graph_ops/` (onnx-mlir's split: one module per op family, this pass joins them).
Results are fresh buffers that the entry function returns (callee-allocated, so dynamic
output sizes need no guessing by the caller); intermediates are freed after their last use;
view-like ops (reshape, squeeze, ...) may alias their input's buffer, which is then freed
after the last use of any alias. Weights become `memref.global` constants.

Kernel outlining (option `outline`, on in the compile pipeline): ops of the classes a
family lists in `OUTLINED` (convs, pools, matmuls) are lowered into one private function
per distinct signature (operand and result types, properties), called where the op
stands. A CNN repeats the same conv many times; LLVM then compiles each loop nest once
(resnet50 at level 3: compile time halved). Without it, loop nests stay inline, easier
to read in tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    FunctionType,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from infer.dialects import graph
from infer.dialects.dims import Dim
from infer.errors import UnsupportedError
from infer.lowering.loop_builder import Index, LoopBuilder, storage_type

LoweringFn = Callable[["Lowering", Operation, list[SSAValue]], list[SSAValue]]
# Outlined kernels of a module: signature -> (function name, result types).
Kernels = dict[tuple[object, ...], tuple[str, list[Attribute]]]


def memref_type(t: Attribute) -> MemRefType:
    assert isinstance(t, TensorType), t
    return MemRefType(storage_type(t.element_type), t.get_shape())


@dataclass
class Lowering:
    """State of lowering one function: the builder, buffer aliases and module globals."""

    b: LoopBuilder
    module: ModuleOp
    globals_count: list[int]
    kernels: Kernels = field(default_factory=dict)
    root: dict[SSAValue, SSAValue] = field(default_factory=dict)
    owned: set[SSAValue] = field(default_factory=set)
    # Graph values computed inside their users' lowerings (see INLINED_INTO_USER):
    # value -> (its op, the buffers of that op's operands). Such a value has no buffer.
    inlined: dict[SSAValue, tuple[Operation, list[SSAValue]]] = field(default_factory=dict)

    # -- helpers for the op lowerings ---------------------------------------------------

    def out_dims(self, op: Operation, ins: list[SSAValue]) -> list[list[Dim]]:
        """The op's result dims from its shape function, as run-time `index` values."""
        assert isinstance(op, graph.GraphOp)
        consts = [graph.constant_value(o) for o in op.operands]
        dims = [self.b.dims(v) for v in ins]
        return type(op).output_dims(op.properties, dims, consts)

    def typed_dims(self, dims: Sequence[Dim], t: Attribute) -> list[Dim]:
        """`dims` made to agree with tensor type `t`: its static sizes, and run-time values
        where it is dynamic even if the shape function folded them (the buffer's memref
        type must match what users of the result were typed against)."""
        assert isinstance(t, TensorType)
        out: list[Dim] = []
        for d, static in zip(dims, t.get_shape(), strict=True):
            if static != DYNAMIC_INDEX:
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


# The registry: graph op class -> lowering. Filled from the family modules below.
LOWERINGS: dict[type[Operation], LoweringFn] = {}
# Lowering-level fusion: predicates (a family's `inlined_into_user`) telling which ops
# are not lowered alone but inside their users' lowerings, with no buffer between (an
# elementwise op in its only user's loop nest; a shape.of in each of its users).
INLINED_INTO_USER: list[Callable[[Operation], bool]] = []
# Op classes lowered as calls to shared kernel functions (a family's `OUTLINED`). Their
# lowerings may depend only on operand types and the op's properties (the kernel key),
# never on the values of constant operands.
OUTLINED: set[type[Operation]] = set()


def _load_families() -> None:
    if LOWERINGS:
        return
    from infer.lowering.graph_ops import FAMILIES

    for family in FAMILIES:
        LOWERINGS.update(family.LOWERINGS)
        if hasattr(family, "inlined_into_user"):
            INLINED_INTO_USER.append(family.inlined_into_user)
        OUTLINED.update(getattr(family, "OUTLINED", ()))


def _lower_constant(s: Lowering, op: Operation, ins: list[SSAValue]) -> list[SSAValue]:
    assert isinstance(op, graph.ConstantOp)
    if op.value is None:
        raise UnsupportedError(
            "a graph.constant was printed with elided weights and has no data; "
            "print with --keep-weights to compile it"
        )
    t = op.output.type
    assert isinstance(t, TensorType)
    if 0 in t.get_shape():  # nothing to read (e.g. empty axes); a global would need data
        return [s.alloc(list(t.get_shape()), t.element_type)]
    return [s.global_constant(op.value)]


def _copy(s: Lowering, src: SSAValue) -> SSAValue:
    dims = s.b.dims(src)
    t = src.type
    assert isinstance(t, MemRefType)
    dst = s.alloc(dims, t.element_type)
    with s.b.loop_nest(dims) as ivs:
        s.b.store(s.b.load(src, ivs), dst, ivs)
    return dst


def _call_kernel(s: Lowering, lower: LoweringFn, op: Operation, ins: list[SSAValue]
                 ) -> list[SSAValue]:
    """Lower `op` as a call to the kernel function of its signature, built on first use.

    The kernel allocates its results like any lowering and returns them (the caller owns
    and frees them, as with the entry function's results)."""
    arg_types = [v.type for v in ins]
    props = tuple(sorted((k, str(v)) for k, v in op.properties.items()))
    key = (op.name, tuple(arg_types), tuple(r.type for r in op.results), props)
    if key not in s.kernels:
        block = Block(arg_types=arg_types)
        kernel = Lowering(LoopBuilder.at_end(block), s.module, s.globals_count, s.kernels)
        outs = lower(kernel, op, list(block.args))
        assert all(o in kernel.owned for o in outs), f"{op.name}: kernel results must be fresh"
        block.add_op(func.ReturnOp(*outs))
        name = f"__kernel_{op.name.removeprefix('graph.')}_{len(s.kernels)}"
        out_types = [o.type for o in outs]
        s.module.body.block.add_op(func.FuncOp(
            name, FunctionType.from_lists(arg_types, out_types), Region(block), "private"))
        s.kernels[key] = (name, out_types)
    name, out_types = s.kernels[key]
    call = s.b.insert(func.CallOp(name, ins, out_types))
    s.owned.update(call.results)
    return list(call.results)


def lower_function(f: func.FuncOp, module: ModuleOp, globals_count: list[int],
                   kernels: Kernels | None = None
                   ) -> None:
    """Rewrite `f` in place from tensors to buffers and loops; outline kernels into
    functions shared through `kernels` unless it is None."""
    _load_families()
    old_block = f.body.block
    ftype = f.function_type
    in_types = [memref_type(t) if isinstance(t, TensorType) else t for t in ftype.inputs]
    out_types = [memref_type(t) if isinstance(t, TensorType) else t for t in ftype.outputs]
    block = Block(arg_types=in_types)
    s = Lowering(LoopBuilder.at_end(block), module, globals_count,
                 {} if kernels is None else kernels)
    outlined = OUTLINED if kernels is not None else set()
    vmap: dict[SSAValue, SSAValue] = dict(zip(old_block.args, block.args, strict=True))
    for old, new in vmap.items():
        new.name_hint = old.name_hint

    ops = list(old_block.ops)
    inlined = {op for op in ops if any(p(op) for p in INLINED_INTO_USER)}
    # An inlined op runs in its users' lowerings: its operands must live until the last.
    runs_at: dict[Operation, int] = {}
    for i in reversed(range(len(ops))):
        op = ops[i]
        users = [u.operation for u in op.results[0].uses] if op in inlined else []
        runs_at[op] = max((runs_at[u] for u in users), default=i)
    last_use: dict[SSAValue, int] = {}
    for op in ops:
        for v in op.operands:
            at = len(ops) if isinstance(op, func.ReturnOp) else runs_at[op]
            last_use[v] = max(last_use.get(v, -1), at)
    tensors_of_root: dict[SSAValue, list[SSAValue]] = {}

    for i, op in enumerate(ops):
        if isinstance(op, func.ReturnOp):
            results: list[SSAValue] = []
            for v in op.operands:
                buf = vmap[v]
                # Returned buffers are fresh allocations the caller owns and frees: copy
                # arguments, weights, views and a buffer returned twice.
                root = s.root_of(buf)
                if root not in s.owned or root != buf or buf in results:
                    buf = _copy(s, buf)
                results.append(buf)
            # What is still live was only kept for the return: free what was copied.
            for root in tensors_of_root:
                if root in s.owned and root not in results:
                    s.b.insert(memref.DeallocOp.get(root))
            s.b.insert(func.ReturnOp(*results))
            break
        if op in inlined:  # its users' lowerings compute it; the tensor stands for itself
            s.inlined[op.results[0]] = (op, [vmap[v] for v in op.operands])
            vmap[op.results[0]] = op.results[0]
            continue
        lower = _lower_constant if isinstance(op, graph.ConstantOp) else LOWERINGS.get(type(op))
        if lower is None:
            raise UnsupportedError(f"no lowering for '{op.name}' to loops yet")
        ins = [vmap[v] for v in op.operands]
        if type(op) in outlined and all(isinstance(v.type, MemRefType) for v in ins):
            outs = _call_kernel(s, lower, op, ins)
        else:  # also when an operand is computed in this op's loop nest (s.inlined)
            outs = lower(s, op, ins)
        for res, buf in zip(op.results, outs, strict=True):
            if buf.name_hint is None:
                buf.name_hint = res.name_hint
            vmap[res] = buf
            tensors_of_root.setdefault(s.root_of(buf), []).append(res)
        # Free intermediates whose every alias is dead after this op.
        for root, tensors in list(tensors_of_root.items()):
            if root in s.owned and all(last_use.get(t, -1) <= i for t in tensors):
                s.b.insert(memref.DeallocOp.get(root))
                del tensors_of_root[root]

    new_type = FunctionType.from_lists(in_types, out_types)
    f.function_type = new_type
    f.body.detach_block(old_block)
    f.body.add_block(block)
    old_block.erase(safe_erase=False)


@dataclass(frozen=True)
class GraphToLoopsPass(ModulePass):
    """Lower every function of graph ops to memrefs and scf loop nests."""

    name = "graph-to-loops"

    outline: bool = False  # kernel outlining (see the module doc)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        globals_count = [0]
        kernels: Kernels = {}
        for f in list(op.body.block.ops):
            if isinstance(f, func.FuncOp) and f.body.blocks:
                lower_function(f, op, globals_count, kernels if self.outline else None)

"""`graph-to-loops`: graph ops on tensors → buffers (memref) and scf loop nests.

Each function's tensors become memrefs of the same (possibly dynamic) shape. Every graph
op is lowered by the function registered for its class (`@lowers`) in one of the family
modules of `lowering/graph_ops/` (onnx-mlir's split: one module per op family, this pass
joins them).
Results are fresh buffers that the entry function returns (callee-allocated, so dynamic
output sizes need no guessing by the caller); intermediates are freed after their last use;
view-like ops (reshape, squeeze, ...) may alias their input's buffer, which is then freed
after the last use of any alias. Weights become `memref.global` constants. A function is
lowered in two steps: the lifetime analysis of its values (`BufferLifetimes`), then the
emission walk over its ops.

Kernel outlining (option `outline`, on in the compile pipeline): ops of the classes a
family registers with `outline=True` (convs, pools, matmuls) are lowered into one private
function per distinct signature (operand and result types, properties and discardable
attributes), called where the op stands. A CNN repeats the same conv many times; LLVM
then compiles each loop nest once (resnet50 at level 3: compile time halved). Without it,
loop nests stay inline, easier to read in tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import FunctionType, MemRefType, ModuleOp, TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from infer.errors import UnsupportedError
from infer.lowering.graph_ops import INLINED_INTO_USER, LOWERINGS, OUTLINED
from infer.lowering.graph_ops.base import Kernels, Lowering, LoweringFn, memref_type
from infer.lowering.loop_builder import LoopBuilder


@dataclass
class BufferLifetimes:
    """The lifetimes of the values of one function body, in the order of its ops: which
    ops are computed inside their users' lowerings (they get no buffer), and the index
    of the op after which each value is dead (len(ops) for returned values)."""

    inlined: set[Operation]
    last_use: dict[SSAValue, int]

    @staticmethod
    def of(ops: Sequence[Operation]) -> BufferLifetimes:
        inlined = {op for op in ops if any(p(op) for p in INLINED_INTO_USER)}
        # An inlined op runs in its users' lowerings: its operands must live until the last.
        runs_at: dict[Operation, int] = {}
        for i in reversed(range(len(ops))):
            op = ops[i]
            users = [u.operation for u in op.results[0].uses] if op in inlined else []
            runs_at[op] = max((runs_at[u] for u in users), default=i)
        last_use: dict[SSAValue, int] = {}
        for op in ops:
            at = len(ops) if isinstance(op, func.ReturnOp) else runs_at[op]
            for v in op.operands:
                last_use[v] = max(last_use.get(v, -1), at)
        return BufferLifetimes(inlined, last_use)

    def dead_after(self, values: Iterable[SSAValue], i: int) -> bool:
        """Whether all of `values` are dead once op i has run (their buffer can be freed)."""
        return all(self.last_use.get(v, -1) <= i for v in values)


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
    # Discardable attributes count too: they carry choices for the target (a conv's tile).
    attrs = [*op.properties.items(), *op.attributes.items()]
    props = tuple(sorted((k, str(v)) for k, v in attrs))
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


def _return(s: Lowering, op: func.ReturnOp, vmap: dict[SSAValue, SSAValue],
            live: Iterable[SSAValue]) -> None:
    """The function's return of fresh buffers; what is still `live` (roots kept only for
    the return) is freed."""
    results: list[SSAValue] = []
    for v in op.operands:
        buf = vmap[v]
        # Returned buffers are fresh allocations the caller owns and frees: copy
        # arguments, weights, views and a buffer returned twice.
        root = s.root_of(buf)
        if root not in s.owned or root != buf or buf in results:
            buf = _copy(s, buf)
        results.append(buf)
    for root in live:
        if root in s.owned and root not in results:
            s.b.insert(memref.DeallocOp.get(root))
    s.b.insert(func.ReturnOp(*results))


def _emit(s: Lowering, ops: Sequence[Operation], vmap: dict[SSAValue, SSAValue],
          lifetimes: BufferLifetimes, outlined: set[type[Operation]]) -> None:
    """The emission walk: each op lowered in order (inlined ones left to their users),
    each buffer freed after the op that ends the lifetime of its last alias."""
    tensors_of_root: dict[SSAValue, list[SSAValue]] = {}
    for i, op in enumerate(ops):
        if isinstance(op, func.ReturnOp):
            _return(s, op, vmap, tensors_of_root)
            return
        if op in lifetimes.inlined:  # its users' lowerings compute it; no buffer
            s.inlined[op.results[0]] = (op, [vmap[v] for v in op.operands])
            vmap[op.results[0]] = op.results[0]
            continue
        lower = LOWERINGS.get(type(op))
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
            if root in s.owned and lifetimes.dead_after(tensors, i):
                s.b.insert(memref.DeallocOp.get(root))
                del tensors_of_root[root]


def lower_function(f: func.FuncOp, module: ModuleOp, globals_count: list[int],
                   kernels: Kernels | None = None) -> None:
    """Rewrite `f` in place from tensors to buffers and loops; outline kernels into
    functions shared through `kernels` unless it is None."""
    old_block = f.body.block
    ftype = f.function_type
    in_types = [memref_type(t) if isinstance(t, TensorType) else t for t in ftype.inputs]
    out_types = [memref_type(t) if isinstance(t, TensorType) else t for t in ftype.outputs]
    block = Block(arg_types=in_types)
    s = Lowering(LoopBuilder.at_end(block), module, globals_count,
                 {} if kernels is None else kernels)
    vmap: dict[SSAValue, SSAValue] = dict(zip(old_block.args, block.args, strict=True))
    for old, new in vmap.items():
        new.name_hint = old.name_hint

    ops = list(old_block.ops)
    _emit(s, ops, vmap, BufferLifetimes.of(ops), OUTLINED if kernels is not None else set())

    f.function_type = FunctionType.from_lists(in_types, out_types)
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

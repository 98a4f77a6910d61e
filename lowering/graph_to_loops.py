"""`graph-to-loops`: graph ops on tensors → buffers (memref) and scf loop nests.

Each function's tensors become memrefs of the same (possibly dynamic) shape. Every graph
op is lowered by the function registered for its class (`@lowers`) in one of the family
modules of `lowering/graph_ops/` (onnx-mlir's split: one module per op family, this pass
joins them).
Results are fresh buffers that the entry function returns (callee-allocated, so dynamic
output sizes need no guessing by the caller); intermediates are freed after their last use;
view-like ops (reshape, squeeze, ...) may alias their input's buffer, which is then freed
after the last use of any alias. An elementwise op may write its result into an operand's
buffer that nothing reads after it (`Lowering.reusable`: not an argument, weight, view or
buffer of an enclosing scope; same shape and type). `plan-memory` then packs the
intermediates of static size into one arena. Weights become `memref.global` constants. A function is
lowered in two steps: the lifetime analysis of its values (`BufferLifetimes`), then the
emission walk over its ops.

What is fused or outlined is not decided here: `plan-loops` writes it on the ops
(`lowering = "in_user"`: computed inside its users' lowerings, no buffer; `"kernel"`: a
call to the private kernel function of its signature, one per distinct operand and result
types, properties and discardable attributes, shared by the module's functions). This pass
obeys the marks and refuses one that the op's lowering cannot honour; an op without a mark
is lowered where it stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from infer.abi import NOALIAS_ATTR
from infer.dialects import graph
from infer.dialects.llvmx import MODEL_CHECKS_ATTR
from infer.errors import UnsupportedError
from infer.lowering.graph_ops import (
    IN_USER,
    KERNEL,
    LOWERING_ATTR,
    LOWERINGS,
    OUTLINED,
    may_compute_in_users,
)
from infer.lowering.graph_ops.base import (
    RUN_TIME_DIMS,
    Kernels,
    Lowering,
    LoweringFn,
    memref_type,
)
from infer.lowering.graph_ops.shape_ops import concat_placements, destination
from infer.lowering.loop_builder import LoopBuilder
from infer.lowering.runtime_checks import RuntimeChecks, op_label

# The ops that read or write the narrow element types (which `widen-half` leaves nothing
# else on): they convert codes with lowering/narrow_types.py, or move bytes.
NARROW_TYPE_OPS = (graph.CastOp, graph.QuantizeLinearOp, graph.DequantizeLinearOp,
                   graph.ShapeOp, graph.SizeOp, graph.ConstantOp, graph.IfOp,
                   graph.LoopOp)


def _check_elements(op: Operation) -> None:
    if isinstance(op, NARROW_TYPE_OPS):
        return
    for v in (*op.operands, *op.results):
        t = v.type
        if isinstance(t, TensorType) and graph.is_narrow(t.element_type):
            raise UnsupportedError(f"{op_label(op)}: element type {t.element_type} is only "
                                   "converted by casts (run widen-half first)")


def planned(op: Operation) -> str | None:
    """The op's `lowering` mark (see `plan-loops`), checked against what its lowering can
    do: None, IN_USER or KERNEL."""
    mark = op.attributes.get(LOWERING_ATTR)
    if mark is None:
        return None
    if not (isinstance(mark, StringAttr) and mark.data in (IN_USER, KERNEL)):
        raise UnsupportedError(
            f"'{op.name}': {LOWERING_ATTR} must be \"{IN_USER}\" or \"{KERNEL}\", got {mark}")
    if mark.data == IN_USER and not may_compute_in_users(op):
        raise UnsupportedError(f"'{op.name}' is marked {LOWERING_ATTR} = \"{IN_USER}\", "
                               "but its users cannot compute it")
    if mark.data == KERNEL and type(op) not in OUTLINED:
        raise UnsupportedError(f"'{op.name}' is marked {LOWERING_ATTR} = \"{KERNEL}\", "
                               "but it has no kernel lowering")
    return mark.data


@dataclass
class BufferLifetimes:
    """The lifetimes of the values of one function body, in the order of its ops: which
    ops are computed inside their users' lowerings (they get no buffer), and the index
    of the op after which each value is dead (len(ops) for returned values)."""

    inlined: set[Operation]
    last_use: dict[SSAValue, int]

    @staticmethod
    def of(ops: Sequence[Operation]) -> BufferLifetimes:
        inlined = {op for op in ops if planned(op) == IN_USER}
        # An inlined op runs in its users' lowerings: its operands must live until the last.
        runs_at: dict[Operation, int] = {}
        for i in reversed(range(len(ops))):
            op = ops[i]
            users = [u.operation for u in op.results[0].uses] if op in inlined else []
            runs_at[op] = max((runs_at[u] for u in users), default=i)
        last_use: dict[SSAValue, int] = {}
        for op in ops:
            at = len(ops) if isinstance(op, func.ReturnOp | graph.YieldOp) else runs_at[op]
            for v in (*op.operands, *captured(op)):
                last_use[v] = max(last_use.get(v, -1), at)
        return BufferLifetimes(inlined, last_use)

    def dead_after(self, values: Iterable[SSAValue], i: int) -> bool:
        """Whether all of `values` are dead once op i has run (their buffer can be freed)."""
        return all(self.last_use.get(v, -1) <= i for v in values)


def captured(op: Operation) -> list[SSAValue]:
    """The values defined outside `op` that ops of its regions read (a branch of
    `graph.if` reading the function's values)."""
    if not op.regions:
        return []
    inside = {v for inner in op.walk() if inner is not op for v in inner.results}
    inside |= {a for inner in op.walk() for r in inner.regions for blk in r.blocks
               for a in blk.args}  # of nested regions too
    return list(dict.fromkeys(v for inner in op.walk() if inner is not op
                              for v in inner.operands if v not in inside))


def _call_kernel(s: Lowering, lower: LoweringFn, op: Operation, ins: list[SSAValue]
                 ) -> list[SSAValue]:
    """Lower `op` as a call to the kernel function of its signature, built on first use.

    A result of static size is the caller's buffer, passed after the operands (so that
    `plan-memory` can place it in the caller's arena): the kernel's allocation of it
    becomes that argument, marked NOALIAS_ATTR (fresh, it overlaps no other). The kernel
    allocates and returns the others (the caller owns and frees them)."""
    arg_types = _kernel_arg_types(op, ins)
    # Discardable attributes count too: they carry choices for the target (a conv's tile).
    attrs = [*op.properties.items(), *op.attributes.items()]
    props = tuple(sorted((k, str(v)) for k, v in attrs))
    key = (op.name, tuple(arg_types), tuple(r.type for r in op.results), props)
    if key not in s.kernels:
        block = Block(arg_types=arg_types)
        kernel = Lowering(LoopBuilder.at_end(block), s.module, s.globals_count, s.kernels)
        outs = lower(kernel, op, list(block.args))
        assert all(o in kernel.owned for o in outs), f"{op.name}: kernel results must be fresh"
        passed = [i for i, o in enumerate(outs) if _static_alloc(o, block) and o not in outs[:i]]
        for i in passed:
            alloc = outs[i].owner
            assert isinstance(alloc, memref.AllocOp)
            arg = block.insert_arg(outs[i].type, len(block.args))
            outs[i].replace_all_uses_with(arg)
            block.erase_op(alloc)
        block.add_op(func.ReturnOp(*(o for i, o in enumerate(outs) if i not in passed)))
        name = f"__kernel_{op.name.removeprefix('graph.')}_{len(s.kernels)}"
        types = [o.type for o in outs]
        fn = func.FuncOp(name, FunctionType.from_lists(
            [a.type for a in block.args], [t for i, t in enumerate(types) if i not in passed]),
            Region(block), "private")
        if passed:
            fn.attributes[NOALIAS_ATTR] = DenseArrayBase.from_list(
                i64, list(range(len(ins), len(ins) + len(passed))))
        s.module.body.block.add_op(fn)
        s.kernels[key] = (name, types, passed)
    name, types, passed = s.kernels[key]
    dests = {i: destination(s, op.results[i], cast(MemRefType, types[i])) for i in passed}
    args = [v if v.type == t else s.b.insert(memref.CastOp.get(v, t)).results[0]
            for v, t in zip(ins, arg_types, strict=True)]
    call = s.b.insert(func.CallOp(name, [*args, *dests.values()],
                                  [t for i, t in enumerate(types) if i not in passed]))
    s.owned.update(call.results)
    returned = iter(call.results)
    return [dests[i] if i in dests else next(returned) for i in range(len(types))]


def _kernel_arg_types(op: Operation, ins: list[SSAValue]) -> list[Attribute]:
    """The types of the kernel's operands: those of `ins`, but the dims its class takes
    at run time (RUN_TIME_DIMS) dynamic, in memrefs of the identity layout."""
    types: list[Attribute] = [v.type for v in ins]
    run_time = RUN_TIME_DIMS.get(type(op))
    for i, dims in (run_time(op) if run_time is not None else {}).items():
        t = types[i]
        if isinstance(t, MemRefType) and isinstance(t.layout, NoneAttr):
            shape = [DYNAMIC_INDEX if d in dims else n for d, n in enumerate(t.get_shape())]
            types[i] = MemRefType(t.element_type, shape)
    return types


def _static_alloc(v: SSAValue, block: Block) -> bool:
    """Whether `v` is a static-size allocation made in `block` (not in a loop)."""
    return (isinstance(v.owner, memref.AllocOp) and v.owner.parent_block() is block
            and isinstance(v.type, MemRefType) and v.type.has_static_shape())


def _fresh_results(s: Lowering, values: Sequence[SSAValue], vmap: dict[SSAValue, SSAValue],
                   live: Iterable[SSAValue], outer: set[SSAValue]) -> list[SSAValue]:
    """Buffers for `values` that the receiver owns (the caller of a function, the results
    of a `graph.if`): arguments, weights, views, buffers of an enclosing scope (`outer`)
    and a buffer given twice are copied. What is still `live` here is then freed."""
    results: list[SSAValue] = []
    for v in values:
        buf = vmap[v]
        root = s.root_of(buf)
        if root not in s.owned or root != buf or buf in results or root in outer:
            buf = s.copy(buf)
        results.append(buf)
    for root in live:
        if root in s.owned and root not in results and root not in outer:
            s.free(root)
    return results


def _emit(s: Lowering, ops: Sequence[Operation], vmap: dict[SSAValue, SSAValue],
          lifetimes: BufferLifetimes, outer: set[SSAValue] | None = None
          ) -> list[SSAValue]:
    """The emission walk: each op lowered in order (inlined ones left to their users),
    each buffer freed after the op that ends the lifetime of its last alias. For a branch
    of `graph.if`, buffers of the enclosing scope (`outer`) stay, and the buffers its
    yield gives are returned."""
    outer = outer if outer is not None else set()
    tensors_of_root: dict[SSAValue, list[SSAValue]] = {}
    s.placements.update(concat_placements(ops))
    for i, op in enumerate(ops):
        if isinstance(op, func.ReturnOp):
            s.b.insert(func.ReturnOp(*_fresh_results(s, op.operands, vmap, tensors_of_root,
                                                     outer)))
            return []
        if isinstance(op, graph.YieldOp):
            return _fresh_results(s, op.operands, vmap, tensors_of_root, outer)
        if op.regions:
            s.emit_region = lambda ops, keep, bound, vmap=vmap: _emit(
                s, ops, {**vmap, **bound}, BufferLifetimes.of(ops), keep)
        if op in lifetimes.inlined:  # its users' lowerings compute it; no buffer
            s.inlined[op.results[0]] = (op, [vmap[v] for v in op.operands])
            vmap[op.results[0]] = op.results[0]
            continue
        _check_elements(op)
        lower = LOWERINGS.get(type(op))
        if lower is None:
            if by := getattr(op, "EXPANDED_BY", None):
                raise UnsupportedError(f"'{op.name}' is rewritten by {by} before lowering: "
                                       "run that pass first")
            raise UnsupportedError(f"no lowering for '{op.name}' to loops yet")
        ins = [vmap[v] for v in op.operands]
        if planned(op) == KERNEL:
            if not all(isinstance(v.type, MemRefType) for v in ins):
                raise UnsupportedError(f"'{op.name}' is marked {LOWERING_ATTR} = \"{KERNEL}\", "
                                       "but an operand is computed in its lowering")
            with s.checking(op, ins):  # the kernel has none: checked before the call
                s.out_dims(op, ins)
            outs = _call_kernel(s, lower, op, ins)
        else:
            s.reusable = {root for root, tensors in tensors_of_root.items()
                          if root in s.owned and root not in outer
                          and root not in s.freed and lifetimes.dead_after(tensors, i)}
            with s.checking(op, ins):
                outs = lower(s, op, ins)
            s.reusable = set()
        for res, buf in zip(op.results, outs, strict=True):
            if buf.name_hint is None:
                buf.name_hint = res.name_hint
            vmap[res] = buf
            tensors_of_root.setdefault(s.root_of(buf), []).append(res)
        _free_dead(s, tensors_of_root, lifetimes, i, outer)
    return []


def _free_dead(s: Lowering, tensors_of_root: dict[SSAValue, list[SSAValue]],
               lifetimes: BufferLifetimes, i: int, outer: set[SSAValue]) -> None:
    """Free the intermediates whose every alias is dead after op i."""
    for root, tensors in list(tensors_of_root.items()):
        if root in s.owned and root not in outer and lifetimes.dead_after(tensors, i):
            s.free(root)
            del tensors_of_root[root]


def lower_function(f: func.FuncOp, module: ModuleOp, globals_count: list[int],
                   kernels: Kernels) -> list[Attribute]:
    """Rewrite `f` in place from tensors to buffers and loops; outlined kernels are
    functions shared through `kernels`. A public function checks at run time what its
    kernels rely on (`runtime_checks`); returns the table of those checks."""
    old_block = f.body.block
    ftype = f.function_type
    in_types = [memref_type(t) if isinstance(t, TensorType) else t for t in ftype.inputs]
    out_types = [memref_type(t) if isinstance(t, TensorType) else t for t in ftype.outputs]
    block = Block(arg_types=in_types)
    f.body.add_block(block)  # after the old one until that is erased
    s = Lowering(LoopBuilder.at_end(block), module, globals_count, kernels)
    vmap: dict[SSAValue, SSAValue] = dict(zip(old_block.args, block.args, strict=True))
    for old, new in vmap.items():
        new.name_hint = old.name_hint
    checks = None
    if f.sym_visibility is None or f.sym_visibility.data == "public":
        checks = s.b.checks = RuntimeChecks(s.b, f.body, block, out_types, lambda: [
            buf for buf in s.owned if buf not in s.freed and _top_level(buf, f.body)])

    ops = list(old_block.ops)
    _emit(s, ops, vmap, BufferLifetimes.of(ops))

    f.body.detach_block(old_block)
    old_block.erase(safe_erase=False)
    if checks is not None:
        checks.finish()
    f.function_type = FunctionType.from_lists([a.type for a in block.args], out_types)
    return checks.table if checks is not None else []


def _top_level(buf: SSAValue, body: Region) -> bool:
    """Whether `buf` is made by an op of `body`'s blocks (not inside a loop nest), or is
    an argument of one of them (a `graph.if`'s merge block)."""
    owner = buf.owner
    if isinstance(owner, Block):
        return owner in body.blocks
    return isinstance(owner, Operation) and owner.parent_block() in body.blocks


@dataclass(frozen=True)
class GraphToLoopsPass(ModulePass):
    """Lower every function of graph ops to memrefs and scf loop nests, as `plan-loops`
    marked them."""

    name = "graph-to-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        globals_count = [0]
        kernels: Kernels = {}
        tables: dict[str, Attribute] = {}
        for f in list(op.body.block.ops):
            if isinstance(f, func.FuncOp) and f.body.blocks:
                table = lower_function(f, op, globals_count, kernels)
                if table:
                    tables[f.sym_name.data] = ArrayAttr(table)
        if tables:
            op.attributes[MODEL_CHECKS_ATTR] = DictionaryAttr(tables)

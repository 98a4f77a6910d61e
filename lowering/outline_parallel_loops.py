"""`outline-parallel-loops`: each `scf.for` marked `parallel` (independent iterations, see
`LoopBuilder.parallel`) becomes a call to a function of its own that runs the loop over a
range of its iterations:

    scf.for %i = %lb to %ub step %c1 { body(%i, %x) } {parallel = 4 : i64}
  becomes
    func.call @f_parallel_0(%lb, %ub, %x) {parallel = 4 : i64}
    func.func private @f_parallel_0(%lo: index, %hi: index, %x: ...) {
      scf.for %i = %lo to %hi step %c1 { body(%i, %x) }
    }

The call keeps the mark: running the function once over [lb, ub) is what the loop did, and
any split of that range into chunks computes the same; `convert-parallel-calls-to-pool`
runs the chunks on infer's thread pool. The function is `infer.noinline`: both the
one-thread path and the pool's chunk function call it, where LLVM inlined it into
both, compiling every body twice and the entry's bodies into one large function again
(DenseNet-121: 44k instructions after O3, 33k so; its O3 took twice as long).

Values the body reads from outside are the function's arguments, except constants and
globals, cloned in so that LLVM still sees them. A marked loop inside another runs on
its thread: its mark is dropped.

A buffer argument gets MLIR's `llvm.noalias` when the body reaches its memory through no
other argument, or reads it only: what LLVM knew in place (a buffer written by the loop is
a fresh allocation, so no other one overlaps it) it knows in the function too, and
vectorizes the same (without it a grouped conv's rows ran 5x slower). A written buffer
that is not an allocation of the function marks none.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf, vector
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    UnitAttr,
)
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import DiagnosticException

from infer.abi import NOINLINE_ATTR, PARALLEL_ATTR
from infer.lowering.convert_func_to_llvm import noalias_args

# Ops without operands that the outlined function makes itself instead of taking them.
_CLONED = (arith.ConstantOp, memref.GetGlobalOp)
# Ops giving a view of their first operand's memory, and ops that only read a buffer.
_VIEWS = (memref.CollapseShapeOp, memref.ExpandShapeOp, memref.SubviewOp,
          memref.ReinterpretCastOp, memref.CastOp, memref.ViewOp)
_READS = (memref.LoadOp, vector.LoadOp, memref.DimOp)
NOALIAS = "llvm.noalias"


def _root(value: SSAValue) -> SSAValue:
    """The buffer whose memory `value` views."""
    while isinstance(value.owner, _VIEWS):
        value = value.owner.operands[0]
    return value


def _writes(value: SSAValue, loop: scf.ForOp) -> bool:
    """Whether the loop may write `value`'s memory: any use in it but a read or a view
    whose uses only read."""
    for use in value.uses:
        op = use.operation
        if not loop.is_ancestor(op) or isinstance(op, _READS):
            continue
        if isinstance(op, _VIEWS) and use.index == 0 and not _writes(op.results[0], loop):
            continue
        return True
    return False


def _noalias(buffers: list[SSAValue], loop: scf.ForOp) -> list[bool]:
    """Per buffer argument, whether its memory is reached through no other argument where
    either writes it (module doc)."""
    roots = [_root(v) for v in buffers]
    written = [_writes(v, loop) for v in buffers]
    if any(w and not (isinstance(r.owner, memref.AllocOp) or _fresh_argument(r))
           for w, r in zip(written, roots, strict=True)):
        return [False] * len(buffers)
    return [not any(roots[j] == roots[i] and (written[i] or written[j])
                    for j in range(len(buffers)) if j != i) for i in range(len(buffers))]


def _fresh_argument(value: SSAValue) -> bool:
    """Whether `value` is an argument of its function that overlaps no other (NOALIAS_ATTR:
    a kernel's result buffer, which its caller allocated)."""
    block = value.owner
    fn = block.parent_op() if isinstance(block, Block) else None
    return (isinstance(fn, func.FuncOp) and block is fn.body.blocks.first
            and isinstance(value, BlockArgument) and value.index in noalias_args(fn))


def _marked_loops(f: func.FuncOp) -> list[scf.ForOp]:
    """The outermost marked loops of `f`; the marks of loops inside them are dropped."""
    out: list[scf.ForOp] = []
    for op in f.walk():
        if isinstance(op, scf.ForOp) and PARALLEL_ATTR in op.attributes:
            if any(outer.is_ancestor(op) for outer in out):
                del op.attributes[PARALLEL_ATTR]
            else:
                out.append(op)
    return out


def _is_one(value: SSAValue) -> bool:
    owner = value.owner
    return (isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr)
            and owner.value.value.data == 1)


def _captured(loop: scf.ForOp) -> list[SSAValue]:
    """The values the loop's body reads that are defined outside it, in order of use."""
    inside: set[SSAValue] = set()
    for op in loop.body.walk():
        inside.update(op.results)
        for region in op.regions:
            for block in region.blocks:
                inside.update(block.args)
    inside.update(loop.body.block.args)
    return list(dict.fromkeys(v for op in loop.body.walk() for v in op.operands
                              if v not in inside))


def outline(loop: scf.ForOp, name: str, module: ModuleOp) -> func.FuncOp:
    """Moves `loop`'s body into function `name` (added to `module`) and calls it in place
    of the loop (module doc)."""
    if loop.res or not _is_one(loop.step):
        raise DiagnosticException(f"a '{PARALLEL_ATTR}' scf.for must have step 1 and no "
                                  "results")
    captured = _captured(loop)
    passed = [v for v in captured if not isinstance(v.owner, _CLONED)]
    buffers = [v for v in passed if isinstance(v.type, MemRefType)]
    restrict = dict(zip(buffers, _noalias(buffers, loop), strict=True))
    arg_attrs = ArrayAttr([DictionaryAttr({}), DictionaryAttr({}), *(
        DictionaryAttr({NOALIAS: UnitAttr()} if restrict.get(v) else {}) for v in passed)])
    index = IndexType()
    block = Block(arg_types=[index, index, *(v.type for v in passed)])
    lo, hi, *args = block.args
    mapping: dict[SSAValue, SSAValue] = dict(zip(passed, args, strict=True))
    for v in captured:
        if v not in mapping:
            assert isinstance(v.owner, Operation)
            clone = v.owner.clone()
            block.add_op(clone)
            mapping[v] = clone.results[0]
    one = arith.ConstantOp.from_int_and_width(1, index)
    block.add_op(one)
    body = loop.body.detach_block(loop.body.block)
    for op in body.walk():
        for i, v in enumerate(op.operands):
            if v in mapping:
                op.operands[i] = mapping[v]
    block.add_op(scf.ForOp(lo, hi, one.result, [], body))
    block.add_op(func.ReturnOp())
    fn = func.FuncOp(name, FunctionType.from_lists(block.arg_types, []), Region(block),
                     "private", arg_attrs=arg_attrs)
    fn.attributes[NOINLINE_ATTR] = UnitAttr()
    module.body.block.add_op(fn)
    call = func.CallOp(name, [loop.lb, loop.ub, *passed], [])
    call.attributes[PARALLEL_ATTR] = loop.attributes[PARALLEL_ATTR]
    Rewriter.replace_op(loop, call)
    return fn


@dataclass(frozen=True)
class OutlineParallelLoopsPass(ModulePass):
    """Each outermost `parallel` scf.for as a marked call to its outlined body (module
    doc); the functions are named after the function they come from."""

    name = "outline-parallel-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for f in list(op.body.block.ops):
            if isinstance(f, func.FuncOp) and f.body.blocks:
                for k, loop in enumerate(_marked_loops(f)):
                    outline(loop, f"{f.sym_name.data}_parallel_{k}", op)

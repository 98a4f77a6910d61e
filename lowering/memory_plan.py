"""`plan-memory`: the intermediates of each public function packed into one arena.

`graph-to-loops` gives every intermediate its own `memref.alloc` and frees it after its
last use. Here, each such buffer of a public function's body that has a static shape and
does not leave the function becomes a `memref.view` of one arena, an `i8` buffer that the
function takes as its last argument (the caller owns it and reuses it across runs: no
allocation per run). Buffers whose lifetimes do not overlap share bytes.

    %a = memref.alloc() : memref<16xf32>      %c0 = arith.constant 0 : index
    ... %a ...                           →    %a = memref.view %arena[%c0][] : ...
    memref.dealloc %a : memref<16xf32>        ... %a ...   (the dealloc erased)

Lifetimes are intervals over the function's top-level ops in block order: from the alloc
to the last op reaching the buffer, through views of it (a use in a loop nest or a call
counts at that top-level op). That order is an execution order because the function's
top-level branches all go forward (checked; a function with a backward one is left as it
is), so buffers with disjoint intervals are never live at once. Offsets come from the
greedy-by-size assignment of TFLite's arena planner: the largest buffer first, each in the
smallest gap between the buffers whose lifetimes overlap its own, else above them; every
offset is a multiple of ALIGNMENT.

Left on malloc/free: buffers of dynamic size (their size is known at run time only),
buffers returned or passed to another block (through a branch or a region's yield),
buffers allocated inside loops or regions, and those of private functions and of public
ones that another function calls (kernels take their static results from the caller, see
graph-to-loops, and allocate only those of dynamic size).

The module records per planned function `{arena, total, buffers, unplanned}` in
`MEMORY_PLAN_ATTR` (abi.py): the arena's bytes, the sum of the planned buffers' (aligned)
bytes, how many were planned, and how many allocations stayed on malloc.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    i8,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from infer.abi import ARENA_ALIGNMENT, MEMORY_PLAN_ATTR
from infer.lowering.llvm_descriptor import element_byte_size

ALIGNMENT = ARENA_ALIGNMENT
# Ops whose memref result views their first operand's memory.
_VIEWS = (memref.SubviewOp, memref.ReinterpretCastOp, memref.CastOp, memref.CollapseShapeOp,
          memref.ExpandShapeOp, memref.ViewOp)


@dataclass
class Buffer:
    """One planned allocation: its live interval (top-level op positions, inclusive),
    its aligned size in bytes, and (once planned) its byte offset in the arena."""

    alloc: memref.AllocOp
    start: int
    end: int
    size: int
    deallocs: list[memref.DeallocOp]
    offset: int = -1

    def overlaps(self, other: Buffer) -> bool:
        return self.start <= other.end and other.start <= self.end


def aligned(size: int) -> int:
    return -(-size // ALIGNMENT) * ALIGNMENT


def assign_offsets(buffers: list[Buffer]) -> int:
    """Greedy by size: each buffer, largest first, at the start of the smallest gap that
    holds it between the placed buffers whose lifetimes overlap its own, else above them.
    Sets `offset` on each; returns the arena size."""
    placed: list[Buffer] = []
    arena = 0
    for buf in sorted(buffers, key=lambda b: (-b.size, b.start)):
        best, best_gap, top = -1, -1, 0
        for other in sorted((p for p in placed if p.overlaps(buf)), key=lambda p: p.offset):
            gap = other.offset - top
            if gap >= buf.size and (best < 0 or gap < best_gap):
                best, best_gap = top, gap
            top = max(top, other.offset + other.size)
        buf.offset = best if best >= 0 else top
        placed.append(buf)
        arena = max(arena, buf.offset + buf.size)
    return arena


def _top_level(op: Operation, blocks: set[Block]) -> Operation | None:
    """The ancestor of `op` (or itself) that is an op of one of `blocks`."""
    current: Operation | None = op
    while current is not None and current.parent_block() not in blocks:
        current = current.parent_op()
    return current


def _lifetime(alloc: memref.AllocOp, position: dict[Operation, int], blocks: set[Block]
              ) -> tuple[int, list[memref.DeallocOp]] | None:
    """The last position reaching `alloc`'s memory and its deallocs, or None when the
    memory may leave the function's straight-line view (a terminator or yield)."""
    end = position[alloc]
    deallocs: list[memref.DeallocOp] = []
    pending: list[SSAValue] = [alloc.memref]
    while pending:
        value = pending.pop()
        for use in value.uses:
            op = use.operation
            if isinstance(op, memref.DeallocOp):
                deallocs.append(op)
                continue
            if op.has_trait(IsTerminator):
                return None
            if isinstance(op, _VIEWS) and use.index == 0:
                pending.extend(r for r in op.results if isinstance(r.type, MemRefType))
            top = _top_level(op, blocks)
            if top is None:
                return None
            end = max(end, position[top])
    return end, deallocs


def _forward_only(f: func.FuncOp) -> bool:
    """Whether every top-level branch of `f` goes to a later block."""
    index = {blk: i for i, blk in enumerate(f.body.blocks)}
    for i, blk in enumerate(f.body.blocks):
        last = blk.last_op
        if last is not None and any(index.get(s, -1) <= i for s in last.successors):
            return False
    return True


def plannable(t: MemRefType) -> bool:
    return t.has_static_shape() and isinstance(t.layout, NoneAttr)


def plan_function(f: func.FuncOp) -> tuple[int, int, int, int] | None:
    """Plan `f`'s buffers into an arena argument appended to its inputs (module doc);
    (arena, total, buffers, unplanned), or None when `f` is left as it is."""
    if not f.body.blocks or not _forward_only(f):
        return None
    blocks = set(f.body.blocks)
    position = {op: i for i, op in enumerate(op for blk in f.body.blocks for op in blk.ops)}
    buffers: list[Buffer] = []
    unplanned = 0
    for alloc in [o for o in f.walk() if isinstance(o, memref.AllocOp)]:
        t = alloc.memref.type
        life = _lifetime(alloc, position, blocks) if (
            alloc.parent_block() in blocks and isinstance(t, MemRefType) and plannable(t)
        ) else None
        if life is None:
            unplanned += 1
            continue
        assert isinstance(t, MemRefType)
        size = aligned(prod(t.get_shape()) * element_byte_size(t.element_type))
        buffers.append(Buffer(alloc, position[alloc], life[0], size, life[1]))
    if not buffers:
        return None
    arena_size = assign_offsets(buffers)
    total = sum(b.size for b in buffers)
    entry = f.body.blocks.first
    assert entry is not None
    arena = entry.insert_arg(MemRefType(i8, [max(arena_size, 1)]), len(entry.args))
    arena.name_hint = "arena"
    for buf in buffers:
        offset = arith.ConstantOp(IntegerAttr(buf.offset, IndexType()))
        view = memref.ViewOp(arena, offset, [], buf.alloc.memref.type)
        Rewriter.insert_op(offset, InsertPoint.before(buf.alloc))
        Rewriter.replace_op(buf.alloc, view)
        for d in buf.deallocs:
            Rewriter.erase_op(d)
    f.function_type = FunctionType.from_lists([a.type for a in entry.args],
                                              list(f.function_type.outputs.data))
    return arena_size, total, len(buffers), unplanned


@dataclass(frozen=True)
class PlanMemoryPass(ModulePass):
    """Each public function's static intermediates packed into one arena argument."""

    name = "plan-memory"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        plans: dict[str, DictionaryAttr] = {}
        # a function that another calls keeps its signature (its callers pass no arena)
        called = {c.callee.string_value() for c in op.walk() if isinstance(c, func.CallOp)}
        for f in list(op.body.block.ops):
            if not isinstance(f, func.FuncOp) or f.sym_name.data in called or (
                    f.sym_visibility is not None and f.sym_visibility.data != "public"):
                continue
            plan = plan_function(f)
            if plan is not None:
                keys = ("arena", "total", "buffers", "unplanned")
                plans[f.sym_name.data] = DictionaryAttr(
                    {k: IntegerAttr(v, i64) for k, v in zip(keys, plan, strict=True)})
        if plans:
            op.attributes[MEMORY_PLAN_ATTR] = DictionaryAttr(plans)

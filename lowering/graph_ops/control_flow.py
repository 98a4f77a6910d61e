"""`graph.if` and `graph.loop` as blocks of the function.

    cf.cond_br %c, ^then, ^else
  ^then:  the then region's ops lowered ...   cf.br ^merge(%t : memref<?x4xf32>)
  ^else:  the else region's ops lowered ...   cf.br ^merge(%e : memref<?x4xf32>)
  ^merge(%y: memref<?x4xf32>):  the rest of the function

Blocks rather than `scf.if` because a run-time check inside a branch ends its block with
a branch to the function's failing path (runtime_checks), which an `scf.if` region
cannot do. Each branch gives fresh buffers (copies of what it only reads, such as the
function's values it captures) that the merge block's arguments own from then on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, cf, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, MemRefType, i1, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from infer.dialects import graph
from infer.errors import UnsupportedError
from infer.lowering.graph_ops.base import Lowering, lowers, memref_type
from infer.lowering.runtime_checks import RuntimeChecks, op_label


@lowers(graph.IfOp)
def _if(s: Lowering, op: graph.IfOp, ins: list[SSAValue]) -> list[SSAValue]:
    b = s.b
    emit = s.emit_region  # (a branch's own ifs set it anew)
    assert emit is not None, "graph.if is lowered by graph-to-loops' emission walk"
    cond = ins[0]
    c = b.load(cond, [0] * len(cast(MemRefType, cond.type).get_shape()))
    region = b.point.block.parent
    assert region is not None
    merge = Block(arg_types=[memref_type(r.type) for r in op.results])
    branches = [Block(), Block()]
    b.insert(cf.ConditionalBranchOp(c, branches[0], [], branches[1], []))
    checks = b.checks
    done = set(checks.done) if checks is not None else set()
    for block, branch in zip(branches, op.branches(), strict=True):
        region.add_block(block)
        b.point = InsertPoint.at_end(block)
        if checks is not None:  # a check made in one branch does not hold in the other
            checks.done = set(done)
        results = emit(list(branch.block.ops), set(s.owned), {})
        # Owned by the merge block's arguments from here on: not freed on a failing path
        # of the other branch or later.
        s.freed.update(results)
        results = [v if v.type == t else b.insert(memref.CastOp.get(v, t)).results[0]
                   for v, t in zip(results, merge.arg_types, strict=True)]
        b.insert(cf.BranchOp(merge, *results))
    if checks is not None:
        checks.done = done
    region.add_block(merge)
    b.point = InsertPoint.at_end(merge)
    s.owned.update(merge.args)
    return list(merge.args)


@lowers(graph.LoopOp)
def _loop(s: Lowering, op: graph.LoopOp, ins: list[SSAValue]) -> list[SSAValue]:
    """`graph.loop` as blocks of the function:

      ^header(%i: i64, %c: i1, carried..., stacks..., %capacity: index):
          cf.cond_br (%c and %i < trip count), ^body, ^exit(carried..., stacks..., %i)
      ^body:   the body's ops lowered (its arguments: %i and %c in 0-d buffers, the
               carried buffers); the rows it yields appended to the stacks, which
               double when full; cf.br ^header(%i + 1, next condition, next carried...)
      ^exit(...):  each stack's rows copied to a result of their number

    A row whose dims differ from the first row's fails the run-time checks.
    """
    emit = s.emit_region
    assert emit is not None, "graph.loop is lowered by graph-to-loops' emission walk"
    if s.b.checks is None:
        raise UnsupportedError(f"{op_label(op)}: a loop is lowered only in a public function")
    loop = _enter_loop(s, op, ins, s.b.checks, emit)
    _loop_header(loop)
    _loop_body(loop)
    return _loop_exit(loop)


# Lowering.emit_region: lower a region's ops (see there).
_EmitRegion = Callable[[Sequence[Operation], set[SSAValue], dict[SSAValue, SSAValue]],
                       list[SSAValue]]


@dataclass
class _Loop:
    """One `graph.loop` being lowered: its blocks and the values they share."""

    s: Lowering
    op: graph.LoopOp
    checks: RuntimeChecks
    emit: _EmitRegion
    region: Region
    carried_types: list[MemRefType]
    scan_types: list[MemRefType]
    trip: SSAValue  # the trip count, loaded once before the loop
    it: SSAValue  # 0-d buffers of %i and %c, what the body reads as its arguments
    cond: SSAValue
    header: Block
    body: Block
    done: Block

    @property
    def n(self) -> int:
        """The number of carried values."""
        return self.op.carried

    @property
    def carried(self) -> list[SSAValue]:
        return list(self.header.args[2:2 + self.n])

    @property
    def stacks(self) -> list[SSAValue]:
        return list(self.header.args[2 + self.n:-1])


def _load_scalar(s: Lowering, buf: SSAValue) -> SSAValue:
    """The one element of a buffer of ones."""
    return s.b.load(buf, [0] * cast(MemRefType, buf.type).get_num_dims())


def _enter_loop(s: Lowering, op: graph.LoopOp, ins: list[SSAValue], checks: RuntimeChecks,
                emit: _EmitRegion) -> _Loop:
    """The loop's blocks, and the branch to its header with the initial values: copies of
    the carried operands, empty stacks."""
    b = s.b
    region = b.point.block.parent
    assert region is not None
    args = op.body.block.args
    carried_types = [memref_type(a.type) for a in args[2:]]
    scan_types = [memref_type(r.type) for r in op.outs[op.carried:]]
    stack_types = [MemRefType(t.element_type, [DYNAMIC_INDEX, *t.get_shape()[1:]])
                   for t in scan_types]
    trip, go = _load_scalar(s, ins[0]), _load_scalar(s, ins[1])
    it, cond = s.alloc([], i64), s.alloc([], i1)
    initial = [_cast(s, s.copy(v), t) for v, t in zip(ins[2:], carried_types, strict=True)]
    stacks = [s.alloc([0, *(0 if d == DYNAMIC_INDEX else d for d in t.get_shape()[1:])],
                      t.element_type) for t in stack_types]
    header = Block(arg_types=[i64, i1, *carried_types, *stack_types, IndexType()])
    body = Block()
    done = Block(arg_types=[*carried_types, *stack_types, i64])
    b.insert(cf.BranchOp(header, b.const(0, i64), go, *initial,
                         *(_cast(s, v, t) for v, t in zip(stacks, stack_types, strict=True)),
                         b.idx(0)))
    s.freed.update(s.root_of(v) for v in (*initial, *stacks))  # the header's from here
    return _Loop(s, op, checks, emit, region, carried_types, scan_types, trip, it, cond,
                 header, body, done)


def _loop_header(loop: _Loop) -> None:
    """^header: on to the body while the condition holds and trips remain, else to the
    exit."""
    s, b, header = loop.s, loop.s.b, loop.header
    loop.region.add_block(header)
    b.point = InsertPoint.at_end(header)
    i, c = header.args[0], header.args[1]
    carried, stacks = loop.carried, loop.stacks
    s.owned.update((*carried, *stacks))
    more = b.insert(arith.AndIOp(c, b.cmpi("slt", i, loop.trip))).results[0]
    b.insert(cf.ConditionalBranchOp(more, loop.body, [], loop.done, [*carried, *stacks, i]))


def _loop_body(loop: _Loop) -> None:
    """^body: the body's ops, its rows appended to the stacks, and the branch back to the
    header with the next iteration's values."""
    s, b, n, checks = loop.s, loop.s.b, loop.n, loop.checks
    i, c, capacity = loop.header.args[0], loop.header.args[1], loop.header.args[-1]
    carried, stacks = loop.carried, loop.stacks
    loop.region.add_block(loop.body)
    b.point = InsertPoint.at_end(loop.body)
    b.store(i, loop.it, [])
    b.store(c, loop.cond, [])
    checked = set(checks.done)  # a check made in the body need not hold after 0 trips
    outs = loop.emit(list(loop.op.body.block.ops), set(s.owned),
                     dict(zip(loop.op.body.block.args, [loop.it, loop.cond, *carried],
                              strict=True)))
    c_next = _load_scalar(s, outs[0])
    s.free(outs[0])
    for v in carried:
        s.free(v)
    row = b.insert(arith.IndexCastOp(i, IndexType())).results[0]
    rows = outs[1 + n:]
    _check_row_dims(loop, rows, stacks, row)
    if rows:
        stacks, capacity = _room_for_row(s, loop.region, stacks, rows, row, capacity)
    for value, stack in zip(rows, stacks, strict=True):
        dims = b.dims(value)
        with b.loop_nest(dims) as ivs:
            b.store(b.load(value, ivs), stack, [row, *ivs])
        s.free(value)
    nxt = [_cast(s, v, t) for v, t in zip(outs[1:1 + n], loop.carried_types, strict=True)]
    b.insert(cf.BranchOp(loop.header, b.add(i, b.const(1, i64)), c_next, *nxt, *stacks,
                         capacity))
    s.freed.update(s.root_of(v) for v in (*nxt, *stacks))
    checks.done = checked


def _check_row_dims(loop: _Loop, rows: list[SSAValue], stacks: list[SSAValue],
                    row: SSAValue) -> None:
    """Check at run time that each dynamic dim of a row equals the first row's."""
    b = loop.s.b
    for k, (value, stack) in enumerate(zip(rows, stacks, strict=True)):
        shape = cast(MemRefType, value.type).get_shape()
        if DYNAMIC_INDEX not in shape:  # the verifier made every row the stack's shape
            continue
        first = b.cmpi("eq", row, b.idx(0))
        for d, (x, y) in enumerate(zip(b.dims(value), b.dims(stack)[1:], strict=True)):
            if isinstance(x, int) and isinstance(y, int):
                continue
            xi, yi = b.idx(x), b.idx(y)
            same = b.insert(arith.OrIOp(first, b.cmpi("eq", xi, yi))).results[0]
            loop.checks.check(same, xi, yi, f"scan output #{k}: dim {d} of a row is {{a}}, "
                              "of the first row {b}")


def _loop_exit(loop: _Loop) -> list[SSAValue]:
    """^exit: the carried values, and each stack's rows copied to a result of their
    number."""
    s, b, n, done = loop.s, loop.s.b, loop.n, loop.done
    loop.region.add_block(done)
    b.point = InsertPoint.at_end(done)
    results = list(done.args[:n])
    s.owned.update(done.args[:-1])
    s.free(loop.it)
    s.free(loop.cond)
    count = b.insert(arith.IndexCastOp(done.args[-1], IndexType())).results[0]
    for stack, t in zip(done.args[n:-1], loop.scan_types, strict=True):
        first = t.get_shape()[0]
        rows_dims = [first if first != DYNAMIC_INDEX else count, *b.dims(stack)[1:]]
        results.append(_cast(s, s.copy(stack, rows_dims), t))
        s.free(stack)
    return results


def _cast(s: Lowering, v: SSAValue, t: MemRefType) -> SSAValue:
    """`v` as a buffer of type `t` (dims made dynamic or static), the same memory."""
    if v.type == t:
        return v
    return s.alias(s.b.insert(memref.CastOp.get(v, t)).results[0], v)


def _room_for_row(s: Lowering, region: Region, stacks: list[SSAValue],
                  rows: list[SSAValue], row: SSAValue, capacity: SSAValue
                  ) -> tuple[list[SSAValue], SSAValue]:
    """The stacks with room for row number `row`: when full, each is copied into one of
    twice the capacity (plus one), sized by this iteration's rows."""
    b = s.b
    grow, join = Block(), Block(arg_types=[*(v.type for v in stacks), IndexType()])
    full = b.cmpi("eq", row, capacity)
    b.insert(cf.ConditionalBranchOp(full, grow, [], join, [*stacks, capacity]))
    region.add_block(grow)
    b.point = InsertPoint.at_end(grow)
    bigger = b.add(b.add(capacity, capacity), b.idx(1))
    grown = []
    for stack, value in zip(stacks, rows, strict=True):
        new = s.alloc([bigger, *b.dims(value)], cast(MemRefType, stack.type).element_type)
        with b.loop_nest([row, *b.dims(stack)[1:]]) as ivs:
            b.store(b.load(stack, ivs), new, ivs)
        s.free(stack)
        grown.append(_cast(s, new, cast(MemRefType, stack.type)))
    b.insert(cf.BranchOp(join, *grown, bigger))
    s.freed.update(s.root_of(v) for v in grown)
    region.add_block(join)
    b.point = InsertPoint.at_end(join)
    s.owned.update(join.args[:-1])
    return list(join.args[:-1]), join.args[-1]

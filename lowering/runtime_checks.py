"""Run-time checks in the compiled code: what an op's kernel relies on about its operands
(the dims relations its shape function states with `dims.require`, index values in range)
is checked before the kernel runs, so that no input, however wrong, makes it read or
write outside a buffer.

A public function with checks takes one more argument, a status buffer
(`memref<64xi64>`, STATUS_SIZE). Each check ends its block with

    cf.cond_br %ok, ^next, ^fail_k

where `^next` holds the rest of the function and `^fail_k` stores the check's code k
(1-based), the two values that disagree and the operands' shapes into the status, frees
the buffers live at that point, and returns results with no elements that the caller
drops. What each code means (op, node, relation, operand ranks) is a table on the module
(`llvmx.MODEL_CHECKS_ATTR`, `{function: [[message, ranks], ...]}`), which the runtime
reads to raise `ShapeError` with the message filled in. Kernel functions have no checks:
their callers check before each call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects import arith, cf, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    MemRefType,
    NameLoc,
    StringAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from infer.dialects import dims as D
from infer.dialects.llvmx import CHECK_STATUS_SIZE
from infer.lowering.loop_builder import LoopBuilder

STATUS_SIZE = CHECK_STATUS_SIZE
STATUS_TYPE = MemRefType(i64, [STATUS_SIZE])


def op_label(op: Operation) -> str:
    """How a message names an op: its ONNX type (for an op the optimizer made, such as a
    blocked conv, its graph op name) and its node name."""
    kind = getattr(type(op), "ONNX_OP", None) or op.name.removeprefix("graph.")
    loc = op.location
    return f"{kind} node '{loc.desc.data}'" if isinstance(loc, NameLoc) else kind


@dataclass
class RuntimeChecks:
    """The checks of one public function being lowered, emitted at the builder's point
    (which must be in the function's top-level blocks, not inside a loop nest)."""

    b: LoopBuilder
    region: Region
    entry: Block
    out_types: Sequence[Attribute]
    # Buffers to free on a failing path: those allocated at top level and not yet freed.
    live: Callable[[], list[SSAValue]]
    table: list[Attribute] = field(default_factory=list)
    status: SSAValue | None = None
    fail_blocks: list[Block] = field(default_factory=list)
    _op: Operation | None = None
    _operands: Sequence[SSAValue] = ()
    # the checks made on the path being emitted (one check need not repeat)
    done: set[tuple[object, ...]] = field(default_factory=set)

    @contextmanager
    def on(self, op: Operation, operands: Sequence[SSAValue]) -> Iterator[None]:
        """Checks stated while lowering `op` (whose operand buffers are `operands`)."""
        saved = self._op, self._operands
        self._op, self._operands = op, operands
        try:
            yield
        finally:
            self._op, self._operands = saved

    def require(self, relation: str, a: D.Dim, b: D.Dim, what: str) -> None:
        if self._op is None:
            return
        x, y = self.b.idx(a), self.b.idx(b)
        key = (relation, x, y)
        if key in self.done:
            return
        self.done.add(key)
        b = self.b
        if relation == D.AT_LEAST:
            ok = b.cmpi("sge", x, y)
        elif relation == D.DIFFERENT:
            ok = b.cmpi("ne", x, y)
        else:
            ok = b.cmpi("eq", x, y)
            ones = {D.EQUAL: [], D.BROADCAST: [x, y], D.BROADCAST_TO: [x]}[relation]
            for v in ones:
                ok = _or(b, ok, b.cmpi("eq", v, b.idx(1)))
        self.check(ok, x, y, D.BROKEN[relation].format(what=what, a="{a}", b="{b}"))

    def check(self, ok: SSAValue, a: SSAValue, b: SSAValue, message: str) -> None:
        """Continue only where `ok` (i1) holds; else fail with `message`, in which {a} and
        {b} are the run-time values of `a` and `b` (index or integers)."""
        op = self._op
        assert op is not None
        block = self.b.point.block
        assert block.parent is self.region, f"{op.name}: a run-time check inside a loop nest"
        if self.status is None:
            self.status = self.entry.insert_arg(STATUS_TYPE, len(self.entry.args))
            self.status.name_hint = "status"
        shapes = [o.type for o in self._operands]
        ranks = [t.get_num_dims() for t in shapes if isinstance(t, MemRefType | TensorType)]
        self.table.append(ArrayAttr([
            StringAttr(f"{op_label(op)}: {message} (input shapes {{shapes}})"),
            DenseArrayBase.from_list(i64, ranks),
        ]))
        fail = Block()
        self._fail(fail, len(self.table), [a, b])
        self.fail_blocks.append(fail)
        cont = Block()
        self.b.insert(cf.ConditionalBranchOp(ok, cont, [], fail, []))
        self.region.add_block(cont)
        self.b.point = InsertPoint.at_end(cont)

    def _fail(self, block: Block, code: int, values: list[SSAValue]) -> None:
        """The failing path: status filled, live buffers freed, empty results returned."""
        b = LoopBuilder.at_end(block)
        assert self.status is not None
        slots: list[SSAValue] = [b.const(code, i64)]
        slots += [v if v.type == i64 else b.insert(arith.IndexCastOp(v, i64)).results[0]
                  for v in values]
        for o in self._operands:
            t = o.type
            if isinstance(t, MemRefType):
                slots += [b.const(d, i64) if isinstance(d, int) else
                          b.insert(arith.IndexCastOp(b.idx(d), i64)).results[0]
                          for d in b.dims(o)]
            elif isinstance(t, TensorType):  # computed in the op's loop nest: no buffer
                slots += [b.const(d, i64) for d in t.get_shape()]
        for k, v in enumerate(slots[:STATUS_SIZE]):
            b.store(v, self.status, [k])
        for buf in self.live():
            b.insert(memref.DeallocOp.get(buf))
        results = []
        for t in self.out_types:
            if isinstance(t, MemRefType):
                zero = b.idx(0)  # a dynamic dim of size 0 (a static one is allocated)
                dims = [zero if d == DYNAMIC_INDEX else d for d in t.get_shape()]
                results.append(b.alloc(dims, t.element_type))
            else:
                results.append(b.const(0, t))
        b.insert(func.ReturnOp(*results))

    def finish(self) -> None:
        """Append the failing paths after the function's main path."""
        for block in self.fail_blocks:
            self.region.add_block(block)


def _or(b: LoopBuilder, p: SSAValue, q: SSAValue) -> SSAValue:
    return b.insert(arith.OrIOp(p, q)).results[0]


def check_indices(b: LoopBuilder, indices: SSAValue, n: D.Dim | Sequence[D.Dim],
                  to_index: Callable[[LoopBuilder, SSAValue], D.Dim],
                  lo: D.Dim | None = None) -> None:
    """Check that every value of the integer buffer `indices` is in [-n, n) (ONNX's range
    for indices that count from the end when negative), before the op reads by them.

    With a sequence `n` (GatherND's and ScatterND's index tuples), entry j of indices'
    static last dim is checked against n[j]. With `lo`, the range is [lo, n) instead."""
    checks = b.checks
    if checks is None:
        return
    per_entry = isinstance(n, Sequence)
    bounds = [b.idx(d) for d in (n if isinstance(n, Sequence) else [n])]
    if not bounds:
        return
    lows = [b.idx(lo) if lo is not None else
            b.insert(arith.SubiOp(b.idx(0), ni)).results[0] for ni in bounds]
    false = b.const(0, i1)

    def test(v: SSAValue, j: int, carried: list[SSAValue]) -> list[SSAValue]:
        out = _or(b, b.cmpi("slt", v, lows[j]), b.cmpi("sge", v, bounds[j]))
        bad, first, *bound = carried  # the failing entry's bound, carried when several
        kept = [b.select(bad, bound[0], bounds[j])] if bound else []
        return [_or(b, bad, out), b.select(bad, first, v), *kept]

    def scan(dims: list[D.Dim], ivs: list[SSAValue], carried: list[SSAValue]
             ) -> list[SSAValue]:
        if per_entry and len(dims) == 1:  # the index tuple: one bound per entry
            for j in range(len(bounds)):
                v = b.idx(to_index(b, b.load(indices, [*ivs, j])))
                carried = test(v, j, carried)
            return carried
        if not dims:
            return test(b.idx(to_index(b, b.load(indices, ivs))), 0, carried)
        return b.reduce_loop(0, dims[0], carried,
                             lambda iv, c: scan(dims[1:], [*ivs, iv], c))

    bad, first, *bound = scan(b.dims(indices), [], [false, b.idx(0)] +
                              ([bounds[0]] if per_entry else []))
    ok = b.insert(arith.XOrIOp(bad, b.const(1, i1))).results[0]
    checks.check(ok, first, bound[0] if bound else bounds[0],
                 "index {a} out of range for a dim of size {b}")


__all__ = ["STATUS_SIZE", "STATUS_TYPE", "RuntimeChecks", "check_indices", "op_label"]

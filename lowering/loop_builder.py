"""Building loop IR (memref + scf + arith + math + vector) from Python, for the graph
lowerings.

`LoopBuilder` appends ops at an insertion point; `Index` values implement `dims.DimLike`
so an op's shape function (`GraphOp.output_dims`) computes run-time sizes, folding
whatever is static. Float arithmetic carries the `contract` fast-math flag (FMA
formation); reductions that LLVM must reorder to vectorize ask for `reassoc` too. The
arithmetic helpers also take 1-D vectors (dispatching on the element type), and
`vload`/`vstore`/`splat`/`fma` build explicit vector code for hand-blocked kernels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from math import prod
from typing import Protocol, cast

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
    UnitAttr,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from infer.abi import NO_UNROLL_ATTR, PARALLEL_ATTR, THREAD_WORK
from infer.dialects import llvmx
from infer.dialects.dims import Dim
from infer.dialects.graph import NARROW_TYPES, is_float


def storage_type(element: Attribute) -> Attribute:
    """Buffers hold signless integers (arith's rule); signedness stays on the graph types.
    A narrow type's buffer holds its codes, as bytes (or 16 bits for bf16)."""
    if element in NARROW_TYPES:
        return IntegerType(NARROW_TYPES[element].itemsize * 8)
    if isinstance(element, IntegerType):
        return IntegerType(element.width.data)
    return element


def is_unsigned(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.signedness.data == Signedness.UNSIGNED


def _is_float(t: Attribute) -> bool:
    """A float scalar or a vector of floats."""
    return is_float(t.element_type if isinstance(t, VectorType) else t)


CONTRACT = arith.FastMathFlagsAttr(["contract"])
# A parallel nest runs over outer dims of at least this many iterations when it can (the
# threads' chunks then differ little); a single dim is cut in chunks of _CHUNK.
_PARALLEL_ITERATIONS = 64
_CHUNK = 1024
REDUCE = arith.FastMathFlagsAttr(["reassoc", "contract"])
index = IndexType()


# The vectors of the register tiles that kernels without a target's choice build (the
# recurrence's, a 1-D conv's): AVX2's width; LLVM splits them on narrower targets.
VECTOR_BYTES = 32


def tile_lanes(element: Attribute) -> int:
    """Lanes of a VECTOR_BYTES vector of `element` (a float type)."""
    return VECTOR_BYTES // (cast(int, element.bitwidth) // 8)  # type: ignore[attr-defined]


def static_product(dims: Sequence[Dim], times: int = 1) -> int | None:
    """`times` the product of `dims` when all are static, else None (a work estimate)."""
    if not all(isinstance(d, int) for d in dims):
        return None
    return times * prod(cast(Sequence[int], dims))


@dataclass(frozen=True)
class Index:
    """A run-time `index` value usable in shape functions (ints fold away)."""

    b: LoopBuilder
    value: SSAValue

    def _bin(self, other: Dim, op: Callable[[SSAValue, SSAValue], Operation], rev: bool):
        o = self.b.idx(other)
        lhs, rhs = (o, self.value) if rev else (self.value, o)
        return Index(self.b, self.b.insert(op(lhs, rhs)).results[0])

    def __add__(self, o: Dim) -> Index:
        return self if o == 0 else self._bin(o, arith.AddiOp, False)

    def __radd__(self, o: Dim) -> Index:
        return self.__add__(o)

    def __sub__(self, o: Dim) -> Index:
        return self if o == 0 else self._bin(o, arith.SubiOp, False)

    def __rsub__(self, o: Dim) -> Index:
        return self._bin(o, arith.SubiOp, True)

    def __mul__(self, o: Dim) -> Index | int:
        if o == 0:
            return 0
        return self if o == 1 else self._bin(o, arith.MuliOp, False)

    def __rmul__(self, o: Dim) -> Index | int:
        return self.__mul__(o)

    def __floordiv__(self, o: Dim) -> Index:
        return self if o == 1 else self._bin(o, arith.FloorDivSIOp, False)

    def __rfloordiv__(self, o: Dim) -> Index:
        return self._bin(o, arith.FloorDivSIOp, True)

    def max(self, o: Dim) -> Index:
        return self._bin(o, arith.MaxSIOp, False)

    def min(self, o: Dim) -> Index:
        return self._bin(o, arith.MinSIOp, False)

    def broadcast_with(self, o: Dim) -> Index:
        """`dims.broadcast_dim` of two dims unknown until run time: o where self is 1."""
        b = self.b
        one = b.cmpi("eq", self.value, b.idx(1))
        return Index(b, b.select(one, b.idx(o), self.value))

    def require(self, relation: str, a: Dim, b: Dim, what: str) -> None:
        """`dims.require`: checked at run time where the builder's `checks` is set."""
        if self.b.checks is not None:
            self.b.checks.require(relation, a, b, what)


class Checks(Protocol):
    """Where run-time checks go (`runtime_checks.RuntimeChecks`)."""

    def require(self, relation: str, a: Dim, b: Dim, what: str) -> None: ...

    def check(self, ok: SSAValue, a: SSAValue, b: SSAValue, message: str) -> None: ...

    def on(self, op: Operation, operands: Sequence[SSAValue]
           ) -> AbstractContextManager[None]: ...


@dataclass
class LoopBuilder:
    """Appends ops at `point`; helpers return SSA values."""

    point: InsertPoint
    # Run-time checks of the dims relations the shape functions state; None: not checked
    # here (a kernel function: its caller checks before the call).
    checks: Checks | None = None
    # Loops built now are marked NO_UNROLL_ATTR (`kept_loops`).
    keep_loops: bool = False

    @staticmethod
    def at_end(block: Block) -> LoopBuilder:
        return LoopBuilder(InsertPoint.at_end(block))

    def insert(self, op: Operation) -> Operation:
        if self.keep_loops and isinstance(op, scf.ForOp):
            op.attributes[NO_UNROLL_ATTR] = UnitAttr()
        Builder(self.point).insert(op)
        return op

    @contextmanager
    def kept_loops(self) -> Iterator[None]:
        """The loops built inside are kept as loops by LLVM (NO_UNROLL_ATTR): for a
        kernel already unrolled to its register tile."""
        saved, self.keep_loops = self.keep_loops, True
        try:
            yield
        finally:
            self.keep_loops = saved

    # -- constants and indices --------------------------------------------------------

    def const(self, value: int | float, t: Attribute) -> SSAValue:
        """A constant of type `t` (index, integer or float), or a splat of a 1-D vector."""
        if isinstance(t, VectorType):
            el = t.element_type
            v = float(value) if is_float(el) else int(value)
            splat = DenseIntOrFPElementsAttr.from_list(t, [v] * t.get_shape()[0])
            return self.insert(arith.ConstantOp(splat, t)).results[0]
        if is_float(t):
            attr: Attribute = FloatAttr(float(value), t)  # type: ignore[arg-type]
        else:
            attr = IntegerAttr(int(value), t)  # type: ignore[arg-type]
        return self.insert(arith.ConstantOp(attr, t)).results[0]

    def idx(self, d: Dim | SSAValue) -> SSAValue:
        """An `index` SSA value for a static or run-time dim."""
        if isinstance(d, int):
            return self.const(d, index)
        if isinstance(d, Index):
            return d.value
        assert isinstance(d, SSAValue), d
        return d

    def dims(self, buf: SSAValue) -> list[Dim]:
        """The dims of a memref: ints where static, `Index` values where dynamic."""
        t = buf.type
        assert isinstance(t, MemRefType)
        out: list[Dim] = []
        for i, d in enumerate(t.get_shape()):
            if d == DYNAMIC_INDEX:
                dim = self.insert(memref.DimOp(buf, self.const(i, index))).results[0]
                out.append(Index(self, dim))
            else:
                out.append(d)
        return out

    # -- buffers ----------------------------------------------------------------------

    def alloc(self, dims: Sequence[Dim], element: Attribute) -> SSAValue:
        shape = [d if isinstance(d, int) else DYNAMIC_INDEX for d in dims]
        dyn = [self.idx(d) for d in dims if not isinstance(d, int)]
        t = MemRefType(storage_type(element), shape)
        return self.insert(memref.AllocOp(dyn, [], t, IntegerAttr(64, 64))).results[0]

    def load(self, buf: SSAValue, idx: Sequence[Dim | SSAValue]) -> SSAValue:
        return self.insert(memref.LoadOp.get(buf, [self.idx(i) for i in idx])).results[0]

    def store(self, value: SSAValue, buf: SSAValue, idx: Sequence[Dim | SSAValue]) -> None:
        self.insert(memref.StoreOp.get(value, buf, [self.idx(i) for i in idx]))

    # -- 1-D vectors ------------------------------------------------------------------

    def vload(self, buf: SSAValue, idx: Sequence[Dim | SSAValue], lanes: int) -> SSAValue:
        """`lanes` consecutive elements of `buf`'s last dim from `idx` on, as a vector."""
        t = buf.type
        assert isinstance(t, MemRefType)
        vt = VectorType(t.element_type, [lanes])
        return self.insert(vector.LoadOp(buf, [self.idx(i) for i in idx], vt)).results[0]

    def vstore(self, value: SSAValue, buf: SSAValue, idx: Sequence[Dim | SSAValue]) -> None:
        self.insert(vector.StoreOp(value, buf, [self.idx(i) for i in idx]))

    def widen(self, value: SSAValue, element: Attribute) -> SSAValue:
        """`value` (a scalar or vector) with float elements `element`: extended when it
        holds narrower floats (a weight stored as f16), as is when it holds `element`."""
        t = value.type
        held = t.element_type if isinstance(t, VectorType) else t
        if held == element:
            return value
        to = VectorType(element, t.get_shape()) if isinstance(t, VectorType) else element
        return self.insert(arith.ExtFOp(value, to)).results[0]

    def splat(self, scalar: SSAValue, lanes: int) -> SSAValue:
        """A vector of `lanes` copies of `scalar` (vector.broadcast)."""
        vt = VectorType(scalar.type, [lanes])
        return self.insert(vector.BroadcastOp(scalar, vt)).results[0]

    def fma(self, a: SSAValue, b: SSAValue, acc: SSAValue) -> SSAValue:
        """a * b + acc on float vectors, one rounding (llvm.fma)."""
        return self.insert(vector.FMAOp(a, b, acc)).results[0]

    # -- loops ------------------------------------------------------------------------

    @contextmanager
    def loop(self, lb: Dim, ub: Dim, step: Dim = 1) -> Iterator[SSAValue]:
        """`with b.loop(0, n) as i:` builds `scf.for` and puts the body's ops inside."""
        body = Block(arg_types=[index])
        for_op = scf.ForOp(self.idx(lb), self.idx(ub), self.idx(step), [], body)
        self.insert(for_op)
        saved = self.point
        self.point = InsertPoint.at_end(body)
        try:
            yield body.args[0]
        finally:
            self.insert(scf.YieldOp())
            self.point = saved

    @contextmanager
    def loop_nest(self, ubs: Sequence[Dim]) -> Iterator[list[SSAValue]]:
        """Perfect nest over [0, ub) for each ub, outermost first."""
        ivs: list[SSAValue] = []
        saved = self.point
        for_ops: list[tuple[scf.ForOp, InsertPoint]] = []
        for ub in ubs:
            body = Block(arg_types=[index])
            for_op = scf.ForOp(self.idx(0), self.idx(ub), self.idx(1), [], body)
            self.insert(for_op)
            for_ops.append((for_op, self.point))
            self.point = InsertPoint.at_end(body)
            ivs.append(body.args[0])
        try:
            yield ivs
        finally:
            for for_op, _ in reversed(for_ops):
                Builder(InsertPoint.at_end(for_op.body.block)).insert(scf.YieldOp())
            self.point = saved

    @contextmanager
    def parallel(self, ubs: Sequence[Dim], work: int | None = None
                 ) -> Iterator[list[SSAValue]]:
        """A nest over [0, ub) for each ub, outermost first, whose iterations are
        independent (each writes its own outputs and scratch): one `scf.for` over their
        product marked `parallel`, its indices recovered by division. `work`: about the
        scalar operations of one iteration (None: plenty, a thread's worth), the loop's
        mark, from which its launcher sizes the team (`convert-parallel-calls-to-pool`);
        a nest of static sizes worth less than two threads is a plain loop nest."""
        total = 1
        for ub in ubs:
            total = total * ub if isinstance(ub, int) and isinstance(total, int) else None
        work = THREAD_WORK if work is None else max(1, work)
        if total is not None and total * work < 2 * THREAD_WORK:  # dims of 1 are index 0
            with self.loop_nest([ub for ub in ubs if ub != 1]) as loops:
                it = iter(loops)
                yield [self.idx(0) if ub == 1 else next(it) for ub in ubs]
            return
        count: SSAValue | None = None
        for ub in ubs:
            if ub != 1:
                count = self.idx(ub) if count is None else self.insert(
                    arith.MuliOp(count, self.idx(ub))).results[0]
        with self.loop(0, count if count is not None else 1) as flat:
            loop = flat.owner.parent_op()  # type: ignore[union-attr]
            assert isinstance(loop, scf.ForOp)
            loop.attributes[PARALLEL_ATTR] = IntegerAttr(work, IntegerType(64))
            ivs: list[SSAValue] = []
            rest = flat
            for k in reversed(range(len(ubs))):
                ub = ubs[k]
                if ub == 1:
                    ivs.append(self.idx(0))
                elif k == 0:
                    ivs.append(rest)
                else:
                    d = self.idx(ub)
                    ivs.append(self.insert(arith.RemUIOp(rest, d)).results[0])
                    rest = self.insert(arith.DivUIOp(rest, d)).results[0]
            yield ivs[::-1]

    @contextmanager
    def parallel_nest(self, ubs: Sequence[Dim], work: int = 1) -> Iterator[list[SSAValue]]:
        """A nest over [0, ub) for each ub of independent iterations (`work` operations
        each): the outer dims in parallel, enough of them for the threads to share, the
        last (contiguous, vectorized) always inside. One dim is cut in chunks."""
        if len(ubs) == 1 and not (isinstance(ubs[0], int) and ubs[0] <= _CHUNK):
            n = ubs[0]
            chunks = -(-n // _CHUNK) if isinstance(n, int) else (n + (_CHUNK - 1)) // _CHUNK
            with self.parallel([chunks], _CHUNK * work) as (k,):
                lo = Index(self, k) * _CHUNK
                with self.loop(lo, Index(self, self.idx(lo + _CHUNK)).min(n)) as i:
                    yield [i]
            return
        outer = 1
        while outer < len(ubs) - 1:
            outer += 1
            static = prod(d for d in ubs[:outer] if isinstance(d, int))
            if static >= _PARALLEL_ITERATIONS or any(
                    not isinstance(d, int) for d in ubs[:outer]):
                break
        inner = ubs[outer:] if len(ubs) > 1 else ubs
        with self.parallel(ubs[:outer] if len(ubs) > 1 else [],
                           static_product(inner, work)) as out, \
                self.loop_nest(inner) as ivs:
            yield [*out, *ivs]

    def reduce_loop(
        self,
        lb: Dim,
        ub: Dim,
        init: Sequence[SSAValue],
        body_fn: Callable[[SSAValue, list[SSAValue]], Sequence[SSAValue]],
    ) -> list[SSAValue]:
        """`scf.for` with loop-carried values: body_fn(iv, carried) -> next carried."""
        body = Block(arg_types=[index, *[v.type for v in init]])
        for_op = scf.ForOp(self.idx(lb), self.idx(ub), self.idx(1), list(init), body)
        self.insert(for_op)
        saved = self.point
        self.point = InsertPoint.at_end(body)
        try:
            out = body_fn(body.args[0], list(body.args[1:]))
            self.insert(scf.YieldOp(*out))
        finally:
            self.point = saved
        return list(for_op.results)

    def fold(self, dims: Sequence[Dim], init: Sequence[SSAValue],
             body_fn: Callable[[list[SSAValue], list[SSAValue]], Sequence[SSAValue]]
             ) -> list[SSAValue]:
        """Loop-carried values through a nest over `dims` (row-major):
        body_fn(ivs, carried) -> next carried."""

        def nest(k: int, ivs: list[SSAValue], carried: list[SSAValue]) -> list[SSAValue]:
            if k == len(dims):
                return list(body_fn(ivs, carried))
            return self.reduce_loop(0, dims[k], carried,
                                    lambda iv, c: nest(k + 1, [*ivs, iv], c))

        return nest(0, [], list(init))

    @contextmanager
    def if_(self, cond: SSAValue) -> Iterator[None]:
        """The ops built inside run only where `cond` (i1) holds."""
        block = Block()
        self.insert(scf.IfOp(cond, [], [block]))
        saved = self.point
        self.point = InsertPoint.at_end(block)
        try:
            yield
        finally:
            self.insert(scf.YieldOp())
            self.point = saved

    def choose(self, cond: SSAValue, then: Callable[[], Sequence[SSAValue]],
               otherwise: Callable[[], Sequence[SSAValue]]) -> list[SSAValue]:
        """The values `then` builds where `cond` (i1) holds, else those of `otherwise`
        (`scf.if` with results: only one side runs)."""
        blocks = [Block(), Block()]
        saved = self.point
        results: list[Sequence[SSAValue]] = []
        try:
            for block, fn in zip(blocks, (then, otherwise), strict=True):
                self.point = InsertPoint.at_end(block)
                results.append(list(fn()))
                self.insert(scf.YieldOp(*results[-1]))
        finally:
            self.point = saved
        op = scf.IfOp(cond, [v.type for v in results[0]], [blocks[0]], [blocks[1]])
        return list(self.insert(op).results)

    # -- scalar arithmetic (dispatching on float / integer element types) --------------

    def _float_or_int(self, a: SSAValue, b: SSAValue, fop, iop, flags=CONTRACT) -> SSAValue:
        if _is_float(a.type):
            return self.insert(fop(a, b, flags)).results[0]
        return self.insert(iop(a, b)).results[0]

    def add(self, a: SSAValue, b: SSAValue, flags=CONTRACT) -> SSAValue:
        return self._float_or_int(a, b, arith.AddfOp, arith.AddiOp, flags)

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self._float_or_int(a, b, arith.SubfOp, arith.SubiOp)

    def mul(self, a: SSAValue, b: SSAValue, flags=CONTRACT) -> SSAValue:
        return self._float_or_int(a, b, arith.MulfOp, arith.MuliOp, flags)

    def div(self, a: SSAValue, b: SSAValue, unsigned: bool = False) -> SSAValue:
        if _is_float(a.type):
            return self.insert(arith.DivfOp(a, b, CONTRACT)).results[0]
        op = arith.DivUIOp if unsigned else arith.DivSIOp
        return self.insert(op(a, b)).results[0]

    def max(self, a: SSAValue, b: SSAValue, unsigned: bool = False) -> SSAValue:
        ops = (arith.MaximumfOp, arith.MaxUIOp if unsigned else arith.MaxSIOp)
        return self.insert(ops[0](a, b) if _is_float(a.type) else ops[1](a, b)).results[0]

    def min(self, a: SSAValue, b: SSAValue, unsigned: bool = False) -> SSAValue:
        ops = (arith.MinimumfOp, arith.MinUIOp if unsigned else arith.MinSIOp)
        return self.insert(ops[0](a, b) if _is_float(a.type) else ops[1](a, b)).results[0]

    def unary(self, op_cls: type[Operation], a: SSAValue) -> SSAValue:
        """A `math` op on floats, e.g. b.unary(math.ExpOp, x)."""
        return self.insert(op_cls(a)).results[0]

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        """a where `cond`, else b; on vectors lane by lane (LLVM's select: xDSL's arith
        takes no vector condition), or whole by a scalar `cond`."""
        if isinstance(a.type, VectorType) and isinstance(cond.type, VectorType):
            return self.insert(llvmx.SelectOp(cond, a, b)).results[0]
        return self.insert(arith.SelectOp(cond, a, b)).results[0]

    def cmpf(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        """fcmp `pred`; on vectors an i1 a lane (LLVM's fcmp: xDSL's arith.cmpf gives one
        i1 whatever its operands)."""
        if isinstance(a.type, VectorType):
            return self.insert(llvmx.FCmpOp(pred, a, b)).results[0]
        return self.insert(arith.CmpfOp(a, b, pred)).results[0]

    def cmpi(self, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.insert(arith.CmpiOp(a, b, pred)).results[0]

"""`convert-parallel-calls-to-pool`: each `llvm.call @f(%lb, %ub, %args...)` marked
`parallel = work` (made by `outline-parallel-loops`, whose @f runs iterations [lo, hi) and
`work` is about the scalar operations of one iteration) calls a launcher that gives the
loop as many threads as its work pays for, on infer's thread pool (codegen/thread_pool.c):

    @f_launch(lb, ub, args...):                       internal, inlined into the caller
      team = min(@_infer_num_threads, (ub - lb) * work / thread_work)
      team <= 1:  f(lb, ub, args...)                     no call into the pool
      else:       ctx = [&args...] on the stack
                  infer_parallel_for(@f_chunk, ctx, lb, ub, team, grain)
    @f_chunk(ctx, lo, hi):                               a chunk, on whichever thread took it
      f(lo, hi, args...)

`thread_work` (a pass option) is the least work worth one more thread: a loop of less
work in all runs inline, and one of more gets a thread per `thread_work` of it, up to the
count the runtime set. `grain`, the fewest iterations the pool hands out at once, is
`chunk_work / work` rounded up. Both are constants in the launcher, so the choice is in
the IR. `_infer_num_threads` is a global of the module (1 until the runtime sets it), so
one compiled artifact runs at any thread count.

A buffer argument of @f marked `llvm.noalias` (outline-parallel-loops) is a descriptor
struct, which cannot carry LLVM's `noalias`: @f gets its aligned pointer as one more
argument, a `noalias` pointer, in place of the struct's field. Runs after
reconcile-unrealized-casts, on plain llvm ops.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    SymbolRefAttr,
    UnitAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from infer.abi import CHUNK_WORK, NUM_THREADS_SYMBOL, PARALLEL_ATTR, PARALLEL_FOR, THREAD_WORK
from infer.dialects.llvmx import declare_pool
from infer.lowering.llvm_descriptor import PTR, Emitter
from infer.lowering.outline_parallel_loops import NOALIAS

_EXTERNAL = llvm.LinkageAttr("external")
_INTERNAL = llvm.LinkageAttr("internal")
_SLOT_ALIGNMENT = {VectorType: 64}
# A loop's work estimate is capped so that iterations times work stays far from overflow.
_MAX_WORK = 1 << 24


def _icmp(emit: Emitter, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
    predicate = IntegerAttr(llvm.ICmpPredicateFlag(pred).to_int(), 64)
    return emit(llvm.ICmpOp(a, b, predicate)).res


def _min(emit: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return emit(llvm.SelectOp(_icmp(emit, "slt", a, b), a, b)).res


def _func(name: str, inputs: list[Attribute], block: Block) -> llvm.FuncOp:
    fn = llvm.FuncOp(name, llvm.LLVMFunctionType(inputs), _INTERNAL, body=Region(block))
    fn.no_unwind = UnitAttr()
    return fn


def _chunk_fn(callee: str, arg_types: list[Attribute], pointers: list[int]) -> llvm.FuncOp:
    """@<callee>_chunk(ctx, lo, hi): the arguments read back from the context, then
    @callee over [lo, hi)."""
    entry = Block(arg_types=[PTR, i64, i64])
    emit = Emitter(InsertPoint.at_end(entry))
    ctx, lo, hi = entry.args
    args = []
    for k, t in enumerate(arg_types):
        slot = emit(llvm.GEPOp(ctx, [k], PTR, inbounds=True)).result
        at = emit(llvm.LoadOp(slot, PTR, alignment=8)).dereferenced_value
        args.append(emit(llvm.LoadOp(at, t)).dereferenced_value)
    _call_body(emit, callee, [lo, hi, *args], pointers)
    emit(llvm.ReturnOp())
    return _func(f"{callee}_chunk", [PTR, i64, i64], entry)


def _launcher(callee: str, arg_types: list[Attribute], work: int, thread_work: int,
              chunk_work: int, pointers: list[int]) -> list[llvm.FuncOp]:
    """@<callee>_launch with the callee's arguments, and the chunk function it hands to
    the pool (module doc)."""
    work = max(1, min(work, _MAX_WORK))
    entry = Block(arg_types=arg_types)
    serial, parallel = Block(), Block()
    lb, ub, *args = entry.args
    emit = Emitter(InsertPoint.at_end(entry))
    wanted = emit(llvm.LoadOp(emit(llvm.AddressOfOp(NUM_THREADS_SYMBOL, PTR)).result, i32,
                              alignment=4)).dereferenced_value
    total = emit.mul(emit(llvm.SubOp(ub, lb)).res, emit.const(work))
    paid = emit(llvm.SDivOp(total, emit.const(thread_work))).res
    team = _min(emit, emit(llvm.SExtOp(wanted, i64)).res, paid)
    # The context: a pointer to each argument, all on the launching thread's stack (in
    # the entry block: static allocas, which stay so when the launcher is inlined).
    ctx = emit(llvm.AllocaOp(emit.const(max(1, len(args))), PTR, alignment=8)).res
    # (a vector's slot at its own alignment: the loads and stores assume it)
    slots = [emit(llvm.AllocaOp(emit.const(1), v.type, alignment=_SLOT_ALIGNMENT.get(
        type(v.type), 8))).res for v in args]
    emit(llvm.CondBrOp(_icmp(emit, "sgt", team, emit.const(1)), parallel, [], serial, []))

    emit = Emitter(InsertPoint.at_end(serial))
    _call_body(emit, callee, list(entry.args), pointers)
    emit(llvm.ReturnOp())

    emit = Emitter(InsertPoint.at_end(parallel))
    for k, (v, at) in enumerate(zip(args, slots, strict=True)):
        emit(llvm.StoreOp(v, at))
        emit(llvm.StoreOp(at, emit(llvm.GEPOp(ctx, [k], PTR, inbounds=True)).result,
                          alignment=8))
    chunk = _chunk_fn(callee, [a.type for a in args], pointers)
    fn_ptr = emit(llvm.AddressOfOp(chunk.sym_name.data, PTR)).result
    grain = emit.const(-(-chunk_work // work))
    emit(llvm.CallOp(PARALLEL_FOR, fn_ptr, ctx, lb, ub, team, grain))
    emit(llvm.ReturnOp())
    launch = _func(f"{callee}_launch", arg_types, entry)
    launch.body.add_block(serial)
    launch.body.add_block(parallel)
    return [launch, chunk]


def _pass_noalias_pointers(body: llvm.FuncOp) -> list[int]:
    """The positions of @body's buffer arguments marked noalias, whose aligned pointers
    it now takes as `noalias` arguments after its own (module doc). A declaration (a body
    compiled in another part of the module) changes its type the same way."""
    attrs = list(body.arg_attrs or ())
    inputs = body.function_type.inputs.data
    marked = [k for k, a in enumerate(attrs) if NOALIAS in a.data
              and isinstance(inputs[k], llvm.LLVMStructType)]
    block = body.body.blocks.first
    for k in marked if block is not None else ():
        pointer = block.insert_arg(PTR, len(block.args))
        for use in list(block.args[k].uses):
            op = use.operation
            if isinstance(op, llvm.ExtractValueOp) and tuple(op.position.get_values()) == (1,):
                op.res.replace_all_uses_with(pointer)
                op.detach()
                op.erase()
    for k in marked:
        attrs[k] = DictionaryAttr({})
    if marked:
        attrs += [DictionaryAttr({NOALIAS: UnitAttr()})] * len(marked)
        body.arg_attrs = ArrayAttr(attrs)
        fn_type = body.function_type
        body.function_type = llvm.LLVMFunctionType([*fn_type.inputs, *[PTR] * len(marked)],
                                                   fn_type.output)
    return marked


def _call_body(emit: Emitter, callee: str, args: list[SSAValue], pointers: list[int]) -> None:
    """@callee(args..., the aligned pointer of each buffer at `pointers`)."""
    extra = [emit.extract(args[k], [1], PTR) for k in pointers]
    emit(llvm.CallOp(callee, *args, *extra))


@dataclass(frozen=True)
class ConvertParallelCallsToPoolPass(ModulePass):
    """Marked calls to outlined loop bodies as launches on infer's thread pool (module
    doc). `thread_work`: the least work (about scalar operations) worth one more thread;
    `chunk_work`: the least work the pool hands a thread at once."""

    name = "convert-parallel-calls-to-pool"

    thread_work: int = THREAD_WORK
    chunk_work: int = CHUNK_WORK

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.thread_work < 1 or self.chunk_work < 1:
            raise ValueError("thread_work and chunk_work must be positive")
        launchers: dict[str, str] = {}  # each outlined body has one call
        # Every outlined body, defined here or not (its call may be in another part of
        # the module, codegen/partition.py), takes its pointers the same way.
        pointers = {f.sym_name.data: _pass_noalias_pointers(f) for f in op.ops
                    if isinstance(f, llvm.FuncOp) and f.arg_attrs is not None}
        for call in [o for o in op.walk() if isinstance(o, llvm.CallOp)]:
            work = call.attributes.pop(PARALLEL_ATTR, None)
            if work is None:
                continue
            assert isinstance(work, IntegerAttr)
            callee = call.callee.string_value()
            if callee not in launchers:
                fns = _launcher(callee, [a.type for a in call.args], work.value.data,
                                self.thread_work, self.chunk_work, pointers.get(callee, []))
                for fn in fns:
                    op.body.block.add_op(fn)
                launchers[callee] = fns[0].sym_name.data
            call.callee = SymbolRefAttr(launchers[callee])
        if launchers:
            declare_pool(op)

"""`convert-parallel-calls-to-gomp`: each `llvm.call @f(%lb, %ub, %args...)` marked
`parallel = grain` (made by `outline-parallel-loops`, whose @f runs iterations [lo, hi))
calls a launcher that splits [lb, ub) among the threads of the OpenMP runtime (libgomp):

    @f_launch(lb, ub, args...):                       internal, inlined into the caller
      t = min(@_infer_num_threads, (ub - lb) / grain)
      t <= 1:  f(lb, ub, args...)                        no runtime call on one thread
      else:    ctx = [&lb, &ub, &args...] on the stack
               GOMP_parallel(@f_thread, ctx, t, 0)       returns when all t are done
    @f_thread(ctx):                                      run by each thread of the team
      while GOMP_loop_dynamic_start/next gives a chunk [lo, hi) of [lb, ub):
        f(lo, hi, args...)                               about 8 chunks a thread

`_infer_num_threads` is a global of the module (1 until the runtime sets it), so one
compiled artifact runs at any thread count.

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
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from infer.abi import NUM_THREADS_SYMBOL, PARALLEL_ATTR
from infer.lowering.llvm_descriptor import PTR, Emitter
from infer.lowering.outline_parallel_loops import NOALIAS

_EXTERNAL = llvm.LinkageAttr("external")
_INTERNAL = llvm.LinkageAttr("internal")
# The OpenMP runtime's entry points this code calls (libgomp's ABI).
_RUNTIME = {
    "GOMP_parallel": llvm.LLVMFunctionType([PTR, PTR, i32, i32]),
    "GOMP_loop_dynamic_start": llvm.LLVMFunctionType([i64, i64, i64, i64, PTR, PTR], i8),
    "GOMP_loop_dynamic_next": llvm.LLVMFunctionType([PTR, PTR], i8),  # C bool: i8
    "GOMP_loop_end_nowait": llvm.LLVMFunctionType([]),
    "omp_get_num_threads": llvm.LLVMFunctionType([], i32),
}
# Chunks a thread takes on average: a thread that starts late (woken, or descheduled on a
# busy machine) then finds less left, and the others do its share.
_CHUNKS_PER_THREAD = 8


def _icmp(emit: Emitter, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
    predicate = IntegerAttr(llvm.ICmpPredicateFlag(pred).to_int(), 64)
    return emit(llvm.ICmpOp(a, b, predicate)).res


def _min(emit: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return emit(llvm.SelectOp(_icmp(emit, "slt", a, b), a, b)).res


def _max(emit: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return emit(llvm.SelectOp(_icmp(emit, "sgt", a, b), a, b)).res


def _call_returning_i64(emit: Emitter, name: str) -> SSAValue:
    value = emit(llvm.CallOp(name, return_type=i32)).returned
    assert value is not None
    return emit(llvm.SExtOp(value, i64)).res


def _func(name: str, inputs: list[Attribute], block: Block) -> llvm.FuncOp:
    fn = llvm.FuncOp(name, llvm.LLVMFunctionType(inputs), _INTERNAL, body=Region(block))
    fn.no_unwind = UnitAttr()
    return fn


def _thread_fn(callee: str, arg_types: list[Attribute], grain: int, pointers: list[int]
               ) -> llvm.FuncOp:
    """@<callee>_thread(ctx): chunks of [lb, ub) taken from the team's shared counter
    until none is left (libgomp's dynamic schedule)."""
    entry, body, done = Block(arg_types=[PTR]), Block(), Block()
    emit = Emitter(InsertPoint.at_end(entry))
    fields = []
    for k, t in enumerate(arg_types):
        slot = emit(llvm.GEPOp(entry.args[0], [k], PTR, inbounds=True)).result
        at = emit(llvm.LoadOp(slot, PTR, alignment=8)).dereferenced_value
        fields.append(emit(llvm.LoadOp(at, t)).dereferenced_value)
    lb, ub, *args = fields
    team = _call_returning_i64(emit, "omp_get_num_threads")
    # about 8 chunks a thread, of at least `grain` iterations
    share = emit(llvm.SDivOp(emit(llvm.SubOp(ub, lb)).res,
                             emit.mul(team, emit.const(_CHUNKS_PER_THREAD)))).res
    chunk = _max(emit, share, emit.const(grain))
    lo_at = emit(llvm.AllocaOp(emit.const(1), i64, alignment=8)).res
    hi_at = emit(llvm.AllocaOp(emit.const(1), i64, alignment=8)).res
    first = emit(llvm.CallOp("GOMP_loop_dynamic_start", lb, ub, emit.const(1), chunk, lo_at,
                             hi_at, return_type=i8)).returned
    assert first is not None
    emit(llvm.CondBrOp(_icmp(emit, "ne", first, emit.const(0, i8)), body, [], done, []))

    emit = Emitter(InsertPoint.at_end(body))
    lo = emit(llvm.LoadOp(lo_at, i64, alignment=8)).dereferenced_value
    hi = emit(llvm.LoadOp(hi_at, i64, alignment=8)).dereferenced_value
    _call_body(emit, callee, [lo, hi, *args], pointers)
    more = emit(llvm.CallOp("GOMP_loop_dynamic_next", lo_at, hi_at, return_type=i8)).returned
    assert more is not None
    emit(llvm.CondBrOp(_icmp(emit, "ne", more, emit.const(0, i8)), body, [], done, []))

    emit = Emitter(InsertPoint.at_end(done))
    emit(llvm.CallOp("GOMP_loop_end_nowait"))  # GOMP_parallel's end is the barrier
    emit(llvm.ReturnOp())
    fn = _func(f"{callee}_thread", [PTR], entry)
    fn.body.add_block(body)
    fn.body.add_block(done)
    return fn


def _launcher(callee: str, arg_types: list[Attribute], grain: int, pointers: list[int]
              ) -> list[llvm.FuncOp]:
    """@<callee>_launch with the callee's arguments, and the thread function it starts."""
    entry = Block(arg_types=arg_types)
    serial, parallel = Block(), Block()
    lb, ub, *args = entry.args
    emit = Emitter(InsertPoint.at_end(entry))
    wanted = emit(llvm.LoadOp(emit(llvm.AddressOfOp(NUM_THREADS_SYMBOL, PTR)).result, i32,
                              alignment=4)).dereferenced_value
    chunks = emit(llvm.SubOp(ub, lb)).res
    if grain > 1:
        chunks = emit(llvm.SDivOp(chunks, emit.const(grain))).res
    team = _min(emit, emit(llvm.SExtOp(wanted, i64)).res, chunks)
    # The context: a pointer to each argument, all on the launching thread's stack (in
    # the entry block: static allocas, which stay so when the launcher is inlined).
    ctx = emit(llvm.AllocaOp(emit.const(len(arg_types)), PTR, alignment=8)).res
    slots = [emit(llvm.AllocaOp(emit.const(1), v.type, alignment=8)).res for v in entry.args]
    emit(llvm.CondBrOp(_icmp(emit, "sgt", team, emit.const(1)), parallel, [], serial, []))

    emit = Emitter(InsertPoint.at_end(serial))
    _call_body(emit, callee, list(entry.args), pointers)
    emit(llvm.ReturnOp())

    emit = Emitter(InsertPoint.at_end(parallel))
    for k, (v, at) in enumerate(zip(entry.args, slots, strict=True)):
        emit(llvm.StoreOp(v, at))
        emit(llvm.StoreOp(at, emit(llvm.GEPOp(ctx, [k], PTR, inbounds=True)).result,
                          alignment=8))
    thread = _thread_fn(callee, arg_types, grain, pointers)
    fn_ptr = emit(llvm.AddressOfOp(thread.sym_name.data, PTR)).result
    team32 = emit(llvm.TruncOp(team, i32)).res
    emit(llvm.CallOp("GOMP_parallel", fn_ptr, ctx, team32, emit.const(0, i32)))
    emit(llvm.ReturnOp())
    launch = _func(f"{callee}_launch", arg_types, entry)
    launch.body.add_block(serial)
    launch.body.add_block(parallel)
    return [launch, thread]


def declare_runtime(module: ModuleOp) -> None:
    """The runtime's functions and the thread count global, once per module."""
    names = {o.sym_name.data for o in module.ops if isinstance(o, llvm.FuncOp | llvm.GlobalOp)}
    block = module.body.block
    for name, fn_type in _RUNTIME.items():
        if name not in names:
            block.add_op(llvm.FuncOp(name, fn_type, _EXTERNAL))
    if NUM_THREADS_SYMBOL not in names:
        block.add_op(llvm.GlobalOp(i32, NUM_THREADS_SYMBOL, _EXTERNAL,
                                   value=IntegerAttr(1, i32), alignment=4))


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
class ConvertParallelCallsToGompPass(ModulePass):
    """Marked calls to outlined loop bodies as launches on libgomp's threads (module doc)."""

    name = "convert-parallel-calls-to-gomp"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        launchers: dict[str, str] = {}  # each outlined body has one call
        # Every outlined body, defined here or not (its call may be in another part of
        # the module, codegen/partition.py), takes its pointers the same way.
        pointers = {f.sym_name.data: _pass_noalias_pointers(f) for f in op.ops
                    if isinstance(f, llvm.FuncOp) and f.arg_attrs is not None}
        for call in [o for o in op.walk() if isinstance(o, llvm.CallOp)]:
            grain = call.attributes.pop(PARALLEL_ATTR, None)
            if grain is None:
                continue
            assert isinstance(grain, IntegerAttr)
            callee = call.callee.string_value()
            if callee not in launchers:
                fns = _launcher(callee, [a.type for a in call.args], grain.value.data,
                                pointers.get(callee, []))
                for fn in fns:
                    op.body.block.add_op(fn)
                launchers[callee] = fns[0].sym_name.data
            call.callee = SymbolRefAttr(launchers[callee])
        if launchers:
            declare_runtime(op)

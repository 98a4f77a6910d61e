"""`convert-parallel-calls-to-gomp`: each `llvm.call @f(%lb, %ub, %args...)` marked
`parallel = grain` (made by `outline-parallel-loops`, whose @f runs iterations [lo, hi))
calls a launcher that splits [lb, ub) among the threads of the OpenMP runtime (libgomp):

    @f_launch(lb, ub, args...):                       internal, inlined into the caller
      t = min(@_infer_num_threads, (ub - lb) / grain)
      t <= 1:  f(lb, ub, args...)                        no runtime call on one thread
      else:    ctx = [&lb, &ub, &args...] on the stack
               GOMP_parallel(@f_thread, ctx, t, 0)       returns when all t are done
    @f_thread(ctx):                                      run by each thread of the team
      i, n = omp_get_thread_num(), omp_get_num_threads()
      f(its static chunk of [lb, ub), args...)           chunks differ by one at most

`_infer_num_threads` is a global of the module (1 until the runtime sets it), so one
compiled artifact runs at any thread count.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, SymbolRefAttr, UnitAttr, i32, i64
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from infer.abi import NUM_THREADS_SYMBOL
from infer.lowering.llvm_descriptor import PTR, Emitter
from infer.lowering.loop_builder import PARALLEL_ATTR

_EXTERNAL = llvm.LinkageAttr("external")
_INTERNAL = llvm.LinkageAttr("internal")
# The OpenMP runtime's entry points this code calls (libgomp's ABI).
_RUNTIME = {
    "GOMP_parallel": llvm.LLVMFunctionType([PTR, PTR, i32, i32]),
    "omp_get_thread_num": llvm.LLVMFunctionType([], i32),
    "omp_get_num_threads": llvm.LLVMFunctionType([], i32),
}


def _icmp(emit: Emitter, pred: str, a: SSAValue, b: SSAValue) -> SSAValue:
    predicate = IntegerAttr(llvm.ICmpPredicateFlag(pred).to_int(), 64)
    return emit(llvm.ICmpOp(a, b, predicate)).res


def _min(emit: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return emit(llvm.SelectOp(_icmp(emit, "slt", a, b), a, b)).res


def _call_returning_i64(emit: Emitter, name: str) -> SSAValue:
    value = emit(llvm.CallOp(name, return_type=i32)).returned
    assert value is not None
    return emit(llvm.SExtOp(value, i64)).res


def _func(name: str, inputs: list[Attribute], block: Block) -> llvm.FuncOp:
    fn = llvm.FuncOp(name, llvm.LLVMFunctionType(inputs), _INTERNAL, body=Region(block))
    fn.no_unwind = UnitAttr()
    return fn


def _thread_fn(callee: str, arg_types: list[Attribute]) -> llvm.FuncOp:
    """@<callee>_thread(ctx): the calling thread's chunk of [lb, ub)."""
    block = Block(arg_types=[PTR])
    emit = Emitter(InsertPoint.at_end(block))
    fields = []
    for k, t in enumerate(arg_types):
        slot = emit(llvm.GEPOp(block.args[0], [k], PTR, inbounds=True)).result
        at = emit(llvm.LoadOp(slot, PTR, alignment=8)).dereferenced_value
        fields.append(emit(llvm.LoadOp(at, t)).dereferenced_value)
    lb, ub, *args = fields
    tid = _call_returning_i64(emit, "omp_get_thread_num")
    team = _call_returning_i64(emit, "omp_get_num_threads")
    n = emit(llvm.SubOp(ub, lb)).res
    q = emit(llvm.SDivOp(n, team)).res
    r = emit(llvm.SRemOp(n, team)).res
    # the first r threads take q + 1 iterations, the others q
    lo = emit.add(emit.add(lb, emit.mul(tid, q)), _min(emit, tid, r))
    extra = emit(llvm.ZExtOp(_icmp(emit, "slt", tid, r), i64)).res
    hi = emit.add(emit.add(lo, q), extra)
    emit(llvm.CallOp(callee, lo, hi, *args))
    emit(llvm.ReturnOp())
    return _func(f"{callee}_thread", [PTR], block)


def _launcher(callee: str, arg_types: list[Attribute], grain: int) -> list[llvm.FuncOp]:
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
    emit(llvm.CondBrOp(_icmp(emit, "sgt", team, emit.const(1)), parallel, [], serial, []))

    emit = Emitter(InsertPoint.at_end(serial))
    emit(llvm.CallOp(callee, lb, ub, *args))
    emit(llvm.ReturnOp())

    emit = Emitter(InsertPoint.at_end(parallel))
    # the context: a pointer to each argument, each on the launching thread's stack
    ctx = emit(llvm.AllocaOp(emit.const(len(arg_types)), PTR, alignment=8)).res
    for k, v in enumerate(entry.args):
        at = emit(llvm.AllocaOp(emit.const(1), v.type, alignment=8)).res
        emit(llvm.StoreOp(v, at))
        emit(llvm.StoreOp(at, emit(llvm.GEPOp(ctx, [k], PTR, inbounds=True)).result,
                          alignment=8))
    thread = _thread_fn(callee, arg_types)
    fn_ptr = emit(llvm.AddressOfOp(thread.sym_name.data, PTR)).result
    team32 = emit(llvm.TruncOp(team, i32)).res
    emit(llvm.CallOp("GOMP_parallel", fn_ptr, ctx, team32, emit.const(0, i32)))
    emit(llvm.ReturnOp())
    launch = _func(f"{callee}_launch", arg_types, entry)
    launch.body.add_block(serial)
    launch.body.add_block(parallel)
    return [launch, thread]


def _declare(module: ModuleOp) -> None:
    """The runtime's functions and the thread count global, once per module."""
    names = {o.sym_name.data for o in module.ops if isinstance(o, llvm.FuncOp | llvm.GlobalOp)}
    block = module.body.block
    for name, fn_type in _RUNTIME.items():
        if name not in names:
            block.add_op(llvm.FuncOp(name, fn_type, _EXTERNAL))
    if NUM_THREADS_SYMBOL not in names:
        block.add_op(llvm.GlobalOp(i32, NUM_THREADS_SYMBOL, _EXTERNAL,
                                   value=IntegerAttr(1, i32), alignment=4))


@dataclass(frozen=True)
class ConvertParallelCallsToGompPass(ModulePass):
    """Marked calls to outlined loop bodies as launches on libgomp's threads (module doc)."""

    name = "convert-parallel-calls-to-gomp"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        launchers: dict[str, str] = {}  # each outlined body has one call
        for call in [o for o in op.walk() if isinstance(o, llvm.CallOp)]:
            grain = call.attributes.pop(PARALLEL_ATTR, None)
            if grain is None:
                continue
            assert isinstance(grain, IntegerAttr)
            callee = call.callee.string_value()
            if callee not in launchers:
                fns = _launcher(callee, [a.type for a in call.args], grain.value.data)
                for fn in fns:
                    op.body.block.add_op(fn)
                launchers[callee] = fns[0].sym_name.data
            call.callee = SymbolRefAttr(launchers[callee])
        if launchers:
            _declare(op)

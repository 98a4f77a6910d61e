"""What compiled code and the runtime that calls it agree on, in a module that imports
nothing but numpy: the runtime (runtime/, codegen/jit.py) maps and calls an artifact without
importing the compiler (xDSL, the dialects, ONNX).

The entry ABI: `void _infer_packed_<name>(ptr args)` (emitted by `convert-func-to-llvm`),
the entry's original signature in its `infer.signature` attribute.
"""

import numpy as np

PACKED_PREFIX = "_infer_packed_"
SIGNATURE_ATTR = "infer.signature"
# What callers of each entry see (names, element types, symbolic dims of its tensors): a
# module attribute that `record-signature` writes at the graph level and no pass touches,
# so it reaches the llvm level unchanged for the runtime to read.
MODEL_SIGNATURE_ATTR = "infer.model_signature"
# What each failing run-time check of an entry means (lowering/runtime_checks.py): a
# module attribute `{function: [[message, operand ranks], ...]}`, code k is entry k - 1.
MODEL_CHECKS_ATTR = "infer.checks"
# Per public function, its memory plan (lowering/memory_plan.py): a module attribute
# `{function: {arena, total, buffers, unplanned}}`. A function with a plan takes one more
# argument after all others (after the status buffer): its arena, `arena` bytes (an i8
# buffer aligned to ARENA_ALIGNMENT) that the caller owns and that no two runs share.
MEMORY_PLAN_ATTR = "infer.memory_plan"
ARENA_ALIGNMENT = 64
# i64 slots of the status buffer such an entry takes last: code, two values, input dims.
CHECK_STATUS_SIZE = 64
# The hidden input that numbers a model's runs, for its random ops (a u64 scalar).
RUN_COUNTER = "infer.run_counter"
# The dim name exporters write for "unknown": like "", an independent dynamic dim, not a
# symbol shared by every "?" of the model (kept as written: onnxruntime reports it so).
ANONYMOUS_DIM = "?"
# The i32 global of a module with parallel loops that holds how many threads they may use
# (`convert-parallel-calls-to-pool`); the runtime sets it, 1 until then.
NUM_THREADS_SYMBOL = "_infer_num_threads"
# The thread pool's entry point that compiled code calls for a parallel loop
# (codegen/thread_pool.c): void infer_parallel_for(void (*body)(void *ctx, i64 lo, i64 hi),
# void *ctx, i64 lb, i64 ub, i64 team, i64 grain).
PARALLEL_FOR = "infer_parallel_for"
# The allocator compiled code's buffers come from (codegen/entry_call.c), in place of
# malloc/free: void *infer_alloc(i64 bytes), void infer_free(void *). It keeps large blocks
# for reuse, so a run's buffers of run-time size (a dynamic batch) are not mapped and
# faulted in again each run.
ALLOC_SYMBOL = "infer_alloc"
FREE_SYMBOL = "infer_free"
# The cost model of parallel loops, in a loop's work estimate (about scalar operations):
# the least work worth one more thread (20-40 microseconds on one core: a thread of a
# 16-thread team gets no less), and the least the pool hands a thread at once (about a
# microsecond).
THREAD_WORK = 1 << 20
CHUNK_WORK = 1 << 15
# A function the lowering outlined and LLVM must not inline back (`outline-loops`): a
# discardable attribute of func.func and llvm.func, LLVM's `noinline` in the IR.
NOINLINE_ATTR = "infer.noinline"
# The memref arguments of such a function that no other argument's memory overlaps
# (array<i64: positions>): each passed as its bare aligned pointer, LLVM's `noalias`,
# so that LLVM's vectorizers know what the caller knew (distinct allocations).
NOALIAS_ATTR = "infer.noalias"
# The mark of an scf.for whose iterations are independent (`outline-parallel-loops` runs
# it on several threads), and of the call to its outlined body: its value is the work of
# one iteration (about its scalar operations), from which the launcher sizes the team.
PARALLEL_ATTR = "parallel"
# The mark of an scf.for the lowering already shaped for the registers (a conv's register
# tile): LLVM must not unroll it again (`llvm.loop.unroll.disable` on its back edge),
# which multiplies its code, and LLVM's time, for no speed. Carried by the loop's
# back-edge branch through cf and the llvm dialect.
NO_UNROLL_ATTR = "infer.no_unroll"

# How f32 weights may be held, in the compiled code (`store-weights-f16`) and in a saved
# artifact: as f32, or as f16 where every finite value fits (`fits_f16`).
WEIGHT_STORAGE = ("f32", "f16")


def fits_f16(data: np.ndarray) -> bool:
    """Whether f32 weights `data` may be stored as f16 (by `store-weights-f16` in the
    compiled code, or in a saved artifact): every finite value within f16's range, so
    only precision is lost (NaN and Inf keep their meaning)."""
    finite = data[np.isfinite(data)]
    return not finite.size or float(np.abs(finite).max()) <= float(np.finfo(np.float16).max)


def encode_strings(values: np.ndarray) -> list[np.ndarray]:
    """A string tensor's bytes, starts and ends (str elements as UTF-8, bytes as they
    are); TypeError or UnicodeError for an element that is neither."""
    encoded = [v.encode() if isinstance(v, str) else bytes(v) for v in values.reshape(-1)]
    sizes = np.array([len(b) for b in encoded], np.int64)
    ends = np.cumsum(sizes, dtype=np.int64)
    return [np.frombuffer(bytearray(b"".join(encoded)), np.uint8),
            (ends - sizes).reshape(values.shape), ends.reshape(values.shape)]

"""The compilation pipeline, read top to bottom: every stage from the imported graph to the
llvm dialect, by registered pass name. `api.compile_module` runs this list and JITs the
result; `infer-opt -p 'compile{level=3 block=8}'` runs the same list on text.

    graph dialect, as the importer makes it
      record-signature                  the model's inputs and outputs, for the runtime
      expand-scan                       each graph.scan as the graph.loop it describes
      qnn-fold-qdq                      level >= 1: DequantizeLinear → op → QuantizeLinear
                                        as qnn ops (before the next pass expands them)
      qnn-canonicalize                  every qnn op as the int32/f32 graph ops of its formula,
                                        or a requantized conv/matmul as one integer-kernel op
      qnn-legalize{vnni=B lanes=L}      those kernels' form for the target, weights packed
      select-int8-tile{l2=B}            their register tiles and cache blocks
      widen-half                        f16/bf16/float8 ops computed in f32, rounded per op
      graph-optimize{level=N block=C qdq=false}
                                        folding, fusions; at level 3 the NCHWc layout
      select-conv-tile{registers=R}     at level 3: each blocked conv's register tile
      select-conv-rows{edge-width=E}    at level 3: how its output rows are cut into tiles
      pack-matmul{block=C registers=R}  at level 3: constant matmul weights packed in panels
      select-gemm-blocking{l1 l2 l3}    at level 3: their cache blocks, from the cache sizes
      store-weights-f16                 with weights="f16": conv/matmul weights held as f16
    graph dialect, optimized
      plan-loops{outline=true}          marks: elementwise chains fused, repeated kernels outlined
      graph-to-loops                    buffers and loop nests, as marked (independent
                                        outer loops marked `parallel`)
      canonicalize-loops, cse           canonicalize, without hoisting constants out of loops
      outline-parallel-loops            each parallel loop's body a function of a range
      outline-loops                     each loop nest of a function with several: its own
      plan-memory                       the public functions' static intermediates in one
                                        arena (an argument), lifetimes sharing bytes
    memref + scf + arith/math/vector    (`lower-to-llvm` runs the rest alone)
      approximate-math                  f32 exp and erf as polynomials (LLVM has no vector form)
      convert-scf-to-cf, convert-{vector,memref,math,arith,cf,func}-to-llvm,
      reconcile-unrealized-casts,
      convert-parallel-calls-to-pool    the calls of those functions on infer's thread pool
    llvm dialect ──► codegen (LLVM IR, O3, JIT)

Target choices are pass options: the NCHWc block (channels per vector register), the
vector register count and the cache sizes are filled in by the API from codegen/target.py;
a pass given none uses AVX2's (8 channels, 16 registers) and gemm_blocking.CACHES.
Every stage runs in-process on IR objects; `infer-opt -p` runs the same passes on text.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import VerifyException

from infer.lowering.qnn_legalize import LANES
from infer.passes import PASSES
from infer.transforms.conv_tile import REGISTERS, conv_tile
from infer.transforms.gemm_blocking import CACHES
from infer.transforms.graph_optimize import MAX_LEVEL, check_options
from infer.transforms.nchwc_packing import BLOCK

# The default graph optimization level: the fastest, which every test model and the light
# model zoo compile correctly at (an InferenceSession's default too, onnxruntime's
# ORT_ENABLE_ALL).
DEFAULT_OPT_LEVEL = 3

# Records what the runtime checks feeds against before the graph is rewritten; then Scan
# becomes the loop it is defined as, qnn ops the integer graph ops they stand for, and
# half-precision arithmetic is made f32 between casts, at every level (it is semantics).
# From level 1, QDQ patterns become qnn ops first (an optimization: the float form is
# correct too); after qnn-canonicalize no qnn op is left to fold into.
# qnn-legalize then packs the integer kernels' weights for the target's int8 form, and
# select-int8-tile writes their tiles.
def prepare_passes(level: int, int8: tuple[bool, int] | None = None,
                   l2: int | None = None) -> list[str]:
    """`int8`: (vnni, lanes) of the target's integer kernels (qnn-legalize's default,
    AVX2's pairs, where None); `l2`: the L2 cache's bytes (gemm_blocking's where None)."""
    fold = ["qnn-fold-qdq"] if level >= 1 else []
    legalize = "qnn-legalize" if int8 is None else (
        f"qnn-legalize{{vnni={str(int8[0]).lower()} lanes={int8[1]}}}")
    tile = f"select-int8-tile{{l2={CACHES[1] if l2 is None else l2}}}"
    return ["record-signature", "expand-scan", *fold, "qnn-canonicalize", legalize, tile,
            "widen-half"]


def graph_optimize_passes(level: int, block: int | None = None) -> list[str]:
    """The graph stage: `graph-optimize{level=N qdq=false}` (nothing at level 0), with the
    NCHWc `block` at level 3 when given; QDQ patterns were folded before qnn-canonicalize
    (prepare_passes), and no qnn op may be made after it."""
    if not 0 <= level <= MAX_LEVEL:
        raise ValueError(f"opt_level must be 0..{MAX_LEVEL}, got {level}")
    if level == 0:
        return []
    options = f"level={level}" + (f" block={block}" if block is not None and level >= 3 else "")
    return [f"graph-optimize{{{options} qdq=false}}"]


# graph → buffers and loops, then the cleanups that make the loop IR readable and small.
# Elementwise chains become one loop nest; repeated kernels (the same conv many times)
# are outlined into shared functions; the body of each parallel loop becomes a function
# over a range of its iterations, and each loop nest left in a function of several one
# of its own (LLVM's time grows faster than a function's size); last, the intermediates
# of each public function are packed into one arena that the caller passes.
LOWER_TO_LOOPS = ["plan-loops{outline=true}", "graph-to-loops", "canonicalize-loops", "cse",
                  "outline-parallel-loops", "outline-loops", "plan-memory"]

# Loops → llvm. f32 exp/erf become polynomials first. Vector and memref next: they read
# memref types that func/cf conversion hides behind casts.
LOWER_TO_LLVM = [
    "approximate-math",
    "convert-scf-to-cf",
    "convert-vector-to-llvm",
    "convert-memref-to-llvm",
    "convert-math-to-llvm",
    "convert-arith-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "reconcile-unrealized-casts",
    "convert-parallel-calls-to-pool",
]  # no dce after: it found nothing to remove (LLVM's O3 would remove it anyway)


def select_tile_passes(level: int, registers: int | None = None, block: int | None = None,
                       caches: tuple[int, int, int] | None = None) -> list[str]:
    """At level 3, the register tiles of the blocked convs and of the packed matmuls for
    `registers` vector registers of `block` f32 lanes, and the matmuls' cache blocks for
    `caches` (L1, L2, L3 bytes); AVX2's 16 registers and 8 lanes and gemm_blocking's
    caches where not given."""
    if level < 3:
        return []
    registers = REGISTERS if registers is None else registers
    block = BLOCK if block is None else block
    l1, l2, l3 = CACHES if caches is None else caches
    return [f"select-conv-tile{{registers={registers}}}", "select-conv-rows",
            f"pack-matmul{{block={block} registers={registers}}}",
            f"select-gemm-blocking{{l1={l1} l2={l2} l3={l3}}}"]


# The passes that make the code hold f32 weights as each of abi.WEIGHT_STORAGE: as f32,
# or as f16 where the kernel reading them widens them as it loads (after packing).
WEIGHT_PASSES = {"f32": [], "f16": ["store-weights-f16"]}


def compile_passes(
    level: int = DEFAULT_OPT_LEVEL, block: int | None = None, registers: int | None = None,
    caches: tuple[int, int, int] | None = None, weights: str = "f32",
    int8: tuple[bool, int] | None = None, to_llvm: bool = True,
) -> list[str]:
    """The whole pipeline, graph as imported to llvm (to loops without `to_llvm`), at
    graph optimization `level`, with f32 weights stored as `weights` ("f32" or "f16") and
    the int8 kernels of `int8`."""
    return [*prepare_passes(level, int8, None if caches is None else caches[1]),
            *graph_optimize_passes(level, block),
            *select_tile_passes(level, registers, block, caches), *WEIGHT_PASSES[weights],
            *LOWER_TO_LOOPS, *(LOWER_TO_LLVM if to_llvm else [])]


def make_passes(names: list[str]) -> list[ModulePass]:
    """Passes from their names, with options as in `-p`: `graph-optimize{level=1}`."""
    return list(PassPipeline.parse_spec(PASSES, ",".join(names)).passes) if names else []


# With this environment variable set to 1 (the test suite sets it), the IR verifier runs
# after every pass, so that IR breaking an invariant fails at the pass that made it; but
# within the conversion to the llvm dialect (LOWER_TO_LLVM), where the module is largest
# and each verify costs as much as the pass, only after the last pass: set to "all", it
# runs after those too. Set to "stages", it runs once at the end of each stage (graph,
# loops, llvm): a third of a small model's compile, where many models are compiled.
VERIFY_EACH_PASS = "INFER_VERIFY_EACH_PASS"
_VERIFIED_AT_STAGE_END = frozenset(LOWER_TO_LLVM[:-1])
_LOOPS_FIRST = LOWER_TO_LOOPS[0].split("{")[0]
_STAGE_LAST = frozenset({LOWER_TO_LOOPS[-1], LOWER_TO_LLVM[-1]})


def _verifier(setting: str | None) -> Callable[[ModulePass | None, ModuleOp,
                                                ModulePass | None], None] | None:
    if setting not in ("1", "all", "stages"):
        return None
    unverified = _VERIFIED_AT_STAGE_END if setting == "1" else frozenset()

    def verify_after(done: ModulePass | None, module: ModuleOp, next_: ModulePass | None
                     ) -> None:
        if setting == "stages":
            graph_end = next_ is not None and next_.name == _LOOPS_FIRST
            if not graph_end and (done is None or done.name not in _STAGE_LAST):
                return
        elif done is None or done.name in unverified:
            return
        try:
            module.verify()
        except VerifyException as e:
            if done is None:
                where = "the graph-level passes"
            elif setting == "stages":
                where = f"'{done.name}' (or a pass of its stage before it)"
            elif unverified and done.name in LOWER_TO_LLVM:
                where = (f"'{done.name}' (or a conversion to llvm before it: "
                         f"{VERIFY_EACH_PASS}=all verifies after each)")
            else:
                where = f"'{done.name}'"
            raise VerifyException(f"internal error: the IR after {where} does not verify: "
                                  f"{e}") from e

    return verify_after


def run_passes(module: ModuleOp, ctx: Context, names: list[str]) -> None:
    check = _verifier(os.environ.get(VERIFY_EACH_PASS))
    PassPipeline(tuple(make_passes(names)), check).apply(ctx, module)


def lower_to_llvm(module: ModuleOp, ctx: Context) -> ModuleOp:
    """Lowers loop-level `module` in place to the llvm (+ llvmx) dialect and returns it."""
    run_passes(module, ctx, LOWER_TO_LLVM)
    return module


@dataclass(frozen=True)
class CompilePass(ModulePass):
    """`compile{level=N block=C registers=R l1=B l2=B l3=B vnni=B lanes=L}`: the whole
    pipeline, graph to llvm, as `infer.compile` runs it (which passes the host's block,
    register count, cache sizes and int8 kernel form)."""

    name = "compile"

    level: int = DEFAULT_OPT_LEVEL
    block: int = BLOCK
    registers: int = REGISTERS
    l1: int = CACHES[0]
    l2: int = CACHES[1]
    l3: int = CACHES[2]
    vnni: bool = False
    lanes: int = LANES

    def __post_init__(self) -> None:
        check_options(self.level, self.block, "compile")
        conv_tile(self.registers)

    def passes(self) -> list[str]:
        """The pipeline this pass runs, by pass name."""
        return compile_passes(self.level, self.block, self.registers,
                              (self.l1, self.l2, self.l3), int8=(self.vnni, self.lanes))

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_passes(op, ctx, self.passes())


@dataclass(frozen=True)
class LowerToLLVMPass(ModulePass):
    """`lower-to-llvm`: loop-level IR (scf/cf/arith/math/memref/vector/func) to llvm."""

    name = "lower-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_to_llvm(op, ctx)

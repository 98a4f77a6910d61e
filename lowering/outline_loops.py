"""outline-loops: each top-level loop nest of a function that has several becomes a
function of its own, called where it was.

LLVM's optimizer is superlinear in a function's size: on a model whose entry function
holds hundreds of loop nests (DenseNet's, 25,000 lines of LLVM IR) O3 spends over 80% of
the compile in that one function. As functions of their own, each nest is optimized
alone, in time linear in the model. They are marked `infer.noinline` (LLVM's `noinline`)
so that the inliner does not build the large function again; a call per loop nest costs
nothing next to the nest.

    func.func @main(%x: memref<4xf32>) -> memref<4xf32> {
      %c0 = arith.constant 0 : index
      %y = memref.alloc() : memref<4xf32>
      scf.for %i = %c0 to %c4 step %c1 { ... %x ... %y ... }
      scf.for %i = %c0 to %c4 step %c1 { ... %y ... }
  becomes
      %y = memref.alloc() : memref<4xf32>
      func.call @main__loop_0(%x, %y) : (memref<4xf32>, memref<4xf32>) -> ()
      func.call @main__loop_1(%y) : (memref<4xf32>) -> ()
    func.func private @main__loop_0(%x: memref<4xf32>, %y: memref<4xf32>)
        attributes {infer.noinline} { %c0 = arith.constant 0 : index  scf.for ... }

Constants the nest reads are copied into its function rather than passed, so that trip
counts and strides stay known to LLVM; every other value it reads is an argument (an
index as i64), and the loop's results (carried values) are the function's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    IndexType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from infer.abi import NOALIAS_ATTR, NOINLINE_ATTR
from infer.lowering.graph_to_loops import captured

# Values defined by these are copied into the outlined function instead of passed.
_COPIED = (arith.ConstantOp, memref.GetGlobalOp)
# Ops whose memref result is a view of their first memref operand's memory.
_VIEWS = (memref.SubviewOp, memref.ReinterpretCastOp, memref.CastOp, memref.CollapseShapeOp,
          memref.ExpandShapeOp)


def _index_cast(v: SSAValue, to: Attribute, at: InsertPoint) -> SSAValue:
    cast = arith.IndexCastOp(v, to)
    Rewriter.insert_op(cast, at)
    return cast.result


def _root(v: SSAValue, entry: Block) -> SSAValue | None:
    """The allocation `v`'s memory belongs to: a fresh buffer (memref.alloc, a kernel's
    result) or an argument of the function (entry block), through views of them; None
    when unknown."""
    while True:
        owner = v.owner
        if isinstance(owner, memref.AllocOp | func.CallOp) or (
                isinstance(owner, Block) and owner is entry):
            return v
        if not isinstance(owner, Operation):
            return None
        bases = [o for o in owner.operands if isinstance(o.type, MemRefType)]
        if not isinstance(owner, _VIEWS) or not bases:
            return None
        v = bases[0]


def noalias_positions(moved: Operation, passed: Sequence[SSAValue]) -> list[int]:
    """Positions of `passed` (the values `moved`, an op about to become a function's
    body, reads from outside) that no other passed value overlaps: allocations themselves
    (static, identity layout, not freed by `moved`), each passed once, when where every
    passed buffer comes from is known. Arguments of the enclosing function count as
    allocations: the runtime and the kernels write into no argument but a kernel's result
    buffer, which its caller allocated and which no other argument overlaps."""
    fn = moved.parent_op()
    while fn is not None and not isinstance(fn, func.FuncOp):
        fn = fn.parent_op()
    if fn is None or not fn.body.blocks:
        return []
    entry = fn.body.blocks.first
    buffers = [v for v in passed if isinstance(v.type, MemRefType)]
    roots = [_root(v, entry) for v in buffers]
    if any(r is None for r in roots):
        return []
    freed = {o.memref for o in moved.walk() if isinstance(o, memref.DeallocOp)}
    return [i for i, v in enumerate(passed)
            if isinstance(t := v.type, MemRefType) and t.has_static_shape()
            and isinstance(t.layout, NoneAttr) and _root(v, entry) is v
            and roots.count(v) == 1 and v not in freed]


def outline(loop: Operation, name: str, module: ModuleOp) -> None:
    """Move `loop` into a new private function `name` of `module` and call it there."""
    free = list(dict.fromkeys([*loop.operands, *captured(loop)]))  # bounds, then the body's
    copied = [v for v in free if isinstance(v.owner, _COPIED)]
    passed = [v for v in free if not isinstance(v.owner, _COPIED)]
    # index values cross as i64: the function ABI has no index type.
    args = [_index_cast(v, i64, InsertPoint.before(loop)) if isinstance(v.type, IndexType)
            else v for v in passed]
    block = Block(arg_types=[v.type for v in args])
    mapping: dict[SSAValue, SSAValue] = {}
    for v, arg in zip(passed, block.args, strict=True):
        arg.name_hint = v.name_hint
        at = InsertPoint.at_end(block)
        mapping[v] = _index_cast(arg, v.type, at) if isinstance(v.type, IndexType) else arg
    for v in copied:
        const = v.owner.clone()
        block.add_op(const)
        mapping[v] = const.results[0]
    body = loop.clone(value_mapper=mapping)
    block.add_op(body)
    block.add_op(func.ReturnOp(*body.results))
    result_types = [r.type for r in loop.results]
    fn = func.FuncOp(name, FunctionType.from_lists([v.type for v in args], result_types),
                     Region(block), "private")
    fn.attributes[NOINLINE_ATTR] = UnitAttr()
    noalias = noalias_positions(loop, passed)
    if noalias:
        fn.attributes[NOALIAS_ATTR] = DenseArrayBase.from_list(i64, noalias)
    module.body.block.add_op(fn)
    call = func.CallOp(name, args, result_types)
    Rewriter.replace_op(loop, call)


@dataclass(frozen=True)
class OutlineLoopsPass(ModulePass):
    """Outline each top-level loop nest of a function with several (see the module doc)"""

    name = "outline-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in [f for f in op.ops if isinstance(f, func.FuncOp)]:
            loops = [o for blk in fn.body.blocks for o in blk.ops if isinstance(o, scf.ForOp)]
            if len(loops) < 2:
                continue
            for i, loop in enumerate(loops):
                outline(loop, f"{fn.sym_name.data}__loop_{i}", op)

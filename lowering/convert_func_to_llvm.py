"""`convert-func-to-llvm`: func.func/call/return to llvm.func/call/return, plus entry points.

Memref arguments and results travel as descriptor structs by value; several results are
returned as one struct. Private functions get internal linkage.

Every public function with a body also gets a packed wrapper, the ABI the runtime calls:

    void _infer_packed_<name>(ptr args)

`args` is an array of pointers: first one per input (to a memref descriptor filled by the
caller, or to a scalar), then one per result (to a descriptor or scalar slot the callee
fills; result memrefs are malloc'ed by the callee and owned by the caller afterwards).
The wrapper carries the original signature as `infer.signature` for the runtime.
"""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    MemRefType,
    ModuleOp,
    UnitAttr,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter

from infer.abi import NOALIAS_ATTR, NOINLINE_ATTR, PARALLEL_ATTR
from infer.dialects.llvmx import PACKED_PREFIX, SIGNATURE_ATTR
from infer.lowering.convert_cf_to_llvm import convert_block_arguments
from infer.lowering.llvm_descriptor import (
    PTR,
    Emitter,
    MemRefDescriptor,
    convert_type,
    element_byte_size,
)


def _result_type(outputs: tuple[Attribute, ...]) -> Attribute:
    converted = [convert_type(t) for t in outputs]
    if not converted:
        return llvm.LLVMVoidType()
    if len(converted) == 1:
        return converted[0]
    return llvm.LLVMStructType.from_type_list(converted)


def llvm_function_type(typ: FunctionType) -> llvm.LLVMFunctionType:
    inputs = [convert_type(t) for t in typ.inputs.data]
    return llvm.LLVMFunctionType(inputs, _result_type(typ.outputs.data))


def noalias_args(op: Operation) -> set[int]:
    """The positions of a function's (func or llvm) memref arguments passed as bare
    `noalias` pointers (NOALIAS_ATTR), none if it has no such attribute."""
    attr = op.attributes.get(NOALIAS_ATTR)
    return {int(i) for i in attr.get_values()} if isinstance(attr, DenseArrayBase) else set()


def _bare_pointer_arguments(block: Block, positions: set[int]) -> None:
    """Block arguments at `positions` (static, identity-layout memrefs) made bare
    pointers; the descriptor the body reads is rebuilt from the pointer and the type."""
    point = InsertPoint.at_start(block)
    emit = Emitter(point)
    for i in sorted(positions):
        arg = block.args[i]
        typ = arg.type
        assert isinstance(typ, MemRefType) and typ.has_static_shape()
        ptr = Rewriter.replace_value_with_new_type(arg, PTR)
        users = {use.operation for use in ptr.uses}
        strides = typ.get_strides()
        assert strides is not None
        desc = MemRefDescriptor.pack(emit, typ, ptr, ptr, emit.const(0),
                                     [emit.const(n) for n in typ.get_shape()],
                                     [emit.const(int(n)) for n in strides])
        cast = emit(UnrealizedConversionCastOp.get([desc], [typ]))
        ptr.replace_uses_with_if(cast.results[0], lambda use, users=users: use.operation in users)


def _convert_func(op: func.FuncOp, rewriter: PatternRewriter) -> None:
    public = op.sym_visibility is None or op.sym_visibility.data == "public"
    defined = bool(op.body.blocks)
    linkage = "external" if public or not defined else "internal"
    fn_type = llvm_function_type(op.function_type)
    bare = noalias_args(op)
    if bare:
        fn_type = llvm.LLVMFunctionType(
            [PTR if i in bare else t for i, t in enumerate(fn_type.inputs.data)],
            fn_type.output)
    body = rewriter.move_region_contents_to_new_regions(op.body)
    new = llvm.FuncOp(op.sym_name, fn_type, llvm.LinkageAttr(linkage), body=body)
    for name in (NOINLINE_ATTR, NOALIAS_ATTR):
        if name in op.attributes:
            new.attributes[name] = op.attributes[name]
    # llvm.noalias (of outlined loop bodies) goes on, for convert-parallel-calls-to-pool
    marks = [DictionaryAttr({k: v for k, v in a.data.items() if k == "llvm.noalias"})
             for a in op.arg_attrs or ()]
    if any(m.data for m in marks):
        new.arg_attrs = ArrayAttr(marks)
    if defined:
        new.no_unwind = UnitAttr()
        _bare_pointer_arguments(body.blocks.first, bare)  # type: ignore[arg-type]
        convert_block_arguments(body.blocks.first)  # type: ignore[arg-type]
    rewriter.replace(op, new)
    if public and defined:
        rewriter.insert(_packed_wrapper(op.sym_name.data, op.function_type), InsertPoint.after(new))


def _packed_wrapper(name: str, typ: FunctionType) -> llvm.FuncOp:
    """`_infer_packed_<name>(ptr args)`: loads inputs through args[i], stores results."""
    block = Block(arg_types=[PTR])
    emit = Emitter(InsertPoint.at_end(block))
    inputs, outputs = typ.inputs.data, typ.outputs.data

    def slot(i: int) -> SSAValue:
        gep = llvm.GEPOp(block.args[0], [i], PTR, inbounds=True)
        return emit(llvm.LoadOp(emit(gep).result, PTR, alignment=8)).dereferenced_value

    args = []
    for i, t in enumerate(inputs):
        llvm_t = convert_type(t)
        args.append(emit(llvm.LoadOp(slot(i), llvm_t, alignment=_align(t))).dereferenced_value)
    res_type = _result_type(outputs)
    call = emit(llvm.CallOp(name, *args, return_type=None if not outputs else res_type))
    for j, t in enumerate(outputs):
        value = call.returned
        assert value is not None
        if len(outputs) > 1:
            pos = DenseArrayBase.from_list(i64, [j])
            value = emit(llvm.ExtractValueOp(pos, value, convert_type(t))).res
        emit(llvm.StoreOp(value, slot(len(inputs) + j), alignment=_align(t)))
    emit(llvm.ReturnOp())
    wrapper = llvm.FuncOp(
        PACKED_PREFIX + name, llvm.LLVMFunctionType([PTR]), llvm.LinkageAttr("external"),
        body=Region(block),
    )  # fmt: skip
    wrapper.no_unwind = UnitAttr()
    wrapper.attributes[SIGNATURE_ATTR] = typ
    return wrapper


def _align(typ: Attribute) -> int:
    return min(8, element_byte_size(typ))


@dataclass
class FuncToLLVM(RewritePattern):
    # Of each function the module defines or declares, its bare-pointer arguments (read
    # once: a symbol lookup per call walks the module).
    bare: dict[str, set[int]]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        emit = Emitter(rewriter)
        match op:
            case func.FuncOp():
                _convert_func(op, rewriter)
            case func.ReturnOp():
                values = [emit.to_llvm(v) for v in op.arguments]
                if len(values) > 1:
                    res_type = _result_type(tuple(v.type for v in op.arguments))
                    struct: SSAValue = emit(llvm.UndefOp(res_type)).res
                    for j, v in enumerate(values):
                        struct = emit.insert(struct, v, [j])
                    values = [struct]
                rewriter.replace(op, llvm.ReturnOp(values[0] if values else None))
            case func.CallOp():
                bare = self.bare.get(op.callee.string_value(), set())
                args = [MemRefDescriptor.of(emit, v).aligned_ptr() if i in bare
                        else emit.to_llvm(v) for i, v in enumerate(op.arguments)]
                out_types = tuple(r.type for r in op.results)
                ret = None if not out_types else _result_type(out_types)
                call = emit(llvm.CallOp(op.callee.string_value(), *args, return_type=ret))
                if PARALLEL_ATTR in op.attributes:  # for convert-parallel-calls-to-pool
                    call.attributes[PARALLEL_ATTR] = op.attributes[PARALLEL_ATTR]
                results: list[SSAValue] = []
                for j, r in enumerate(op.results):
                    value = call.returned
                    assert value is not None
                    if len(op.results) > 1:
                        value = emit.extract(value, [j], convert_type(r.type))
                    results.append(emit.from_llvm(value, r.type))
                rewriter.replace(op, [], results)
            case _:
                pass


@dataclass(frozen=True)
class ConvertFuncToLLVMPass(ModulePass):
    name = "convert-func-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        bare = {f.sym_name.data: noalias_args(f) for f in op.ops
                if isinstance(f, func.FuncOp | llvm.FuncOp)}
        PatternRewriteWalker(FuncToLLVM(bare), apply_recursively=False).rewrite_module(op)


__all__ = ["PACKED_PREFIX", "SIGNATURE_ATTR", "ConvertFuncToLLVMPass"]

"""`convert-memref-to-llvm`: memref ops to descriptor manipulation, GEPs, loads and stores.

- alloc: `malloc(bytes + align - 1)`, the aligned pointer rounded up by a GEP (never by
  inttoptr, which would hide provenance and aliasing from LLVM); dealloc frees the
  allocated pointer. Alignment is 64 bytes unless the op asks for more.
- global: `llvm.mlir.global` of a flat array holding the dense value; `get_global` builds a
  descriptor whose allocated pointer is null (the memory is not the callee's to free).
  Whether a large value becomes an LLVM constant or a bound external symbol is decided by
  `infer.codegen.translate`, not here.
- views (cast, reinterpret_cast, subview, collapse/expand_shape, view) only rewrite the
  descriptor; loads and stores index the aligned pointer with one GEP.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, llvm, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    UnrealizedConversionCastOp,
    i1,
    i8,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import DiagnosticException

from infer.abi import ALLOC_SYMBOL, FREE_SYMBOL
from infer.lowering.llvm_descriptor import (
    PTR,
    Emitter,
    MemRefDescriptor,
    call_intrinsic,
    convert_type,
    element_byte_size,
    lower_with,
)

DEFAULT_ALIGNMENT = 64


def _memref_type(value: SSAValue) -> MemRefType:
    assert isinstance(value.type, MemRefType)
    return value.type


def constant_value(value: SSAValue) -> int | None:
    """The integer behind `value`, looking through unrealized casts, if it is constant."""
    owner = value.owner
    while isinstance(owner, UnrealizedConversionCastOp):
        owner = owner.inputs[0].owner
    if isinstance(owner, arith.ConstantOp | llvm.ConstantOp):
        attr = owner.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def _sizes(emit: Emitter, typ: MemRefType, dynamic: Sequence[SSAValue]) -> list[SSAValue]:
    dyn = iter(dynamic)
    return [emit.const(s) if s >= 0 else emit.to_llvm(next(dyn)) for s in typ.get_shape()]


def _contiguous_strides(emit: Emitter, sizes: Sequence[SSAValue]) -> list[SSAValue]:
    strides: list[SSAValue] = []
    running = emit.const(1)
    for size in reversed(sizes):
        strides.append(running)
        running = emit.mul(running, size)
    return strides[::-1]


def _product(emit: Emitter, values: Sequence[SSAValue]) -> SSAValue:
    total = emit.const(1)
    for v in values:
        total = emit.mul(total, v)
    return total


def _mixed(emit: Emitter, static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[SSAValue]:
    dyn = iter(dynamic)
    return [emit.to_llvm(next(dyn)) if s == DYNAMIC_INDEX else emit.const(s) for s in static]


@dataclass
class MemRefToLLVM(RewritePattern):
    uses_malloc: bool = False
    uses_free: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.dialect_name() != "memref":
            return
        emit = Emitter(rewriter)
        match op:
            case memref.GlobalOp():
                rewriter.replace(op, _global(op))
                return
            case memref.StoreOp():
                desc = MemRefDescriptor.of(emit, op.memref)
                ptr = desc.element_ptr([emit.to_llvm(i) for i in op.indices])
                align = element_byte_size(op.value.type)
                emit(llvm.StoreOp(emit.to_llvm(op.value), ptr, alignment=align))
                rewriter.erase(op)
                return
            case memref.DeallocOp():
                desc = MemRefDescriptor.of(emit, op.memref)
                self.uses_free = True
                emit(llvm.CallOp(FREE_SYMBOL, desc.allocated_ptr()))
                rewriter.erase(op)
                return
            case memref.CopyOp():
                _copy(emit, op)
                rewriter.erase(op)
                return
            case _:
                pass
        result = self._value_op(op, emit)
        if result is not None:
            lower_with(rewriter, op, [result])

    def _value_op(self, op: Operation, emit: Emitter) -> SSAValue | None:
        match op:
            case memref.LoadOp():
                desc = MemRefDescriptor.of(emit, op.memref)
                ptr = desc.element_ptr([emit.to_llvm(i) for i in op.indices])
                typ = convert_type(op.res.type)
                load = llvm.LoadOp(ptr, typ, alignment=element_byte_size(typ))
                return emit(load).dereferenced_value
            case memref.AllocOp():
                self.uses_malloc = True
                return _alloc(emit, op.memref.type, op.dynamic_sizes, op.alignment)
            case memref.AllocaOp():
                return _alloca(emit, op)
            case memref.GetGlobalOp():
                typ = _memref_type(op.memref)
                addr = emit(llvm.AddressOfOp(op.name_, PTR)).result
                null = emit(llvm.ZeroOp(result_types=[PTR])).results[0]
                sizes = _sizes(emit, typ, [])
                return MemRefDescriptor.pack(
                    emit, typ, null, addr, emit.const(0), sizes, _contiguous_strides(emit, sizes)
                )
            case memref.DimOp():
                return _dim(emit, op)
            case memref.CastOp() | memref.AssumeAlignmentOp() | memref.MemorySpaceCastOp():
                return emit.to_llvm(op.operands[0])
            case memref.ReinterpretCastOp():
                desc = MemRefDescriptor.of(emit, op.source)
                offsets = _mixed(emit, op.static_offsets.get_values(), op.offsets)
                sizes = _mixed(emit, op.static_sizes.get_values(), op.sizes)
                strides = _mixed(emit, op.static_strides.get_values(), op.strides)
                return MemRefDescriptor.pack(
                    emit, _memref_type(op.result), desc.allocated_ptr(), desc.aligned_ptr(),
                    offsets[0], sizes, strides,
                )  # fmt: skip
            case memref.SubviewOp():
                return _subview(emit, op)
            case memref.CollapseShapeOp():
                return _collapse(emit, op)
            case memref.ExpandShapeOp():
                return _expand(emit, op)
            case memref.ViewOp():
                return _view(emit, op)
            case memref.ExtractAlignedPointerAsIndexOp():
                desc = MemRefDescriptor.of(emit, op.source)
                return emit(llvm.PtrToIntOp(desc.aligned_ptr(), i64)).output
            case _:
                return None


def _global(op: memref.GlobalOp) -> llvm.GlobalOp:
    typ = op.type
    count = max(1, prod(typ.get_shape()))
    array = llvm.LLVMArrayType(count, convert_type(typ.get_element_type()))
    value = op.initial_value if isinstance(op.initial_value, DenseIntOrFPElementsAttr) else None
    public = op.sym_visibility.data == "public"
    align = op.alignment.value.data if op.alignment is not None else DEFAULT_ALIGNMENT
    return llvm.GlobalOp(
        array, op.sym_name, "external" if public else "internal",
        constant=op.constant is not None or None, value=value, alignment=align,
    )  # fmt: skip


def _alloc(
    emit: Emitter, typ: MemRefType, dynamic: Sequence[SSAValue], alignment: IntegerAttr | None
) -> SSAValue:
    align = max(DEFAULT_ALIGNMENT, alignment.value.data if alignment is not None else 0)
    sizes = _sizes(emit, typ, dynamic)
    strides = _contiguous_strides(emit, sizes)
    elem = element_byte_size(typ.get_element_type())
    nbytes = emit.mul(_product(emit, sizes), emit.const(elem))
    padded = emit.add(nbytes, emit.const(align - 1))
    allocated = emit(llvm.CallOp(ALLOC_SYMBOL, padded, return_type=PTR)).returned
    assert allocated is not None
    # aligned = allocated + (-addr mod align), a GEP so the pointer keeps its provenance
    addr = emit(llvm.PtrToIntOp(allocated, i64)).output
    neg = emit(llvm.SubOp(emit.const(0), addr)).res
    pad = emit(llvm.AndOp(neg, emit.const(align - 1))).res
    gep = llvm.GEPOp(allocated, [llvm.GEP_USE_SSA_VAL], i8, ssa_indices=[pad], inbounds=True)
    aligned = emit(gep).result
    return MemRefDescriptor.pack(emit, typ, allocated, aligned, emit.const(0), sizes, strides)


def _alloca(emit: Emitter, op: memref.AllocaOp) -> SSAValue:
    typ = _memref_type(op.memref)
    sizes = _sizes(emit, typ, op.dynamic_sizes)
    align = op.alignment.value.data if op.alignment is not None else DEFAULT_ALIGNMENT
    elem = convert_type(typ.get_element_type())
    ptr = emit(llvm.AllocaOp(_product(emit, sizes), elem, alignment=align)).res
    strides = _contiguous_strides(emit, sizes)
    return MemRefDescriptor.pack(emit, typ, ptr, ptr, emit.const(0), sizes, strides)


def _dim(emit: Emitter, op: memref.DimOp) -> SSAValue:
    index = constant_value(op.index)
    if index is None:
        raise DiagnosticException("memref.dim with a non-constant index is not supported")
    desc = MemRefDescriptor.of(emit, op.source)
    return desc.size(index)


def _subview(emit: Emitter, op: memref.SubviewOp) -> SSAValue:
    desc = MemRefDescriptor.of(emit, op.source)
    offsets = _mixed(emit, op.static_offsets.get_values(), op.offsets)
    sizes = _mixed(emit, op.static_sizes.get_values(), op.sizes)
    steps = _mixed(emit, op.static_strides.get_values(), op.strides)
    offset = desc.offset()
    strides = []
    for dim, (off, step) in enumerate(zip(offsets, steps, strict=True)):
        stride = desc.stride(dim)
        offset = emit.add(offset, emit.mul(off, stride))
        strides.append(emit.mul(stride, step))
    result = _memref_type(op.result)
    kept = _kept_dims(op.static_sizes.get_values(), result.get_shape())
    return MemRefDescriptor.pack(
        emit, result, desc.allocated_ptr(), desc.aligned_ptr(), offset,
        [sizes[d] for d in kept], [strides[d] for d in kept],
    )  # fmt: skip


def _kept_dims(sizes: Sequence[int], result_shape: Sequence[int]) -> list[int]:
    """Source dims a rank-reducing subview keeps: drop unit dims until the ranks agree."""
    drop = len(sizes) - len(result_shape)
    kept: list[int] = []
    for dim, size in enumerate(sizes):
        want = result_shape[len(kept)] if len(kept) < len(result_shape) else None
        if drop and size == 1 and want != 1:
            drop -= 1
            continue
        kept.append(dim)
    return kept[: len(result_shape)]


def _groups(op: memref.CollapseShapeOp | memref.ExpandShapeOp) -> list[list[int]]:
    """The reassociation as lists of dims (the attribute holds IntegerAttrs)."""
    return [[d.value.data for d in group] for group in op.reassociation]  # type: ignore[attr-defined]


def _collapse(emit: Emitter, op: memref.CollapseShapeOp) -> SSAValue:
    desc = MemRefDescriptor.of(emit, op.src)
    sizes, strides = [], []
    for dims in _groups(op):
        sizes.append(_product(emit, [desc.size(d) for d in dims]))
        strides.append(desc.stride(dims[-1]) if dims else emit.const(1))
    result = _memref_type(op.result)
    return MemRefDescriptor.pack(
        emit, result, desc.allocated_ptr(), desc.aligned_ptr(), desc.offset(), sizes, strides
    )


def _expand(emit: Emitter, op: memref.ExpandShapeOp) -> SSAValue:
    desc = MemRefDescriptor.of(emit, op.src)
    result = _memref_type(op.result)
    out_sizes = _mixed(emit, op.static_output_shape.get_values(), op.output_shape)
    strides: list[SSAValue] = [emit.const(0)] * result.get_num_dims()
    for src_dim, group in enumerate(_groups(op)):
        running = desc.stride(src_dim)
        for dim in reversed(group):
            strides[dim] = running
            running = emit.mul(running, out_sizes[dim])
    return MemRefDescriptor.pack(
        emit, result, desc.allocated_ptr(), desc.aligned_ptr(), desc.offset(), out_sizes, strides
    )


def _view(emit: Emitter, op: memref.ViewOp) -> SSAValue:
    desc = MemRefDescriptor.of(emit, op.source)
    shift = emit.add(desc.offset(), emit.to_llvm(op.byte_shift))
    gep = llvm.GEPOp(desc.aligned_ptr(), [llvm.GEP_USE_SSA_VAL], i8, ssa_indices=[shift])
    aligned = emit(gep).result
    result = _memref_type(op.result)
    sizes = _sizes(emit, result, op.sizes)
    strides = _contiguous_strides(emit, sizes)
    return MemRefDescriptor.pack(
        emit, result, desc.allocated_ptr(), aligned, emit.const(0), sizes, strides
    )


def _is_contiguous(typ: MemRefType) -> bool:
    strides = typ.get_strides()
    if strides is None:
        return False
    return list(strides) == list(MemRefType(typ.element_type, typ.get_shape()).get_strides())


def _copy(emit: Emitter, op: memref.CopyOp) -> None:
    src_type, dst_type = _memref_type(op.source), _memref_type(op.destination)
    if not (_is_contiguous(src_type) and _is_contiguous(dst_type)):
        raise DiagnosticException("memref.copy of non-contiguous memrefs is not supported")
    src = MemRefDescriptor.of(emit, op.source)
    dst = MemRefDescriptor.of(emit, op.destination)
    zero = [emit.const(0)] * src.rank
    count = _product(emit, [src.size(d) for d in range(src.rank)])
    nbytes = emit.mul(count, emit.const(element_byte_size(src_type.get_element_type())))
    volatile = emit.const(0, i1)
    args = [dst.element_ptr(zero), src.element_ptr(zero), nbytes, volatile]
    call_intrinsic(emit, "llvm.memcpy.p0.p0.i64", args, None)


def declare_runtime(module: ModuleOp, malloc: bool, free: bool) -> None:
    """Declares the allocator's functions (abi.ALLOC_SYMBOL, FREE_SYMBOL: malloc and free
    that keep large blocks for reuse) once per module when the lowering used them."""
    names = {getattr(o, "sym_name", None) and o.sym_name.data for o in module.ops}  # type: ignore[attr-defined]
    block = module.body.block
    if malloc and ALLOC_SYMBOL not in names:
        malloc_type = llvm.LLVMFunctionType([i64], PTR)
        decl = llvm.FuncOp(ALLOC_SYMBOL, malloc_type, llvm.LinkageAttr("external"))
        Rewriter.insert_op(decl, InsertPoint.at_end(block))
    if free and FREE_SYMBOL not in names:
        decl = llvm.FuncOp(FREE_SYMBOL, llvm.LLVMFunctionType([PTR]),
                           llvm.LinkageAttr("external"))
        Rewriter.insert_op(decl, InsertPoint.at_end(block))


@dataclass(frozen=True)
class ConvertMemRefToLLVMPass(ModulePass):
    name = "convert-memref-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = MemRefToLLVM()
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
        declare_runtime(op, pattern.uses_malloc, pattern.uses_free)


__all__ = ["ConvertMemRefToLLVMPass", "constant_value"]

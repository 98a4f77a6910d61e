"""Shared pieces of the `convert-*-to-llvm` passes: the type converter, the
unrealized casts that bridge not-yet-converted values, and MLIR's memref descriptor.

A ranked memref becomes `!llvm.struct<(ptr, ptr, i64, array<r x i64>, array<r x i64>)>`
(allocated pointer, aligned pointer, offset, sizes, strides; rank 0 has no arrays), as in
MLIR, so that descriptors built by the runtime and by our code agree field by field.
Sizes, strides and offsets known from the type are emitted as constants, never read from
the descriptor, so LLVM sees them.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import TypeVar

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnrealizedConversionCastOp,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import DiagnosticException

__all__ = ["Emitter", "MemRefDescriptor", "convert_type", "descriptor_type", "element_byte_size"]

PTR = llvm.LLVMPointerType()
_NSW = llvm.OverflowAttr([llvm.OverflowFlag.NO_SIGNED_WRAP])
OpT = TypeVar("OpT", bound=Operation)


def element_byte_size(typ: Attribute) -> int:
    """Bytes of one scalar or vector element as stored in memory (i1 takes a byte)."""
    if isinstance(typ, VectorType):
        return element_byte_size(typ.element_type) * prod(typ.get_shape())
    if isinstance(typ, IndexType):
        return 8
    if isinstance(typ, IntegerType):
        return max(1, (typ.width.data + 7) // 8)
    if isinstance(typ, AnyFloat):
        return typ.bitwidth // 8
    if isinstance(typ, MemRefType):
        return 8 * (3 + 2 * typ.get_num_dims())
    raise DiagnosticException(f"no memory size known for {typ}")


def descriptor_type(memref: MemRefType) -> llvm.LLVMStructType:
    """The LLVM struct holding a memref of this rank."""
    rank = memref.get_num_dims()
    fields: list[Attribute] = [PTR, PTR, i64]
    if rank:
        fields += [llvm.LLVMArrayType(rank, i64)] * 2
    return llvm.LLVMStructType.from_type_list(fields)


def convert_type(typ: Attribute) -> Attribute:
    """index -> i64, memref -> descriptor, vector<index> -> vector<i64>; others unchanged."""
    if isinstance(typ, IndexType):
        return i64
    if isinstance(typ, MemRefType):
        return descriptor_type(typ)
    if isinstance(typ, VectorType) and isinstance(typ.element_type, IndexType):
        return VectorType(i64, typ.get_shape())
    return typ


class Emitter:
    """Inserts ops at one point (by default before the op being rewritten)."""

    def __init__(self, rewriter_or_point: object) -> None:
        self._target = rewriter_or_point

    def __call__(self, op: OpT) -> OpT:
        target = self._target
        if isinstance(target, InsertPoint):
            Rewriter.insert_op(op, target)
        else:
            target.insert(op)  # type: ignore[attr-defined]
        return op

    def to_llvm(self, value: SSAValue) -> SSAValue:
        """`value` as its converted type, through an unrealized cast when it differs."""
        target = convert_type(value.type)
        if target == value.type:
            return value
        return self(UnrealizedConversionCastOp.get([value], [target])).results[0]

    def from_llvm(self, value: SSAValue, original: Attribute) -> SSAValue:
        """The converted `value` back as `original`, for users not converted yet."""
        if value.type == original:
            return value
        return self(UnrealizedConversionCastOp.get([value], [original])).results[0]

    def const(self, value: int, typ: Attribute = i64) -> SSAValue:
        return self(llvm.ConstantOp(IntegerAttr(value, typ), typ)).result

    def extract(self, struct: SSAValue, position: Sequence[int], typ: Attribute) -> SSAValue:
        pos = DenseArrayBase.from_list(i64, list(position))
        return self(llvm.ExtractValueOp(pos, struct, typ)).results[0]

    def insert(self, struct: SSAValue, value: SSAValue, position: Sequence[int]) -> SSAValue:
        pos = DenseArrayBase.from_list(i64, list(position))
        return self(llvm.InsertValueOp(pos, struct, value)).results[0]

    def add(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        # nsw: address arithmetic never wraps, and saying so helps SCEV and vectorization
        return self(llvm.AddOp(lhs, rhs, overflow=_NSW)).res

    def mul(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self(llvm.MulOp(lhs, rhs, overflow=_NSW)).res


def constant_int(value: SSAValue) -> int | None:
    """The integer `value` holds when an integer constant defines it (through unrealized
    casts, as an index converted to i64 is), else None."""
    owner = value.owner
    while isinstance(owner, UnrealizedConversionCastOp):
        value = owner.inputs[0]
        owner = value.owner
    if isinstance(owner, arith.ConstantOp | llvm.ConstantOp):
        attr = owner.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def _static(value: int | None) -> bool:
    return value is not None and value >= 0


class MemRefDescriptor:
    """Reads and builds descriptor fields, folding whatever the memref type knows."""

    def __init__(self, emit: Emitter, value: SSAValue, memref: MemRefType) -> None:
        self.emit = emit
        self.value = value
        self.type = memref
        self.rank = memref.get_num_dims()

    @staticmethod
    def of(emit: Emitter, memref_value: SSAValue) -> MemRefDescriptor:
        """The descriptor of a (not yet converted) memref value."""
        memref = memref_value.type
        if not isinstance(memref, MemRefType):
            raise DiagnosticException(f"expected a ranked memref, got {memref}")
        return MemRefDescriptor(emit, emit.to_llvm(memref_value), memref)

    def allocated_ptr(self) -> SSAValue:
        return self.emit.extract(self.value, [0], PTR)

    def aligned_ptr(self) -> SSAValue:
        return self.emit.extract(self.value, [1], PTR)

    def offset(self) -> SSAValue:
        off = self.type.get_offset()
        if _static(off):
            return self.emit.const(off)  # type: ignore[arg-type]
        return self.emit.extract(self.value, [2], i64)

    def static_offset(self) -> int | None:
        off = self.type.get_offset()
        return off if _static(off) else None

    def size(self, dim: int) -> SSAValue:
        size = self.type.get_shape()[dim]
        if size >= 0:
            return self.emit.const(size)
        return self.emit.extract(self.value, [3, dim], i64)

    def stride(self, dim: int) -> SSAValue:
        stride = self.static_stride(dim)
        if stride is not None:
            return self.emit.const(stride)
        return self.emit.extract(self.value, [4, dim], i64)

    def static_stride(self, dim: int) -> int | None:
        strides = self.type.get_strides()
        if strides is None:
            return None
        stride = strides[dim]
        return stride if _static(stride) else None

    def element_ptr(self, indices: Sequence[SSAValue]) -> SSAValue:
        """Address of element `indices` (already i64): aligned + offset + sum(i * stride).
        Constant indices times static strides are summed here, into one constant term
        (most indices of a hand-blocked kernel's loads are constants: a third of the
        llvm-dialect ops were their multiplies and adds, which LLVM would fold anyway)."""
        emit = self.emit
        static_off = self.static_offset()
        folded = static_off if static_off is not None else 0
        linear: SSAValue | None = None if static_off is not None else self.offset()
        for dim, index in enumerate(indices):
            stride = self.static_stride(dim)
            value = constant_int(index)
            if value is not None and stride is not None:
                folded += value * stride
                continue
            term = index if stride == 1 else emit.mul(index, self.stride(dim))
            linear = term if linear is None else emit.add(linear, term)
        if folded:
            term = emit.const(folded)
            linear = term if linear is None else emit.add(linear, term)
        base = self.aligned_ptr()
        if linear is None:
            return base
        elem = convert_type(self.type.get_element_type())
        gep = llvm.GEPOp(base, [llvm.GEP_USE_SSA_VAL], elem, ssa_indices=[linear], inbounds=True)
        return emit(gep).result

    @staticmethod
    def pack(
        emit: Emitter,
        memref: MemRefType,
        allocated: SSAValue,
        aligned: SSAValue,
        offset: SSAValue,
        sizes: Sequence[SSAValue],
        strides: Sequence[SSAValue],
    ) -> SSAValue:
        """Builds a descriptor struct value from its fields (all i64 but the pointers)."""
        desc: SSAValue = emit(llvm.UndefOp(descriptor_type(memref))).res
        desc = emit.insert(desc, allocated, [0])
        desc = emit.insert(desc, aligned, [1])
        desc = emit.insert(desc, offset, [2])
        for dim, (size, stride) in enumerate(zip(sizes, strides, strict=True)):
            desc = emit.insert(desc, size, [3, dim])
            desc = emit.insert(desc, stride, [4, dim])
        return desc


def intrinsic_suffix(typ: Attribute) -> str:
    """LLVM's overload suffix: f32, i64, v8f32, ..."""
    if isinstance(typ, VectorType):
        return f"v{prod(typ.get_shape())}{intrinsic_suffix(typ.element_type)}"
    if isinstance(typ, IntegerType):
        return f"i{typ.width.data}"
    if isinstance(typ, IndexType):
        return "i64"
    if isinstance(typ, AnyFloat):
        return "bf16" if typ.name == "bf16" else f"f{typ.bitwidth}"
    raise DiagnosticException(f"no intrinsic suffix for {typ}")


def call_intrinsic(
    emit: Emitter,
    name: str,
    args: Sequence[SSAValue],
    result: Attribute | None,
    fastmath: llvm.FastMathAttr | None = None,
    overloads: Sequence[Attribute] = (),
) -> SSAValue | None:
    """`llvm.call_intrinsic` of `name` mangled with `overloads` (default: the result type).

    Mangled names let one intrinsic be used at several types in a module; the fast-math
    flags are carried by the op and emitted by `infer.codegen.translate`.
    """
    kinds = list(overloads) or ([result] if result is not None else [])
    full = ".".join([name, *(intrinsic_suffix(t) for t in kinds)])
    op = emit(llvm.CallIntrinsicOp(full, list(args), [result] if result is not None else []))
    if fastmath is not None:
        op.fastmathFlags = fastmath
    return op.results[0] if result is not None else None


def lower_with(
    rewriter: PatternRewriter, op: Operation, results: Sequence[SSAValue]
) -> None:
    """Replaces `op` by already emitted LLVM values, cast back to the original types."""
    emit = Emitter(rewriter)
    casted = [emit.from_llvm(v, r.type) for v, r in zip(results, op.results, strict=True)]
    rewriter.replace(op, [], casted)

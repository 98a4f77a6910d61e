"""Compiled code mapped and called: an object file (`ObjectCode`, made by codegen/compile.py
or read from an artifact) mapped with its weights bound (`ObjectModule`), and its packed
entry points called with numpy arrays. The runtime's side of codegen: it imports numpy,
not the compiler. The code is mapped by codegen/elf_loader.py, without LLVM, where that
loader handles the objects (Linux x86-64), else by llvmlite's MCJIT, and always by MCJIT
when the environment sets INFER_LOADER=mcjit: llvmlite is imported only then.

Calling convention (see `convert-func-to-llvm`): `_infer_packed_<name>(void **args)` with
one pointer per input (to a memref descriptor `{ptr allocated, ptr aligned, i64 offset,
i64 sizes[r], i64 strides[r]}` or to a scalar) followed by one per result (to a descriptor
or scalar slot the callee fills). Result buffers come from the callee's `malloc`; they are
wrapped as numpy arrays without a copy and freed when the last view dies. A result whose
allocated pointer is null (a global) or belongs to an input is copied instead.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import re
import secrets
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from infer.abi import ALLOC_SYMBOL, FREE_SYMBOL, NUM_THREADS_SYMBOL, PACKED_PREFIX, PARALLEL_FOR
from infer.codegen import thread_pool
from infer.codegen.elf_loader import LoaderError, load_objects
from infer.codegen.target import Target, host_target, llvm_binding

# LLVM lowers conversions the CPU lacks (f64 -> f16, for one) to compiler-rt/libgcc calls
# such as __truncdfhf2, which the code must find: an unresolved one is a null call at run
# time (the ELF loader refuses it instead).
_LIBGCC = ctypes.util.find_library("gcc_s") or "libgcc_s.so.1"
WEIGHT_ALIGNMENT = 64
# The environment variable that picks how code is mapped: "mcjit" always through LLVM;
# unset or anything else, the ELF loader first (MCJIT where it refuses the objects).
LOADER_VARIABLE = "INFER_LOADER"


@functools.cache
def _mcjit_llvm():  # noqa: ANN202 - the llvmlite.binding module
    """llvmlite's binding with what MCJIT's symbol lookup needs loaded: libgcc_s's
    helpers (infer's thread pool is bound by name where code uses it)."""
    llvm = llvm_binding()
    llvm.load_library_permanently(_LIBGCC)
    return llvm


@functools.cache
def _c_libraries() -> tuple[ctypes.CDLL, ...]:
    """Where the ELF loader finds the functions the code calls: libgcc_s (soft-float
    helpers), libm, then the whole process (libc and what it loaded)."""
    out = []
    for name in (_LIBGCC, ctypes.util.find_library("m") or "libm.so.6"):
        try:
            out.append(ctypes.CDLL(name))
        except OSError:
            pass
    return (*out, ctypes.CDLL(None))


Entry = Callable[[Sequence[np.ndarray]], list[np.ndarray]]


@functools.cache
def entry_call() -> Callable[..., list[np.ndarray]]:
    """The native call path of a packed entry (codegen/entry_call.c): `call(address, inputs,
    in_specs, out_specs, own_allocator)` builds the memref descriptors, runs the code
    without the GIL and returns its results as arrays that free their allocations (with
    infer_free, or free for code that allocates with malloc) when released."""
    return _entry_call_module().call


@functools.cache
def _entry_call_module():  # noqa: ANN202 - the extension module
    try:
        from infer.codegen import _entry_call
    except ImportError:
        raise ImportError("infer's native call path (codegen/entry_call.c) is not built: "
                          "install infer with pip (`pip install -e .` in a source tree)"
                          ) from None
    return _entry_call


@functools.cache
def allocator_symbols() -> dict[str, int]:
    """The addresses the code's allocation calls bind to (abi.ALLOC_SYMBOL, FREE_SYMBOL:
    codegen/entry_call.c's allocator, which keeps large blocks for reuse)."""
    alloc, free = _entry_call_module().allocator_symbols()
    return {ALLOC_SYMBOL: alloc, FREE_SYMBOL: free}


def _uses_allocator(objects: Sequence[bytes]) -> bool:
    """Whether the code allocates with infer's allocator (code compiled before it came,
    from a compile cache, allocates with malloc)."""
    return any(ALLOC_SYMBOL.encode() in part or FREE_SYMBOL.encode() in part
               for part in objects)


def _aligned_copy(data: np.ndarray) -> np.ndarray:
    """A copy of `data` starting on a 64-byte boundary (weights are read with wide loads)."""
    raw = np.empty(data.nbytes + WEIGHT_ALIGNMENT, dtype=np.uint8)
    start = -raw.ctypes.data % WEIGHT_ALIGNMENT
    out = raw[start : start + data.nbytes].view(data.dtype)
    out[...] = data
    return out


def _in_place(data: np.ndarray) -> bool:
    """Whether the code can read `data` where it is: aligned, contiguous, and writable, as
    the weights of a mapped artifact are (a copy-on-write mapping)."""
    return (data.ctypes.data % WEIGHT_ALIGNMENT == 0 and data.flags.c_contiguous
            and data.flags.writeable)


@dataclass(frozen=True)
class ArgSpec:
    """How one argument or result of a packed entry is passed: its numpy dtype, its rank
    (None for a scalar), and whether it must be C-contiguous (a memref of identity
    layout)."""

    dtype: np.dtype
    rank: int | None
    contiguous: bool

    def to_json(self) -> list[object]:
        return [self.dtype.name, self.rank, self.contiguous]

    @staticmethod
    def from_json(value: list[object]) -> ArgSpec:
        dtype, rank, contiguous = value
        assert isinstance(dtype, str) and (rank is None or isinstance(rank, int))
        return ArgSpec(np.dtype(dtype), rank, bool(contiguous))


# An entry's inputs and results.
EntrySignature = tuple[list[ArgSpec], list[ArgSpec]]


SYMBOL_PREFIX = re.compile(r"__infer_[0-9a-f]{32}_")


def new_symbol_prefix() -> str:
    """A prefix for the weight symbols of one module, unique in the process (add_symbol is
    process-global) and of fixed length, so that a saved object file's symbol names can be
    rewritten in place for each copy loaded (codegen/object_code.py)."""
    return f"__infer_{secrets.token_hex(16)}_"


class MappedCode(Protocol):
    """Code in memory (the ELF loader's `LoadedCode` or an MCJIT engine's wrapper):
    `address_of(name)` is the address of a global symbol it defines, 0 if none."""

    def address_of(self, name: str) -> int: ...


class _McjitCode:
    """An MCJIT engine holding mapped code; keep it alive while its code is used."""

    def __init__(self, engine: object) -> None:
        self.engine = engine

    def address_of(self, name: str) -> int:
        return self.engine.get_global_value_address(name)  # type: ignore[attr-defined]


class NativeModule:
    """Native code mapped (by the ELF loader or an MCJIT engine), with the weights it
    binds; keep it alive as long as its entries are used."""

    def __init__(self, mapped: MappedCode, prefix: str,
                 weights: dict[str, np.ndarray], signatures: dict[str, EntrySignature],
                 own_allocator: bool = True) -> None:  # fmt: skip
        self._mapped = mapped
        self.own_allocator = own_allocator  # results are freed by infer_free, else free
        self.symbol_prefix = prefix
        self._weights = weights  # by symbol name, bound into the code
        self.signatures = signatures
        # The thread count its parallel loops read (no such global: it has none).
        address = mapped.address_of(NUM_THREADS_SYMBOL)
        self._threads = ctypes.c_int32.from_address(address) if address else None

    @property
    def parallel(self) -> bool:
        """Whether the code has loops that run on several threads."""
        return self._threads is not None

    @property
    def threads(self) -> int:
        """How many threads the parallel loops may use (1 in code without any)."""
        return self._threads.value if self._threads is not None else 1

    @threads.setter
    def threads(self, count: int) -> None:
        if count < 1:
            raise ValueError(f"threads must be >= 1, got {count}")
        if self._threads is not None:
            self._threads.value = count

    @property
    def entries(self) -> list[str]:
        return sorted(self.signatures)

    def weights(self) -> dict[str, np.ndarray]:
        """The weight buffers by symbol name without the prefix."""
        n = len(self.symbol_prefix)
        return {name[n:]: buf for name, buf in self._weights.items()}

    def get_entry(self, name: str = "main") -> Entry:
        """A callable taking the inputs of function `name` and returning its results."""
        in_specs, out_specs = self.signatures[name]
        address = self._mapped.address_of(PACKED_PREFIX + name)
        assert address, f"no entry {name} in the native code"
        native_call = entry_call()
        ins = tuple((s.dtype, -1 if s.rank is None else s.rank, s.contiguous) for s in in_specs)
        outs = tuple((s.dtype, -1 if s.rank is None else s.rank) for s in out_specs)
        own = self.own_allocator
        engine_owner = self  # the entry keeps the mapping (and so its code) alive

        def call(args: Sequence[np.ndarray]) -> list[np.ndarray]:
            assert engine_owner is not None
            return native_call(address, args, ins, outs, own)

        return call


def weight_buffers(prefix: str, weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """`weights` (by name without the prefix) as the code reads them, by prefixed symbol
    name: in place, or as a 64-byte-aligned copy."""
    return {prefix + name: data if _in_place(data) else _aligned_copy(data)
            for name, data in weights.items()}


@dataclass(frozen=True)
class ObjectCode:
    """Compiled code, not yet mapped: object files for `target` (`pack_objects`), the prefix of the
    weight symbols it refers to, the weights by name without the prefix, and the entries'
    ways of passing arguments."""

    obj: bytes
    symbol_prefix: str
    weights: dict[str, np.ndarray]
    signatures: dict[str, EntrySignature]
    target: Target


# Several object files as one blob: magic, their count and sizes (u64 little-endian),
# then each file. Still one byte string, so that the weight symbols' prefix is rewritten
# in all of them at once (ObjectModule).
_OBJECTS_MAGIC = b"INFEROBJ"


def pack_objects(objects: Sequence[bytes]) -> bytes:
    """The object files of one compiled model as one blob (`unpack_objects`)."""
    sizes = struct.pack(f"<{len(objects) + 1}Q", len(objects), *map(len, objects))
    return _OBJECTS_MAGIC + sizes + b"".join(objects)


def unpack_objects(blob: bytes) -> list[bytes]:
    """The object files `pack_objects` made the blob of (ValueError if malformed)."""
    head = len(_OBJECTS_MAGIC)
    if blob[:head] != _OBJECTS_MAGIC or len(blob) < head + 8:
        raise ValueError("the object code is not infer's object files")
    (count,) = struct.unpack_from("<Q", blob, head)
    at = head + 8 * (count + 1)
    if count == 0 or at > len(blob):
        raise ValueError("the object code's index is malformed")
    sizes = struct.unpack_from(f"<{count}Q", blob, head + 8)
    if at + sum(sizes) != len(blob):
        raise ValueError("the object code's files do not add up to its size")
    objects = []
    for size in sizes:
        objects.append(blob[at:at + size])
        at += size
    return objects


def loader_choice() -> str:
    """"mcjit" when the environment asks for MCJIT, else "elf" (the ELF loader first)."""
    return "mcjit" if os.environ.get(LOADER_VARIABLE, "").strip().lower() == "mcjit" else "elf"


def _map_elf(objects: list[bytes], prefix: str, bound: dict[str, np.ndarray]
             ) -> MappedCode:
    """The objects mapped by the ELF loader: a weight symbol binds to its buffer (a name
    with the prefix and no weight is refused), any other to a C library's function."""
    def resolve(name: str) -> int | None:
        if name.startswith(prefix):
            buf = bound.get(name)
            return None if buf is None else buf.ctypes.data
        if name == PARALLEL_FOR:
            return thread_pool.symbol(name)
        if name in (ALLOC_SYMBOL, FREE_SYMBOL):
            return allocator_symbols()[name]
        for lib in _c_libraries():
            try:
                return ctypes.cast(lib[name], ctypes.c_void_p).value
            except AttributeError:
                continue
        return None

    return load_objects(objects, resolve)


def _map_mcjit(objects: list[bytes], prefix: str, bound: dict[str, np.ndarray],
               target: Target, own_allocator: bool) -> MappedCode:
    """The objects mapped by an MCJIT engine of their own, the weights bound by name."""
    llvm = _mcjit_llvm()
    if any(PARALLEL_FOR.encode() in part for part in objects):
        llvm.add_symbol(PARALLEL_FOR, thread_pool.symbol(PARALLEL_FOR))
    if own_allocator:
        for name, address in allocator_symbols().items():
            llvm.add_symbol(name, address)
    for name, buf in bound.items():
        llvm.add_symbol(name, buf.ctypes.data)
    tm = target.machine()
    # An engine is made from a module: an empty one, the code comes from the object.
    empty = llvm.parse_assembly(
        f'target triple = "{target.triple}"\n'
        f'target datalayout = "{tm.target_data}"\n')
    engine = llvm.create_mcjit_compiler(empty, tm)
    for part in objects:  # symbols resolve across the parts of one engine
        engine.add_object_file(llvm.ObjectFileRef.from_data(part))
    engine.finalize_object()
    return _McjitCode(engine)


class ObjectModule(NativeModule):
    """Object code mapped, its weights bound: by the ELF loader (codegen/elf_loader.py),
    or by an MCJIT engine of its own where that loader refuses the objects or
    INFER_LOADER=mcjit asks for it. `loader` says which ("elf" or "mcjit").

    The object file refers to each weight by its symbol name, `<prefix><name>`; MCJIT
    binds it with the process-global `llvm.add_symbol`. Each copy mapped therefore gets a
    fresh prefix (`new_symbol_prefix`), written over the old one in the object's bytes:
    both have the same length, so the string table keeps its offsets, and the old one
    holds 128 random bits, so it occurs nowhere but in the symbol names. (The ELF loader
    binds symbols per mapping, but takes the same fresh prefix: one rule for both.)"""

    def __init__(self, code: ObjectCode) -> None:
        if not SYMBOL_PREFIX.fullmatch(code.symbol_prefix):
            raise ValueError(f"malformed weight symbol prefix '{code.symbol_prefix}'")
        missing = code.target.missing_on_host()
        if missing:
            raise ValueError(f"the code is for a CPU ({code.target.cpu}) with feature "
                             f"'{missing[0]}', which this CPU ({host_target().cpu}) lacks"
                             + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
        prefix = new_symbol_prefix()
        obj = code.obj.replace(code.symbol_prefix.encode(), prefix.encode())
        bound = weight_buffers(prefix, code.weights)
        objects = unpack_objects(obj)
        mapped: MappedCode | None = None
        self.loader = loader_choice()
        self.refusal: str | None = None  # why the ELF loader did not map it, if it did not
        if self.loader == "elf":
            try:
                mapped = _map_elf(objects, prefix, bound)
            except LoaderError as e:
                self.loader, self.refusal = "mcjit", str(e)
        own_allocator = _uses_allocator(objects)
        if mapped is None:
            mapped = _map_mcjit(objects, prefix, bound, code.target, own_allocator)
        super().__init__(mapped, prefix, bound, code.signatures, own_allocator)
        # the aligned copies the code reads, so that the weights are held once
        self.code = ObjectCode(obj, prefix, self.weights(), code.signatures, code.target)

"""Object files mapped without LLVM: what LLVM's RuntimeDyld does for MCJIT, for the
object files infer's compiler makes, in Python (ctypes and anonymous memory).

Why: mapping with MCJIT loads libllvmlite.so, and loading that 178 MB library makes
about 35 MiB of it resident (its text and read-only data) in every process that only runs
a saved model. The code LLVM emits for us is a few ELF relocatable objects whose needs are
small: allocate their sections, bind symbols (each other's functions, the weights, libc,
libm, libgcc_s, infer's thread pool) and patch relocations. This module does that, and refuses
(`LoaderError`, a ValueError) everything it does not fully handle, so that the caller
maps the code with MCJIT instead: no half-understood object is ever run.

What is handled: ELF64 little-endian x86-64 ET_REL; allocated sections of type PROGBITS
and NOBITS (text, rodata and its mergeable constant pools, data, bss, the large code
model's .ltext/.lrodata/.ldata/.lbss); relocations R_X86_64_64, PC32, PLT32, 32, 32S,
GOTPCREL, GOTPCRELX, REX_GOTPCRELX and PC64 (the code model infer compiles with,
"jitdefault", is the large one: its objects use R_X86_64_64 alone, the others are here for
small-model objects). Refused: TLS, init/fini arrays, COMMON or extended-index symbols,
IFUNCs, SHT_REL, groups, any other relocation type, a symbol nothing defines, a value that
does not fit its field, and any offset or index outside the file.

Layout: all the objects of one model go into one anonymous mapping, so that their
symbols are one namespace and every PC-relative distance inside it fits 32 bits:

    [text of every object | call stubs]  [rodata of every object | GOT]  [data, bss]
     PROT_READ|PROT_EXEC                  PROT_READ                       PROT_READ|WRITE

The mapping is written while read-write, then each part gets its final protection:
never writable and executable at once. A call (PLT32) to a function farther than 2 GiB
(libc, the thread pool) goes through a stub in the text, `jmp *0(%rip)` followed by the address;
a GOT-relative load reads the address from a GOT slot filled at load time.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import struct
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["LoaderError", "LoadedCode", "load_objects"]


class LoaderError(ValueError):
    """An object file this loader does not map (the caller falls back to MCJIT)."""


# ELF constants (the System V ABI and its x86-64 supplement)
_ELF_MAGIC = b"\x7fELF"
_ET_REL, _EM_X86_64 = 1, 62
_SHT_NULL, _SHT_PROGBITS, _SHT_SYMTAB, _SHT_STRTAB, _SHT_RELA = 0, 1, 2, 3, 4
_SHT_NOBITS, _SHT_REL = 8, 9
_SHT_INIT_ARRAY, _SHT_FINI_ARRAY, _SHT_PREINIT_ARRAY, _SHT_GROUP = 14, 15, 16, 17
_SHF_WRITE, _SHF_ALLOC, _SHF_EXECINSTR, _SHF_TLS, _SHF_COMPRESSED = 0x1, 0x2, 0x4, 0x400, 0x800
_SHN_UNDEF, _SHN_LORESERVE, _SHN_ABS, _SHN_COMMON, _SHN_XINDEX = 0, 0xFF00, 0xFFF1, 0xFFF2, 0xFFFF
_STB_LOCAL, _STB_GLOBAL, _STB_WEAK = 0, 1, 2
_STT_NOTYPE, _STT_OBJECT, _STT_FUNC, _STT_SECTION, _STT_FILE = 0, 1, 2, 3, 4
_STT_TLS, _STT_GNU_IFUNC = 6, 10

# Relocation types: S symbol address, A addend, P place, G GOT slot of the symbol.
R_64, R_PC32, R_PLT32, R_32, R_32S = 1, 2, 4, 10, 11
R_GOTPCREL, R_PC64, R_GOTPCRELX, R_REX_GOTPCRELX = 9, 24, 41, 42
_NAMES = {0: "NONE", R_64: "64", R_PC32: "PC32", R_PLT32: "PLT32", R_GOTPCREL: "GOTPCREL",
          R_32: "32", R_32S: "32S", R_PC64: "PC64", R_GOTPCRELX: "GOTPCRELX",
          R_REX_GOTPCRELX: "REX_GOTPCRELX"}
_GOT_TYPES = {R_GOTPCREL, R_GOTPCRELX, R_REX_GOTPCRELX}

# Sections of code or pointers to code that a dynamic loader would run at load or exit
# (old-style .ctors/.dtors are PROGBITS: refused by name, since nothing here runs them).
_RUN_AT_LOAD = (".ctors", ".dtors", ".init", ".fini", ".preinit_array", ".init_array",
                ".fini_array", ".tdata", ".tbss")

_EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
_SHDR = struct.Struct("<IIQQQQIIQQ")
_SYM = struct.Struct("<IBBHQQ")
_RELA = struct.Struct("<QQq")
_STUB = b"\xff\x25\x00\x00\x00\x00"  # jmp *0(%rip): the 8-byte address follows
_STUB_SIZE = 16  # 6 + 8, padded
_PAGE = mmap.PAGESIZE
_LIMIT = 1 << 31  # the whole mapping stays within reach of a signed 32-bit displacement


@dataclass
class _Section:
    index: int
    name: str
    kind: str  # "text", "rodata" or "data"
    nobits: bool
    offset: int  # in the file
    size: int
    align: int
    address: int = 0


@dataclass(frozen=True)
class _Symbol:
    name: str
    bind: int
    type: int
    shndx: int
    value: int
    size: int = 0


@dataclass
class _Object:
    """One parsed object: its allocated sections by index, its symbols, and the
    relocations of each allocated section: (offset, type, symbol index, addend)."""

    number: int
    data: bytes
    sections: dict[int, _Section]
    symbols: list[_Symbol]
    relocations: dict[int, list[tuple[int, int, int, int]]]


def _refuse(what: str) -> LoaderError:
    return LoaderError(f"object code not mapped without LLVM: {what}")


def _string(table: bytes, at: int, where: str) -> str:
    end = table.find(b"\0", at)
    if at < 0 or at >= len(table) or end < 0:
        raise _refuse(f"{where}: name offset {at} outside its string table")
    return table[at:end].decode("utf-8", "replace")


def _parse(data: bytes, number: int) -> _Object:
    """Parses and checks one object file; every offset, size and index is bounded."""
    where = f"object {number}"
    elf = _ElfFile(data, where, *_section_headers(data, where))
    sections, symtab, relas = _sections(elf)
    if symtab is None:
        raise _refuse(f"{where} has no symbol table")
    symbols = _symbols(elf, *symtab)
    relocations = _relocations(elf, relas, symtab[0], sections)
    return _Object(number, data, sections, symbols, relocations)


def _section_headers(data: bytes, where: str) -> tuple[list[tuple[int, ...]], int]:
    """The checked ELF header's section headers, and the index of their names' string
    table."""
    if len(data) < _EHDR.size or data[:4] != _ELF_MAGIC:
        raise _refuse(f"{where} is not an ELF file")
    ident, e_type, machine, version, _, _, shoff, _, ehsize, _, _, shentsize, shnum, \
        shstrndx = _EHDR.unpack_from(data)
    if ident[4] != 2 or ident[5] != 1 or ident[6] != 1 or version != 1:
        raise _refuse(f"{where} is not a 64-bit little-endian ELF file of version 1")
    if e_type != _ET_REL:
        raise _refuse(f"{where} is of ELF type {e_type}, not a relocatable object")
    if machine != _EM_X86_64:
        raise _refuse(f"{where} is for machine {machine}, not x86-64")
    if shentsize != _SHDR.size or shnum == 0 or shoff + shnum * _SHDR.size > len(data) \
            or shstrndx >= shnum:  # fmt: skip
        raise _refuse(f"{where}: section header table outside the file (truncated?)")
    return [_SHDR.unpack_from(data, shoff + i * _SHDR.size) for i in range(shnum)], shstrndx


@dataclass
class _ElfFile:
    """One object file being parsed: its bytes, its name in messages, its section
    headers (as `_SHDR` unpacks them) and the index of their names' string table."""

    data: bytes
    where: str
    headers: list[tuple[int, ...]]
    shstrndx: int

    def body(self, i: int) -> bytes:
        """Section i's bytes (none for NOBITS), refused unless inside the file."""
        _, typ, _, _, off, size, *_ = self.headers[i]
        if typ == _SHT_NOBITS:
            return b""
        if off + size > len(self.data):
            raise _refuse(f"{self.where}: section {i} outside the file (truncated?)")
        return self.data[off:off + size]


def _sections(elf: _ElfFile) -> tuple[dict[int, _Section], tuple[int, int] | None,
                                      list[tuple[int, int, int, str]]]:
    """The allocated sections by index; the symbol table's index and its string table's
    (None without one); each RELA section's index, symbol table, target and name."""
    where = elf.where
    names = elf.body(elf.shstrndx)
    sections: dict[int, _Section] = {}
    symtab = None
    relas = []
    for i, (name_at, typ, flags, _, off, size, link, info, align, entsize) in enumerate(
            elf.headers):
        if i == 0:
            continue
        name = _string(names, name_at, where)
        if typ in (_SHT_INIT_ARRAY, _SHT_FINI_ARRAY, _SHT_PREINIT_ARRAY, _SHT_GROUP) \
                or name in _RUN_AT_LOAD or name.startswith(_RUN_AT_LOAD):  # fmt: skip
            raise _refuse(f"{where} has section '{name}' of type {typ} (constructors, "
                          "destructors or groups)")
        if flags & _SHF_TLS:
            raise _refuse(f"{where} has thread-local section '{name}'")
        if typ == _SHT_SYMTAB:
            if symtab is not None or entsize != _SYM.size:
                raise _refuse(f"{where}: a second or malformed symbol table")
            symtab = (i, link)
        elif typ == _SHT_RELA:
            if entsize != _RELA.size:
                raise _refuse(f"{where}: relocation section '{name}' of entry size {entsize}")
            relas.append((i, link, info, name))
        elif typ == _SHT_REL:
            raise _refuse(f"{where} has REL (not RELA) section '{name}'")
        if not flags & _SHF_ALLOC:
            elf.body(i)  # in bounds, even if unused
            continue
        sections[i] = _allocated_section(elf, i, name, typ, flags, off, size, align)
    return sections, symtab, relas


def _allocated_section(elf: _ElfFile, i: int, name: str, typ: int, flags: int, off: int,
                       size: int, align: int) -> _Section:
    """Allocated section i, refused unless it is text, read-only or writable data of a
    kind this loader maps."""
    where = elf.where
    if typ not in (_SHT_PROGBITS, _SHT_NOBITS):
        raise _refuse(f"{where} has allocated section '{name}' of type {typ:#x}")
    align = max(align, 1)
    if align & (align - 1) or align > _PAGE:
        raise _refuse(f"{where}: section '{name}' has alignment {align}")
    if flags & _SHF_COMPRESSED:
        raise _refuse(f"{where}: allocated section '{name}' is compressed")
    if flags & _SHF_EXECINSTR and flags & _SHF_WRITE:
        raise _refuse(f"{where}: section '{name}' is writable and executable")
    kind = "text" if flags & _SHF_EXECINSTR else "data" if flags & _SHF_WRITE else "rodata"
    if typ == _SHT_NOBITS and kind != "data":
        raise _refuse(f"{where}: NOBITS section '{name}' is not writable data")
    elf.body(i)  # bounds
    return _Section(i, name, kind, typ == _SHT_NOBITS, off, size, align)


def _symbols(elf: _ElfFile, sym_index: int, str_index: int) -> list[_Symbol]:
    """The symbol table's entries, refused if any is of a kind this loader does not
    bind."""
    where = elf.where
    if not 0 < str_index < len(elf.headers) or elf.headers[str_index][1] != _SHT_STRTAB:
        raise _refuse(f"{where}: the symbol table's string table is malformed")
    strings, table = elf.body(str_index), elf.body(sym_index)
    if len(table) % _SYM.size:
        raise _refuse(f"{where}: the symbol table's size is not a whole number of entries")
    symbols = []
    for at in range(0, len(table), _SYM.size):
        name_at, info, _, shndx, value, size = _SYM.unpack_from(table, at)
        bind, typ = info >> 4, info & 0xF
        name = _string(strings, name_at, where) if at else ""
        if typ in (_STT_TLS, _STT_GNU_IFUNC):
            raise _refuse(f"{where}: symbol '{name}' is thread-local or an IFUNC")
        if bind not in (_STB_LOCAL, _STB_GLOBAL, _STB_WEAK):
            raise _refuse(f"{where}: symbol '{name}' has binding {bind}")
        if shndx in (_SHN_COMMON, _SHN_XINDEX):
            raise _refuse(f"{where}: symbol '{name}' is COMMON or has an extended index")
        symbols.append(_Symbol(name, bind, typ, shndx, value, size))
    return symbols


def _relocations(elf: _ElfFile, relas: list[tuple[int, int, int, str]], sym_index: int,
                 sections: dict[int, _Section]) -> dict[int, list[tuple[int, int, int, int]]]:
    """The relocations of each allocated section: (offset, type, symbol index, addend)."""
    where, headers = elf.where, elf.headers
    relocations: dict[int, list[tuple[int, int, int, int]]] = {}
    for i, link, target, name in relas:
        if link != sym_index:
            raise _refuse(f"{where}: relocation section '{name}' uses another symbol table")
        if target not in sections:
            if 0 < target < len(headers) and not headers[target][2] & _SHF_ALLOC:
                continue  # relocations of debug or other unmapped sections
            raise _refuse(f"{where}: relocation section '{name}' applies to section {target}")
        if sections[target].nobits:
            raise _refuse(f"{where}: relocation section '{name}' applies to NOBITS data")
        table = elf.body(i)
        if len(table) % _RELA.size:
            raise _refuse(f"{where}: relocation section '{name}' is not whole entries")
        relocations.setdefault(target, []).extend(
            (off, info & 0xFFFFFFFF, info >> 32, addend)
            for off, info, addend in _RELA.iter_unpack(table))
    return relocations


def _align(n: int, alignment: int) -> int:
    return -(-n // alignment) * alignment


_libc = ctypes.CDLL(None, use_errno=True)
_mmap = _libc.mmap
_mmap.restype = ctypes.c_void_p
_mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                  ctypes.c_long]
_mprotect = _libc.mprotect
_mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
_munmap = _libc.munmap
_munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_MAP_FAILED = ctypes.c_void_p(-1).value


def _map_anonymous(size: int) -> int:
    address = _mmap(None, size, mmap.PROT_READ | mmap.PROT_WRITE,
                    mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
    if address in (None, _MAP_FAILED):
        raise OSError(ctypes.get_errno(), f"cannot map {size} bytes for the code")
    return address


def _protect(address: int, size: int, prot: int) -> None:
    if size and _mprotect(address, size, prot) != 0:
        raise OSError(ctypes.get_errno(), "mprotect failed on the mapped code")


class LoadedCode:
    """The mapped code of several objects: `symbols`, the address of each global symbol
    they define. The mapping lives as long as this object: keep it alive while any of its
    addresses is used."""

    def __init__(self, address: int, size: int, symbols: dict[str, int]) -> None:
        self.address, self.size, self.symbols = address, size, symbols
        weakref.finalize(self, _munmap, address, size)

    def address_of(self, name: str) -> int:
        """The address of global symbol `name`, 0 if none of the objects defines it."""
        return self.symbols.get(name, 0)


def _fits(value: int, bits: int, signed: bool) -> bool:
    if signed:
        return -(1 << (bits - 1)) <= value < 1 << (bits - 1)
    return 0 <= value < 1 << bits


def load_objects(objects: Sequence[bytes], resolve: Callable[[str], int | None]
                 ) -> LoadedCode:
    """Maps `objects` (one model's parts, which refer to each other's global symbols) and
    binds each symbol none of them defines to `resolve(name)` (None or 0: refused).
    `LoaderError` for anything this loader does not handle; then nothing stays mapped."""
    parsed = [_parse(bytes(data), n) for n, data in enumerate(objects)]
    got_keys, stub_keys = _got_and_stub_keys(parsed)
    starts, size = _layout(parsed, len(stub_keys), len(got_keys))
    base = _map_anonymous(size)
    try:
        symbols = _bind(parsed, base, resolve)
        _write(parsed, symbols, base, starts, got_keys, stub_keys)
        # Final protections: the text read+execute, rodata and the GOT read-only.
        _protect(base, starts["text_end"], mmap.PROT_READ | mmap.PROT_EXEC)
        _protect(base + starts["text_end"], starts["rodata_end"] - starts["text_end"],
                 mmap.PROT_READ)
    except BaseException:
        _munmap(base, size)
        raise
    if os.environ.get(PERF_MAP_VARIABLE) == "1":
        _write_perf_map(parsed, symbols)
    return LoadedCode(base, size, symbols[None])  # the global symbols, by name


def _got_and_stub_keys(parsed: list[_Object]
                       ) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """Which GOT slots and call stubs are wanted: one per distinct target symbol, keyed
    by (object number, symbol index), numbered in order; every relocation's type, symbol
    and place checked on the way."""
    got_keys: dict[tuple[int, int], int] = {}
    stub_keys: dict[tuple[int, int], int] = {}
    for obj in parsed:
        for section, relocs in obj.relocations.items():
            size = obj.sections[section].size
            for off, typ, sym, _ in relocs:
                if typ not in _NAMES:
                    raise _refuse(f"object {obj.number}: relocation type {typ} (not one of "
                                  f"{', '.join('R_X86_64_' + n for n in _NAMES.values())})")
                if sym >= len(obj.symbols) or (sym == 0 and typ != 0):
                    raise _refuse(f"object {obj.number}: relocation against symbol {sym}")
                width = 8 if typ in (R_64, R_PC64) else 0 if typ == 0 else 4
                if off + width > size:
                    raise _refuse(f"object {obj.number}: relocation at {off} outside section "
                                  f"'{obj.sections[section].name}'")
                if typ in _GOT_TYPES:
                    got_keys.setdefault((obj.number, sym), len(got_keys))
                elif typ == R_PLT32 and obj.symbols[sym].shndx == _SHN_UNDEF:
                    stub_keys.setdefault((obj.number, sym), len(stub_keys))
    return got_keys, stub_keys


def _layout(parsed: list[_Object], stubs: int, got: int) -> tuple[dict[str, int], int]:
    """Offsets of every section in the one mapping: text, stubs | rodata, GOT | data.
    Sets each section's address to its offset (until the mapping exists); returns where
    the stubs and the GOT start and each part ends, and the mapping's size."""
    end = 0
    starts = {}
    for kind in ("text", "rodata", "data"):
        for obj in parsed:
            for s in obj.sections.values():
                if s.kind == kind:
                    end = _align(end, s.align)
                    s.address = end  # an offset until the mapping exists
                    end += s.size
        if kind == "text":
            end = _align(end, _STUB_SIZE)
            starts["stubs"] = end
            end += _STUB_SIZE * stubs
        elif kind == "rodata":
            end = _align(end, 8)
            starts["got"] = end
            end += 8 * got
        end = _align(end, _PAGE)
        starts[kind + "_end"] = end
    size = max(end, _PAGE)
    if size >= _LIMIT:
        raise _refuse(f"{size} bytes of code and data, more than 2 GiB")
    return starts, size


def _write(parsed: list[_Object], symbols: dict[int | None, dict], base: int,
           starts: dict[str, int], got_keys: dict[tuple[int, int], int],
           stub_keys: dict[tuple[int, int], int]) -> None:
    """Writes the sections' bytes at `base`, the GOT slots and call stubs, and the
    relocations."""
    for obj in parsed:
        for s in obj.sections.values():
            s.address += base
            if not s.nobits and s.size:
                ctypes.memmove(s.address, obj.data[s.offset:s.offset + s.size], s.size)
    got = {key: base + starts["got"] + 8 * n for key, n in got_keys.items()}
    for (number, index), slot in got.items():
        ctypes.c_uint64.from_address(slot).value = symbols[number][index]
    stubs = {key: base + starts["stubs"] + _STUB_SIZE * n for key, n in stub_keys.items()}
    for (number, index), stub in stubs.items():
        ctypes.memmove(stub, _STUB + struct.pack("<Q", symbols[number][index]),
                       len(_STUB) + 8)
    for obj in parsed:
        for section, relocs in obj.relocations.items():
            place_base = obj.sections[section].address
            for off, typ, sym, addend in relocs:
                _apply(obj, typ, place_base + off, symbols[obj.number][sym], addend,
                       got.get((obj.number, sym)), stubs.get((obj.number, sym)))


# With this environment variable set to 1, each load appends its functions to
# /tmp/perf-<pid>.map, where `perf report` finds the names of JIT code (as with LLVM's
# perf listener): `INFER_PERF_MAP=1 perf record -g python run.py`.
PERF_MAP_VARIABLE = "INFER_PERF_MAP"


def _write_perf_map(parsed: list[_Object], symbols: dict[int | None, dict]) -> None:
    lines = [f"{symbols[obj.number][i]:x} {sym.size:x} {sym.name}\n"
             for obj in parsed for i, sym in enumerate(obj.symbols)
             if sym.type == _STT_FUNC and sym.size and i in symbols[obj.number]]
    with open(f"/tmp/perf-{os.getpid()}.map", "a") as out:
        out.writelines(lines)


def _apply(obj: _Object, typ: int, place: int, target: int, addend: int, got: int | None,
           stub: int | None) -> None:
    """Writes one relocation's value at `place`, after checking it fits its field."""
    if typ == 0:
        return
    if typ == R_64:
        ctypes.c_uint64.from_address(place).value = (target + addend) & (1 << 64) - 1
        return
    if typ == R_PC64:
        ctypes.c_int64.from_address(place).value = target + addend - place
        return
    if typ in _GOT_TYPES:
        assert got is not None
        value, signed = got + addend - place, True
    elif typ == R_PLT32:
        value, signed = target + addend - place, True
        if not _fits(value, 32, True) and stub is not None:
            value = stub + addend - place  # through the stub, within the mapping
    elif typ == R_PC32:
        value, signed = target + addend - place, True
    else:  # R_32, R_32S: absolute addresses in 32 bits
        value, signed = target + addend, typ == R_32S
    if not _fits(value, 32, signed):
        raise _refuse(f"object {obj.number}: R_X86_64_{_NAMES[typ]} value {value:#x} does not "
                      "fit 32 bits")
    if signed:
        ctypes.c_int32.from_address(place).value = value
    else:
        ctypes.c_uint32.from_address(place).value = value


def _bind(parsed: list[_Object], base: int, resolve: Callable[[str], int | None]
          ) -> dict[int | None, dict]:
    """The address of every symbol of every object (by object number, then symbol index),
    and under None the global symbols the objects define, by name. One namespace for all:
    a global defined twice is refused (a weak one yields to a strong one); an undefined
    one is another object's global or else `resolve`'s."""
    exported: dict[str, int] = {}
    strength: dict[str, int] = {}
    local: dict[int | None, dict] = {}
    for obj in parsed:
        addresses = {}
        for i, sym in enumerate(obj.symbols):
            if sym.shndx == _SHN_UNDEF or sym.type == _STT_FILE:
                continue
            if sym.shndx == _SHN_ABS:
                value = sym.value
            elif sym.shndx >= _SHN_LORESERVE or sym.shndx not in obj.sections:
                continue  # defined in an unmapped section: unusable, refused if referenced
            else:
                section = obj.sections[sym.shndx]
                if sym.value > section.size:
                    raise _refuse(f"object {obj.number}: symbol '{sym.name}' outside its section")
                value = base + section.address + sym.value
            addresses[i] = value
            if sym.bind != _STB_LOCAL and sym.name:
                weak = sym.bind == _STB_WEAK
                if sym.name in exported and not (weak or strength[sym.name] == _STB_WEAK):
                    raise _refuse(f"symbol '{sym.name}' is defined twice")
                if sym.name not in exported or strength[sym.name] == _STB_WEAK and not weak:
                    exported[sym.name] = value
                    strength[sym.name] = sym.bind
        local[obj.number] = addresses
    for obj in parsed:
        addresses = local[obj.number]
        referenced = {sym for relocs in obj.relocations.values() for _, _, sym, _ in relocs}
        for i in sorted(referenced):
            if i in addresses or i == 0:
                continue
            sym = obj.symbols[i]
            if sym.shndx != _SHN_UNDEF or not sym.name:
                raise _refuse(f"object {obj.number}: relocation against symbol '{sym.name}' "
                              "of an unmapped section")
            value = exported.get(sym.name) or resolve(sym.name)
            if not value:
                raise _refuse(f"object {obj.number}: undefined symbol '{sym.name}'")
            addresses[i] = value
        addresses[0] = 0
    local[None] = exported
    return local

"""Whether this CPU has a target's features, decided without LLVM where that is certain.

`Target.missing_on_host()` asks LLVM (`llvm.get_host_cpu_features()`), and importing
llvmlite's binding loads libllvmlite.so, which costs a process that only runs a saved
model about 35 MiB of resident memory. On Linux x86-64 the kernel lists the CPU's
features in /proc/cpuinfo (`flags`), under names of its own: the table below maps LLVM's
feature names to them, one by one, each checked to be the same CPUID bit that LLVM reads
(llvm/lib/TargetParser/Host.cpp). The kernel lists a feature only when the CPU has it
and the kernel lets programs use it (AVX and AVX-512 only when the OS saves their
registers), as LLVM also requires.

The answer here only ever grants: `present_without_llvm` is True when every feature the
target turns on maps to a flag the kernel lists; anything else (a feature missing from
the table, a flag not listed, not Linux x86-64) is None, and the caller asks LLVM, whose
answer is the exact one (and names what is missing).
"""

from __future__ import annotations

import ctypes
import mmap
import os
import platform
import sys
from collections.abc import Iterable
from functools import cache

# LLVM feature name -> /proc/cpuinfo flag (Linux's arch/x86/include/asm/cpufeatures.h)
CPUINFO_FLAGS: dict[str, str] = {
    "64bit": "lm", "cmov": "cmov", "cx8": "cx8", "fxsr": "fxsr", "mmx": "mmx", "x87": "fpu",
    "sse": "sse", "sse2": "sse2", "sse3": "pni", "ssse3": "ssse3", "sse4.1": "sse4_1",
    "sse4.2": "sse4_2", "crc32": "sse4_2", "sse4a": "sse4a", "cx16": "cx16",
    "popcnt": "popcnt", "lzcnt": "abm", "sahf": "lahf_lm", "prfchw": "3dnowprefetch",
    "movbe": "movbe", "pclmul": "pclmulqdq", "aes": "aes", "vaes": "vaes",
    "vpclmulqdq": "vpclmulqdq", "gfni": "gfni", "sha": "sha_ni", "adx": "adx",
    "rdrnd": "rdrand", "rdseed": "rdseed", "rdpid": "rdpid", "fsgsbase": "fsgsbase",
    "invpcid": "invpcid", "clflushopt": "clflushopt", "clwb": "clwb", "clzero": "clzero",
    "xsave": "xsave", "xsavec": "xsavec", "xsaveopt": "xsaveopt", "xsaves": "xsaves",
    "avx": "avx", "avx2": "avx2", "fma": "fma", "f16c": "f16c", "bmi": "bmi1",
    "bmi2": "bmi2", "avxvnni": "avx_vnni",
    "avx512f": "avx512f", "avx512bw": "avx512bw", "avx512cd": "avx512cd",
    "avx512dq": "avx512dq", "avx512vl": "avx512vl", "avx512ifma": "avx512ifma",
    "avx512vbmi": "avx512vbmi", "avx512vbmi2": "avx512_vbmi2",
    "avx512vnni": "avx512_vnni", "avx512bf16": "avx512_bf16",
    "avx512bitalg": "avx512_bitalg", "avx512vpopcntdq": "avx512_vpopcntdq",
    "avx512fp16": "avx512_fp16", "avx512vp2intersect": "avx512_vp2intersect",
    "amx-tile": "amx_tile", "amx-int8": "amx_int8", "amx-bf16": "amx_bf16",
    "movdiri": "movdiri", "movdir64b": "movdir64b", "serialize": "serialize",
    "waitpkg": "waitpkg", "cldemote": "cldemote", "wbnoinvd": "wbnoinvd",
    "xop": "xop", "fma4": "fma4", "tbm": "tbm", "pku": "pku",
}

# Features the kernel may not list although the CPU has them, read from CPUID as LLVM
# reads them (no OS state involved): name -> (leaf, subleaf, register, bit). The CET
# shadow stack (shstk) is listed as user_shstk only when the kernel enables it for
# programs, but LLVM reports the CPUID bit, and a host target carries it.
CPUID_BITS: dict[str, tuple[int, int, int, int]] = {
    "shstk": (7, 0, 2, 7),  # CPUID.(7,0):ECX[7]
}


def _on_x86_64_linux() -> bool:
    return sys.platform.startswith("linux") and platform.machine() in ("x86_64", "AMD64")


@cache
def cpuinfo_flags() -> frozenset[str]:
    """The flags of the first processor in /proc/cpuinfo (empty if unreadable)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


# cpuid(leaf, subleaf, uint32_t out[4]) in x86-64 machine code (System V ABI):
#   push rbx; mov eax, edi; mov ecx, esi; mov r8, rdx; cpuid;
#   mov [r8], eax; mov [r8+4], ebx; mov [r8+8], ecx; mov [r8+12], edx; pop rbx; ret
_CPUID_CODE = bytes.fromhex("53 89f8 89f1 4989d0 0fa2 418900 41895804 41894808 4189500c 5b c3")


@cache
def _cpuid() -> ctypes._CFuncPtr | None:
    """A callable running the CPUID instruction, from a page of its own (written, then
    made read+execute); None where that cannot be done."""
    if not _on_x86_64_linux():
        return None
    try:
        page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
        page.write(_CPUID_CODE)
        address = ctypes.addressof(ctypes.c_char.from_buffer(page))  # keeps it mapped
        libc = ctypes.CDLL(None)
        libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        if libc.mprotect(address, mmap.PAGESIZE, mmap.PROT_READ | mmap.PROT_EXEC) != 0:
            return None
    except (OSError, ValueError):
        return None
    fn = ctypes.CFUNCTYPE(None, ctypes.c_uint32, ctypes.c_uint32,
                          ctypes.POINTER(ctypes.c_uint32))(address)
    fn._page = page  # type: ignore[attr-defined]  # the mapping lives as long as the function
    return fn


def cpuid(leaf: int, subleaf: int = 0) -> tuple[int, int, int, int] | None:
    """(eax, ebx, ecx, edx) of CPUID `leaf`/`subleaf`, None if it cannot be run or the
    CPU does not have that leaf."""
    fn = _cpuid()
    if fn is None:
        return None
    out = (ctypes.c_uint32 * 4)()
    fn(0, 0, out)
    if out[0] < leaf:
        return None
    fn(leaf, subleaf, out)
    return out[0], out[1], out[2], out[3]


def present_without_llvm(features: Iterable[str]) -> bool | None:
    """True when this CPU certainly has every one of `features` (LLVM's names), read
    from /proc/cpuinfo (and CPUID for `CPUID_BITS`); None when that cannot be told
    without LLVM."""
    if not _on_x86_64_linux():
        return None
    flags = cpuinfo_flags()
    for feature in features:
        if feature in CPUINFO_FLAGS:
            if CPUINFO_FLAGS[feature] not in flags:
                return None
        elif feature in CPUID_BITS:
            leaf, subleaf, register, bit = CPUID_BITS[feature]
            values = cpuid(leaf, subleaf)
            if values is None or not values[register] >> bit & 1:
                return None
        else:
            return None
    return True


# ---------------------------------------------------------------------------------------
# The CPUs this process may run on (the default thread count, the compile's parallel parts)
# ---------------------------------------------------------------------------------------

def usable_cpus() -> list[int] | None:
    """The CPUs this process may run on, None where the OS does not say."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None


def physical_cores() -> int:
    """The physical cores among the CPUs this process may run on (at least 1): CPUs that
    share a core (SMT siblings) count once."""
    cpus = usable_cpus()
    if cpus is None:
        return max(1, os.cpu_count() or 1)
    cores = set()
    for cpu in cpus:
        topology = f"/sys/devices/system/cpu/cpu{cpu}/topology"
        try:
            with open(f"{topology}/physical_package_id") as f:
                package = f.read().strip()
            with open(f"{topology}/core_id") as f:
                core = f.read().strip()
        except OSError:
            return max(1, len(cpus))  # no topology: every CPU a core
        cores.add((package, core))
    return max(1, len(cores))

"""The CPU the code is compiled for: the host, a portable x86-64 level (x86-64-v3) or a
named CPU, as a `Target` (triple, CPU name, LLVM features string). The pipeline's target
choices (the NCHWc block, the register tile) are read off its features, and the artifact
records it, so a file compiled for AVX-512 is refused on a CPU without it.

One fresh TargetMachine per use, since MCJIT takes ownership of the one it is given
(sharing a TargetMachine between engines aborted the process)."""

from __future__ import annotations

import os
import platform
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import llvmlite.binding as llvm

# The triple LLVM reports on Linux x86-64 (llvm.get_process_triple()), so that a process
# that only maps saved code tells its triple without loading LLVM.
LINUX_X86_64_TRIPLE = "x86_64-unknown-linux-gnu"


def _glibc_x86_64_linux() -> bool:
    if not sys.platform.startswith("linux") or platform.machine() != "x86_64":
        return False
    try:
        return (os.confstr("CS_GNU_LIBC_VERSION") or "").startswith("glibc")
    except (ValueError, OSError):
        return False


@cache
def llvm_binding():  # noqa: ANN201 - the llvmlite.binding module
    """llvmlite's binding, imported (which loads libllvmlite.so, ~35 MiB resident) only
    where LLVM is needed: compiling, MCJIT, and the host-feature checks that
    codegen/host_features.py cannot decide."""
    import llvmlite.binding as llvm

    # Initialization of targets is explicit in llvmlite (llvm.initialize() now raises).
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return llvm

# The x86-64 micro-architecture levels of the psABI, in LLVM's feature names, each adding
# to the one before.
_V1 = frozenset({"64bit", "cmov", "cx8", "fxsr", "mmx", "sse", "sse2", "x87"})
_V2 = _V1 | {"cx16", "crc32", "popcnt", "sahf", "sse3", "sse4.1", "sse4.2", "ssse3"}
_V3 = _V2 | {"avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave"}
_V4 = _V3 | {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"}
_VNNI = {"avx512vnni"}
# What a named CPU is compiled with: its level's features and its int8 dot product, not
# every extension it has (the generated code uses none of the others).
NAMED_CPUS: dict[str, frozenset[str]] = {
    "x86-64": _V1, "x86-64-v2": _V2, "x86-64-v3": _V3, "x86-64-v4": _V4,
    "haswell": _V3, "broadwell": _V3, "skylake": _V3, "znver1": _V3, "znver2": _V3,
    "znver3": _V3, "skylake-avx512": _V4, "cascadelake": _V4 | _VNNI,
    "icelake-server": _V4 | _VNNI, "sapphirerapids": _V4 | _VNNI, "znver4": _V4 | _VNNI,
    "znver5": _V4 | _VNNI,
}


@dataclass(frozen=True)
class Target:
    """A CPU to compile for: `features` is LLVM's features string (`+avx2,-avx512f,...`)
    naming every feature LLVM knows on this host, on or off, so that LLVM uses no
    extension the name implies but the string turns off."""

    triple: str
    cpu: str
    features: str

    def enabled(self) -> frozenset[str]:
        return frozenset(f[1:] for f in self.features.split(",") if f.startswith("+"))

    def machine(self, opt_level: int = 3) -> llvm.TargetMachine:
        return llvm_binding().Target.from_triple(self.triple).create_target_machine(
            cpu=self.cpu, features=self.features, opt=opt_level, codemodel="jitdefault",
            jit=True)

    def vector_bits(self) -> int:
        """The widest float vector register: 512 (AVX-512), 256 (AVX) or 128."""
        on = self.enabled()
        return 512 if "avx512f" in on else 256 if "avx" in on else 128

    def nchwc_block(self) -> int:
        """Channels per block of the NCHWc layout: one vector register of f32 (16 with
        AVX-512, 8 with AVX2), as onnxruntime's MlasNchwcGetBlockSize picks it."""
        return max(self.vector_bits() // 32, 8)

    def vector_registers(self) -> int:
        """Vector registers: 32 with AVX-512, else 16 (AVX2, SSE on x86-64)."""
        return 32 if self.vector_bits() == 512 else 16

    def int8_kernel(self) -> tuple[bool, int]:
        """(vnni, lanes) of the integer kernels (qnn-legalize): vpdpbusd where the CPU has
        AVX512-VNNI (16 lanes) or AVX-VNNI (8), else vpmaddwd on 16 (AVX-512BW), 8 (AVX2)
        or 4 (SSE2) i32 lanes."""
        on = self.enabled()
        lanes = 16 if {"avx512f", "avx512bw"} <= on else 8 if "avx2" in on else 4
        vnni = "avx512vnni" in on and lanes == 16 or "avxvnni" in on and lanes == 8
        if "avxvnni" in on and lanes == 16 and "avx512vnni" not in on:
            vnni, lanes = True, 8
        return vnni, lanes

    def missing_on_host(self) -> list[str]:
        """The features this target enables that this CPU lacks: none when
        /proc/cpuinfo shows them all (codegen/host_features.py), else as LLVM tells."""
        from infer.codegen.host_features import present_without_llvm

        if present_without_llvm(self.enabled()):
            return []
        host = llvm_binding().get_host_cpu_features()
        return [f for f in sorted(self.enabled()) if not host.get(f)]

    def runs_on_host_triple(self) -> bool:
        """Whether this machine's triple is the target's (read without LLVM on Linux
        x86-64, where it is certain)."""
        if self.triple == LINUX_X86_64_TRIPLE and _glibc_x86_64_linux():
            return True
        return self.triple == host_target().triple

    def to_json(self) -> dict[str, str]:
        return {"triple": self.triple, "cpu": self.cpu, "features": self.features}

    @staticmethod
    def from_json(value: dict[str, object]) -> Target:
        fields = [value.get(k) for k in ("triple", "cpu", "features")]
        if not all(isinstance(f, str) for f in fields):
            raise ValueError(f"malformed target {value!r}")
        return Target(*fields)  # type: ignore[arg-type]


@cache
def host_target() -> Target:
    """This CPU with all its features (AVX2/AVX-512, FMA, ...)."""
    llvm = llvm_binding()
    return Target(llvm.get_process_triple(), llvm.get_host_cpu_name(),
                  llvm.get_host_cpu_features().flatten())


def named_target(name: str) -> Target:
    """The target `name` stands for: "host", an x86-64 level ("x86-64-v3") or a CPU of
    `NAMED_CPUS`; ValueError naming the choices for any other."""
    host = host_target()
    if name in ("host", "native", host.cpu) and name not in NAMED_CPUS:
        return host
    if name not in NAMED_CPUS:
        raise ValueError(f"unknown target CPU '{name}': one of host, "
                         f"{', '.join(NAMED_CPUS)}")
    if not host.triple.startswith("x86_64"):
        raise ValueError(f"target '{name}' is an x86-64 CPU; this machine is {host.triple}")
    wanted = NAMED_CPUS[name]
    # every feature LLVM knows here, each turned on/off
    known = llvm_binding().get_host_cpu_features()
    return Target(host.triple, name, ",".join(("+" if f in wanted else "-") + f for f in known))


def host_target_machine(opt_level: int = 3) -> llvm.TargetMachine:
    """A TargetMachine for this CPU with all its features."""
    return host_target().machine(opt_level)


def host_triple() -> str:
    return host_target().triple


def host_cpu_name() -> str:
    return host_target().cpu


def host_vector_bits() -> int:
    return host_target().vector_bits()


def nchwc_block() -> int:
    return host_target().nchwc_block()


def vector_registers() -> int:
    return host_target().vector_registers()


_SYSCONF = ("SC_LEVEL1_DCACHE_SIZE", "SC_LEVEL2_CACHE_SIZE", "SC_LEVEL3_CACHE_SIZE")


def _size(text: str) -> int:
    """`48K`, `1024K`, `32M` or bytes, as sysfs writes a cache size."""
    text = text.strip()
    scale = {"K": 1024, "M": 1024 * 1024}.get(text[-1:].upper(), 1)
    return int(text[:-1] if scale > 1 else text) * scale


@cache  # read once per process: every compile asks
def host_cache_sizes(defaults: tuple[int, int, int]) -> tuple[int, int, int]:
    """The data (or unified) cache of each level of CPU 0 in bytes, from sysfs, else
    sysconf, else `defaults`, level by level."""
    found: dict[int, int] = {}
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            level = int((index / "level").read_text())
            kind = (index / "type").read_text().strip()
            size = _size((index / "size").read_text())
        except (OSError, ValueError):
            continue
        if kind in ("Data", "Unified") and size > 0:
            found[level] = size
    sizes = []
    for level, (name, default) in enumerate(zip(_SYSCONF, defaults, strict=True), 1):
        size = found.get(level, 0)
        if size <= 0 and name in os.sysconf_names:
            try:
                size = os.sysconf(name)
            except (OSError, ValueError):
                size = 0
        sizes.append(size if size > 0 else default)
    return sizes[0], sizes[1], sizes[2]

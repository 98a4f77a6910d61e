"""The host target: one fresh TargetMachine per use, since MCJIT takes ownership of the
one it is given (sharing a TargetMachine between engines aborted the process)."""

import os
from pathlib import Path

import llvmlite.binding as llvm

# Initialization of targets is explicit in llvmlite (llvm.initialize() itself now raises).
llvm.initialize_native_target()
llvm.initialize_native_asmprinter()


def host_target_machine(opt_level: int = 3) -> llvm.TargetMachine:
    """A TargetMachine for this CPU with all its features (AVX2/AVX-512, FMA, ...)."""
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(
        cpu=host_cpu_name(),
        features=host_cpu_features(),
        opt=opt_level,
        codemodel="jitdefault",
        jit=True,
    )


def host_triple() -> str:
    return llvm.get_process_triple()


def host_cpu_name() -> str:
    return llvm.get_host_cpu_name()


def host_cpu_features() -> str:
    """LLVM's features string of this CPU: `+avx2,-avx512fp16,...`, every feature LLVM
    knows, enabled or not."""
    return llvm.get_host_cpu_features().flatten()


def missing_features(features: str) -> list[str]:
    """The features a features string enables (`+name`) that this CPU lacks."""
    host = llvm.get_host_cpu_features()
    return [f[1:] for f in features.split(",") if f.startswith("+") and not host.get(f[1:])]


def host_vector_bits() -> int:
    """The widest float vector register of this CPU: 512 (AVX-512), 256 (AVX) or 128."""
    features = llvm.get_host_cpu_features()
    if features.get("avx512f"):
        return 512
    return 256 if features.get("avx") else 128


def nchwc_block() -> int:
    """Channels per block of the NCHWc layout on this machine: one vector register of f32
    (16 with AVX-512, 8 with AVX2), as onnxruntime's MlasNchwcGetBlockSize picks it."""
    return max(host_vector_bits() // 32, 8)


def vector_registers() -> int:
    """Vector registers of this CPU: 32 with AVX-512, else 16 (AVX2, SSE on x86-64)."""
    return 32 if host_vector_bits() == 512 else 16


_SYSCONF = ("SC_LEVEL1_DCACHE_SIZE", "SC_LEVEL2_CACHE_SIZE", "SC_LEVEL3_CACHE_SIZE")


def _size(text: str) -> int:
    """`48K`, `1024K`, `32M` or bytes, as sysfs writes a cache size."""
    text = text.strip()
    scale = {"K": 1024, "M": 1024 * 1024}.get(text[-1:].upper(), 1)
    return int(text[:-1] if scale > 1 else text) * scale


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

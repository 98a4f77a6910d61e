"""The ELF loader (codegen/elf_loader.py): models mapped through it give onnxruntime's
answers (and MCJIT's, bit for bit); objects it does not handle (unknown relocations,
truncated or altered bytes, constructors) are refused with a reason, and the code is then
mapped by MCJIT; a process that loads and runs an artifact imports neither llvmlite's
binding nor xDSL, and its peak memory is well below MCJIT's."""

from __future__ import annotations

import ctypes
import os
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto as TP
from onnx import helper, numpy_helper

import infer
from infer.abi import PARALLEL_FOR
from infer.codegen import host_features, thread_pool
from infer.codegen.elf_loader import LoaderError, load_objects
from infer.codegen.jit import (
    ObjectCode,
    ObjectModule,
    allocator_symbols,
    pack_objects,
    unpack_objects,
)
from infer.codegen.target import host_target, llvm_binding
from infer.runtime.compiled_model import map_code

from .helpers import make_model, run_onnxruntime
from .quantized_models import FLOAT_MODELS, QuantFormat, QuantType, quantized, samples

R = np.random.default_rng(3)
ROOT = Path(__file__).resolve().parents[1]


def _init(name: str, *shape: int) -> onnx.TensorProto:
    return numpy_helper.from_array((R.standard_normal(shape) * 0.2).astype(np.float32), name)


def _conv_net() -> onnx.ModelProto:
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("Conv", ["p1", "w2"], ["c2"], group=4),
             helper.make_node("GlobalAveragePool", ["c2"], ["g"]),
             helper.make_node("Flatten", ["g"], ["f"]),
             helper.make_node("Gemm", ["f", "wf", "bf"], ["y"], transB=1)]
    inits = [_init("w1", 16, 3, 3, 3), _init("b1", 16), _init("w2", 16, 4, 1, 1),
             _init("wf", 10, 16), _init("bf", 10)]
    return make_model(nodes, [("x", TP.FLOAT, ["N", 3, 32, 32])], [("y", TP.FLOAT, ["N", 10])],
                      inits)


def _attention_like() -> onnx.ModelProto:
    """MatMuls with weights, softmax, layer norm, erf: an encoder block's kernels; the
    sequence length dynamic."""
    nodes = [helper.make_node("MatMul", ["x", "wq"], ["q"]),
             helper.make_node("MatMul", ["x", "wk"], ["k"]),
             helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
             helper.make_node("MatMul", ["q", "kt"], ["s"]),
             helper.make_node("Softmax", ["s"], ["a"], axis=-1),
             helper.make_node("MatMul", ["a", "x"], ["o"]),
             helper.make_node("LayerNormalization", ["o", "g", "b"], ["n"], axis=-1),
             helper.make_node("Erf", ["n"], ["y"])]
    inits = [_init("wq", 32, 32), _init("wk", 32, 32), _init("g", 32), _init("b", 32)]
    return make_model(nodes, [("x", TP.FLOAT, [1, "S", 32])], [("y", TP.FLOAT, [1, "S", 32])],
                      inits, opset=17)


def _elf(compiled: infer.CompiledModel) -> None:
    assert compiled.native.loader == "elf", compiled.native.refusal


def _close_to_onnxruntime(model: onnx.ModelProto, feeds: dict[str, np.ndarray],
                          threads: int = 1) -> None:
    compiled = infer.compile(model, cache=False, threads=threads)
    _elf(compiled)
    ours = list(compiled.run(feeds).values())
    for a, b in zip(ours, run_onnxruntime(model, feeds), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


@pytest.mark.slow
def test_conv_net_matches_onnxruntime() -> None:
    _close_to_onnxruntime(_conv_net(), {"x": R.standard_normal((2, 3, 32, 32), np.float32)})


@pytest.mark.slow
@pytest.mark.parametrize("sequence", [5, 17])
def test_dynamic_attention_like_model_matches_onnxruntime(sequence: int) -> None:
    _close_to_onnxruntime(_attention_like(),
                          {"x": R.standard_normal((1, sequence, 32), np.float32)})


@pytest.mark.slow
def test_transformer_encoder_matches_onnxruntime() -> None:
    """benchmarks/encoder_model.py's encoder, small: embeddings (Gather), attention with
    the padding mask, layer norms, GELU; batch and sequence dynamic."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from encoder_model import encoder_feeds, encoder_model
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    model = encoder_model(layers=1, hidden=64, heads=2)
    compiled = infer.compile(model, cache=False)
    _elf(compiled)
    for batch, sequence in [(1, 16), (2, 9)]:
        feeds = encoder_feeds(batch, sequence)
        ours = list(compiled.run(feeds).values())
        for a, b in zip(ours, run_onnxruntime(model, feeds), strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-3)


@pytest.mark.slow
def test_parallel_model_on_two_threads_matches_onnxruntime() -> None:
    model = _conv_net()
    compiled = infer.compile(model, cache=False, threads=2)
    _elf(compiled)
    assert compiled.native.parallel and compiled.native.threads == 2
    feeds = {"x": R.standard_normal((4, 3, 32, 32), np.float32)}
    two = compiled.run(feeds)["y"]
    compiled.threads = 1
    np.testing.assert_array_equal(compiled.run(feeds)["y"], two)
    np.testing.assert_allclose(two, run_onnxruntime(model, feeds)[0], rtol=1e-4,
                               atol=1e-4)


@pytest.mark.slow
def test_int8_model_matches_onnxruntime() -> None:
    model = quantized(FLOAT_MODELS["small_cnn"](), QuantFormat.QOperator, True,
                      QuantType.QUInt8)
    compiled = infer.compile(model, cache=False)
    _elf(compiled)
    for feeds in samples(model, 2, seed=1):
        np.testing.assert_array_equal(compiled.run(feeds)["y"], run_onnxruntime(model, feeds)[0])


@pytest.mark.slow
def test_same_bits_as_mcjit(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = infer.compile(_conv_net(), cache=False)
    _elf(compiled)
    feeds = {"x": R.standard_normal((1, 3, 32, 32), np.float32)}
    monkeypatch.setenv("INFER_LOADER", "mcjit")
    mcjit = map_code(compiled.compiled)
    assert mcjit.native.loader == "mcjit" and mcjit.native.refusal is None
    np.testing.assert_array_equal(mcjit.run(feeds)["y"], compiled.run(feeds)["y"])


# -- refusals


@pytest.fixture(scope="module")
def parts() -> list[bytes]:
    return unpack_objects(infer.compile(_conv_net(), cache=False).compiled.code.obj)


def _resolve_c(name: str) -> int | None:
    """C library functions (not the process's own `main`), infer's thread pool and
    allocator, and a dummy for weights."""
    if name == "main":
        return None
    if name == PARALLEL_FOR:
        return thread_pool.symbol(name)
    if name in allocator_symbols():
        return allocator_symbols()[name]
    try:
        return ctypes.cast(ctypes.CDLL(None)[name], ctypes.c_void_p).value
    except AttributeError:
        return 1 << 40 if name.startswith("__infer_") else None  # weights: never read here


def _first_relocation(obj: bytes) -> int:
    """The file offset of the first entry of the first RELA section."""
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shnum, = struct.unpack_from("<H", obj, 0x3C)
    for i in range(shnum):
        typ, = struct.unpack_from("<I", obj, shoff + 64 * i + 4)
        size, = struct.unpack_from("<Q", obj, shoff + 64 * i + 32)
        if typ == 4 and size:
            return struct.unpack_from("<Q", obj, shoff + 64 * i + 24)[0]
    raise AssertionError("no relocations")


def _with_relocation_type(obj: bytes, typ: int) -> bytes:
    at = _first_relocation(obj) + 8  # r_info: symbol << 32 | type
    info, = struct.unpack_from("<Q", obj, at)
    out = bytearray(obj)
    struct.pack_into("<Q", out, at, info & ~0xFFFFFFFF | typ)
    return bytes(out)


@pytest.mark.slow
def test_the_parts_map_and_export_their_entries(parts: list[bytes]) -> None:
    code = load_objects(parts, _resolve_c)
    assert code.address_of("_infer_packed_main") and code.address_of("_infer_num_threads")
    assert code.address_of("no such symbol") == 0


def test_perf_map_names_the_mapped_functions(parts: list[bytes],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """With INFER_PERF_MAP=1 each load appends its functions to /tmp/perf-<pid>.map,
    where perf finds the names of JIT code: address and size in hex, then the name."""
    from infer.codegen import elf_loader

    path = Path(f"/tmp/perf-{os.getpid()}.map")
    before = path.read_text() if path.exists() else ""
    monkeypatch.setenv(elf_loader.PERF_MAP_VARIABLE, "1")
    code = load_objects(parts, _resolve_c)
    lines = path.read_text()[len(before):].splitlines()
    entries = {name: (int(at, 16), int(size, 16))
               for at, size, name in (line.split(" ", 2) for line in lines)}
    at, size = entries["_infer_packed_main"]
    assert at == code.address_of("_infer_packed_main") and size > 0
    assert all(code.address <= a and a + n <= code.address + code.size
               for a, n in entries.values())
    monkeypatch.delenv(elf_loader.PERF_MAP_VARIABLE)
    load_objects(parts, _resolve_c)
    assert path.read_text()[len(before):].splitlines() == lines  # off: nothing written


@pytest.mark.parametrize(("damage", "reason"), [
    (lambda o: o[:len(o) // 2], "outside the file"),
    (lambda o: o[:40], "not an ELF file|outside the file"),
    (lambda o: b"\x7fELF" + bytes(60), "not a 64-bit little-endian"),
    (lambda o: b"MZ" + o[2:], "not an ELF file"),
    (lambda o: o[:18] + struct.pack("<H", 183) + o[20:], "not x86-64"),
    (lambda o: o[:16] + struct.pack("<H", 3) + o[18:], "not a relocatable object"),
    (lambda o: _with_relocation_type(o, 26), "relocation type 26"),
    (lambda o: _with_relocation_type(o, 19), "relocation type 19"),  # TLSGD
    (lambda o: o[:0x28] + struct.pack("<Q", 1 << 40) + o[0x30:], "outside the file"),
])
def test_damaged_objects_are_refused(parts: list[bytes], damage, reason: str) -> None:
    with pytest.raises(LoaderError, match=reason):
        load_objects([damage(parts[0]), *parts[1:]], _resolve_c)


def test_an_unresolved_symbol_is_refused(parts: list[bytes]) -> None:
    with pytest.raises(LoaderError, match="undefined symbol"):
        load_objects(parts, lambda name: None)
    with pytest.raises(LoaderError, match="undefined symbol '__infer_[0-9a-f]{32}_"):
        load_objects(parts, lambda n: None if n.startswith("__infer_") else _resolve_c(n))


def _ir_object(text: str, reloc: str = "default", codemodel: str = "jitdefault") -> bytes:
    llvm = llvm_binding()
    target = host_target()
    tm = llvm.Target.from_triple(target.triple).create_target_machine(
        cpu=target.cpu, features=target.features, opt=2, reloc=reloc, codemodel=codemodel)
    module = llvm.parse_assembly(f'target triple = "{target.triple}"\n{text}')
    module.verify()
    return tm.emit_object(module)


# A packed entry: args[0] -> f32 scalar input, args[1] -> f32 scalar result slot; it
# calls expf (libm, far away), reads a table (rodata) and counts its calls (data).
_ENTRY_IR = """
@table = internal constant [2 x float] [float 1.0, float 2.0]
@calls = global i32 0
declare float @expf(float)
declare ptr @malloc(i64)
define void @_infer_packed_main(ptr %args) nounwind {
  %pin = load ptr, ptr %args
  %pout.at = getelementptr ptr, ptr %args, i64 1
  %pout = load ptr, ptr %pout.at
  %x = load float, ptr %pin
  %t = load volatile float, ptr getelementptr ([2 x float], ptr @table, i64 0, i64 1)
  %e = call float @expf(float %x)
  %y = fmul float %e, %t
  store float %y, ptr %pout
  %c = load i32, ptr @calls
  %c1 = add i32 %c, 1
  store i32 %c1, ptr @calls
  ret void
}
define ptr @malloc_address() nounwind {
  ret ptr @malloc
}
"""


def _entry_code(obj: bytes) -> ObjectCode:
    from infer.codegen.jit import ArgSpec, new_symbol_prefix
    scalar = ArgSpec(np.dtype(np.float32), None, False)
    return ObjectCode(pack_objects([obj]), new_symbol_prefix(), {},
                      {"main": ([scalar], [scalar])}, host_target())


def _run_entry(module: ObjectModule) -> float:
    (y,) = module.get_entry("main")([np.float32(0.5)])
    return float(y)


@pytest.mark.parametrize(("reloc", "codemodel", "types"), [
    ("pic", "small", {"R_X86_64_PC32", "R_X86_64_PLT32", "R_X86_64_REX_GOTPCRELX"}),
    ("default", "jitdefault", {"R_X86_64_64"}),
])
def test_small_and_large_code_models_map(reloc: str, codemodel: str, types: set[str],
                                         tmp_path: Path) -> None:
    """Small-model PIC code: calls to libm through a stub (PLT32 out of reach), the table
    PC-relative, globals through the GOT; large-model code: absolute addresses."""
    obj = _ir_object(_ENTRY_IR, reloc, codemodel)
    (tmp_path / "o.o").write_bytes(obj)
    dump = subprocess.run(["readelf", "-rW", str(tmp_path / "o.o")], capture_output=True,
                          text=True).stdout
    assert types <= set(dump.split()), dump
    module = ObjectModule(_entry_code(obj))
    assert module.loader == "elf", module.refusal
    assert _run_entry(module) == pytest.approx(np.exp(0.5) * 2, rel=1e-6)
    counter = module._mapped.address_of("calls")
    assert ctypes.c_int32.from_address(counter).value == 1
    malloc = ctypes.CFUNCTYPE(ctypes.c_void_p)(module._mapped.address_of("malloc_address"))
    assert malloc() == ctypes.cast(ctypes.CDLL(None).malloc, ctypes.c_void_p).value


def test_absolute_32_bit_addresses_are_checked(tmp_path: Path) -> None:
    """Non-PIC small-model code indexes a table at a 32-bit absolute address (32S):
    mapped only where that fits (the low 2 GiB), refused otherwise; never truncated."""
    obj = _ir_object("""
@t = internal constant [4 x float] [float 1.0, float 2.0, float 3.0, float 4.0]
define float @g(i64 %i) nounwind {
  %p = getelementptr [4 x float], ptr @t, i64 0, i64 %i
  %v = load float, ptr %p
  ret float %v
}
""", "static", "small")
    (tmp_path / "o.o").write_bytes(obj)
    dump = subprocess.run(["readelf", "-rW", str(tmp_path / "o.o")], capture_output=True,
                          text=True).stdout
    assert "R_X86_64_32S" in dump, dump
    try:
        code = load_objects([obj], _resolve_c)
    except LoaderError as e:
        assert "R_X86_64_32S value" in str(e) and "does not fit 32 bits" in str(e)
    else:
        assert code.address + code.size < 1 << 31
        g = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_int64)(code.address_of("g"))
        assert g(2) == 3.0


def test_a_refused_object_is_mapped_by_mcjit() -> None:
    """A constructor (.init_array) is not handled: the loader refuses, MCJIT maps."""
    obj = _ir_object(_ENTRY_IR + """
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }]
    [{ i32, ptr, ptr } { i32 65535, ptr @ctor, ptr null }]
define internal void @ctor() nounwind {
  store i32 100, ptr @calls
  ret void
}
""")
    with pytest.raises(LoaderError, match="constructors"):
        load_objects([obj], _resolve_c)
    module = ObjectModule(_entry_code(obj))
    assert module.loader == "mcjit" and "constructors" in module.refusal
    assert _run_entry(module) == pytest.approx(np.exp(0.5) * 2, rel=1e-6)


def test_host_features_read_without_llvm_agree_with_llvm() -> None:
    """Every feature the table maps that /proc/cpuinfo shows, LLVM reports on this CPU
    (the table only ever grants), and the CPUID bits read as LLVM reads them."""
    llvm = llvm_binding().get_host_cpu_features()
    flags = host_features.cpuinfo_flags()
    for feature, flag in host_features.CPUINFO_FLAGS.items():
        if flag in flags and feature in llvm:
            assert llvm[feature], feature
    for feature in host_features.CPUID_BITS:
        assert bool(host_features.present_without_llvm([feature])) == bool(llvm.get(feature))
    on = [f for f, v in llvm.items() if v]
    if host_features.present_without_llvm(on):
        assert host_target().missing_on_host() == []
    assert host_features.present_without_llvm(["no-such-feature"]) is None


# -- a process that only loads and runs


_CHILD = """
import sys, numpy as np
import infer
feeds = dict(np.load(sys.argv[2]))
m = infer.load(sys.argv[1], threads=1)
for _ in range(3):
    m.run(feeds)
print(m.native.loader, "llvmlite.binding" in sys.modules,
      any(k == "xdsl" or k.startswith("xdsl.") for k in sys.modules),
      next(line.split()[1] for line in open("/proc/self/status")
           if line.startswith("VmHWM")))
"""


def _child(artifact: Path, feeds: Path, loader: str | None) -> tuple[str, bool, bool, int]:
    env = {k: v for k, v in os.environ.items() if k != "INFER_LOADER"}
    if loader:
        env["INFER_LOADER"] = loader
    out = subprocess.run([sys.executable, "-c", _CHILD, str(artifact), str(feeds)], env=env,
                         capture_output=True, text=True, timeout=300, check=True).stdout
    name, llvm, xdsl, hwm = out.split()
    return name, llvm == "True", xdsl == "True", int(hwm)


@pytest.fixture(scope="module")
def shufflenet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    from infer.model_zoo import dummy_inputs, light_model_path, with_random_weights

    work = tmp_path_factory.mktemp("shufflenet")
    model = with_random_weights(onnx.load(light_model_path("shufflenet")))
    infer.compile(model, cache=False).save(work / "m.infer")
    np.savez(work / "feeds.npz", **dummy_inputs(model))
    return work / "m.infer", work / "feeds.npz"


@pytest.mark.slow
def test_loading_and_running_imports_no_llvm_nor_xdsl(shufflenet: tuple[Path, Path]) -> None:
    loader, llvm, xdsl, _ = _child(*shufflenet, None)
    assert (loader, llvm, xdsl) == ("elf", False, False)
    loader, llvm, xdsl, _ = _child(*shufflenet, "mcjit")
    assert (loader, llvm, xdsl) == ("mcjit", True, False)


def test_peak_memory_is_well_below_mcjits(shufflenet: tuple[Path, Path]) -> None:
    elf = _child(*shufflenet, None)[3]
    mcjit = _child(*shufflenet, "mcjit")[3]
    assert mcjit - elf >= 20 * 1024, (elf, mcjit)  # kB

"""Loop-level IR -> llvm dialect -> JIT, run on numpy inputs and compared with numpy."""

import gc
from math import erf

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, cf, func, llvm, math, memref, scf, vector
from xdsl.parser import Parser

from infer.codegen import JitModule, emit_assembly, emit_llvm_ir
from infer.dialects.llvmx import LLVMX
from infer.pipeline import lower_to_llvm


def _context() -> Context:
    ctx = Context()
    for d in (builtin.Builtin, func.Func, arith.Arith, math.Math, memref.MemRef, scf.Scf,
              cf.Cf, vector.Vector, llvm.LLVM, LLVMX):  # fmt: skip
        ctx.load_dialect(d)
    return ctx


def lower(text: str) -> builtin.ModuleOp:
    ctx = _context()
    module = Parser(ctx, text).parse_module()
    lower_to_llvm(module, ctx)
    module.verify()
    return module


def compile_ir(text: str) -> JitModule:
    return JitModule(lower(text))


ELEMENTWISE = """
func.func @main(%a: memref<?x?xf32>, %b: memref<?x?xf32>) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf32>
  %m = memref.dim %a, %c1 : memref<?x?xf32>
  %out = memref.alloc(%n, %m) : memref<?x?xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %x = memref.load %a[%i, %j] : memref<?x?xf32>
      %y = memref.load %b[%i, %j] : memref<?x?xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %out[%i, %j] : memref<?x?xf32>
    }
  }
  func.return %out : memref<?x?xf32>
}
"""


def test_elementwise_dynamic_dims() -> None:
    jm = compile_ir(ELEMENTWISE)
    main = jm.get_entry("main")
    rng = np.random.default_rng(0)
    for shape in [(3, 5), (7, 33), (1, 1)]:
        a = rng.standard_normal(shape, dtype=np.float32)
        b = rng.standard_normal(shape, dtype=np.float32)
        (out,) = main([a, b])
        np.testing.assert_array_equal(out, a + b)
    # non-contiguous input: strides come from the descriptor
    a = rng.standard_normal((6, 10), dtype=np.float32)[:, ::2]
    (out,) = main([a, a])
    np.testing.assert_array_equal(out, a + a)


MATMUL = """
func.func @main(%a: memref<?x64xf32>, %b: memref<64x48xf32>) -> memref<?x48xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c48 = arith.constant 48 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %a, %c0 : memref<?x64xf32>
  %out = memref.alloc(%n) : memref<?x48xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c48 step %c1 {
      memref.store %zero, %out[%i, %j] : memref<?x48xf32>
    }
    scf.for %k = %c0 to %c64 step %c1 {
      %x = memref.load %a[%i, %k] : memref<?x64xf32>
      scf.for %j = %c0 to %c48 step %c1 {
        %y = memref.load %b[%k, %j] : memref<64x48xf32>
        %acc = memref.load %out[%i, %j] : memref<?x48xf32>
        %p = arith.mulf %x, %y fastmath<contract> : f32
        %s = arith.addf %acc, %p fastmath<contract> : f32
        memref.store %s, %out[%i, %j] : memref<?x48xf32>
      }
    }
  }
  func.return %out : memref<?x48xf32>
}
"""


def test_matmul() -> None:
    main = compile_ir(MATMUL).get_entry()
    rng = np.random.default_rng(1)
    a = rng.standard_normal((9, 64), dtype=np.float32)
    b = rng.standard_normal((64, 48), dtype=np.float32)
    (out,) = main([a, b])
    np.testing.assert_allclose(out, a @ b, rtol=1e-4, atol=1e-4)


REDUCTION = """
func.func @main(%a: memref<?xf32>) -> (memref<f32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %vzero = arith.constant dense<0.0> : vector<8xf32>
  %n = memref.dim %a, %c0 : memref<?xf32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.addf %acc, %x fastmath<reassoc> : f32
    scf.yield %y : f32
  }
  %out = memref.alloc() : memref<f32>
  memref.store %s, %out[] : memref<f32>
  %nv = arith.divui %n, %c8 : index
  %nv8 = arith.muli %nv, %c8 : index
  %v = scf.for %i = %c0 to %nv8 step %c8 iter_args(%acc = %vzero) -> (vector<8xf32>) {
    %x = vector.load %a[%i] : memref<?xf32>, vector<8xf32>
    %y = arith.addf %acc, %x : vector<8xf32>
    scf.yield %y : vector<8xf32>
  }
  %r = vector.reduction <add>, %v fastmath<reassoc> : vector<8xf32> into f32
  func.return %out, %r : memref<f32>, f32
}
"""


def test_reduction_scalar_and_vector() -> None:
    main = compile_ir(REDUCTION).get_entry()
    a = np.random.default_rng(2).standard_normal(1003, dtype=np.float32)
    out, vec_sum = main([a])
    assert out.shape == ()
    np.testing.assert_allclose(out, a.sum(dtype=np.float64), rtol=1e-4)
    np.testing.assert_allclose(vec_sum, a[:1000].sum(dtype=np.float64), rtol=1e-4)


UNARY = """
func.func @main(%a: memref<?xf32>) -> (memref<?xf32>, memref<?xf32>, memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %e = memref.alloc(%n) : memref<?xf32>
  %t = memref.alloc(%n) : memref<?xf32>
  %r = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    %0 = math.exp %x : f32
    %1 = math.tanh %x : f32
    %2 = math.erf %x : f32
    memref.store %0, %e[%i] : memref<?xf32>
    memref.store %1, %t[%i] : memref<?xf32>
    memref.store %2, %r[%i] : memref<?xf32>
  }
  func.return %e, %t, %r : memref<?xf32>, memref<?xf32>, memref<?xf32>
}
"""


def test_exp_tanh_erf() -> None:
    main = compile_ir(UNARY).get_entry()
    a = np.linspace(-3, 3, 101, dtype=np.float32)
    e, t, r = main([a])
    np.testing.assert_allclose(e, np.exp(a), rtol=1e-6)
    np.testing.assert_allclose(t, np.tanh(a), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(r, [erf(x) for x in a], rtol=1e-6, atol=1e-7)


VECTOR_MATH = """
func.func @main(%a: memref<16xf32>) -> memref<16xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %out = memref.alloc() : memref<16xf32>
  %half = arith.constant 0.5 : f32
  %h = vector.broadcast %half : f32 to vector<8xf32>
  scf.for %i = %c0 to %c16 step %c8 {
    %x = vector.load %a[%i] : memref<16xf32>, vector<8xf32>
    %e = math.erf %x : vector<8xf32>
    %t = math.tanh %x : vector<8xf32>
    %m = vector.fma %e, %h, %t : vector<8xf32>
    %z = arith.constant dense<0.0> : vector<8xf32>
    %c = arith.cmpf olt, %x, %z : vector<8xf32>
    %r = arith.maximumf %m, %z : vector<8xf32>
    vector.store %r, %out[%i] : memref<16xf32>, vector<8xf32>
  }
  func.return %out : memref<16xf32>
}
"""


def test_vector_math() -> None:
    main = compile_ir(VECTOR_MATH).get_entry()
    a = np.linspace(-2, 2, 16, dtype=np.float32)
    (out,) = main([a])
    expected = np.maximum(np.array([erf(x) for x in a]) * 0.5 + np.tanh(a), 0)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


INTEGER = """
func.func @main(%a: memref<?xi32>, %b: memref<?xi32>, %k: i64)
    -> (memref<?xi32>, memref<?xf32>, memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xi32>
  %o1 = memref.alloc(%n) : memref<?xi32>
  %o2 = memref.alloc(%n) : memref<?xf32>
  %o3 = memref.alloc(%n) : memref<?xi8>
  %kk = arith.trunci %k : i64 to i32
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %y = memref.load %b[%i] : memref<?xi32>
    %fd = arith.floordivsi %x, %y : i32
    %cd = arith.ceildivsi %x, %y : i32
    %rm = arith.remsi %x, %y : i32
    %mx = arith.maxsi %fd, %rm : i32
    %s = arith.addi %mx, %kk : i32
    %sh = arith.shli %cd, %kk : i32
    %xo = arith.xori %s, %sh : i32
    memref.store %xo, %o1[%i] : memref<?xi32>
    %f = arith.sitofp %x : i32 to f32
    %ii = arith.index_cast %i : index to i32
    %g = arith.uitofp %ii : i32 to f32
    %h = arith.addf %f, %g : f32
    memref.store %h, %o2[%i] : memref<?xf32>
    %t = arith.trunci %x : i32 to i8
    %q = arith.fptosi %h : f32 to i8
    %u = arith.addi %t, %q : i8
    memref.store %u, %o3[%i] : memref<?xi8>
  }
  func.return %o1, %o2, %o3 : memref<?xi32>, memref<?xf32>, memref<?xi8>
}
"""


def test_integer_ops() -> None:
    main = compile_ir(INTEGER).get_entry()
    rng = np.random.default_rng(3)
    a = rng.integers(-100, 100, 64, dtype=np.int32)
    b = rng.integers(1, 9, 64, dtype=np.int32) * rng.choice([-1, 1], 64).astype(np.int32)
    o1, o2, o3 = main([a, b, np.int64(2)])
    fd = a // b
    cd = -((-a) // b)
    rm = np.fmod(a, b)
    expected = (np.maximum(fd, rm) + 2) ^ (cd << 2)
    np.testing.assert_array_equal(o1, expected)
    h = a.astype(np.float32) + np.arange(64, dtype=np.float32)
    np.testing.assert_array_equal(o2, h)
    np.testing.assert_array_equal(o3, (a.astype(np.int8) + h.astype(np.int8)).astype(np.int8))


GLOBALS = """
"memref.global"() <{sym_name = "big", sym_visibility = "private", type = memref<32x40xf32>,
  initial_value = dense<{big}> : tensor<32x40xf32>, constant}> : () -> ()
"memref.global"() <{sym_name = "small", sym_visibility = "private", type = memref<4xf32>,
  initial_value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>, constant}> : () -> ()
func.func @main(%a: memref<32x40xf32>) -> memref<32x40xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c40 = arith.constant 40 : index
  %w = memref.get_global @big : memref<32x40xf32>
  %s = memref.get_global @small : memref<4xf32>
  %out = memref.alloc() : memref<32x40xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    %r = arith.remui %i, %c4 : index
    %sv = memref.load %s[%r] : memref<4xf32>
    scf.for %j = %c0 to %c40 step %c1 {
      %x = memref.load %a[%i, %j] : memref<32x40xf32>
      %y = memref.load %w[%i, %j] : memref<32x40xf32>
      %p = arith.mulf %x, %y : f32
      %q = arith.addf %p, %sv : f32
      memref.store %q, %out[%i, %j] : memref<32x40xf32>
    }
  }
  func.return %out : memref<32x40xf32>
}
"""


def test_weights_as_globals() -> None:
    weights = np.random.default_rng(4).standard_normal((32, 40)).astype(np.float32)
    dense = np.array2string(weights, separator=",", threshold=10**6, floatmode="unique")
    text = GLOBALS.replace("{big}", dense.replace("\n", ""))
    module = lower(text)
    ir = emit_llvm_ir(module, optimized=False)
    assert "external constant [1280 x float]" in ir  # bound by symbol, not inlined
    assert "[4 x float] [float 1.0" in ir.replace("0x3FF0000000000000", "1.0")
    jm = JitModule(module)
    a = np.random.default_rng(5).standard_normal((32, 40)).astype(np.float32)
    (out,) = jm.get_entry()([a])
    small = np.array([1, 2, 3, 4], dtype=np.float32)[np.arange(32) % 4][:, None]
    np.testing.assert_allclose(out, a * weights + small, rtol=1e-6)
    # a second module with the same global names binds its own buffer
    jm2 = JitModule(lower(text))
    (out2,) = jm2.get_entry()([a])
    np.testing.assert_array_equal(out, out2)


F16 = """
func.func @main(%a: memref<?xf16>, %b: memref<?xf16>) -> memref<?xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf16>
  %out = memref.alloc(%n) : memref<?xf16>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf16>
    %y = memref.load %b[%i] : memref<?xf16>
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %m = arith.mulf %xf, %yf : f32
    %e = math.erf %x : f16
    %ef = arith.extf %e : f16 to f32
    %s = arith.addf %m, %ef : f32
    %r = arith.truncf %s : f32 to f16
    memref.store %r, %out[%i] : memref<?xf16>
  }
  func.return %out : memref<?xf16>
}
"""


def test_f16() -> None:
    main = compile_ir(F16).get_entry()
    a = np.linspace(-1, 1, 50).astype(np.float16)
    b = np.linspace(2, 3, 50).astype(np.float16)
    (out,) = main([a, b])
    erf16 = np.array([erf(x) for x in a.astype(np.float32)]).astype(np.float16)
    expected = (a.astype(np.float32) * b.astype(np.float32) + erf16.astype(np.float32))
    np.testing.assert_allclose(out.astype(np.float32), expected.astype(np.float16), rtol=2e-3)


HELPER = """
func.func private @scale(%x: memref<?xf64>, %k: f64) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %o = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = arith.mulf %v, %k : f64
    memref.store %w, %o[%i] : memref<?xf64>
  }
  func.return %o : memref<?xf64>
}
func.func @main(%x: memref<?xf64>) -> (memref<?xf64>, memref<2x?xf64>, index) {
  %k = arith.constant 3.0 : f64
  %c0 = arith.constant 0 : index
  %y = func.call @scale(%x, %k) : (memref<?xf64>, f64) -> memref<?xf64>
  %e = memref.expand_shape %y [[0, 1]] output_shape [2, 5] : memref<?xf64> into memref<2x?xf64>
  %n = memref.dim %y, %c0 : memref<?xf64>
  func.return %y, %e, %n : memref<?xf64>, memref<2x?xf64>, index
}
"""


def test_call_views_and_scalar_results() -> None:
    main = compile_ir(HELPER).get_entry()
    x = np.arange(10, dtype=np.float64)
    y, e, n = main([x])
    np.testing.assert_array_equal(y, 3 * x)
    np.testing.assert_array_equal(e, (3 * x).reshape(2, 5))
    assert int(n) == 10
    del y
    gc.collect()
    np.testing.assert_array_equal(e, (3 * x).reshape(2, 5))  # the shared buffer survives


def test_vectorized_ir_and_assembly() -> None:
    module = lower(ELEMENTWISE)
    assert "fadd <" in emit_llvm_ir(module)
    assert "vaddps" in emit_assembly(module)


@pytest.mark.parametrize("dtype", [np.float32])
def test_rank_and_dtype_checked(dtype: type) -> None:
    main = compile_ir(ELEMENTWISE).get_entry()
    with pytest.raises(TypeError, match="expected rank"):
        main([np.zeros((2, 2), np.float64), np.zeros((2, 2), np.float64)])
    with pytest.raises(TypeError, match="expected rank"):
        main([np.zeros(2, dtype), np.zeros(2, dtype)])

"""The native call path of compiled entries (codegen/entry_call.c): which results are the
caller's, which are copies, and that every allocation is freed once, however it is viewed;
and the allocator the code's buffers come from, which keeps large blocks for reuse."""

import ctypes
import threading

import numpy as np
import pytest

from infer.abi import ALLOC_SYMBOL, FREE_SYMBOL
from infer.codegen.jit import allocator_symbols
from tests.test_codegen import compile_ir

RETURNS = """
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<4xf32>,
  initial_value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>, constant}> : () -> ()
func.func @main(%a: memref<4xf32>, %s: f32) -> (memref<4xf32>, memref<4xf32>, memref<8xf32>,
                                               memref<4xf32, strided<[1], offset: 4>>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %g = memref.get_global @table : memref<4xf32>
  %m = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %f = arith.index_cast %i : index to i32
    %x = arith.sitofp %f : i32 to f32
    %y = arith.mulf %x, %s : f32
    memref.store %y, %m[%i] : memref<8xf32>
  }
  %v = memref.subview %m[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %t = arith.addf %s, %s : f32
  func.return %a, %g, %m, %v, %t : memref<4xf32>, memref<4xf32>, memref<8xf32>,
    memref<4xf32, strided<[1], offset: 4>>, f32
}
"""


def test_inputs_and_globals_are_copied_allocations_are_owned() -> None:
    main = compile_ir(RETURNS).get_entry()
    a = np.arange(4, dtype=np.float32)
    same, table, whole, tail, twice = main([a, np.float32(0.5)])
    np.testing.assert_array_equal(same, a)
    assert not np.shares_memory(same, a)  # an input returned is a copy
    table[:] = 0  # a global returned is a copy: the next call sees the constant
    np.testing.assert_array_equal(main([a, np.float32(0.5)])[1], [1, 2, 3, 4])
    np.testing.assert_array_equal(whole, np.arange(8) * 0.5)
    np.testing.assert_array_equal(tail, np.arange(4, 8) * 0.5)
    assert np.shares_memory(whole, tail) and tail.base is whole.base  # one owner
    assert twice.shape == () and twice == np.float32(1.0)
    del whole  # the view keeps the allocation alive
    np.testing.assert_array_equal(tail, np.arange(4, 8) * 0.5)


BIG = """
func.func @main(%s: f32) -> memref<1048576xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1048576 : index
  %m = memref.alloc() : memref<1048576xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %s, %m[%i] : memref<1048576xf32>
  }
  func.return %m : memref<1048576xf32>
}
"""


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_results_are_freed_when_released() -> None:
    """300 results of 4 MiB: 1.2 GiB if one were kept."""
    main = compile_ir(BIG).get_entry()
    main([np.float32(1)])
    before = _rss_bytes()
    for k in range(300):
        (out,) = main([np.float32(k)])
        assert out[-1] == k
    del out
    assert _rss_bytes() - before < 200 * 2**20


def test_arguments_checked() -> None:
    main = compile_ir(BIG).get_entry()
    with pytest.raises(ValueError, match="takes 1 inputs, got 2"):
        main([np.float32(1), np.float32(2)])
    with pytest.raises(TypeError):
        main([object()])


def test_code_runs_without_the_gil() -> None:
    """Another Python thread runs while the code does."""
    main = compile_ir(BIG).get_entry()
    ticks = []
    done = threading.Event()

    def count() -> None:
        while not done.is_set():
            ticks.append(1)

    thread = threading.Thread(target=count)
    thread.start()
    try:
        for _ in range(20):
            main([np.float32(1)])
    finally:
        done.set()
        thread.join()
    assert ticks


def _allocator() -> tuple[ctypes._CFuncPtr, ctypes._CFuncPtr]:
    symbols = allocator_symbols()
    alloc = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int64)(symbols[ALLOC_SYMBOL])
    free = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(symbols[FREE_SYMBOL])
    return alloc, free


def test_large_blocks_are_kept_for_the_next_request_they_fit() -> None:
    alloc, free = _allocator()
    a = alloc(3 << 20)
    assert a % 16 == 0  # as malloc (the code aligns its buffers itself)
    ctypes.memset(a, 1, 3 << 20)  # all of it is usable
    free(a)
    b = alloc((3 << 20) - 1000)  # fits within a quarter: the same block
    assert b == a
    c = alloc(2 << 20)  # 1.5x too big for it: a block of its own
    free(b)
    d = alloc(1 << 20)  # the 3 MiB block would waste 2: not it
    assert d != a and c != a
    for p in (c, d, alloc(1000)):  # small blocks: plain malloc and free
        free(p)
    free(None)


def test_results_return_their_blocks_to_the_allocator() -> None:
    """A 4 MiB result freed by Python is the next run's result buffer."""
    module = compile_ir(BIG)
    assert module.own_allocator
    main = module.get_entry()
    (out,) = main([np.float32(1)])
    address = out.ctypes.data
    del out
    (again,) = main([np.float32(2)])
    assert again.ctypes.data == address and again[0] == 2

"""A large loop-level module is lowered and compiled in parts at once, one forked process
each (codegen/forked_parts.py): the model computes what onnxruntime does and what the
same compile in one process does, a part's outlined loop bodies may be launched from
another part, what goes wrong in a child reaches the caller, and nothing forks while
another thread runs."""

from __future__ import annotations

import os
import threading

import numpy as np
import pytest
from xdsl.dialects import func, llvm

import infer
from infer.codegen import forked_parts
from infer.codegen import partition as part
from infer.codegen.jit import unpack_objects
from infer.context import make_context
from infer.frontend.onnx_import import import_model
from infer.pipeline import LOWER_TO_LLVM, compile_passes, run_passes

from .helpers import run_onnxruntime
from .test_parallel_compile import _convs


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every loop-level module split in 2 forked parts, however small; the pids forked."""
    monkeypatch.setattr(part, "PARALLEL_LOOP_OPS", 0)
    monkeypatch.setattr(forked_parts, "compile_workers", lambda: 2)
    monkeypatch.delenv(forked_parts.FORK_VARIABLE, raising=False)
    pids: list[int] = []
    fork = os.fork

    def counted() -> int:
        pid = fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counted)
    return pids


def _loop_module(seed: int):
    model, _ = _convs(seed, size=96)  # loops large enough to run on threads
    module = import_model(model)
    run_passes(module, make_context(), compile_passes(3, to_llvm=False))
    return module


@pytest.mark.slow
def test_forked_compile_matches_onnxruntime_and_one_process(
        forks: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    model, feeds = _convs(4, layers=6)
    forked = infer.compile(model, cache=False, opt_level=3)
    assert len(forks) == 1
    assert len(unpack_objects(forked.compiled.code.obj)) >= 2
    monkeypatch.setenv(forked_parts.FORK_VARIABLE, "0")
    alone = infer.compile(model, cache=False, opt_level=3)
    assert len(forks) == 1
    got = forked.run(feeds)["y"]
    np.testing.assert_allclose(got, run_onnxruntime(model, feeds)[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got, alone.run(feeds)["y"], rtol=1e-6, atol=1e-7)


def test_a_body_launched_from_another_part_takes_the_same_arguments() -> None:
    """convert-parallel-calls-to-pool rewrites an outlined body's type from its own marks,
    so the part that declares it and the part that defines it agree."""
    module = _loop_module(5)
    callers = {op.callee.string_value(): fn.sym_name.data for fn in module.ops
               if isinstance(fn, func.FuncOp) for op in fn.walk()
               if isinstance(op, func.CallOp) and "parallel" in op.attributes}
    body, caller = next(iter(callers.items()))
    types = []
    for keep in ({caller}, {body}):
        copy = module.clone()
        forked_parts.keep_bodies(copy, keep)
        run_passes(copy, make_context(), LOWER_TO_LLVM)
        fns = {f.sym_name.data: f for f in copy.ops if isinstance(f, llvm.FuncOp)}
        assert bool(fns[body].body.blocks) == (keep == {body})
        types.append(fns[body].function_type)
    assert types[0] == types[1]
    assert len(types[0].inputs.data) > len(next(
        f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == body
    ).function_type.inputs.data)  # the noalias pointers, after the arguments


def test_keep_bodies_declares_what_the_part_calls_and_drops_the_rest() -> None:
    module = _loop_module(6)
    forked_parts.keep_bodies(module, {"main"})
    fns = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    called = {op.callee.string_value() for op in fns["main"].walk()
              if isinstance(op, func.CallOp)}
    assert fns["main"].body.blocks
    assert set(fns) == {"main"} | called
    assert all(not fns[name].body.blocks for name in called)


def _failing_lower(action: str):
    parent = os.getpid()

    def lower(module) -> None:
        if os.getpid() != parent:
            if action == "raise":
                raise ValueError("lowering failed in the child")
            os._exit(7)
        run_passes(module, make_context(), LOWER_TO_LLVM)

    return lower


def test_an_error_in_a_child_reaches_the_caller(forks: list[int]) -> None:
    from infer.codegen.target import host_target

    forked = forked_parts.fork_parts(_loop_module(7), _failing_lower("raise"), host_target(),
                                     "__p_")
    assert forked is not None
    with pytest.raises(ValueError, match="lowering failed in the child"):
        forked.collect()


def test_a_child_that_dies_is_an_internal_error(forks: list[int]) -> None:
    from infer.codegen.target import host_target

    forked = forked_parts.fork_parts(_loop_module(8), _failing_lower("exit"), host_target(),
                                     "__p_")
    assert forked is not None
    with pytest.raises(RuntimeError, match=r"compile process ended .*exit status 7"):
        forked.collect()


@pytest.mark.slow
def test_nothing_forks_while_another_thread_runs(forks: list[int]) -> None:
    model, feeds = _convs(9)
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not forked_parts.can_fork()
        compiled = infer.compile(model, cache=False, opt_level=3)
    finally:
        release.set()
        other.join()
    assert forks == []
    np.testing.assert_allclose(compiled.run(feeds)["y"], run_onnxruntime(model, feeds)[0],
                               rtol=1e-5, atol=1e-6)


def test_children_reaped_by_the_system_still_deliver(forks: list[int]) -> None:
    """With SIGCHLD ignored the kernel reaps the children itself; their objects still
    arrive through the pipes."""
    import signal

    model, feeds = _convs(10)
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        compiled = infer.compile(model, cache=False, opt_level=3)
    finally:
        signal.signal(signal.SIGCHLD, before)
    assert len(forks) == 1
    np.testing.assert_allclose(compiled.run(feeds)["y"], run_onnxruntime(model, feeds)[0],
                               rtol=1e-5, atol=1e-6)

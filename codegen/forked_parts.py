"""A large loop-level module lowered to llvm and compiled in parts at once, one process
each: the parts of `partition_loops`.

Lowering to the llvm dialect is Python (xDSL rewrites: a third of resnet50's compile) and
holds the GIL, so threads cannot share it; LLVM's O3 and code generation can
(codegen/compile.py), but that is the other half. Here each part, lowering included, runs
in a process forked from the compiling one once the loop-level module is built: the
child has the module without copying or serializing it (copy-on-write), keeps only its
part's function bodies, lowers and compiles them, and sends back its object file through
a pipe. The parent does the first part (the entries, and the globals every part refers
to) meanwhile. The objects are linked when the model is mapped, as the parts of
codegen/compile.py are.

Forking is only safe while no other thread runs (a child has only the forking thread, and
any lock another held stays held), so with other threads alive, or without `os.fork`,
`fork_parts` declines and the caller compiles in this process. `INFER_COMPILE_FORK=0`
does the same.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from infer.abi import PARALLEL_ATTR
from infer.codegen.compile import compile_objects, object_code
from infer.codegen.jit import ObjectCode, pack_objects, unpack_objects
from infer.codegen.partition import compile_workers, partition_loops
from infer.codegen.target import Target
from infer.dialects.llvmx import declare_pool

FORK_VARIABLE = "INFER_COMPILE_FORK"
_OK, _ERROR = b"O", b"E"


@dataclass
class ForkedParts:
    """The children compiling the other parts (pid, read end of its pipe), the functions a
    part calls in another (each part exports them), the target and the symbol prefix all
    share."""

    children: list[tuple[int, int]]
    exported: set[str]
    target: Target
    prefix: str
    parallel: bool  # the whole module has parallel loops: the first part defines the
    # thread-count global the others refer to

    def compile(self, module: ModuleOp) -> ObjectCode:
        """The object code of the first part (`module`, lowered to llvm) and the
        children's, as one model."""
        try:
            if self.parallel:
                declare_pool(module)
            objects, weights = compile_objects(module, self.target, self.prefix, self.exported)
        except BaseException:
            self.kill()
            raise
        return object_code(module, objects + self.collect(), self.prefix, weights, self.target)

    def collect(self) -> list[bytes]:
        """The children's object files (each child's may be several), in part order, once
        all have ended; raises what a child raised (or that it died)."""
        results = [_read_child(pid, fd) for pid, fd in self.children]
        self.children = []
        return [obj for blob in results for obj in unpack_objects(blob)]

    def kill(self) -> None:
        """Ends the children (the compile failed here) and reaps them."""
        for pid, fd in self.children:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)
            os.close(fd)
        self.children = []


def can_fork() -> bool:
    """Whether `fork_parts` may fork here: a POSIX process whose only thread is this one."""
    return (hasattr(os, "fork") and threading.active_count() == 1
            and os.environ.get(FORK_VARIABLE, "1") != "0")


def fork_parts(module: ModuleOp, lower: Callable[[ModuleOp], None], target: Target,
               prefix: str) -> ForkedParts | None:
    """Forks a child for each part of the loop-level `module` after the first, which
    lowers its part with `lower` and compiles it for `target`; then leaves `module` with
    the first part's bodies only and lowers it (`ForkedParts.compile` does the rest).
    None, the module untouched, when the module is small or forking is not safe here."""
    workers = compile_workers()
    if workers <= 1 or not can_fork():
        return None
    parts = partition_loops(module, workers)
    if len(parts.groups) == 1:
        return None
    parallel = any(PARALLEL_ATTR in op.attributes for op in module.walk()
                   if isinstance(op, func.CallOp))
    forked = ForkedParts([], parts.exported, target, prefix, parallel)
    try:
        gc.freeze()  # the children's collector then leaves the shared pages alone
        for group in parts.groups[1:]:
            forked.children.append(_fork(module, group, forked, lower))
    except BaseException:
        forked.kill()
        raise
    finally:
        gc.unfreeze()
    try:
        keep_bodies(module, parts.groups[0])
        lower(module)
    except BaseException:
        forked.kill()
        raise
    return forked


def keep_bodies(module: ModuleOp, names: set[str]) -> None:
    """Keeps of the loop-level module's functions those in `names` whole, those they call
    as declarations, and drops the others."""
    called = {op.callee.string_value() for fn in module.ops
              if isinstance(fn, func.FuncOp) and fn.sym_name.data in names
              for op in fn.walk() if isinstance(op, func.CallOp)}
    block = module.body.block
    for op in list(block.ops):
        if not isinstance(op, func.FuncOp) or op.sym_name.data in names:
            continue
        if op.sym_name.data not in called:
            block.detach_op(op)  # nothing here refers to it
        else:
            for body in list(op.body.blocks):
                op.body.detach_block(body)


def _fork(module: ModuleOp, group: set[str], forked: ForkedParts,
          lower: Callable[[ModuleOp], None]) -> tuple[int, int]:
    read_end, write_end = os.pipe()
    with warnings.catch_warnings():  # Python 3.12 warns of fork in threaded processes
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid != 0:
        os.close(write_end)
        return pid, read_end
    # The child: never returns, never runs the parent's exit handlers or flushes its
    # buffers (os._exit).
    status = 1
    try:
        os.close(read_end)
        gc.disable()  # short-lived: its garbage goes with it
        keep_bodies(module, group)
        lower(module)
        objects, _ = compile_objects(module, forked.target, forked.prefix, forked.exported,
                                     owns_globals=False)
        message = _OK + pack_objects(objects)
        status = 0
    except BaseException as e:  # noqa: BLE001 - everything goes to the parent
        message = _ERROR + _pickled(e)
    try:
        _write_all(write_end, message)
    finally:
        os._exit(status)


def _pickled(e: BaseException) -> bytes:
    try:
        return pickle.dumps(e)
    except Exception:  # noqa: BLE001 - an exception pickle cannot carry: its message
        return pickle.dumps(RuntimeError(f"{type(e).__name__}: {e}"))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.close(fd)


def _read_child(pid: int, fd: int) -> bytes:
    chunks = []
    try:
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
        try:
            code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        except ChildProcessError:  # reaped already (SIGCHLD ignored): the pipe tells
            code = 0
    data = b"".join(chunks)
    if data[:1] == _ERROR:
        raise pickle.loads(data[1:])  # noqa: S301 - our own child's bytes
    if data[:1] != _OK or code != 0:
        raise RuntimeError("internal error: a compile process ended without its object "
                           f"file (exit status {code})")
    return data[1:]


__all__ = ["FORK_VARIABLE", "ForkedParts", "can_fork", "fork_parts", "keep_bodies"]

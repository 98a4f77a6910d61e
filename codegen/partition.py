"""Which functions of a module compile together: the parts codegen/compile.py hands to LLVM
at once (one thread each), or codegen/forked_parts.py lowers and compiles at once (one
process each).

A function stays with the small functions it calls or takes the address of, so that LLVM
can still inline them (a part cannot inline another's functions). Calls to large or
`noinline` functions are where the module is cut: LLVM would not inline those anyway,
except an internal function called once, such as a kernel called by the entry, which it
would inline whatever its size; kept out of line it costs one call per run. The groups
this leaves are packed into parts of about equal size, largest first.

Two forms of the same cut: `partition` on an llvm-dialect module, `partition_loops` on a
loop-level one (func dialect). A parallel loop's outlined body may be cut from the
function that launches it: convert-parallel-calls-to-pool rewrites a body's type the same
way in either part.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable
from typing import NamedTuple, cast

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from infer.abi import NOINLINE_ATTR
from infer.codegen.host_features import usable_cpus

# A callee of at most this many ops stays in its caller's part (LLVM's inliner takes
# functions up to a few hundred instructions).
SMALL_FUNCTION = 200
# A module of fewer ops in all is compiled in one part: the threads would not pay.
PARALLEL_OPS = 4000
# The same sizes at the loop level, where a function has about a fifth of the ops it has
# once lowered to llvm (resnet50: 4.4k loop-level ops, 22.7k llvm ops).
SMALL_LOOP_FUNCTION = 40
PARALLEL_LOOP_OPS = 800
MAX_WORKERS = 8


def compile_workers() -> int:
    """How many parts a large module is compiled in at once: the CPUs this process may run
    on (at most MAX_WORKERS)."""
    cpus = usable_cpus()
    return max(1, min(MAX_WORKERS, len(cpus) if cpus is not None else os.cpu_count() or 1))


class Parts(NamedTuple):
    groups: list[set[str]]  # function names, a part each
    exported: set[str]  # functions another part refers to


def _defined(module: ModuleOp, kind: type[llvm.FuncOp] | type[func.FuncOp] = llvm.FuncOp
             ) -> dict[str, llvm.FuncOp] | dict[str, func.FuncOp]:
    """The functions of `kind` (llvm.func or func.func) the module defines, by name."""
    return {op.sym_name.data: op for op in module.ops
            if isinstance(op, kind) and op.body.blocks}


def references(module: ModuleOp) -> dict[str, set[str]]:
    """For each function the llvm-dialect module defines, the defined functions it calls
    or takes the address of."""
    defined = _defined(module)
    refs: dict[str, set[str]] = {}
    for name, fn in defined.items():
        out = refs[name] = set()
        for op in fn.walk():
            if isinstance(op, llvm.CallOp) and op.callee is not None:
                target = op.callee.string_value()
            elif isinstance(op, llvm.AddressOfOp):
                target = op.global_name.string_value()
            else:
                continue
            if target in defined:
                out.add(target)
    return refs


def partition(module: ModuleOp, workers: int) -> Parts:
    """The llvm-dialect module's defined functions in at most `workers` parts (one part
    when the module is small or `workers` is 1)."""
    defined = _defined(module)
    size = _sizes(defined)
    if workers <= 1 or sum(size.values()) < PARALLEL_OPS:
        return Parts([set(defined)], set())
    refs = references(module)
    joined = {(caller, callee) for caller, callees in refs.items() for callee in callees
              if _inlinable(defined[callee], size[callee], SMALL_FUNCTION)}
    return _pack(size, refs, joined, workers)


def partition_loops(module: ModuleOp, workers: int) -> Parts:
    """The loop-level module's defined functions in at most `workers` parts; the public
    ones (the entries, whose signatures the compile reads off its first part) in the
    first."""
    defined = cast(dict[str, func.FuncOp], _defined(module, func.FuncOp))
    size = _sizes(defined)
    if workers <= 1 or sum(size.values()) < PARALLEL_LOOP_OPS:
        return Parts([set(defined)], set())
    refs: dict[str, set[str]] = {name: set() for name in defined}
    joined: set[tuple[str, str]] = set()
    for name, fn in defined.items():
        for op in fn.walk():
            if not isinstance(op, func.CallOp) or op.callee.string_value() not in defined:
                continue
            callee = op.callee.string_value()
            refs[name].add(callee)
            if _inlinable(defined[callee], size[callee], SMALL_LOOP_FUNCTION):
                joined.add((name, callee))
    public = {name for name, fn in defined.items()
              if fn.sym_visibility is None or fn.sym_visibility.data == "public"}
    return _pack(size, refs, joined, workers, first=public)


def _sizes(defined: dict[str, func.FuncOp] | dict[str, llvm.FuncOp]) -> dict[str, int]:
    return {name: sum(1 for _ in fn.walk()) for name, fn in defined.items()}


def _inlinable(fn: Operation, size: int, small: int) -> bool:
    return size <= small and NOINLINE_ATTR not in fn.attributes


def _pack(size: dict[str, int], refs: dict[str, set[str]], joined: set[tuple[str, str]],
          workers: int, first: Collection[str] = ()) -> Parts:
    """The functions in groups that `joined` (caller, callee) pairs keep together, packed
    into at most `workers` parts of about equal size, largest first; the groups of `first`
    in the first part."""
    parent = {name: name for name in size}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for caller, callee in joined:
        parent[root(callee)] = root(caller)
    groups: dict[str, set[str]] = {}
    for name in size:
        groups.setdefault(root(name), set()).add(name)
    parts: list[tuple[int, set[str]]] = [(0, set()) for _ in range(min(workers, len(groups)))]
    leading = {root(name) for name in first}

    def place(group: set[str], i: int) -> None:
        parts[i] = (parts[i][0] + sum(size[n] for n in group), parts[i][1] | group)

    for key in leading:
        place(groups[key], 0)
    rest: Iterable[set[str]] = (g for k, g in groups.items() if k not in leading)
    for group in sorted(rest, key=lambda g: -sum(size[n] for n in g)):
        place(group, min(range(len(parts)), key=lambda k: parts[k][0]))
    groups_out = [names for _, names in parts if names]
    home = {name: i for i, group in enumerate(groups_out) for name in group}
    exported = {callee for caller, callees in refs.items() for callee in callees
                if home[callee] != home[caller]}
    return Parts(groups_out, exported)

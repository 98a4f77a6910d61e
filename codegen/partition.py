"""Which functions of an llvm-dialect module compile together: the parts codegen/compile.py
hands to LLVM at once, one thread each.

A function stays with the small functions it calls or takes the address of, so that LLVM
can still inline them (a part cannot inline another's functions). Calls to large or
`noinline` functions are where the module is cut: LLVM would not inline those anyway,
except an internal function called once, such as a kernel called by the entry, which it
would inline whatever its size; kept out of line it costs one call per run. The groups
this leaves are packed into parts of about equal size, largest first.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp

from infer.abi import NOINLINE_ATTR
from infer.runtime.threads import usable_cpus

# A callee of at most this many ops stays in its caller's part (LLVM's inliner takes
# functions up to a few hundred instructions).
SMALL_FUNCTION = 200
# A module of fewer ops in all is compiled in one part: the threads would not pay.
PARALLEL_OPS = 4000
MAX_WORKERS = 8


def compile_workers() -> int:
    """How many parts a large module is compiled in at once: the CPUs this process may run
    on (at most MAX_WORKERS)."""
    cpus = usable_cpus()
    return max(1, min(MAX_WORKERS, len(cpus) if cpus is not None else os.cpu_count() or 1))


def _defined(module: ModuleOp) -> dict[str, llvm.FuncOp]:
    return {op.sym_name.data: op for op in module.ops
            if isinstance(op, llvm.FuncOp) and op.body.blocks}


def references(module: ModuleOp) -> dict[str, set[str]]:
    """For each function the module defines, the defined functions it calls or takes the
    address of."""
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


class Parts(NamedTuple):
    groups: list[set[str]]  # function names, a part each
    exported: set[str]  # functions another part refers to


def partition(module: ModuleOp, workers: int) -> Parts:
    """The module's defined functions in at most `workers` parts (one part when the module
    is small or `workers` is 1)."""
    defined = _defined(module)
    size = {name: sum(1 for _ in fn.walk()) for name, fn in defined.items()}
    if workers <= 1 or sum(size.values()) < PARALLEL_OPS:
        return Parts([set(defined)], set())
    refs = references(module)
    parent = {name: name for name in defined}

    def root(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for caller, callees in refs.items():
        for callee in callees:
            if size[callee] <= SMALL_FUNCTION and NOINLINE_ATTR not in defined[callee].attributes:
                parent[root(callee)] = root(caller)
    groups: dict[str, set[str]] = {}
    for name in defined:
        groups.setdefault(root(name), set()).add(name)
    parts: list[tuple[int, set[str]]] = [(0, set()) for _ in range(min(workers, len(groups)))]
    for group in sorted(groups.values(), key=lambda g: -sum(size[n] for n in g)):
        i = min(range(len(parts)), key=lambda k: parts[k][0])
        parts[i] = (parts[i][0] + sum(size[n] for n in group), parts[i][1] | group)
    groups_out = [names for _, names in parts if names]
    home = {name: i for i, group in enumerate(groups_out) for name in group}
    exported = {callee for caller, callees in refs.items() for callee in callees
                if home[callee] != home[caller]}
    return Parts(groups_out, exported)

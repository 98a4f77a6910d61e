"""How many threads a compiled model's parallel loops use.

The default is onnxruntime's and what users of a serious runtime expect: one thread per
physical core this process may run on (hyper-threads share a core's vector units, which
the kernels keep busy, so a second thread per core adds contention, not speed). The
count is set on the mapped code before it runs, not compiled in: one compiled model or
artifact runs at any count.
"""

from __future__ import annotations

import os


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


def resolve_threads(threads: int | None) -> int:
    """`threads`, or the default (`physical_cores()`) when None or 0, as onnxruntime's
    `intra_op_num_threads = 0`; ValueError when negative or not an int."""
    if threads is None or threads == 0:
        return physical_cores()
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise ValueError(f"threads must be a positive int, or 0 / None for one per "
                         f"physical core, got {threads!r}")
    return threads

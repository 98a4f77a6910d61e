"""How many threads a compiled model's parallel loops use.

The default is onnxruntime's and what users of a serious runtime expect: one thread per
physical core this process may run on (hyper-threads share a core's vector units, which
the kernels keep busy, so a second thread per core adds contention, not speed). The
count is set on the mapped code before it runs, not compiled in: one compiled model or
artifact runs at any count.
"""

from __future__ import annotations

from infer.codegen.host_features import physical_cores


def resolve_threads(threads: int | None) -> int:
    """`threads`, or the default (`physical_cores()`) when None or 0, as onnxruntime's
    `intra_op_num_threads = 0`; ValueError when negative or not an int."""
    if threads is None or threads == 0:
        return physical_cores()
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise ValueError(f"threads must be a positive int, or 0 / None for one per "
                         f"physical core, got {threads!r}")
    return threads

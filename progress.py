"""What a compile tells the user while it runs: the stage it is in and, when asked, how long
each stage took, on stderr.

    verbose=None   a status line per stage on a terminal (overwritten in place), else silent
    verbose=True   one line per finished stage with its time, and the total
    verbose=False  silent

The times are kept either way (`CompileProgress.times`), for profiles.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

# The stages of a compile, in order, as reported.
IMPORT = "import"
GRAPH_OPTIMIZE = "graph optimize"
LOWER_TO_LOOPS = "lower to loops"
LOWER_TO_LLVM = "lower to llvm"
LLVM_JIT = "llvm optimize + jit"
STAGES = (IMPORT, GRAPH_OPTIMIZE, LOWER_TO_LOOPS, LOWER_TO_LLVM, LLVM_JIT)
CACHE = "compile cache"  # looking the model up, or storing it: not a step of a compile


class CompileProgress:
    """Times the stages of one compile and reports them on `stream` (stderr)."""

    def __init__(self, verbose: bool | None = None, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.verbose = verbose
        # A status line only for a person watching a terminal.
        self.status = verbose is None and self.stream.isatty()
        self.times: list[tuple[str, float, float]] = []  # (stage, start, seconds)
        self._width = max(map(len, STAGES))

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Times the block as stage `name` (the blocks of one stage add up)."""
        if self.status:
            step = STAGES.index(name) + 1 if name in STAGES else len(STAGES)
            self.stream.write(f"\r\033[Kinfer: compiling [{step}/{len(STAGES)}] {name} ...")
            self.stream.flush()
        start = time.perf_counter()
        try:
            yield
        except BaseException:
            if self.status:  # leave the line, so an error (or ^C) starts on a fresh one
                self.stream.write("\n")
            raise
        seconds = time.perf_counter() - start
        for i, (seen, first, before) in enumerate(self.times):
            if seen == name:
                self.times[i] = (name, first, before + seconds)
                break
        else:
            self.times.append((name, start, seconds))

    def done(self) -> None:
        """Clears the status line, or prints each stage's time and the total."""
        if self.status:
            self.stream.write("\r\033[K")
        elif self.verbose:
            for name, _, seconds in self.times:
                self.stream.write(f"infer: {name:<{self._width}}  {seconds:8.3f} s\n")
            total = sum(s for _, _, s in self.times)
            self.stream.write(f"infer: {'total':<{self._width}}  {total:8.3f} s\n")
        self.stream.flush()

"""What the command-line drivers share: one-line usage errors, and the exit contract (a
one-line message and status 1 on any error, 130 when interrupted, 141 silently when the
reader of the output went away, never a traceback)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import NoReturn


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """A usage error is one line too (argparse prints the usage first), exit 1."""
        self.exit(1, f"{self.prog}: error: {message} (see --help)\n")


def run_main(prog: str, run: Callable[[], int]) -> NoReturn:
    """Exits with `run()`'s status, or 1 with a one-line message on any error."""
    try:
        sys.exit(run())
    except BrokenPipeError:  # `infer-run ... | head`: the reader left, nothing to report
        # stdout to /dev/null, so that the interpreter's final flush does not fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)  # 128 + SIGPIPE, as a shell reports a process the signal ended
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as e:  # noqa: BLE001 - the CLI's contract: one line, exit 1
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        print(f"{prog}: error: {msg}", file=sys.stderr)
        sys.exit(1)

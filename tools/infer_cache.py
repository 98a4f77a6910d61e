"""`python -m infer cache`: the compile cache (`$INFER_CACHE_DIR`), listed or cleared.

    python -m infer cache [list]   where it is, its entries and bytes, and its size limit
    python -m infer cache clear    removes every entry

Exit status: 0 done, 1 an error (one line, usage errors included).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from infer.tools.cli import ArgumentParser, run_main


def run(args: argparse.Namespace) -> int:
    from infer.runtime.cache import cache_info, clear_cache

    if args.action == "clear":
        removed = clear_cache()
        print(f"removed {removed} entries from {cache_info().directory or 'no cache (off)'}")
    else:
        print(cache_info())
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    p = ArgumentParser(prog="python -m infer cache", description=__doc__.split("\n\n")[0],
                       epilog="exit status: 0 done, 1 an error")
    p.add_argument("action", nargs="?", choices=["list", "clear"], default="list",
                   help="list (default): where the cache is and what it holds; clear: "
                   "remove every entry")
    args = p.parse_args(argv)
    run_main("infer cache", lambda: run(args))

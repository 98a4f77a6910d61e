"""Fail on FileCheck directives missing their colon (`// CHECK-NEXT  foo` is never checked)."""

import re
import sys
from pathlib import Path

BAD = re.compile(r"//\s*(CHECK|[A-Z]+-CHECK)(-NEXT|-NOT|-SAME|-DAG|-LABEL|-EMPTY)?\b(?!:)\s")


def main(root: str) -> int:
    bad = []
    for path in sorted(Path(root).rglob("*.mlir")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if BAD.search(line):
                bad.append(f"{path}:{n}: FileCheck directive without a colon: {line.strip()}")
    print("\n".join(bad) or f"FileCheck directives in {root}: ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "filecheck_tests"))

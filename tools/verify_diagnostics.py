"""mlir-opt's `--verify-diagnostics`: the errors `infer-opt` produced for an input against
the `expected-*` comments in it. Every expected diagnostic must be produced, at its line,
and every produced one expected; each one that is not is a line
`file:line:col: error: ...` and exit status 1.

    // expected-error {{message}}          on this line
    // expected-error @+1 {{message}}      N lines below (@-N: above)
    // expected-error @above {{message}}   on the nearest line above (@below: below) that
                                           holds no expected-* comment
    // expected-error @unknown {{message}} an error with no place in the input (a pass's
                                           refusal)
    // expected-error-re @+1 {{shape {{\\[[0-9, ]*\\]}} is wrong}}

The message is what lies between the first `{{` and the last `}}` of the line; it matches
a diagnostic whose message contains it. In the `-re` form the parts between inner `{{` and
`}}` are regular expressions. As in mlir-opt, with --split-input-file each chunk is matched
alone, and `expected-note`, `-warning` and `-remark` are read too (infer-opt produces
errors only, so such a comment is never matched).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_DESIGNATOR = re.compile(
    r"expected-(?P<kind>error|warning|note|remark)(?P<re>-re)? *"
    r"(?:@(?P<at>[+-][0-9]+|above|below|unknown))? *\{\{")


@dataclass
class Expected:
    """One `expected-*` comment: where it is written, the line it is for (None:
    @unknown), its kind and the pattern its message makes."""

    chunk: int
    written: int
    col: int
    line: int | None
    kind: str
    text: str
    pattern: re.Pattern[str]
    seen: bool = False


@dataclass
class Produced:
    """A diagnostic infer-opt printed: its chunk, line and column (None: no place) and
    message."""

    chunk: int
    line: int | None
    col: int | None
    message: str


def _pattern(text: str, regex: bool) -> re.Pattern[str]:
    if not regex:
        return re.compile(re.escape(text))
    parts = re.split(r"\{\{(.*?)\}\}", text)  # odd parts are the regular expressions
    return re.compile("".join(p if i % 2 else re.escape(p) for i, p in enumerate(parts)))


def expectations(text: str, file: str, chunk: int, first_line: int) -> list[Expected]:
    """The expected-* comments of one chunk of `file` whose first line is `first_line`
    (1-based, in the whole file). ValueError naming the line for a malformed one."""
    lines = text.split("\n")
    if len(lines) > 1 and not lines[-1]:  # the end of the last line, not a line
        lines.pop()
    found: list[Expected] = []
    below: list[Expected] = []  # waiting for the next line without a comment
    last_plain: int | None = None  # the last line without a comment
    for index, source in enumerate(lines):
        line = first_line + index
        m = _DESIGNATOR.search(source)
        if m is None:
            for e in below:
                e.line = line
            below.clear()
            last_plain = line
            continue
        end = source.rfind("}}")
        if end < m.end():
            raise ValueError(f"{file}:{line}: expected-{m['kind']} without a closing '}}}}'")
        body = source[m.end():end]
        try:
            pattern = _pattern(body, bool(m["re"]))
        except re.error as error:
            raise ValueError(f"{file}:{line}: expected-{m['kind']}-re: {error}") from None
        e = Expected(chunk, line, m.start() + 1, line, m["kind"], body, pattern)
        at = m["at"]
        if at == "unknown":
            e.line = None
        elif at == "above":
            if last_plain is None:
                raise ValueError(f"{file}:{line}: expected-{e.kind} @above has no line above it")
            e.line = last_plain
        elif at == "below":
            below.append(e)
        elif at is not None:
            e.line = line + int(at)
        found.append(e)
    if below:
        raise ValueError(f"{file}:{below[0].written}: expected-{below[0].kind} @below has no "
                         "line below it")
    return found


@dataclass
class DiagnosticCheck:
    """The expected diagnostics of an input and those produced, chunk by chunk."""

    file: str
    expected: list[Expected] = field(default_factory=list)
    produced: list[Produced] = field(default_factory=list)

    def mismatches(self) -> list[str]:
        """One line per produced diagnostic nobody expected and per expected one not
        produced (in the order of the input); empty when they agree."""
        out = []
        for p in self.produced:
            match = next((e for e in self.expected
                          if not e.seen and e.kind == "error" and e.chunk == p.chunk
                          and e.line == p.line and e.pattern.search(p.message)), None)
            if match is not None:
                match.seen = True
                continue
            where = f"{self.file}:{p.line}:{p.col}: " if p.line is not None else ""
            out.append(f"{where}error: unexpected error: {p.message}")
        for e in self.expected:
            if not e.seen:
                out.append(f"{self.file}:{e.written}:{e.col}: error: expected {e.kind} "
                           f"\"{e.text}\" was not produced")
        return out

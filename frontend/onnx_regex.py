"""RegexFullMatch's pattern compiled when importing: RE2 syntax to a DFA over UTF-8 bytes.

The pattern is parsed into a small syntax tree, built into a Thompson NFA whose edges
read one byte (a set of byte values) or are empty (some only where an assertion holds:
^, $, \\b, \\B), and made a DFA by the subset construction, each state also knowing
whether it is at the start and whether the last byte was a word byte (which the
assertions read). The compiled model runs the DFA on every element at once (a Loop over
byte positions, onnx_strings); `dfa` gives its transition table (state * 256 + byte ->
state) and which states accept at the end.

What RE2 has and this takes: literals (any Unicode character, as its UTF-8 bytes), `.`,
classes with ASCII ranges, negated classes of ASCII characters, \\w \\W \\d \\D \\s \\S
(ASCII, as RE2), escapes of punctuation and \\t \\n \\r \\f \\v \\xHH, groups ((), (?:),
(?P<name>)), alternation, the quantifiers * + ? {m} {m,} {m,n} (greedy or lazy: a full
match is the same), ^ $ \\A \\z \\b \\B. Anything else (flags, Unicode classes,
non-ASCII ranges) is refused when compiling, naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

MAX_STATES = 4096  # a pattern whose DFA grows past this is refused
MAX_REPEAT = 1000
WORD = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
DIGIT = frozenset(b"0123456789")
SPACE = frozenset(b"\t\n\f\r ")  # RE2's \s
ASCII = frozenset(range(128))


class RegexError(ValueError):
    """A pattern this compiler does not take (or that is not a valid RE2 pattern)."""


@dataclass(frozen=True)
class Chars:
    """One character: an ASCII byte of `ascii`, a sequence of `sequences`, or (with
    `any_wide`) any character of two to four UTF-8 bytes."""

    ascii: frozenset[int]
    sequences: tuple[bytes, ...] = ()
    any_wide: bool = False


Node = tuple  # ("seq", [..]) ("alt", [..]) ("rep", node, m, n|None) ("chars", Chars)
#               ("assert", "bol" | "eol" | "b" | "B")


class _Parser:
    def __init__(self, pattern: str):
        self.p, self.i = pattern, 0

    def fail(self, what: str) -> RegexError:
        return RegexError(f"{what} at offset {self.i} of the pattern {self.p!r}")

    def peek(self) -> str | None:
        return self.p[self.i] if self.i < len(self.p) else None

    def take(self) -> str:
        c = self.p[self.i]
        self.i += 1
        return c

    def parse(self) -> Node:
        node = self.alternation()
        if self.i != len(self.p):
            raise self.fail("unbalanced ')'")
        return node

    def alternation(self) -> Node:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.take()
            branches.append(self.sequence())
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def sequence(self) -> Node:
        items = []
        while self.peek() not in (None, "|", ")"):
            items.append(self.repeat(self.atom()))
        return ("seq", items)

    def repeat(self, node: Node) -> Node:
        while True:
            c = self.peek()
            if c in ("*", "+", "?"):
                self.take()
                node = ("rep", node, 1 if c == "+" else 0, 1 if c == "?" else None)
            elif c == "{" and self._counted():
                m, n = self._counts()
                node = ("rep", node, m, n)
            else:
                return node
            if node[1][0] == "assert":
                raise self.fail("a repeated assertion")
            if self.peek() == "?":  # lazy: the same full matches
                self.take()

    def _counted(self) -> bool:
        j = self.p.find("}", self.i)
        body = self.p[self.i + 1:j] if j > 0 else ""
        return bool(body) and all(ch.isdigit() or ch == "," for ch in body) and \
            body[0].isdigit() and body.count(",") <= 1

    def _counts(self) -> tuple[int, int | None]:
        j = self.p.index("}", self.i)
        body = self.p[self.i + 1:j]
        self.i = j + 1
        low, _, high = body.partition(",")
        m = int(low)
        n = m if "," not in body else (int(high) if high else None)
        if n is not None and n < m or max(m, n or 0) > MAX_REPEAT:
            raise self.fail(f"the repetition {{{body}}}")
        return m, n

    def atom(self) -> Node:
        c = self.take()
        if c == "(":
            if self.p.startswith("?:", self.i):
                self.i += 2
            elif self.p.startswith("?P<", self.i):
                self.i = self.p.index(">", self.i) + 1
            elif self.peek() == "?":
                raise self.fail("a group flag or lookaround")
            node = self.alternation()
            if self.peek() != ")":
                raise self.fail("a missing ')'")
            self.take()
            return node
        if c == "[":
            return ("chars", self._class())
        if c == ".":
            return ("chars", Chars(ASCII - {ord("\n")}, (), True))
        if c == "^":
            return ("assert", "bol")
        if c == "$":
            return ("assert", "eol")
        if c == "\\":
            return self._escape(in_class=False)
        if c in "*+?{" and not (c == "{" and not self._counted()):
            raise self.fail(f"nothing to repeat with '{c}'")
        return ("chars", _literal(c))

    def _escape(self, in_class: bool) -> Node:
        if self.peek() is None:
            raise self.fail("a trailing backslash")
        c = self.take()
        classes = {"w": WORD, "d": DIGIT, "s": SPACE}
        if c.lower() in classes:
            members = classes[c.lower()]
            return ("chars", Chars(members) if c.islower() else Chars(ASCII - members, (), True))
        if not in_class and c in "bBAz":
            return ("assert", {"b": "b", "B": "B", "A": "bol", "z": "eol"}[c])
        controls = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\v"}
        if c in controls:
            return ("chars", _literal(controls[c]))
        if c == "x":
            digits = self.p[self.i:self.i + 2]
            if len(digits) != 2 or any(ch not in "0123456789abcdefABCDEF" for ch in digits):
                raise self.fail("a \\x escape without two hex digits")
            self.i += 2
            return ("chars", _literal(chr(int(digits, 16))))
        if c.isalnum():
            raise self.fail(f"the escape '\\{c}'")
        return ("chars", _literal(c))

    def _class(self) -> Chars:
        negated = self.peek() == "^"
        if negated:
            self.take()
        ascii_set: set[int] = set()
        wide: list[bytes] = []
        any_wide = False
        first = True
        while True:
            c = self.peek()
            if c is None:
                raise self.fail("a missing ']'")
            if c == "]" and not first:
                self.take()
                break
            first = False
            self.take()
            if c == "\\":
                node = self._escape(in_class=True)
                item = node[1]
            else:
                item = _literal(c)
            if self.peek() == "-" and self.p[self.i + 1:self.i + 2] not in ("]", ""):
                self.take()
                high = self.take()
                if high == "\\":
                    high_item = self._escape(in_class=True)[1]
                    high = chr(next(iter(high_item.ascii))) if len(high_item.ascii) == 1 \
                        and not high_item.sequences and not high_item.any_wide else ""
                low = chr(next(iter(item.ascii))) if len(item.ascii) == 1 \
                    and not item.sequences and not item.any_wide else ""
                if not low or not high or ord(high) > 127 or ord(low) > ord(high):
                    raise self.fail("a range that is not of ASCII characters")
                ascii_set |= set(range(ord(low), ord(high) + 1))
                continue
            ascii_set |= item.ascii
            wide += item.sequences
            any_wide |= item.any_wide
        if negated:
            if wide or any_wide:
                raise self.fail("a negated class with non-ASCII members")
            return Chars(ASCII - ascii_set, (), True)
        return Chars(frozenset(ascii_set), tuple(wide), any_wide)


def _literal(c: str) -> Chars:
    encoded = c.encode()
    return Chars(frozenset(encoded)) if len(encoded) == 1 else Chars(frozenset(), (encoded,))


@dataclass
class _Nfa:
    """States 0..n-1; bytes[s] = [(byte set, target)], empty[s] = [(assertion|None, t)]."""

    bytes: list[list[tuple[frozenset[int], int]]] = field(default_factory=list)
    empty: list[list[tuple[str | None, int]]] = field(default_factory=list)

    def state(self) -> int:
        self.bytes.append([])
        self.empty.append([])
        return len(self.bytes) - 1

    def build(self, node: Node, start: int) -> int:
        """Edges for `node` from `start`; its end state."""
        kind = node[0]
        if kind == "seq":
            for item in node[1]:
                start = self.build(item, start)
            return start
        if kind == "alt":
            end = self.state()
            for branch in node[1]:
                s = self.state()
                self.empty[start].append((None, s))
                self.empty[self.build(branch, s)].append((None, end))
            return end
        if kind == "assert":
            end = self.state()
            self.empty[start].append((node[1], end))
            return end
        if kind == "rep":
            _, inner, m, n = node
            for _ in range(m):
                start = self.build(inner, start)
            end = self.state()
            self.empty[start].append((None, end))
            if n is None:  # a loop: inner again and again
                loop = self.build(inner, start)
                self.empty[loop].append((None, start))
                return end
            for _ in range(n - m):
                start = self.build(inner, start)
                self.empty[start].append((None, end))
            return end
        return self._chars(node[1], start)

    def _chars(self, chars: Chars, start: int) -> int:
        end = self.state()
        if chars.ascii:
            self.bytes[start].append((chars.ascii, end))
        for seq in chars.sequences:
            at = start
            for k, byte in enumerate(seq):
                nxt = end if k == len(seq) - 1 else self.state()
                self.bytes[at].append((frozenset({byte}), nxt))
                at = nxt
        if chars.any_wide:  # a lead byte of 2, 3 or 4, then continuation bytes
            tail = frozenset(range(0x80, 0xC0))
            for lead, count in ((range(0xC2, 0xE0), 1), (range(0xE0, 0xF0), 2),
                                (range(0xF0, 0xF5), 3)):
                at = self.state()
                self.bytes[start].append((frozenset(lead), at))
                for k in range(count):
                    nxt = end if k == count - 1 else self.state()
                    self.bytes[at].append((tail, nxt))
                    at = nxt
        return end


def _holds(assertion: str, at_start: bool, prev_word: bool, next_byte: int | None) -> bool:
    next_word = next_byte is not None and next_byte in WORD
    return {"bol": at_start, "eol": next_byte is None, "b": prev_word != next_word,
            "B": prev_word == next_word}[assertion]


def dfa(pattern: str) -> tuple[np.ndarray, np.ndarray]:
    """(transitions: int32 [states * 256], accepting at the end: bool [states]) of the DFA
    that reads a whole element from state 0; RegexError when not supported."""
    nfa = _Nfa()
    start = nfa.state()
    accept = nfa.build(_Parser(pattern).parse(), start)

    def closure(states: frozenset[int], at_start: bool, prev_word: bool,
                next_byte: int | None) -> set[int]:
        seen, todo = set(states), list(states)
        while todo:
            for assertion, t in nfa.empty[todo.pop()]:
                if t not in seen and (assertion is None or
                                      _holds(assertion, at_start, prev_word, next_byte)):
                    seen.add(t)
                    todo.append(t)
        return seen

    Key = tuple[frozenset[int], bool, bool]
    keys: dict[Key, int] = {}
    order: list[Key] = []

    def index(key: Key) -> int:
        if key not in keys:
            if len(keys) >= MAX_STATES:
                raise RegexError(f"the pattern {pattern!r} needs more than {MAX_STATES} "
                                 "DFA states")
            keys[key] = len(order)
            order.append(key)
        return keys[key]

    # Bytes that every edge and the word test treat alike step alike: one of each.
    sets = {chars for edges in nfa.bytes for chars, _ in edges} | {WORD}
    kinds: dict[tuple[bool, ...], list[int]] = {}
    for byte in range(256):
        kinds.setdefault(tuple(byte in c for c in sets), []).append(byte)
    index((frozenset({start}), True, False))
    table: list[np.ndarray] = []
    ends: list[bool] = []
    k = 0
    while k < len(order):
        states, at_start, prev_word = order[k]
        ends.append(accept in closure(states, at_start, prev_word, None))
        row = np.zeros(256, np.int32)
        for members in kinds.values():
            byte = members[0]
            here = closure(states, at_start, prev_word, byte)
            after = frozenset(t for s in here for chars, t in nfa.bytes[s] if byte in chars)
            row[members] = index((after, False, byte in WORD))
        table.append(row)
        k += 1
    return np.concatenate(table), np.array(ends, bool)

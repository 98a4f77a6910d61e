"""Dimension arithmetic shared by type inference and lowering.

Every op's shape function is written once, over "dims" that are either Python ints
(static) or objects implementing the `DimLike` protocol below. Type inference passes
`DYN` for dynamic dims (any arithmetic on it stays dynamic); the lowering passes values
that emit `arith` ops on `index` values, so the same function computes output sizes at
run time (onnx-mlir's "one shape helper, used twice").

The relations an op's kernel relies on between its operands' dims (a matmul's inner dims
equal, broadcast dims equal or 1) are stated in the shape function too, with `require`:
a static pair that breaks one is the shape function's ValueError; a run-time dim that can
check (`DimLike.require`, the lowering's) makes the compiled code check it before the op
runs, so that no kernel reads past a buffer whatever the inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeAlias


class DimLike(Protocol):
    def __add__(self, other: Dim) -> Dim: ...
    def __radd__(self, other: Dim) -> Dim: ...
    def __sub__(self, other: Dim) -> Dim: ...
    def __rsub__(self, other: Dim) -> Dim: ...
    def __mul__(self, other: Dim) -> Dim: ...
    def __rmul__(self, other: Dim) -> Dim: ...
    def __floordiv__(self, other: Dim) -> Dim: ...
    def __rfloordiv__(self, other: Dim) -> Dim: ...
    def max(self, other: Dim) -> Dim: ...  # max(self, other)
    def broadcast_with(self, other: Dim) -> Dim: ...  # other if self is 1, else self
    # Optional: `require(relation, a, b, what)` checks a relation of a and b (one of them
    # this dim) at run time (see `require`).


Dim: TypeAlias = "int | DimLike"
Shape: TypeAlias = "Sequence[Dim]"


class _Dynamic:
    """A dim whose value is unknown at compile time; absorbing under arithmetic."""

    _instance: _Dynamic | None = None

    def __new__(cls) -> _Dynamic:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def _absorb(self, other: object) -> _Dynamic:
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = _absorb
    __mul__ = __rmul__ = __floordiv__ = __rfloordiv__ = max = broadcast_with = _absorb

    def __repr__(self) -> str:
        return "?"


DYN = _Dynamic()

# Relations between two dims a and b that `require` states, and how an error says each
# is broken.
EQUAL = "equal"  # a == b
BROADCAST = "broadcast"  # a == b, or one of them is 1 (numpy's rule)
BROADCAST_TO = "broadcast_to"  # a == b or a == 1: a broadcasts to b without growing it
AT_LEAST = "at_least"  # a >= b
DIFFERENT = "different"  # a != b
BROKEN = {
    EQUAL: "{what} differ: {a} and {b}",
    BROADCAST: "{what} do not broadcast: {a} and {b}",
    BROADCAST_TO: "{what} {a} does not broadcast to {b}",
    AT_LEAST: "{what} {a} is less than {b}",
    DIFFERENT: "{what} is {a}, which it must not be",
}


def holds(relation: str, a: int, b: int) -> bool:
    if relation == AT_LEAST:
        return a >= b
    if relation == DIFFERENT:
        return a != b
    return a == b or (relation == BROADCAST and b == 1) or (relation != EQUAL and a == 1)


def require(relation: str, a: Dim, b: Dim, what: str) -> None:
    """State that dims a and b satisfy `relation` (see EQUAL ...); `what` names them for
    the error ("inner dims"). Static dims are checked here (ValueError); where either is a
    run-time value that can check, the check is made at run time; unknown dims of type
    inference (DYN) are taken on trust."""
    if isinstance(a, int) and isinstance(b, int):
        if not holds(relation, a, b):
            raise ValueError(BROKEN[relation].format(what=what, a=a, b=b))
        return
    if a is b:
        return
    for x in (a, b):
        check = getattr(x, "require", None)
        if check is not None:
            check(relation, a, b, what)
            return


def broadcast_dim(a: Dim, b: Dim) -> Dim:
    """The broadcast of dims a and b (numpy rule: equal, or one of them is 1).

    A static dim other than 1 wins over an unknown one (which must then equal it or be
    1). Two unknown dims may each be 1 at run time, so the result is b where a is 1, else
    a (`DimLike.broadcast_with`: DYN in type inference, a select in the lowering; not their
    max, which would take 1 over 0), unless they are the same value.
    """
    if isinstance(a, int) and isinstance(b, int):
        return b if a == 1 else a
    if not (a is b or a == b or 1 in (a, b)):
        require(BROADCAST, a, b, "dims")
    if isinstance(a, int):
        return a if a != 1 else b
    if isinstance(b, int):
        return b if b != 1 else a
    if a is b or a == b:
        return a
    with_b = getattr(a, "broadcast_with", None)
    return with_b(b) if with_b is not None else DYN  # a DimLike without it


def ceil_div(a: Dim, b: int) -> Dim:
    return (a + (b - 1)) // b


def product(dims: Sequence[Dim]) -> Dim:
    out: Dim = 1
    for d in dims:
        out = out * d
    return out


def broadcast(shapes: Sequence[Shape]) -> list[Dim]:
    """Numpy-style multidirectional broadcasting; raises ValueError on a mismatch."""
    rank = max((len(s) for s in shapes), default=0)
    out: list[Dim] = [1] * rank
    for s in shapes:
        for i, d in enumerate(s):
            j = rank - len(s) + i
            cur = out[j]
            if isinstance(d, int) and isinstance(cur, int) and d != cur and 1 not in (d, cur):
                shapes_txt = " and ".join(format_shape(x) for x in shapes)
                raise ValueError(f"shapes {shapes_txt} do not broadcast")
            # a 1 takes the other dim, 0 included (numpy: 1 and 0 broadcast to 0)
            out[j] = d if cur == 1 else cur if d == 1 else broadcast_dim(cur, d)
    return out


def format_shape(shape: Shape) -> str:
    return "[" + ", ".join(str(d) if isinstance(d, int) else "?" for d in shape) + "]"

"""StringSplit on string tensors (onnx_strings): Python's str.split of each element.

A Loop over the elements finds each one's pieces as offsets into the shared bytes:
- with a delimiter, its occurrences left to right, not overlapping (for a delimiter of
  several bytes, a Loop over the candidate positions keeps those past the last kept one),
  the first `maxsplit`; the pieces lie between them, "" included;
- without one, the runs of bytes that are not Unicode whitespace (ASCII's and the UTF-8
  sequences of U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F,
  U+3000); after `maxsplit` pieces the rest of the element, less its leading whitespace.
The pieces of all elements go one after another; the output Y pads each element's to the
longest count with "" (Z: the counts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import onnx
from onnx import helper

from infer.frontend.onnx_packed_sequences import Emit, loop_body, loop_over
from infer.frontend.onnx_values import StringTensor

if TYPE_CHECKING:
    from xdsl.ir import SSAValue

# Unicode whitespace beyond ASCII's as UTF-8: (lead bytes..., (low, high) of the last)
_WIDE_SPACES = [((0xC2,), (0x85, 0x85)), ((0xC2,), (0xA0, 0xA0)),
                ((0xE1, 0x9A), (0x80, 0x80)), ((0xE2, 0x80), (0x80, 0x8A)),
                ((0xE2, 0x80), (0xA8, 0xA9)), ((0xE2, 0x80), (0xAF, 0xAF)),
                ((0xE2, 0x81), (0x9F, 0x9F)), ((0xE3, 0x80), (0x80, 0x80))]


class _Body(list[onnx.NodeProto]):
    """Nodes of a Loop body, each output a fresh name."""

    def __init__(self, e: Emit):
        super().__init__()
        self.e = e

    def __call__(self, op: str, *inputs: str, **attrs: object) -> str:
        out = self.e.fresh()
        self.append(helper.make_node(op, list(inputs), [out], **attrs))
        return out


def _between(n: _Body, e: Emit, b: str, low: int, high: int) -> str:
    return n("And", n("GreaterOrEqual", b, e.byte(low)), n("LessOrEqual", b, e.byte(high)))


def _whitespace(n: _Body, e: Emit, b: str, length: str) -> str:
    """Which bytes of b (of `length`) belong to a whitespace character."""
    ws = n("Or", _between(n, e, b, 9, 13), _between(n, e, b, 28, 32))
    padded = n("Concat", e.const(np.zeros(2, np.uint8)), b,
               e.const(np.zeros(2, np.uint8)), axis=0)  # q = p + 2

    def shifted(k: int) -> str:
        """padded[k : length + 2 + k]: the byte k - 2 after each q's."""
        return n("Slice", padded, e.ints(k), n("Add", length, e.ints(2 + k)))
    for lead, (low, high) in _WIDE_SPACES:
        size = len(lead) + 1
        starts = _between(n, e, shifted(len(lead)), low, high)
        for k, byte in enumerate(lead):
            starts = n("And", starts, n("Equal", shifted(k), e.byte(byte)))
        # starts[q]: a sequence at p = q - 2, covering p .. p + size - 1; so byte p is
        # covered by the one starting j before it, starts[p + 2 - j]
        for j in range(size):
            ws = n("Or", ws, n("Slice", starts, e.ints(2 - j), n("Add", length,
                                                                 e.ints(2 - j))))
    return ws


def split(e: Emit, x: StringTensor, delimiter: bytes, maxsplit: int | None
          ) -> tuple[StringTensor, SSAValue]:
    flat = e.ints(-1)
    data = e.bind(x.data)
    starts, ends = e("Reshape", e.bind(x.starts), flat), e("Reshape", e.bind(x.ends), flat)
    n = _Body(e)
    i, acc_s, acc_e = e.fresh(), e.fresh(), e.fresh()
    zero = e.ints(0)
    s = n("Gather", starts, i)
    b = n("Slice", data, n("Unsqueeze", s, zero), n("Unsqueeze", n("Gather", ends, i), zero))
    length = n("Unsqueeze", n("Size", b), zero)
    if delimiter:
        k = len(delimiter)
        grown = n("Concat", b, e.const(np.zeros(k - 1, np.uint8)), axis=0)
        match = None
        for j, byte in enumerate(delimiter):
            at_j = n("Equal", n("Slice", grown, e.ints(j), n("Add", length, e.ints(j))),
                     e.byte(byte))
            match = at_j if match is None else n("And", match, at_j)
        pos = n("Reshape", n("NonZero", match), flat)
        if k > 1:
            pos = _not_overlapping(e, n, pos, k)
        if maxsplit is not None:
            pos = n("Slice", pos, zero, e.ints(maxsplit))
        rel_s = n("Concat", zero, n("Add", pos, e.ints(k)), axis=0)
        rel_e = n("Concat", pos, length, axis=0)
    else:
        ws = _whitespace(n, e, b, length)
        true = e.const(np.ones(1, bool))
        word = n("Not", ws)
        before = n("Slice", n("Concat", true, ws, axis=0), zero, length)
        after = n("Slice", n("Concat", ws, true, axis=0), e.ints(1), n("Add", length, e.ints(1)))
        rel_s = n("Reshape", n("NonZero", n("And", word, before)), flat)
        rel_e = n("Add", n("Reshape", n("NonZero", n("And", word, after)), flat), e.ints(1))
        if maxsplit is not None:  # the rest after maxsplit pieces: to the element's end
            words = n("Unsqueeze", n("Size", rel_s), zero)
            more = n("Min", n("Max", n("Sub", words, e.ints(maxsplit)), zero), e.ints(1))
            rel_s = n("Slice", rel_s, zero, e.ints(maxsplit + 1))
            rel_e = n("Concat", n("Slice", rel_e, zero, e.ints(maxsplit)),
                      n("Slice", length, zero, more), axis=0)
    count = n("Size", rel_s)
    nxt_s = n("Concat", acc_s, n("Add", rel_s, s), axis=0)
    nxt_e = n("Concat", acc_e, n("Add", rel_e, s), axis=0)
    none = e.const(np.zeros(0, np.int64))
    all_s, all_e, counts = loop_over(e, e("Size", starts), [none, none], n, i, [acc_s, acc_e],
                                     [nxt_s, nxt_e], scans=[count])
    # pad each element's pieces to the longest count with "" (offsets 0, 0)
    longest = e("ReduceMax", e("Concat", counts, zero, axis=0), keepdims=1)
    first = e("Sub", e("CumSum", counts, e.scalar(0)), counts)
    j = e("Range", e.scalar(0), e("Squeeze", longest, zero), e.scalar(1))
    valid = e("Less", e("Unsqueeze", j, zero), e("Unsqueeze", counts, e.ints(1)))
    at = e("Where", valid, e("Add", e("Unsqueeze", first, e.ints(1)), e("Unsqueeze", j, zero)),
           e.scalar(0))
    shape = e("Concat", e("Shape", e.bind(x.starts)), longest, axis=0)

    def padded(pieces: str) -> SSAValue:
        picked = e("Where", valid, e("Gather", pieces, at), e.scalar(0))
        return e.value(e("Reshape", picked, shape, allowzero=1))
    y = StringTensor(x.data, padded(all_s), padded(all_e))
    return y, e.value(e("Reshape", counts, e("Shape", e.bind(x.starts)), allowzero=1))


def _not_overlapping(e: Emit, n: _Body, pos: str, k: int) -> str:
    """The candidate positions of a k-byte delimiter kept left to right, each at least k
    past the last kept one (a Loop in the element's Loop)."""
    inner = _Body(e)
    j, free, nxt = e.fresh(), e.fresh(), e.fresh()
    p = inner("Gather", pos, j)
    keep = inner("GreaterOrEqual", p, free)
    inner.append(helper.make_node("Where", [keep, inner("Add", p, e.scalar(k)), free], [nxt]))
    _, kept = _loop(e, n, n("Size", pos), [e.scalar(0)], inner, j, [free], [nxt], [keep])
    return n("Compress", pos, kept, axis=0)


def _loop(e: Emit, n: _Body, count: str, carried: list[str], body: list[onnx.NodeProto],
          step: str, carried_in: list[str], carried_out: list[str], scans: list[str]
          ) -> list[str]:
    """A Loop node added to body `n` (a Loop inside the element Loop)."""
    outputs = [*carried_out, *scans]
    outs = [e.fresh() for _ in outputs]
    n.append(helper.make_node("Loop", [count, e.const(np.array(True)), *carried], outs,
                              body=loop_body(e, body, step, carried_in, outputs)))
    return outs

"""ONNX's sequence and optional ops, and those on strings, which no graph op stands for:
the importer resolves them while importing (`onnx_sequences`, `onnx_strings`); these
tables say which it takes that way."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sequences:
    """An op the importer resolves at import, on sequences and optionals."""

    op_type: str
    built_from_other_ops: bool = True  # what it adds to the graph is other ops' graph ops


# Later versions only widen the element types the ops take.
_VERSIONS = {
    "SequenceEmpty": (11,), "SequenceConstruct": (11,), "SequenceInsert": (11,),
    "SequenceAt": (11,), "SequenceErase": (11,), "SequenceLength": (11,),
    "SplitToSequence": (11, 24), "ConcatFromSequence": (11,), "Optional": (15, 28),
    "OptionalHasElement": (15, 18, 28), "OptionalGetElement": (15, 18, 28),
    "SequenceMap": (17,),
}
OPS: dict[str, dict[int, Sequences]] = {
    op: dict.fromkeys(versions, Sequences(op)) for op, versions in _VERSIONS.items()
}


@dataclass(frozen=True)
class Strings:
    """An op on string tensors, which the importer resolves into ops on their bytes and
    offsets (`onnx_strings`)."""

    op_type: str
    built_from_other_ops: bool = True


STRING_OPS: dict[str, dict[int, Strings]] = {
    "StringConcat": {20: Strings("StringConcat")},
    "StringNormalizer": {10: Strings("StringNormalizer")},
    "StringSplit": {20: Strings("StringSplit")},
    "RegexFullMatch": {20: Strings("RegexFullMatch")},
}

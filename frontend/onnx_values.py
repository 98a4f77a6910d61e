"""What an ONNX name stands for while importing: a tensor (an SSA value), a sequence known
at import (`StaticSequence`) or packed in four tensors (`PackedSequence`,
onnx_packed_sequences), an optional (`StaticOptional`), a string tensor
(`StringTensor`, onnx_strings), or ZipMap's rows of maps (`KeyedRows`). The importer
and its collaborators share these."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Attribute, SSAValue


@dataclass(frozen=True)
class StaticSequence:
    """A sequence whose tensors are known at import; all have `element`'s element type."""

    elements: tuple[SSAValue, ...]
    element: Attribute


@dataclass(frozen=True)
class PackedSequence:
    """A sequence of `element` tensors known at run time (see runtime/structured.py);
    `rank` is its elements' rank when known to be one, None when not (or NO_ELEMENTS)."""

    data: SSAValue
    offsets: SSAValue
    dims: SSAValue
    dim_offsets: SSAValue
    element: Attribute
    rank: int | None

    @property
    def tensors(self) -> list[SSAValue]:
        return [self.data, self.offsets, self.dims, self.dim_offsets]

    @staticmethod
    def of(tensors: list[SSAValue], element: Attribute, rank: int | None) -> PackedSequence:
        data, offsets, dims, dim_offsets = tensors
        return PackedSequence(data, offsets, dims, dim_offsets, element, rank)


@dataclass(frozen=True)
class StaticOptional:
    """An optional known at import to hold `value` (a tensor or sequence), or nothing; or,
    with `present` (one i1 computed at run time, as an If on a run-time condition gives
    it), one that holds `value` when `present` is true (`value` is then placeholders)."""

    value: SSAValue | StaticSequence | None
    present: SSAValue | None = None


@dataclass(frozen=True)
class StringTensor:
    data: SSAValue
    starts: SSAValue
    ends: SSAValue

    @property
    def tensors(self) -> list[SSAValue]:
        return [self.data, self.starts, self.ends]


@dataclass(frozen=True)
class KeyedRows:
    """ZipMap's sequence of maps: each row of `scores` [N, C] as a map from the C `keys`
    (int or str) to its values, made by the runtime from the tensor (a graph output
    only)."""

    scores: SSAValue
    keys: tuple[int, ...] | tuple[str, ...]


Value = SSAValue | StaticSequence | PackedSequence | StaticOptional
Sequence = StaticSequence | PackedSequence


def kind_of(value: object) -> str:
    """What `value` is, for error messages ("a sequence of 2 tensors", "an optional")."""
    if value is None:
        return "missing"
    if isinstance(value, StaticSequence):
        n = len(value.elements)
        return f"a sequence of {n} tensor{'' if n == 1 else 's'}"
    if isinstance(value, PackedSequence):
        return "a sequence of a length known at run time"
    if isinstance(value, KeyedRows):
        return "a sequence of maps"
    return "an optional" if isinstance(value, StaticOptional) else "a tensor"

"""The import of ONNX's sequence and optional ops, resolved while importing.

infer compiles a model ahead of time, so a sequence is taken where its length and its
elements are known when importing: a tuple of the tensors it holds (`StaticSequence`),
and an optional is one that holds a tensor or sequence, or holds nothing
(`StaticOptional`). The sequence ops then pick, insert and remove tensors of the tuple,
and only those that make or read tensors add graph ops (SplitToSequence a Split,
ConcatFromSequence a Concat; SequenceMap imports its body once per position). What would
need a sequence whose length or members are known only at run time is refused at import
with the reason: a position computed at run time, a SplitToSequence chunk size computed
at run time, a sequence or optional graph input, a sequence carried by a Loop, branches
of an If on a run-time condition that give sequences of different lengths. A sequence
graph output is its tensors, each a result of the function (the runtime returns them as
a list); so is a sequence out of an If on a run-time condition, whose branches give as
many tensors. An optional out of such an If holds a value or not at run time: it is an
i1 and its value's tensors (placeholders from the branch where it is empty), which
OptionalHasElement reads and a graph output returns (None when empty);
OptionalGetElement of it is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np
import onnx
from onnx import helper
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, SSAValue

from infer.dialects import graph as G
from infer.errors import InferError, InvalidModelError, UnsupportedError
from infer.frontend.onnx_attrs import graph_attr, int_attr
from infer.frontend.onnx_ops import Unsupported, element_type

if TYPE_CHECKING:
    from infer.frontend.onnx_import import _Importer

# The opset of the nodes the sequence ops add (Split and Unsqueeze with operand sizes/axes).
SEQUENCE_HELPER_OPSET = 13


@dataclass(frozen=True)
class StaticSequence:
    """A sequence whose tensors are known at import; all have `element`'s element type."""

    elements: tuple[SSAValue, ...]
    element: Attribute


@dataclass(frozen=True)
class StaticOptional:
    """An optional known at import to hold `value` (a tensor or sequence), or nothing; or,
    with `present` (one i1 computed at run time, as an If on a run-time condition gives
    it), one that holds `value` when `present` is true (`value` is then placeholders)."""

    value: SSAValue | StaticSequence | None
    present: SSAValue | None = None


Value = SSAValue | StaticSequence | StaticOptional


def kind_of(value: object) -> str:
    if value is None:
        return "missing"
    if isinstance(value, StaticSequence):
        n = len(value.elements)
        return f"a sequence of {n} tensor{'' if n == 1 else 's'}"
    return "an optional" if isinstance(value, StaticOptional) else "a tensor"


def _tensors(value: SSAValue | StaticSequence) -> list[SSAValue]:
    return list(value.elements) if isinstance(value, StaticSequence) else [value]


def _shape_of(value: SSAValue | StaticSequence) -> tuple[str, int, Attribute]:
    """A tensor's or sequence's form: kind, tensor count, element type."""
    if isinstance(value, StaticSequence):
        return "sequence", len(value.elements), value.element
    return "tensor", 1, cast(TensorType, value.type).element_type


def constant_in(block: Block, value: np.ndarray) -> SSAValue:
    """`value` as a graph.constant at the end of `block`."""
    op = G.ConstantOp(value)
    block.add_op(op)
    return op.output


def _placeholder(block: Block, like: SSAValue) -> SSAValue:
    """Zeros of `like`'s type in `block` (a dynamic dim made 0): what an empty optional's
    branch yields where the other holds a value."""
    t = cast(TensorType, like.type)
    return constant_in(block, np.zeros([max(d, 0) for d in t.get_shape()],
                                       G.numpy_dtype(t.element_type)))


def flatten_branches(yielded: list[list[Value]], blocks: list[Block]
                     ) -> tuple[list[list[SSAValue]], Callable[[list[SSAValue]], list[Value]]]:
    """What each branch of an If yields as tensors, and how the If's results make its
    outputs again: a sequence is its tensors (the branches' of one length); an optional is
    an i1 (whether it holds a value), then its value's tensors, placeholders in a branch
    where it is empty."""
    flat: list[list[SSAValue]] = [[], []]
    rebuilds: list[Callable[[list[SSAValue]], Value]] = []
    for k, (a, b) in enumerate(zip(*yielded, strict=True)):
        if type(a) is not type(b) and not (isinstance(a, SSAValue) and isinstance(b, SSAValue)):
            raise InvalidModelError(f"output #{k}: the branches give {kind_of(a)} and "
                                    f"{kind_of(b)}")
        if isinstance(a, StaticOptional):
            b = cast(StaticOptional, b)
            held = [v.value for v in (a, b) if v.value is not None]
            if not held:
                rebuilds.append(lambda rest: StaticOptional(None))
                continue
            forms = {_shape_of(v) for v in held}
            if len(forms) > 1:
                raise UnsupportedError(f"output #{k}: the branches' optionals hold "
                                       f"{' and '.join(kind_of(v) for v in held)}")
            kind, n, element = forms.pop()
            for side, (opt, block) in enumerate(zip((a, b), blocks, strict=True)):
                flag = opt.present or constant_in(block, np.array(opt.value is not None))
                flat[side] += [flag, *(_tensors(opt.value) if opt.value is not None else
                                      [_placeholder(block, t) for t in _tensors(held[0])])]

            def optional(rest: list[SSAValue], n: int = n, kind: str = kind,
                         element: Attribute = element) -> Value:
                flag, values = rest[0], rest[1:n + 1]
                del rest[:n + 1]
                inner = (StaticSequence(tuple(values), element) if kind == "sequence"
                         else values[0])
                return StaticOptional(inner, flag)
            rebuilds.append(optional)
            continue
        if isinstance(a, StaticSequence):
            b = cast(StaticSequence, b)
            if a.element != b.element:
                raise InvalidModelError(f"output #{k}: the branches give sequences of "
                                        f"{a.element} and {b.element}")
            if len(a.elements) != len(b.elements):
                raise UnsupportedError(f"output #{k}: the branches give {kind_of(a)} and "
                                       f"{kind_of(b)}, a length known only at run time")
            flat[0] += a.elements
            flat[1] += b.elements

            def sequence(rest: list[SSAValue], n: int = len(a.elements),
                         element: Attribute = a.element) -> Value:
                values = rest[:n]
                del rest[:n]
                return StaticSequence(tuple(values), element)
            rebuilds.append(sequence)
            continue
        flat[0].append(cast(SSAValue, a))
        flat[1].append(cast(SSAValue, b))
        rebuilds.append(lambda rest: rest.pop(0))

    def rebuild(results: list[SSAValue]) -> list[Value]:
        rest = list(results)
        return [r(rest) for r in rebuilds]
    return flat, rebuild


class SequenceImport:
    """The sequence and optional ops of `_Importer` (see the module docstring)."""

    def _sequence_op(self: _Importer, index: int, node: onnx.NodeProto, opset: int) -> None:
        if node.op_type == "SequenceMap":  # imports a subgraph: errors are named there
            self._name_results(node, self._sequence_map(index, node, opset))
            return
        try:
            results = getattr(self, f"_op_{node.op_type}")(node, opset)
        except Unsupported as e:
            raise self._error(node, index, opset, str(e), UnsupportedError) from None
        except InferError as e:
            if f"node '{node.name}'" in str(e) or f"(node #{index}" in str(e):
                raise  # a helper node's error, named already
            raise self._error(node, index, opset, str(e), type(e)) from None
        self._name_results(node, results)

    def _sequence_map(self: _Importer, index: int, node: onnx.NodeProto, opset: int
                      ) -> list[Value]:
        """SequenceMap: the body imported once per position of its sequence inputs (the
        same tensor inputs each time), its outputs gathered into sequences."""
        def fail(reason: str) -> InferError:
            return self._error(node, index, opset, reason, InvalidModelError)

        try:
            body = graph_attr(node, "body")
        except InferError as e:
            raise fail(str(e)) from None
        if len(body.input) != len(node.input):
            raise fail("the body must take one input per input of the node")
        inputs = [self._raw(node, k) for k in range(len(node.input))]
        lengths = {len(v.elements) for v in inputs if isinstance(v, StaticSequence)}
        if not isinstance(inputs[0], StaticSequence) or len(lengths) != 1:
            raise fail("the first input must be a sequence, and all sequence inputs of one "
                       "length")
        rows = []
        for i in range(lengths.pop()):
            names = {vi.name: cast(SSAValue, v.elements[i] if isinstance(v, StaticSequence)
                                   else v) for vi, v in zip(body.input, inputs, strict=True)}
            rows.append(self._in_scope(index, node, opset, "body", self.block, names, body))
        outputs: list[Value] = []
        for k, vi in enumerate(body.output):
            tensors = tuple(row[k] for row in rows)
            declared = vi.type.sequence_type.elem_type.tensor_type.elem_type
            element = (cast(TensorType, tensors[0].type).element_type if tensors else
                       element_type(declared or onnx.TensorProto.FLOAT))
            outputs.append(StaticSequence(tensors, element))
        return outputs

    def _structured_output(self: _Importer, o: onnx.ValueInfoProto,
                           value: StaticSequence | StaticOptional
                           ) -> tuple[list[SSAValue], Attribute, bool]:
        """The results standing for a sequence or optional graph output (an optional's
        presence first), their element type, and whether the value is a sequence."""
        if isinstance(value, StaticSequence):
            return list(value.elements), value.element, True
        flag = value.present or self._constant(np.array(value.value is not None))
        if value.value is not None:
            kind, _, element = _shape_of(value.value)
            return [flag, *_tensors(value.value)], element, kind == "sequence"
        declared = o.type.optional_type.elem_type  # empty: its type as the model declares it
        sequence = declared.HasField("sequence_type")
        tensor = declared.sequence_type.elem_type if sequence else declared
        try:
            element = element_type(tensor.tensor_type.elem_type or onnx.TensorProto.FLOAT)
        except Unsupported as e:
            raise UnsupportedError(f"graph output '{o.name}': {e}") from None
        return [flag], element, sequence

    # -- reading the node's inputs --------------------------------------------------------

    def _raw(self: _Importer, node: onnx.NodeProto, k: int) -> Value | None:
        """Input #k as whatever it is (None when omitted)."""
        if k >= len(node.input) or not node.input[k]:
            return None
        name = node.input[k]
        if name in self.values:
            return self.values[name]
        return self._value(name, "input")

    def _sequence(self: _Importer, node: onnx.NodeProto, k: int) -> StaticSequence:
        value = self._raw(node, k)
        if not isinstance(value, StaticSequence):
            raise InvalidModelError(f"input #{k} is {kind_of(value)}, not a sequence")
        return value

    def _tensor(self: _Importer, node: onnx.NodeProto, k: int) -> SSAValue:
        return self._value(node.input[k], "input")

    def _position(self: _Importer, node: onnx.NodeProto, k: int, length: int, default: int,
                  end_allowed: bool) -> int:
        """Input #k, a position in a sequence of `length` (ONNX allows negative ones),
        which must be a constant; `default` when omitted."""
        if k >= len(node.input) or not node.input[k]:
            return default
        known = G.constant_value(self._tensor(node, k))
        if known is None or known.size != 1:
            raise UnsupportedError("a position computed at run time is not supported (the "
                                   "sequence is resolved when compiling)")
        position = int(known.reshape(-1)[0])
        top = length if end_allowed else length - 1
        if not -length <= position <= top:
            raise InvalidModelError(f"position {position} is out of range for a sequence of "
                                    f"{length}")
        return position + length if position < 0 else position

    def _same_element(self: _Importer, seq: StaticSequence, t: SSAValue) -> None:
        got = cast(TensorType, t.type).element_type
        if got != seq.element:
            raise InvalidModelError(f"a {got} tensor in a sequence of {seq.element}")

    def _helper(self: _Importer, node: onnx.NodeProto, op_type: str,
                inputs: list[SSAValue | str], outputs: int, **attrs: object) -> list[SSAValue]:
        """Import an ONNX node of the helper opset on these values; its outputs."""
        p = self._prefix(node.name or node.op_type)
        names = []
        for j, v in enumerate(inputs):
            if isinstance(v, str):
                names.append(v)
            else:
                names.append(p + f"in{j}")
                self.values[names[-1]] = v
        out = [p + f"out{j}" for j in range(outputs)]
        self.consumed |= set(out)
        self._import_node(0, helper.make_node(op_type, names, out, **attrs),
                          SEQUENCE_HELPER_OPSET)
        return [cast(SSAValue, self.values[n]) for n in out]

    def _ints(self: _Importer, values: list[int]) -> SSAValue:
        return self._constant(np.array(values, np.int64))

    # -- the ops --------------------------------------------------------------------------

    def _op_SequenceEmpty(self: _Importer, node: onnx.NodeProto, opset: int) -> list[Value]:
        return [StaticSequence((), element_type(int_attr(node, "dtype",
                                                         onnx.TensorProto.FLOAT)))]

    def _op_SequenceConstruct(self: _Importer, node: onnx.NodeProto, opset: int
                              ) -> list[Value]:
        tensors = [self._tensor(node, k) for k in range(len(node.input))]
        if not tensors:
            raise InvalidModelError("SequenceConstruct needs at least one tensor")
        seq = StaticSequence(tuple(tensors), cast(TensorType, tensors[0].type).element_type)
        for t in tensors:
            self._same_element(seq, t)
        return [seq]

    def _op_SequenceInsert(self: _Importer, node: onnx.NodeProto, opset: int) -> list[Value]:
        seq, t = self._sequence(node, 0), self._tensor(node, 1)
        self._same_element(seq, t)
        n = len(seq.elements)
        at = self._position(node, 2, n, n, end_allowed=True)
        return [StaticSequence((*seq.elements[:at], t, *seq.elements[at:]), seq.element)]

    def _op_SequenceAt(self: _Importer, node: onnx.NodeProto, opset: int) -> list[Value]:
        seq = self._sequence(node, 0)
        return [seq.elements[self._position(node, 1, len(seq.elements), 0, end_allowed=False)]]

    def _op_SequenceErase(self: _Importer, node: onnx.NodeProto, opset: int) -> list[Value]:
        seq = self._sequence(node, 0)
        n = len(seq.elements)
        if n == 0:
            raise InvalidModelError("SequenceErase of an empty sequence")
        at = self._position(node, 1, n, n - 1, end_allowed=False)
        return [StaticSequence(seq.elements[:at] + seq.elements[at + 1:], seq.element)]

    def _op_SequenceLength(self: _Importer, node: onnx.NodeProto, opset: int) -> list[Value]:
        return [self._constant(np.array(len(self._sequence(node, 0).elements), np.int64))]

    def _op_SplitToSequence(self: _Importer, node: onnx.NodeProto, opset: int
                            ) -> list[Value]:
        x = self._tensor(node, 0)
        t = cast(TensorType, x.type)
        shape = t.get_shape()
        axis = cast(int, int_attr(node, "axis", 0))
        keepdims = int_attr(node, "keepdims", 1)
        if not -len(shape) <= axis < len(shape):
            raise InvalidModelError(f"axis {axis} is out of range for rank {len(shape)}")
        axis %= len(shape)
        split = self._tensor(node, 1) if len(node.input) > 1 and node.input[1] else None
        split_type = cast(TensorType, split.type) if split is not None else None
        if split_type is not None and split_type.get_num_dims() == 1:
            count = split_type.get_shape()[0]
            if count < 0:
                raise UnsupportedError("split sizes of a length known only at run time are "
                                       "not supported (the sequence's length would be)")
            parts = self._helper(node, "Split", [x, split], count, axis=axis) if count else []
            return [StaticSequence(tuple(parts), t.element_type)]
        d = shape[axis]
        if d < 0:
            raise UnsupportedError(f"splitting dim {axis}, known only at run time, is not "
                                   "supported (the sequence's length would be)")
        if split is None:
            sizes = [1] * d
        else:
            chunk = G.constant_value(split)
            if chunk is None:
                raise UnsupportedError("a chunk size computed at run time is not supported "
                                       "(the sequence's length would be)")
            size = int(chunk.reshape(-1)[0])
            if size <= 0:
                raise InvalidModelError(f"the chunk size must be positive, got {size}")
            sizes = [size] * (d // size) + ([d % size] if d % size else [])
        parts = (self._helper(node, "Split", [x, self._ints(sizes)], len(sizes), axis=axis)
                 if sizes else [])
        if split is None and not keepdims:
            parts = [self._helper(node, "Squeeze", [v, self._ints([axis])], 1)[0]
                     for v in parts]
        return [StaticSequence(tuple(parts), t.element_type)]

    def _op_ConcatFromSequence(self: _Importer, node: onnx.NodeProto, opset: int
                               ) -> list[Value]:
        seq = self._sequence(node, 0)
        if not seq.elements:
            raise InvalidModelError("ConcatFromSequence of an empty sequence")
        axis = int_attr(node, "axis")
        if axis is None:
            raise InvalidModelError("the 'axis' attribute is missing")
        new_axis = int_attr(node, "new_axis", 0)
        rank = cast(TensorType, seq.elements[0].type).get_num_dims() + (new_axis == 1)
        if not -rank <= axis < rank:
            raise InvalidModelError(f"axis {axis} is out of range for rank {rank}")
        axis %= rank
        parts = list(seq.elements)
        if new_axis == 1:
            parts = [self._helper(node, "Unsqueeze", [v, self._ints([axis])], 1)[0]
                     for v in parts]
        return self._helper(node, "Concat", parts, 1, axis=axis)

    def _op_Optional(self: _Importer, node: onnx.NodeProto, opset: int) -> list[Value]:
        value = self._raw(node, 0)
        if isinstance(value, StaticOptional):
            raise InvalidModelError("an optional of an optional")
        return [StaticOptional(value)]

    def _op_OptionalHasElement(self: _Importer, node: onnx.NodeProto, opset: int
                               ) -> list[Value]:
        value = self._raw(node, 0)
        if isinstance(value, StaticOptional) and value.present is not None:
            return [value.present]
        has = value is not None and (not isinstance(value, StaticOptional)
                                     or value.value is not None)
        return [self._constant(np.array(has))]

    def _op_OptionalGetElement(self: _Importer, node: onnx.NodeProto, opset: int
                               ) -> list[Value]:
        value = self._raw(node, 0)
        if value is None:
            raise InvalidModelError("input #0 is missing")
        if not isinstance(value, StaticOptional):
            return [value]  # opset 18 on: a tensor or sequence is its own element
        if value.present is not None:
            raise UnsupportedError("whether the optional holds a value is known only at run "
                                   "time (it comes out of an If on a run-time condition)")
        if value.value is None:
            raise InvalidModelError("the optional holds nothing (it is empty here)")
        return [value.value]

    def _op_Identity(self: _Importer, node: onnx.NodeProto, opset: int) -> list[Value]:
        return [cast(Value, self._raw(node, 0))]

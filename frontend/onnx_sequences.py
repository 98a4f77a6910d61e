"""The import of ONNX's sequence and optional ops, resolved while importing.

A sequence whose length and elements are known when importing is a tuple of the tensors
it holds (`StaticSequence`): the sequence ops pick, insert and remove tensors of the
tuple, and only those that make or read tensors add graph ops (SplitToSequence a Split,
ConcatFromSequence a Concat; SequenceMap imports its body once per position). Every
other sequence is packed in four tensors (`PackedSequence`, onnx_packed_sequences): a
sequence graph input, one a Loop carries, one an If gives whose branches differ in length,
one an op changes at a position computed at run time, a SplitToSequence whose parts are
known only at run time; the sequence ops on it are graph ops on those tensors, and
SequenceMap and ConcatFromSequence over it are Loops.

An optional is one that holds a tensor or sequence, or holds nothing (`StaticOptional`);
whether it holds one may be known only at run time (an optional graph input, or one out
of an If on a run-time condition): then it is an i1 and its value's tensors (placeholders
when empty), which OptionalHasElement reads and OptionalGetElement checks at run time.

A sequence or optional graph input or output is the tensors standing for it, arguments
or results of its name (graph.STRUCTURED_INPUTS_ATTR, graph.STRUCTURED_ATTR; the runtime
passes lists and None, runtime/structured.py). What is refused at import: a sequence whose
elements' rank is not known where one is read, a sequence of sequences or maps, a Loop
carrying an optional that holds nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import numpy as np
import onnx
from onnx import helper
from xdsl.dialects.builtin import DYNAMIC_INDEX, DictionaryAttr, TensorType, i1, i64
from xdsl.ir import Attribute, Block, SSAValue

from infer.dialects import graph as G
from infer.errors import InferError, InvalidModelError, UnsupportedError
from infer.frontend.import_context import (
    ImportContext,
    graph_tensor_type,
    name_hint,
    node_error,
)
from infer.frontend.onnx_attrs import graph_attr, int_attr
from infer.frontend.onnx_ops import Unsupported, element_type
from infer.frontend.onnx_packed_sequences import (
    NO_ELEMENTS,
    PACKED_TENSORS,
    Emit,
    as_packed,
    concat_from,
    element_at,
    erase,
    insert,
    joined_rank,
    length,
    rank_of,
    require,
    sequence_map,
    split_to,
)
from infer.frontend.onnx_strings import string_entry
from infer.frontend.onnx_values import (
    PackedSequence,
    Sequence,
    StaticOptional,
    StaticSequence,
    StringTensor,
    Value,
    kind_of,
)


def tensors_of(value: SSAValue | Sequence) -> list[SSAValue]:
    if isinstance(value, PackedSequence):
        return value.tensors
    return list(value.elements) if isinstance(value, StaticSequence) else [value]


def _shape_of(value: SSAValue | Sequence) -> tuple[str, int, Attribute]:
    """A tensor's or sequence's form: kind, tensor count, element type."""
    if isinstance(value, PackedSequence):
        return "packed", PACKED_TENSORS, value.element
    if isinstance(value, StaticSequence):
        return "sequence", len(value.elements), value.element
    return "tensor", 1, cast(TensorType, value.type).element_type


def _rebuilt(kind: str, values: list[SSAValue], element: Attribute, rank: int | None
             ) -> SSAValue | Sequence:
    """A tensor or sequence of `kind` (see _shape_of) from the tensors standing for it."""
    if kind == "packed":
        return PackedSequence.of(values, element, rank)
    return StaticSequence(tuple(values), element) if kind == "sequence" else values[0]


def _rank(value: object) -> int | None:
    if isinstance(value, PackedSequence):
        return value.rank
    if isinstance(value, StaticSequence):
        rank: int | None = NO_ELEMENTS
        for t in value.elements:
            rank = joined_rank(rank, rank_of(t))
        return rank
    return None


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
    outputs again: a sequence is its tensors (the branches' of one form: see
    `same_forms`); an optional is an i1 (whether it holds a value), then its
    value's tensors, placeholders in a branch where it is empty."""
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
                flat[side] += [flag, *(tensors_of(opt.value) if opt.value is not None else
                                      [_placeholder(block, t) for t in tensors_of(held[0])])]

            def optional(rest: list[SSAValue], n: int = n, kind: str = kind,
                         element: Attribute = element, rank: int | None = _joined_rank(held)
                         ) -> Value:
                flag, values = rest[0], rest[1:n + 1]
                del rest[:n + 1]
                return StaticOptional(_rebuilt(kind, values, element, rank), flag)
            rebuilds.append(optional)
            continue
        if isinstance(a, StaticSequence | PackedSequence):
            b = cast(Sequence, b)
            if a.element != b.element:
                raise InvalidModelError(f"output #{k}: the branches give sequences of "
                                        f"{a.element} and {b.element}")
            flat[0] += tensors_of(a)
            flat[1] += tensors_of(b)

            def sequence(rest: list[SSAValue], kind: str = _shape_of(a)[0],
                         n: int = len(tensors_of(a)), element: Attribute = a.element,
                         rank: int | None = _joined_rank([a, b])) -> Value:
                values = rest[:n]
                del rest[:n]
                return _rebuilt(kind, values, element, rank)
            rebuilds.append(sequence)
            continue
        flat[0].append(cast(SSAValue, a))
        flat[1].append(cast(SSAValue, b))
        rebuilds.append(lambda rest: rest.pop(0))

    def rebuild(results: list[SSAValue]) -> list[Value]:
        rest = list(results)
        return [r(rest) for r in rebuilds]
    return flat, rebuild


def _entry(at: int, count: int, element: Attribute, sequence: bool, optional: bool,
           packed: bool) -> Attribute:
    """A sequence's or optional's entry of graph.STRUCTURED_ATTR (or _INPUTS_ATTR)."""
    return DictionaryAttr({"at": G.int_attr(at), "count": G.int_attr(count),
                           "element": element, "sequence": G.int_attr(sequence),
                           "optional": G.int_attr(optional), "packed": G.int_attr(packed)})


def _joined_rank(values: list[object]) -> int | None:
    rank: int | None = NO_ELEMENTS
    for v in values:
        rank = joined_rank(rank, _rank(v))
    return rank


@dataclass(frozen=True)
class Carry:
    """How a value a Loop carries is tensors: a tensor itself; a sequence packed (with
    its elements' rank, a fixed point over the iterations); an optional its i1 presence,
    then its value's."""

    packed: bool
    element: Attribute | None = None
    rank: int | None = None
    optional: bool = False

    @staticmethod
    def of(value: Value) -> Carry:
        optional = isinstance(value, StaticOptional)
        if isinstance(value, StaticOptional):
            if value.value is None:
                raise UnsupportedError("a Loop carrying an optional that holds nothing is "
                                       "not supported")
            value = value.value
        if isinstance(value, SSAValue):
            return Carry(False, optional=optional)
        return Carry(True, value.element, _rank(value), optional)

    @property
    def count(self) -> int:
        return self.optional + (PACKED_TENSORS if self.packed else 1)

    def tensors(self, ctx: ImportContext, value: Value, where: str) -> list[SSAValue]:
        """`value` (the initial or next value) as this carry's tensors, made in the
        importer's current block."""
        flag: list[SSAValue] = []
        if isinstance(value, StaticOptional):
            if not self.optional or value.value is None:
                raise UnsupportedError(f"{where} is {kind_of(value)} where the Loop carries "
                                       "a value (or an empty optional)")
            flag = [value.present or ctx.constant(np.array(True))]
            value = value.value
        elif self.optional:
            flag = [ctx.constant(np.array(True))]
        if self.packed != isinstance(value, StaticSequence | PackedSequence):
            raise InvalidModelError(f"{where} is {kind_of(value)} where the Loop carries "
                                    f"{'a sequence' if self.packed else 'a tensor'}")
        if isinstance(value, StaticSequence | PackedSequence):
            if value.element != self.element:
                raise InvalidModelError(f"{where} is a sequence of {value.element} where "
                                        f"the Loop carries one of {self.element}")
            return flag + as_packed(Emit(ctx, "loop_carried"), value).tensors
        return flag + [cast(SSAValue, value)]

    def value(self, tensors: list[SSAValue]) -> Value:
        rest = tensors[1:] if self.optional else tensors
        inner = (PackedSequence.of(rest, cast(Attribute, self.element), self.rank)
                 if self.packed else rest[0])
        return StaticOptional(inner, tensors[0]) if self.optional else inner

    def joined(self, next_value: Value) -> Carry:
        """This carry, given the body's next value (its elements' rank)."""
        inner = next_value.value if isinstance(next_value, StaticOptional) else next_value
        return Carry(self.packed, self.element, joined_rank(self.rank, _rank(inner)),
                     self.optional)


def raw(ctx: ImportContext, node: onnx.NodeProto, k: int) -> Value | None:
    """Input #k of `node` as whatever it is (None when omitted)."""
    if k >= len(node.input) or not node.input[k]:
        return None
    name = node.input[k]
    if name in ctx.values:
        return ctx.values[name]
    return ctx.value(name, "input")


def same_forms(ctx: ImportContext, yielded: list[list[Value]], blocks: list[Block]) -> None:
    """Where an If's branches give sequences of different lengths, or one a packed
    sequence, both become packed (in their own blocks), so that the If gives one."""
    saved = ctx.block
    try:
        for k, pair in enumerate(zip(*yielded, strict=True)):
            seqs = [v.value if isinstance(v, StaticOptional) else v for v in pair]
            if not all(isinstance(v, StaticSequence | PackedSequence) for v in seqs):
                continue
            if len({_shape_of(cast(Sequence, v))[:2] for v in seqs}) == 1:
                continue
            for side, (v, block) in enumerate(zip(seqs, blocks, strict=True)):
                ctx.block = block
                packed = as_packed(Emit(ctx, f"if_output{k}"), cast(Sequence, v))
                opt = pair[side]
                yielded[side][k] = (StaticOptional(packed, opt.present)
                                    if isinstance(opt, StaticOptional) else packed)
    finally:
        ctx.block = saved


class SequenceImport:
    """The sequence and optional ops, and sequence and optional graph inputs and outputs,
    for the importer `ctx` (see the module docstring)."""

    def __init__(self, ctx: ImportContext):
        self.ctx = ctx
        # op type -> its import (SequenceMap, which imports a subgraph, is `op`'s own)
        self.ops: dict[str, Callable[[onnx.NodeProto, int], list[Value]]] = {
            "SequenceEmpty": self._op_SequenceEmpty,
            "SequenceConstruct": self._op_SequenceConstruct,
            "SequenceInsert": self._op_SequenceInsert,
            "SequenceAt": self._op_SequenceAt,
            "SequenceErase": self._op_SequenceErase,
            "SequenceLength": self._op_SequenceLength,
            "SplitToSequence": self._op_SplitToSequence,
            "ConcatFromSequence": self._op_ConcatFromSequence,
            "Optional": self._op_Optional,
            "OptionalHasElement": self._op_OptionalHasElement,
            "OptionalGetElement": self._op_OptionalGetElement,
            "Identity": self._op_Identity,
        }

    def op(self, index: int, node: onnx.NodeProto, opset: int) -> None:
        """Import `node`, a sequence or optional op (or an Identity of one)."""
        if node.op_type == "SequenceMap":  # imports a subgraph: errors are named there
            self.ctx.name_results(node, self._sequence_map(index, node, opset))
            return
        try:
            results = self.ops[node.op_type](node, opset)
        except Unsupported as e:
            raise node_error(node, index, opset, str(e), UnsupportedError) from None
        except InferError as e:
            if f"node '{node.name}'" in str(e) or f"(node #{index}" in str(e):
                raise  # a helper node's error, named already
            raise node_error(node, index, opset, str(e), type(e)) from None
        self.ctx.name_results(node, results)

    def _sequence_map(self, index: int, node: onnx.NodeProto, opset: int
                      ) -> list[Value]:
        """SequenceMap over sequences known when importing: the body imported once per
        position (the same tensor inputs each time), its outputs gathered into sequences;
        over packed ones, a Loop over positions (onnx_packed_sequences.sequence_map)."""
        def fail(reason: str) -> InferError:
            return node_error(node, index, opset, reason, InvalidModelError)

        try:
            body = graph_attr(node, "body")
        except InferError as e:
            raise fail(str(e)) from None
        if len(body.input) != len(node.input):
            raise fail("the body must take one input per input of the node")
        inputs = [raw(self.ctx, node, k) for k in range(len(node.input))]
        if not isinstance(inputs[0], StaticSequence | PackedSequence):
            raise fail("the first input must be a sequence")
        declared = [vi.type.sequence_type.elem_type.tensor_type.elem_type
                    or vi.type.tensor_type.elem_type for vi in body.output]
        lengths = {len(v.elements) if isinstance(v, StaticSequence) else -1
                   for v in inputs if isinstance(v, StaticSequence | PackedSequence)}
        if len(lengths) != 1 or -1 in lengths:  # a length known at run time: a Loop
            try:
                elements = [element_type(t or onnx.TensorProto.FLOAT) for t in declared]
            except Unsupported as e:
                raise node_error(node, index, opset, str(e), UnsupportedError) from None
            emit = self._emit(node)
            sequences = [isinstance(v, StaticSequence | PackedSequence) for v in inputs]
            names = [emit.bind(as_packed(emit, cast(Sequence, v)) if seq else v)
                     for v, seq in zip(inputs, sequences, strict=True)]
            return list(sequence_map(emit, names, sequences, body, elements))
        rows = []
        for i in range(lengths.pop()):
            names = {vi.name: cast(SSAValue, v.elements[i] if isinstance(v, StaticSequence)
                                   else v) for vi, v in zip(body.input, inputs, strict=True)}
            rows.append(self.ctx.in_scope(index, node, opset, "body", self.ctx.block, names,
                                          body))
        outputs: list[Value] = []
        for k, t in enumerate(declared):
            tensors = tuple(cast(SSAValue, row[k]) for row in rows)
            element = (cast(TensorType, tensors[0].type).element_type if tensors else
                       element_type(t or onnx.TensorProto.FLOAT))
            outputs.append(StaticSequence(tensors, element))
        return outputs

    def graph_output(self, o: onnx.ValueInfoProto, value: Value, at: int
                     ) -> tuple[list[SSAValue], Attribute]:
        """The results standing for a sequence, optional or string graph output (an
        optional's presence first) and its entry of graph.STRUCTURED_ATTR."""
        if isinstance(value, StringTensor):
            return value.tensors, string_entry(at)
        optional = isinstance(value, StaticOptional)
        if isinstance(value, StaticOptional):
            flag = value.present or self.ctx.constant(np.array(value.value is not None))
            if value.value is None:  # empty: its type as the model declares it
                declared = o.type.optional_type.elem_type
                sequence = declared.HasField("sequence_type")
                tensor = declared.sequence_type.elem_type if sequence else declared
                try:
                    element = element_type(tensor.tensor_type.elem_type
                                           or onnx.TensorProto.FLOAT)
                except Unsupported as e:
                    raise UnsupportedError(f"graph output '{o.name}': {e}") from None
                return [flag], _entry(at, 0, element, sequence, True, False)
            value = value.value
        kind, _, element = _shape_of(cast(SSAValue | Sequence, value))
        tensors = tensors_of(cast(SSAValue | Sequence, value))
        return ([flag] if optional else []) + tensors, _entry(
            at, len(tensors), element, kind != "tensor", optional, kind == "packed")

    def graph_input(self, vi: onnx.ValueInfoProto, at: int) -> tuple[Value, Attribute]:
        """A sequence or optional graph input: the value it is, made of arguments added to
        the function (an optional's presence first; a sequence packed), and its entry of
        graph.STRUCTURED_INPUTS_ATTR."""
        optional = vi.type.HasField("optional_type")
        inner = vi.type.optional_type.elem_type if optional else vi.type
        if inner.HasField("sequence_type"):
            held = inner.sequence_type.elem_type
            if not held.HasField("tensor_type"):
                raise UnsupportedError(f"graph input '{vi.name}' is a sequence of "
                                       f"{held.WhichOneof('value')}, not of tensors")
            try:
                element = element_type(held.tensor_type.elem_type)
            except Unsupported as e:
                raise UnsupportedError(f"graph input '{vi.name}': {e}") from None
            shape = held.tensor_type.shape if held.tensor_type.HasField("shape") else None
            types = [TensorType(element, [DYNAMIC_INDEX]),
                     *(TensorType(i64, [DYNAMIC_INDEX]) for _ in range(PACKED_TENSORS - 1))]
        elif optional and inner.HasField("tensor_type"):
            t, _ = graph_tensor_type(helper.make_value_info(vi.name, inner), "graph input")
            element, types = t.element_type, [t]
        else:
            raise UnsupportedError(f"graph input '{vi.name}' is an optional of "
                                   f"{inner.WhichOneof('value')}")
        block = self.ctx.block
        args = [block.insert_arg(t, len(block.args))
                for t in ([TensorType(i1, [])] if optional else []) + types]
        for a in args:
            a.name_hint = name_hint(vi.name)
        values = args[1:] if optional else args
        value: Value = (PackedSequence.of(list(values), element,
                                          len(shape.dim) if shape is not None else None)
                        if len(values) > 1 else values[0])
        if optional:
            value = StaticOptional(value, args[0])
        return value, _entry(at, len(values), element, len(values) > 1, optional,
                             len(values) > 1)

    # -- reading the node's inputs --------------------------------------------------------

    def _sequence(self, node: onnx.NodeProto, k: int) -> Sequence:
        value = raw(self.ctx, node, k)
        if not isinstance(value, StaticSequence | PackedSequence):
            raise InvalidModelError(f"input #{k} is {kind_of(value)}, not a sequence")
        return value

    def _tensor(self, node: onnx.NodeProto, k: int) -> SSAValue:
        return self.ctx.value(node.input[k], "input")

    def _given_position(self, node: onnx.NodeProto, k: int) -> int | str | None:
        """Input #k, a position: its value when a constant, its name when computed at run
        time, None when omitted."""
        if k >= len(node.input) or not node.input[k]:
            return None
        known = G.constant_value(self._tensor(node, k))
        if known is None:
            return node.input[k]
        if known.size != 1:
            raise InvalidModelError(f"a position must be one integer, got shape "
                                    f"{list(known.shape)}")
        return int(known.reshape(-1)[0])

    @staticmethod
    def _in_range(position: int | None, length: int, default: int, end_allowed: bool
                  ) -> int:
        """A constant position in a sequence of `length` (ONNX allows negative ones)."""
        if position is None:
            return default
        top = length if end_allowed else length - 1
        if not -length <= position <= top:
            raise InvalidModelError(f"position {position} is out of range for a sequence of "
                                    f"{length}")
        return position + length if position < 0 else position

    def _emit(self, node: onnx.NodeProto) -> Emit:
        return Emit(self.ctx, node.name or node.op_type)

    def _element_rank(self, seq: PackedSequence) -> int:
        if seq.rank is None or seq.rank == NO_ELEMENTS:
            raise UnsupportedError("the rank of the sequence's elements is not known when "
                                   "compiling (the model declares none, or they differ)")
        return seq.rank

    def _same_element(self, seq: Sequence, t: SSAValue) -> None:
        got = cast(TensorType, t.type).element_type
        if got != seq.element:
            raise InvalidModelError(f"a {got} tensor in a sequence of {seq.element}")

    def _helper(self, node: onnx.NodeProto, op_type: str,
                inputs: list[SSAValue | str], outputs: int, **attrs: object) -> list[SSAValue]:
        """Import an ONNX node (Emit's opset) on these values; its outputs."""
        e = self._emit(node)
        names = [v if isinstance(v, str) else e.bind(v) for v in inputs]
        return [e.value(n) for n in e.node(op_type, names, outputs, **attrs)]

    def _ints(self, values: list[int]) -> SSAValue:
        return self.ctx.constant(np.array(values, np.int64))

    # -- the ops --------------------------------------------------------------------------

    def _op_SequenceEmpty(self, node: onnx.NodeProto, opset: int) -> list[Value]:
        return [StaticSequence((), element_type(int_attr(node, "dtype",
                                                         onnx.TensorProto.FLOAT)))]

    def _op_SequenceConstruct(self, node: onnx.NodeProto, opset: int
                              ) -> list[Value]:
        tensors = [self._tensor(node, k) for k in range(len(node.input))]
        if not tensors:
            raise InvalidModelError("SequenceConstruct needs at least one tensor")
        seq = StaticSequence(tuple(tensors), cast(TensorType, tensors[0].type).element_type)
        for t in tensors:
            self._same_element(seq, t)
        return [seq]

    def _op_SequenceInsert(self, node: onnx.NodeProto, opset: int) -> list[Value]:
        seq, t = self._sequence(node, 0), self._tensor(node, 1)
        self._same_element(seq, t)
        at = self._given_position(node, 2)
        if isinstance(seq, StaticSequence) and not isinstance(at, str):
            n = len(seq.elements)
            k = self._in_range(at, n, n, end_allowed=True)
            return [StaticSequence((*seq.elements[:k], t, *seq.elements[k:]), seq.element)]
        e = self._emit(node)
        return [insert(e, as_packed(e, seq), e.bind(t),
                       node.input[2] if at is not None else None)]

    def _op_SequenceAt(self, node: onnx.NodeProto, opset: int) -> list[Value]:
        seq, at = self._sequence(node, 0), self._given_position(node, 1)
        if at is None:
            raise InvalidModelError("the position is missing")
        if isinstance(seq, StaticSequence) and isinstance(at, int):
            return [seq.elements[self._in_range(at, len(seq.elements), 0, False)]]
        e = self._emit(node)
        packed = as_packed(e, seq)
        return [e.value(element_at(e, packed, node.input[1], self._element_rank(packed)))]

    def _op_SequenceErase(self, node: onnx.NodeProto, opset: int) -> list[Value]:
        seq, at = self._sequence(node, 0), self._given_position(node, 1)
        if isinstance(seq, StaticSequence) and not isinstance(at, str):
            n = len(seq.elements)
            if n == 0:
                raise InvalidModelError("SequenceErase of an empty sequence")
            k = self._in_range(at, n, n - 1, end_allowed=False)
            return [StaticSequence(seq.elements[:k] + seq.elements[k + 1:], seq.element)]
        e = self._emit(node)
        return [erase(e, as_packed(e, seq), node.input[1] if at is not None else None)]

    def _op_SequenceLength(self, node: onnx.NodeProto, opset: int) -> list[Value]:
        seq = self._sequence(node, 0)
        if isinstance(seq, StaticSequence):
            return [self.ctx.constant(np.array(len(seq.elements), np.int64))]
        e = self._emit(node)
        return [e.value(length(e, seq))]

    def _op_SplitToSequence(self, node: onnx.NodeProto, opset: int
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
        chunk = G.constant_value(split) if split is not None else None
        d = shape[axis]
        if split_type is not None and split_type.get_num_dims() == 1:
            count = split_type.get_shape()[0]
            if count < 0:
                return [self._split_at_run_time(node, x, axis, "sizes", False)]
            parts = self._helper(node, "Split", [x, split], count, axis=axis) if count else []
            return [StaticSequence(tuple(parts), t.element_type)]
        if d < 0 or (split is not None and chunk is None):
            return [self._split_at_run_time(node, x, axis, "chunk" if split else "ones",
                                            split is None and not keepdims)]
        if chunk is None:
            sizes = [1] * d
        else:
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

    def _split_at_run_time(self, node: onnx.NodeProto, x: SSAValue, axis: int,
                           by: str, squeeze: bool) -> PackedSequence:
        """SplitToSequence whose parts are known only at run time, `by` its split input's
        "sizes" (checked to be non-negative and add up to the dim), a "chunk" size
        (checked positive), or "ones" (no split input)."""
        e = self._emit(node)
        element = cast(TensorType, x.type).element_type
        data, zero = e.bind(x), e.scalar(0)
        d = e("Gather", e("Shape", data), e.scalar(axis))
        if by == "sizes":
            split = node.input[1]
            ends = e("CumSum", split, zero)
            sane = e("And", e("Equal", e("ReduceSum", split, keepdims=0), d),
                     e("Not", e("Less", e("ReduceMin", split, keepdims=0), zero)))
            data = require(e, sane, data, "split sizes are not negative and add up to the dim")
            return split_to(e, data, e("Sub", ends, split), ends,
                            e("Size", split), axis, squeeze, element)
        size = e("Reshape", node.input[1], e.ints()) if by == "chunk" else e.scalar(1)
        if by == "chunk":
            data = require(e, e("Greater", size, zero), data, "the chunk size is positive")
        starts = e("Range", zero, d, size)
        ends = e("Min", e("Add", starts, size), d)
        return split_to(e, data, starts, ends, e("Size", starts), axis, squeeze, element)

    def _op_ConcatFromSequence(self, node: onnx.NodeProto, opset: int
                               ) -> list[Value]:
        seq = self._sequence(node, 0)
        if isinstance(seq, StaticSequence) and not seq.elements:
            raise InvalidModelError("ConcatFromSequence of an empty sequence")
        axis = int_attr(node, "axis")
        if axis is None:
            raise InvalidModelError("the 'axis' attribute is missing")
        new_axis = int_attr(node, "new_axis", 0)
        rank = (self._element_rank(seq) if isinstance(seq, PackedSequence)
                else rank_of(seq.elements[0])) + (new_axis == 1)
        if not -rank <= axis < rank:
            raise InvalidModelError(f"axis {axis} is out of range for rank {rank}")
        axis %= rank
        if isinstance(seq, PackedSequence):
            e = self._emit(node)
            return [e.value(concat_from(e, seq, axis, new_axis == 1))]
        parts = list(seq.elements)
        if new_axis == 1:
            parts = [self._helper(node, "Unsqueeze", [v, self._ints([axis])], 1)[0]
                     for v in parts]
        return self._helper(node, "Concat", parts, 1, axis=axis)

    def _op_Optional(self, node: onnx.NodeProto, opset: int) -> list[Value]:
        value = raw(self.ctx, node, 0)
        if isinstance(value, StaticOptional):
            raise InvalidModelError("an optional of an optional")
        return [StaticOptional(value)]

    def _op_OptionalHasElement(self, node: onnx.NodeProto, opset: int
                               ) -> list[Value]:
        value = raw(self.ctx, node, 0)
        if isinstance(value, StaticOptional) and value.present is not None:
            return [value.present]
        has = value is not None and (not isinstance(value, StaticOptional)
                                     or value.value is not None)
        return [self.ctx.constant(np.array(has))]

    def _op_OptionalGetElement(self, node: onnx.NodeProto, opset: int
                               ) -> list[Value]:
        value = raw(self.ctx, node, 0)
        if value is None:
            raise InvalidModelError("input #0 is missing")
        if not isinstance(value, StaticOptional):
            return [value]  # opset 18 on: a tensor or sequence is its own element
        if value.present is not None:  # known at run time: checked there
            e = self._emit(node)
            present, inner = e.bind(value.present), value.value
            assert inner is not None  # an optional known to be empty has no `present`

            def checked(t: SSAValue) -> SSAValue:
                return e.value(require(e, present, e.bind(t), "the optional holds a value"))
            if isinstance(inner, PackedSequence):  # every read of it reads the offsets
                return [PackedSequence(inner.data, checked(inner.offsets), inner.dims,
                                       inner.dim_offsets, inner.element, inner.rank)]
            if isinstance(inner, StaticSequence):
                return [StaticSequence(tuple(checked(t) for t in inner.elements),
                                       inner.element)]
            return [checked(inner)]
        if value.value is None:
            raise InvalidModelError("the optional holds nothing (it is empty here)")
        return [value.value]

    def _op_Identity(self, node: onnx.NodeProto, opset: int) -> list[Value]:
        return [cast(Value, raw(self.ctx, node, 0))]

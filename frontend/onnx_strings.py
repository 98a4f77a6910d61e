"""String tensors, resolved while importing into tensors of bytes and offsets.

A string tensor of shape S is `StringTensor`: its elements' UTF-8 bytes one after another
(`data`, 1-D u8) and, of shape S, where each element's bytes start and end in it (the
layout runtime/structured.py's `pack_strings` gives a string graph input). Ops that only
move elements (Identity, Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Gather, Slice,
Expand) are those ops on the starts and ends, sharing the bytes; Concat appends the
bytes and shifts the second operand's offsets. Ops that read or make bytes are ONNX
nodes on these tensors (onnx_packed_sequences.Emit), Loops over the elements where each
needs its own bytes: Equal compares each pair of elements' bytes, StringConcat appends
each pair's; StringNormalizer compares every element with every stopword in one such
Loop, keeps the others (Compress on the offsets) and changes the case of the bytes
(ASCII's rules: text with other bytes fails the run where case matters); StringSplit is
onnx_string_split's; RegexFullMatch runs the DFA its pattern compiles to (onnx_regex) on
every element at once, a Loop over byte positions. A string graph output is its three
tensors, which the runtime returns as a numpy array of str.
"""

from __future__ import annotations

from typing import cast

import numpy as np
import onnx
from onnx import helper, numpy_helper
from xdsl.dialects.builtin import DYNAMIC_INDEX, DictionaryAttr, IntegerType, Signedness, TensorType
from xdsl.ir import Attribute, SSAValue

from infer.abi import encode_strings
from infer.dialects import graph as G
from infer.errors import InferError, InvalidModelError, UnsupportedError
from infer.frontend.import_context import (
    ImportContext,
    graph_tensor_type,
    name_hint,
    node_error,
)
from infer.frontend.onnx_ops.ml import ML_DOMAIN, label_encoder_table
from infer.frontend.onnx_packed_sequences import Emit, loop_over, require
from infer.frontend.onnx_regex import RegexError, dfa
from infer.frontend.onnx_string_split import split
from infer.frontend.onnx_values import StringTensor

BYTES = IntegerType(8, Signedness.UNSIGNED)
STRING_TENSORS = 3
# Ops that only move elements: the same op on the starts and on the ends.
MOVING = {"Identity", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Gather",
          "Slice", "Expand"}


def strings_of(ctx: ImportContext, values: np.ndarray) -> StringTensor:
    """A constant string tensor (str or bytes elements)."""
    data, starts, ends = encode_strings(values)
    return StringTensor(ctx.constant(data), ctx.constant(starts), ctx.constant(ends))


class StringImport:
    """The string ops and string graph inputs, for the importer `ctx` (see the module
    docstring)."""

    def __init__(self, ctx: ImportContext):
        self.ctx = ctx

    def graph_input(self, vi: onnx.ValueInfoProto, at: int
                    ) -> tuple[StringTensor, Attribute]:
        """A string graph input: its bytes, starts and ends, arguments of the function;
        its entry of graph.STRUCTURED_INPUTS_ATTR."""
        t, _ = graph_tensor_type(helper.make_tensor_value_info(
            vi.name, onnx.TensorProto.INT64, _declared_shape(vi)), "graph input")
        block = self.ctx.block
        args = [block.insert_arg(a, len(block.args))
                for a in (TensorType(BYTES, [DYNAMIC_INDEX]), t, t)]
        for a in args:
            a.name_hint = name_hint(vi.name)
        return StringTensor(*args), string_entry(at)

    def op(self, index: int, node: onnx.NodeProto, opset: int) -> None:
        """Import `node`, an op on strings (or one of the ops that only move elements)."""
        try:
            results = self._strings(node)
        except InferError as e:
            if f"node '{node.name}'" in str(e) or f"(node #{index}" in str(e):
                raise
            raise node_error(node, index, opset, str(e), type(e)) from None
        self.ctx.name_results(node, results)  # type: ignore[arg-type]

    def _strings(self, node: onnx.NodeProto) -> list[object]:
        inputs = [self.ctx.values.get(n) if n else None for n in node.input]
        e = Emit(self.ctx, node.name or node.op_type)
        op = node.op_type
        if op in MOVING:
            x = _string(inputs[0], op)
            moved = [e(op, e.bind(v), *node.input[1:],
                       **{a.name: helper.get_attribute_value(a) for a in node.attribute})
                     for v in (x.starts, x.ends)]
            return [StringTensor(x.data, e.value(moved[0]), e.value(moved[1]))]
        if op == "Concat":
            parts = [_string(v, op) for v in inputs]
            data, shift = parts[0].data, None
            starts, ends = [e.bind(parts[0].starts)], [e.bind(parts[0].ends)]
            for p in parts[1:]:
                shift = e("Size", e.bind(data))
                data = e.value(e("Concat", e.bind(data), e.bind(p.data), axis=0))
                starts.append(e("Add", e.bind(p.starts), shift))
                ends.append(e("Add", e.bind(p.ends), shift))
            axis = {a.name: helper.get_attribute_value(a) for a in node.attribute}["axis"]
            return [StringTensor(data, e.value(e("Concat", *starts, axis=axis)),
                                 e.value(e("Concat", *ends, axis=axis)))]
        if op in ("Equal", "StringConcat"):
            a, b = (_string(v, op) for v in inputs)
            return [_pairwise(e, a, b, op)]
        if op == "StringSplit":
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            delimiter = cast(bytes, attrs.get("delimiter", b""))
            maxsplit = cast("int | None", attrs.get("maxsplit"))
            if maxsplit is not None and maxsplit < 0:
                raise InvalidModelError(f"maxsplit must not be negative, got {maxsplit}")
            return list(split(e, _string(inputs[0], op), delimiter, maxsplit))
        if op == "RegexFullMatch":
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            pattern = cast(bytes, attrs.get("pattern", b"")).decode()
            try:
                table, accepting = dfa(pattern)
            except RegexError as err:
                raise UnsupportedError(str(err)) from None
            return [_full_match(e, _string(inputs[0], op), table, accepting)]
        if op == "StringNormalizer":
            attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
            return [_normalized(self.ctx, e, _string(inputs[0], op), attrs)]
        if op == "LabelEncoder" and node.domain == ML_DOMAIN:
            return [_label_encoded(self.ctx, e, _string(inputs[0], op), node)]
        raise UnsupportedError(f"'{op}' on strings is not supported")


def _label_encoded(ctx: ImportContext, e: Emit, x: StringTensor, node: onnx.NodeProto
                   ) -> SSAValue | StringTensor:
    """LabelEncoder on strings: each element compared with every key (Equal's Loop over
    x[..., None] and the keys), the value of the first equal key, else the default."""
    attrs = {}
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        if isinstance(v, onnx.TensorProto):
            v = numpy_helper.to_array(v)
        if isinstance(v, bytes):
            v = v.decode()
        if isinstance(v, list | np.ndarray) and len(v) and isinstance(v[0], bytes):
            v = [b.decode() for b in v]
        attrs[a.name] = v
    keys, values = label_encoder_table(attrs)
    if keys.dtype.kind not in "OUS":
        raise UnsupportedError("numeric keys of a string input")
    last = e.ints(-1)
    spread = StringTensor(x.data, e.value(e("Unsqueeze", e.bind(x.starts), last)),
                          e.value(e("Unsqueeze", e.bind(x.ends), last)))
    hit = _pairwise(e, spread, strings_of(ctx, np.asarray(keys, object)), "Equal")
    hits = e("Cast", e.bind(hit), to=onnx.TensorProto.INT64)
    found = e("Cast", e("ReduceMax", hits, last, keepdims=0), to=onnx.TensorProto.BOOL)
    index = e("Where", found, e("ArgMax", hits, axis=-1, keepdims=0), e.ints(len(keys)))
    if values.dtype != object:
        return e.value(e("Gather", e.const(values), index, axis=0))
    table = strings_of(ctx, values)
    return StringTensor(table.data, e.value(e("Gather", e.bind(table.starts), index, axis=0)),
                        e.value(e("Gather", e.bind(table.ends), index, axis=0)))


def _full_match(e: Emit, x: StringTensor, table: np.ndarray, accepting: np.ndarray
                ) -> SSAValue:
    """The DFA run on every element at once: a Loop over byte positions, each element's
    state moving while the position is inside it; whether it ends accepting."""
    flat = e.ints(-1)
    starts, ends = e("Reshape", e.bind(x.starts), flat), e("Reshape", e.bind(x.ends), flat)
    lengths = e("Sub", ends, starts)
    longest = e("ReduceMax", e("Concat", lengths, e.ints(0), axis=0), keepdims=0)
    data = e.bind(x.data)
    step, state, nxt = e.fresh(), e.fresh(), e.fresh()
    body = [helper.make_node("Less", [step, lengths], [step + "in"]),
            helper.make_node("Add", [starts, step], [step + "at"]),
            helper.make_node("Min", [step + "at", e("Sub", e("Size", data), e.scalar(1))],
                             [step + "at1"]),
            helper.make_node("Gather", [data, step + "at1"], [step + "b"]),
            helper.make_node("Cast", [step + "b"], [step + "bi"], to=onnx.TensorProto.INT32),
            helper.make_node("Mul", [state, e.const(np.array(256, np.int32))],
                             [step + "row"]),
            helper.make_node("Add", [step + "row", step + "bi"], [step + "key"]),
            helper.make_node("Gather", [e.const(table), step + "key"],
                             [step + "to"]),
            helper.make_node("Where", [step + "in", step + "to", state], [nxt])]
    first = e("ConstantOfShape", e("Shape", starts),
              value=helper.make_tensor("v", onnx.TensorProto.INT32, [1], [0]))
    (final,) = loop_over(e, longest, [first], body, step, [state], [nxt])
    accepted = e("Gather", e.const(accepting), final)
    return e.value(e("Reshape", accepted, e("Shape", e.bind(x.starts)), allowzero=1))


def _ascii_case(e: Emit, data: str, upper: bool) -> str:
    """The bytes with ASCII letters of one case made the other's."""
    lo, hi = (ord("a"), ord("z")) if upper else (ord("A"), ord("Z"))
    letter = e("And", e("GreaterOrEqual", data, e.byte(lo)), e("LessOrEqual", data, e.byte(hi)))
    return e("Where", letter, e("Sub" if upper else "Add", data, e.byte(32)), data)


def _normalized(ctx: ImportContext, e: Emit, x: StringTensor, attrs: dict[str, object]
                ) -> StringTensor:
    """StringNormalizer as its specification says: stopwords removed (compared ignoring
    case unless is_case_sensitive), then the case changed; [""] when nothing is left.
    Case is ASCII's: text with other bytes is refused at run time where case matters."""
    action = cast(bytes, attrs.get("case_change_action", b"NONE")).decode()
    sensitive = bool(attrs.get("is_case_sensitive", 0))
    stops = [w.decode() for w in cast(list[bytes], attrs.get("stopwords", []))]
    if action not in ("NONE", "LOWER", "UPPER"):
        raise InvalidModelError(f"unknown case_change_action '{action}'")
    rank = cast(TensorType, x.starts.type).get_num_dims()
    if rank not in (1, 2):
        raise InvalidModelError(f"the input must be [C] or [1, C], got rank {rank}")
    data, flat = e.bind(x.data), e.ints(-1)
    if action != "NONE" or (stops and not sensitive):
        codes = e("Concat", e("Cast", data, to=onnx.TensorProto.INT32),
                  e.const(np.zeros(1, np.int32)), axis=0)  # never empty
        ascii_only = e("LessOrEqual", e("ReduceMax", codes, keepdims=0),
                       e.const(np.array(127, np.int32)))
        data = require(e, ascii_only, data, "the text is ASCII (case is changed or ignored)")
    starts, ends = e("Reshape", e.bind(x.starts), flat), e("Reshape", e.bind(x.ends), flat)
    if stops:
        seen = data if sensitive else _ascii_case(e, data, upper=False)
        words = stops if sensitive else [w.lower() for w in stops]
        column = StringTensor(e.value(seen), e.value(e("Unsqueeze", starts, e.ints(1))),
                              e.value(e("Unsqueeze", ends, e.ints(1))))
        hits = _pairwise(e, column, strings_of(ctx, np.array(words, object)), "Equal")
        stopped = e("ReduceMax", e("Cast", e.bind(hits), to=onnx.TensorProto.INT32),
                    e.ints(1), keepdims=0)
        keep = e("Not", e("Cast", stopped, to=onnx.TensorProto.BOOL))
        starts, ends = e("Compress", starts, keep, axis=0), e("Compress", ends, keep, axis=0)
    # nothing left: one empty string
    pad = e("Slice", e.ints(0), e.ints(0), e("Sub", e.ints(1), e("Min", e("Unsqueeze",
            e("Size", starts), e.ints(0)), e.ints(1))))
    starts, ends = e("Concat", starts, pad, axis=0), e("Concat", ends, pad, axis=0)
    if action != "NONE":
        data = _ascii_case(e, data, upper=action == "UPPER")
    shape = e.ints(1, -1) if rank == 2 else flat
    return StringTensor(e.value(data), e.value(e("Reshape", starts, shape, allowzero=1)),
                        e.value(e("Reshape", ends, shape, allowzero=1)))


def string_entry(at: int) -> Attribute:
    """A string input's or output's entry of graph.STRUCTURED_ATTR (or _INPUTS_ATTR)."""
    return DictionaryAttr({"at": G.int_attr(at), "count": G.int_attr(STRING_TENSORS),
                           "element": BYTES, "sequence": G.int_attr(0),
                           "optional": G.int_attr(0), "packed": G.int_attr(0),
                           "string": G.int_attr(1)})


def _declared_shape(vi: onnx.ValueInfoProto) -> list[int | str | None] | None:
    tt = vi.type.tensor_type
    if not tt.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else (d.dim_param or None)
            for d in tt.shape.dim]


def _string(value: object, op: str) -> StringTensor:
    if not isinstance(value, StringTensor):
        raise InvalidModelError(f"'{op}' mixes strings with {type(value).__name__}")
    return value


def _pairwise(e: Emit, a: StringTensor, b: StringTensor, op: str) -> SSAValue | StringTensor:
    """Equal (bool per pair) or StringConcat (a's bytes then b's per pair) of the
    broadcast elements of a and b: a Loop over them."""
    shape = e("Shape", e("Add", e.bind(a.starts), e.bind(b.starts)))  # the broadcast shape
    flat = e.ints(-1)

    def spread(v: SSAValue) -> str:
        return e("Reshape", e("Expand", e.bind(v), shape), flat)
    sa, ea, sb, eb = (spread(v) for v in (a.starts, a.ends, b.starts, b.ends))
    da, db = e.bind(a.data), e.bind(b.data)
    n = e("Size", sa)
    i = e.fresh()
    zero = e.ints(0)

    def at(name: str) -> tuple[str, list[onnx.NodeProto]]:
        out = e.fresh()
        return out, [helper.make_node("Gather", [name, i], [out + "s"]),
                     helper.make_node("Unsqueeze", [out + "s", zero], [out])]
    (a0, n1), (a1, n2), (b0, n3), (b1, n4) = at(sa), at(ea), at(sb), at(eb)
    nodes = [*n1, *n2, *n3, *n4]
    pa, pb = e.fresh(), e.fresh()
    nodes += [helper.make_node("Slice", [da, a0, a1], [pa]),
              helper.make_node("Slice", [db, b0, b1], [pb])]
    if op == "Equal":
        same_length, ne, count, row = e.fresh(), e.fresh(), e.fresh(), e.fresh()
        la, lb, cut_a, cut_b = e.fresh(), e.fresh(), e.fresh(), e.fresh()
        nodes += [helper.make_node("Sub", [a1, a0], [la]),
                  helper.make_node("Sub", [b1, b0], [lb]),
                  helper.make_node("Equal", [la, lb], [same_length]),
                  helper.make_node("Min", [la, lb], [la + "m"]),
                  helper.make_node("Slice", [pa, zero, la + "m"], [cut_a]),
                  helper.make_node("Slice", [pb, zero, la + "m"], [cut_b]),
                  helper.make_node("Equal", [cut_a, cut_b], [ne + "e"]),
                  helper.make_node("Not", [ne + "e"], [ne]),
                  helper.make_node("Cast", [ne], [ne + "i"], to=onnx.TensorProto.INT64),
                  helper.make_node("ReduceSum", [ne + "i"], [count], keepdims=1),
                  helper.make_node("Equal", [count, zero], [count + "0"]),
                  helper.make_node("And", [same_length, count + "0"], [row + "1"]),
                  helper.make_node("Squeeze", [row + "1", zero], [row])]
        (rows,) = loop_over(e, n, [], nodes, i, [], [], scans=[row])
        return e.value(e("Reshape", rows, shape, allowzero=1))
    acc, nxt, start, end = e.fresh(), e.fresh(), e.fresh(), e.fresh()
    nodes += [helper.make_node("Size", [acc], [start]),
              helper.make_node("Concat", [acc, pa, pb], [nxt], axis=0),
              helper.make_node("Size", [nxt], [end])]
    empty = e.const(np.zeros(0, np.uint8))
    data, starts, ends = loop_over(e, n, [empty], nodes, i, [acc], [nxt], scans=[start, end])
    return StringTensor(e.value(data), e.value(e("Reshape", starts, shape, allowzero=1)),
                        e.value(e("Reshape", ends, shape, allowzero=1)))


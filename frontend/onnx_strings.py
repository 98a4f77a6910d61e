"""String tensors, resolved while importing into tensors of bytes and offsets.

A string tensor of shape S is `StringTensor`: its elements' UTF-8 bytes one after another
(`data`, 1-D u8) and, of shape S, where each element's bytes start and end in it (the
layout runtime/structured.py's `pack_strings` gives a string graph input). Ops that only
move elements (Identity, Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Gather, Slice,
Expand) are those ops on the starts and ends, sharing the bytes; Concat appends the
bytes and shifts the second operand's offsets. Ops that read or make bytes are ONNX Loops
over the elements, built as nodes (onnx_packed_sequences.Emit): Equal compares each pair
of elements' bytes, StringConcat appends each pair's. A string graph output is its three
tensors, which the runtime returns as a numpy array of str.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import onnx
from onnx import helper
from xdsl.dialects.builtin import DYNAMIC_INDEX, DictionaryAttr, IntegerType, Signedness, TensorType
from xdsl.ir import Attribute, SSAValue

from infer.dialects import graph as G
from infer.errors import InferError, InvalidModelError, UnsupportedError
from infer.frontend.onnx_packed_sequences import Emit, loop_over

if TYPE_CHECKING:
    from infer.frontend.onnx_import import _Importer

BYTES = IntegerType(8, Signedness.UNSIGNED)
STRING_TENSORS = 3
# Ops that only move elements: the same op on the starts and on the ends.
MOVING = {"Identity", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Gather",
          "Slice", "Expand"}


@dataclass(frozen=True)
class StringTensor:
    data: SSAValue
    starts: SSAValue
    ends: SSAValue

    @property
    def tensors(self) -> list[SSAValue]:
        return [self.data, self.starts, self.ends]


def strings_of(imp: _Importer, values: np.ndarray) -> StringTensor:
    """A constant string tensor."""
    encoded = [(v.decode() if isinstance(v, bytes) else str(v)).encode()
               for v in values.reshape(-1)]
    ends = np.cumsum([len(b) for b in encoded], dtype=np.int64)
    data = np.frombuffer(b"".join(encoded), np.uint8).copy()
    return StringTensor(imp._constant(data), imp._constant((ends - [len(b) for b in encoded])
                                                            .reshape(values.shape)),
                        imp._constant(ends.reshape(values.shape)))


class StringImport:
    """The string ops of `_Importer` (see the module docstring)."""

    def _string_input(self: _Importer, vi: onnx.ValueInfoProto, at: int
                      ) -> tuple[StringTensor, Attribute]:
        """A string graph input: its bytes, starts and ends, arguments of the function;
        its entry of graph.STRUCTURED_INPUTS_ATTR."""
        t, _ = self._tensor_type(helper.make_tensor_value_info(
            vi.name, onnx.TensorProto.INT64, _declared_shape(vi)), "graph input")
        args = [self.block.insert_arg(a, len(self.block.args))
                for a in (TensorType(BYTES, [DYNAMIC_INDEX]), t, t)]
        for a in args:
            a.name_hint = self._hint(vi.name)
        return StringTensor(*args), string_entry(at)

    def _string_op(self: _Importer, index: int, node: onnx.NodeProto, opset: int) -> None:
        try:
            results = self._strings(node)
        except InferError as e:
            if f"node '{node.name}'" in str(e) or f"(node #{index}" in str(e):
                raise
            raise self._error(node, index, opset, str(e), type(e)) from None
        self._name_results(node, results)  # type: ignore[arg-type]

    def _strings(self: _Importer, node: onnx.NodeProto) -> list[object]:
        inputs = [self.values.get(n) if n else None for n in node.input]
        e = Emit(self, node.name or node.op_type)
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
        raise UnsupportedError(f"'{op}' on strings is not supported")


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
        return e.value(e("Reshape", rows, shape))
    acc, nxt, start, end = e.fresh(), e.fresh(), e.fresh(), e.fresh()
    nodes += [helper.make_node("Size", [acc], [start]),
              helper.make_node("Concat", [acc, pa, pb], [nxt], axis=0),
              helper.make_node("Size", [nxt], [end])]
    empty = e.bind(e.imp._constant(np.zeros(0, np.uint8)))
    data, starts, ends = loop_over(e, n, [empty], nodes, i, [acc], [nxt], scans=[start, end])
    return StringTensor(e.value(data), e.value(e("Reshape", starts, shape)),
                        e.value(e("Reshape", ends, shape)))


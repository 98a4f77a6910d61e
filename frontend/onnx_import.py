"""ONNX model -> `graph` dialect.

    module = import_model("model.onnx")   # or a ModelProto, or the file's bytes

gives

    builtin.module {
      func.func @main(%x: tensor<?x3x224x224xf32>
                          {graph.dims = ["N", "", "", ""], graph.name = "x"})
          -> (tensor<?x1000xf32> {graph.name = "y"}) {
        ... graph ops ...
        func.return %y : tensor<?x1000xf32>
      }
    }

What the runtime reads from `@main` (see `NAME_ATTR`, `DIMS_ATTR`):
  * arguments are the graph's real inputs in ONNX order (initializers, even those that old
    models also list as inputs, are `graph.constant`s); results are the graph outputs in order;
  * `graph.name` (arg and result attribute): the ONNX tensor name, to map feeds and fetches;
  * `graph.dims` (arg and result attribute, only when some dim has a `dim_param`): one
    string per dim, the dim_param name or "" (static or anonymous); equal names must get
    equal sizes, except `G.ANONYMOUS_DIM` ("?"), which like "" names no symbol.

Unknown, negative (`dim_value: -1`, as some exporters write) or `dim_param` dims are
dynamic (`?`). Result types are those our ops infer; a result's dim names are those its
graph output declares.
A broken model raises `InvalidModelError`, a valid one with something infer cannot import
`UnsupportedError` (every unsupported op of the model in one message), each one line
naming the op, the node and the opset.

An op that ONNX defines by a function body and that has no importer of its own is imported
as its body (see `infer.frontend.onnx_ops.functions`): the body's nodes are named after the
node ("n/0", "n/1", ...) and imported at the opset the body declares; an error in one of
them names the original node first ("... 'Attention' (node 'n', opset 23): expanded body:
unsupported op 'X' (node 'n/4', opset 23): ...").

Which variant imports a node is read from `_DOMAINS`, by its domain, op type and the
domain's opset the model imports (ONNX's `OPS`, the preview domain's function bodies,
onnxruntime's com.microsoft ops); nodes of function bodies and subgraphs are of ONNX's
default domain. The importer calls an op function itself and expands a body; the ops it
cannot import by one call go to its collaborators, each made with the importer as its
`ImportContext` (import_context): `SubgraphImport` (If, Loop, Scan), `SequenceImport`
(sequences and optionals) and `StringImport` (string tensors).
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import cast

import numpy as np
import onnx
from onnx import numpy_helper
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from infer.dialects import graph as G
from infer.errors import InferError, InvalidModelError, UnsupportedError
from infer.frontend.import_context import (
    graph_tensor_type,
    name_hint,
    node_error,
    node_ref,
    one_line,
)
from infer.frontend.onnx_branch_ranks import RankChoice, refused_use
from infer.frontend.onnx_ops import (
    ONNX_ELEMENT_TYPES,
    OPS,
    Expansion,
    NodeError,
    OpBuilder,
    OpFn,
    Unsupported,
    element_type,
)
from infer.frontend.onnx_ops.control_flow import Subgraphs
from infer.frontend.onnx_ops.functions import (
    PREVIEW_DOMAIN,
    PREVIEW_OPS,
    body_opset,
    instantiate,
)
from infer.frontend.onnx_ops.ml import ML_DOMAIN, ML_OPS, keyed_rows_entry
from infer.frontend.onnx_ops.quantize import MICROSOFT_DOMAIN, MICROSOFT_OPS
from infer.frontend.onnx_ops.random import U64
from infer.frontend.onnx_ops.sequences import Sequences, Strings
from infer.frontend.onnx_sequences import SequenceImport, constant_in
from infer.frontend.onnx_strings import StringImport
from infer.frontend.onnx_subgraphs import SubgraphImport
from infer.frontend.onnx_values import (
    KeyedRows,
    PackedSequence,
    StaticOptional,
    StaticSequence,
    StringTensor,
    Value,
    kind_of,
)

NAME_ATTR = G.NAME_ATTR
DIMS_ATTR = G.DIMS_ATTR

# how the importer takes a node: a function, a function body, through its subgraphs, or
# resolved at import (sequences and optionals)
Variant = OpFn | Expansion | Subgraphs | Sequences | Strings

MIN_OPSET = 1  # an op whose early versions differ has its importer keyed at a later one
MAX_OPSET = 21  # newer opsets import for ops whose definition changed only in types

__all__ = [
    "DIMS_ATTR", "MAX_OPSET", "MIN_OPSET", "NAME_ATTR", "import_model", "load_model",
    "supported_ops",
    "unsupported_ops",
]


def import_model(model: onnx.ModelProto | bytes | str | os.PathLike[str]) -> ModuleOp:
    """Import an ONNX model (proto, serialized bytes or file path) as a verified module."""
    proto = load_model(model)
    opset = _default_opset(proto)
    graph = proto.graph
    variants = _select_variants(graph, opset, _opsets(proto))
    _check_structure(graph)
    _check_input_ranks(graph)
    with _declared_scalar(_shapeless_outputs(graph)):
        try:
            onnx.checker.check_model(proto)
        except Exception as e:  # noqa: BLE001 - the checker raises several types
            raise InvalidModelError(f"invalid model: {one_line(str(e))}") from None
    module = _Importer(graph, opset, variants).run()
    try:
        module.verify()
    except VerifyException as e:
        raise InvalidModelError(
            f"imported module does not verify: {one_line(str(e))}") from None
    return module


def supported_ops() -> dict[str, tuple[int, int]]:
    """Each ONNX op type (default domain) the importer takes, with the first and last
    model opset it takes it at, read from the importer's own table (`OPS`)."""
    ranges = {}
    for op in sorted(OPS):
        accepted = [v for v in range(MIN_OPSET, onnx.defs.onnx_opset_version() + 1)
                    if _variant(op, v)[0] is not None]
        if accepted:
            ranges[op] = (accepted[0], accepted[-1])
    return ranges


def unsupported_ops(model: onnx.ModelProto) -> list[str]:
    """One line per node of `model` whose op, domain or opset the importer does not take
    (empty when all are), without importing the model."""
    opset = _default_opset(model)
    return [why for _, why in _variants(model.graph, opset, _opsets(model)) if why]


# ---------------------------------------------------------------------------------------
# Loading and model-level checks
# ---------------------------------------------------------------------------------------


def load_model(model: onnx.ModelProto | bytes | str | os.PathLike[str]) -> onnx.ModelProto:
    """The ModelProto of a proto, serialized bytes or a path; InvalidModelError when it is
    not an ONNX model."""
    if isinstance(model, onnx.ModelProto):
        proto, source = model, "the model"
    else:
        try:
            if isinstance(model, bytes | bytearray | memoryview):
                source = "the input"
                proto = onnx.load_model_from_string(bytes(model))
            else:
                source = f"'{os.fspath(model)}'"
                proto = onnx.load(os.fspath(model))
        except Exception as e:  # noqa: BLE001 - protobuf and file errors alike
            raise InvalidModelError(
                f"cannot read {source} as an ONNX model: {one_line(str(e))}"
            ) from None
    # Protobuf parses many non-ONNX byte strings without complaint: require a graph.
    if not proto.HasField("graph") or proto.ir_version == 0:
        raise InvalidModelError(f"{source} is not an ONNX model (no graph or IR version)")
    return proto


def _default_opset(proto: onnx.ModelProto) -> int:
    versions = [o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")]
    if not versions:
        # a model of another domain's ops only (ai.onnx.ml's) uses none of the default's
        if proto.opset_import and all(n.domain not in ("", "ai.onnx") for n in proto.graph.node):
            return MAX_OPSET
        raise UnsupportedError("the model imports no opset of the default ONNX domain")
    opset = versions[0]
    newest = onnx.defs.onnx_opset_version()
    if opset > newest:
        raise UnsupportedError(f"the model imports opset {opset} of the default ONNX domain; "
                               f"the newest supported is {newest}")
    if opset < MIN_OPSET:
        raise UnsupportedError(
            f"unsupported opset version {opset} (infer imports opset {MIN_OPSET} to {MAX_OPSET})"
        )
    return opset


def _opsets(proto: onnx.ModelProto) -> dict[str, int]:
    """The opset the model imports of each domain ("" for ONNX's default)."""
    return {("" if o.domain == "ai.onnx" else o.domain): o.version for o in proto.opset_import}


def _describe_op(node: onnx.NodeProto, index: int, opsets: dict[str, int]) -> str:
    """`'Op' (node 'n', domain 'd' opset 3)`: the op's type, node and its domain's opset."""
    domain = "" if node.domain == "ai.onnx" else node.domain
    version = f"opset {opsets[domain]}" if domain in opsets else "not imported"
    return (f"'{node.op_type}' ({node_ref(node, index)}, domain '{domain or 'ai.onnx'}' "
            f"{version})")


@cache
def _variant(op_type: str, opset: int) -> tuple[Variant | None, str]:
    """The import function (or body expansion) of `op_type` at `opset`, or None and the
    reason."""
    try:
        since = onnx.defs.get_schema(op_type, opset, "").since_version
    except onnx.defs.SchemaError:
        return None, f"op is not defined in opset {opset}"
    keys = [k for k in OPS[op_type] if k <= since]
    if not keys:
        return None, f"unsupported opset version {since} of this op"
    fn = OPS[op_type][max(keys)]
    if isinstance(fn, Expansion):  # a body states the spec's exact version
        if max(keys) != since or fn.body_version(opset) is None:
            return None, f"no function body of version {since} of this op at opset {opset}"
        return fn, ""
    # an importer keyed at a newer op's own version was written for it
    if since > MAX_OPSET and max(keys) < since and not _same_form(op_type, since, fn):
        return None, f"unsupported version {since} of this op (checked up to opset {MAX_OPSET})"
    return fn, ""


def _same_form(op_type: str, since: int, fn: OpFn) -> bool:
    """Whether `op_type` at `since` (> MAX_OPSET) keeps its MAX_OPSET inputs and outputs
    and has only attributes `fn` takes: newer opsets mostly add element types (which our
    verifiers check) or attributes for such types (Cast's round_mode)."""
    new = onnx.defs.get_schema(op_type, since, "")
    old = onnx.defs.get_schema(op_type, MAX_OPSET, "")

    def io(s: onnx.defs.OpSchema) -> tuple[object, ...]:
        return [(i.name, i.option) for i in s.inputs], [(o.name, o.option) for o in s.outputs]

    return io(new) == io(old) and set(new.attributes) <= _signature(fn)[3]


def _preview_variant(op_type: str, version: int | None) -> tuple[Expansion | None, str]:
    """The body of a previewed op at the model's version of the preview domain."""
    try:
        since = onnx.defs.get_schema(op_type, version or 0, PREVIEW_DOMAIN).since_version
    except onnx.defs.SchemaError:
        return None, f"op is not defined in version {version} of {PREVIEW_DOMAIN}"
    fn = PREVIEW_OPS[op_type].get(since)
    return (fn, "") if fn else (None, f"no function body of version {since}")


def _default_variant(op_type: str, version: int | None) -> tuple[Variant | None, str]:
    """An op of ONNX's default domain, whose opset every model imports."""
    assert version is not None
    return _variant(op_type, version)


def _ml_variant(op_type: str, version: int | None) -> tuple[OpFn | None, str]:
    """An ai.onnx.ml op at the version of that domain the model imports."""
    try:
        since = onnx.defs.get_schema(op_type, version or 0, ML_DOMAIN).since_version
    except onnx.defs.SchemaError:
        return None, f"op is not defined in version {version} of {ML_DOMAIN}"
    keys = [k for k in ML_OPS[op_type] if k <= since]
    if not keys:
        return None, f"unsupported version {since} of this op"
    return ML_OPS[op_type][max(keys)], ""


def _microsoft_variant(op_type: str, version: int | None) -> tuple[OpFn | None, str]:
    """One of onnxruntime's own ops: one version of its domain so far."""
    if version == 1:
        return MICROSOFT_OPS[op_type], ""
    return None, f"version {version} of {MICROSOFT_DOMAIN} is not supported (1 is)"


@dataclass(frozen=True)
class _Domain:
    """The ops the importer takes of one domain, and `variant(op_type, version)`: how it
    imports one at the version of the domain the model imports (None and why if not)."""

    ops: Collection[str]
    variant: Callable[[str, int | None], tuple[Variant | None, str]]


# The importer's table, by (domain, op type, opset): each domain ("" for ONNX's default,
# as "ai.onnx") with its ops; an op's variant by the domain's opset the model imports.
_DOMAINS: dict[str, _Domain] = {
    "": _Domain(OPS, _default_variant),
    PREVIEW_DOMAIN: _Domain(PREVIEW_OPS, _preview_variant),
    MICROSOFT_DOMAIN: _Domain(MICROSOFT_OPS, _microsoft_variant),
    ML_DOMAIN: _Domain(ML_OPS, _ml_variant),
}


def _variants(
    graph: onnx.GraphProto, opset: int, opsets: dict[str, int]
) -> list[tuple[Variant | None, str]]:
    """Each node's import function, or None and a line saying which op is unsupported."""
    found: list[tuple[Variant | None, str]] = []
    for i, node in enumerate(graph.node):
        domain = "" if node.domain == "ai.onnx" else node.domain
        table = _DOMAINS.get(domain)
        if table is None or node.op_type not in table.ops:
            found.append((None, _describe_op(node, i, opsets)))
            continue
        version = opset if domain == "" else opsets.get(domain)
        fn, why = table.variant(node.op_type, version)
        found.append((fn, "" if fn else f"{_describe_op(node, i, opsets)}: {why}"))
    return found


def _select_variants(
    graph: onnx.GraphProto, opset: int, opsets: dict[str, int]
) -> list[Variant]:
    """Each node's import function; unsupported ops and versions fail here, all of them in
    one message, before the checker, so it names the ops rather than a schema detail."""
    found = _variants(graph, opset, opsets)
    missing = [why for _, why in found if why]
    if missing:
        raise UnsupportedError(
            f"{len(missing)} unsupported op{'s' if len(missing) > 1 else ''}: "
            + "; ".join(missing))
    return [fn for fn, _ in found if fn is not None]


def _check_structure(graph: onnx.GraphProto) -> None:
    """Every input defined by an earlier node, an initializer or a graph input."""
    defined = {v.name for v in graph.input} | {t.name for t in graph.initializer}
    produced_at = {o: i for i, n in enumerate(graph.node) for o in n.output if o}
    for i, node in enumerate(graph.node):
        for name in node.input:
            if name and name not in defined:
                what = (
                    "is produced by a later node (the graph is not topologically sorted "
                    "or has a cycle)"
                    if name in produced_at
                    else "is not defined by any node, initializer or graph input"
                )
                raise InvalidModelError(
                    f"invalid graph: input '{name}' of {node_ref(node, i)} "
                    f"('{node.op_type}') {what}"
                )
        for name in node.output:
            if name and name in defined:
                raise InvalidModelError(
                    f"invalid graph: '{name}' is defined twice ({node_ref(node, i)}, "
                    f"'{node.op_type}')"
                )
            defined.add(name)
    for out in graph.output:
        if out.name not in defined:
            raise InvalidModelError(f"invalid graph: graph output '{out.name}' is never produced")


def _check_input_ranks(graph: onnx.GraphProto) -> None:
    """A tensor graph input with no shape has no rank either: infer compiles ranked
    tensors only (their dims may be dynamic), so it is refused, named."""
    initialized = {t.name for t in graph.initializer}
    for vi in graph.input:
        if (vi.type.HasField("tensor_type") and not vi.type.tensor_type.HasField("shape")
                and vi.name not in initialized):
            raise UnsupportedError(
                f"graph input '{vi.name}' has no shape, so no rank: infer compiles tensors "
                "of known rank; declare its dims (named or empty dims stay dynamic)")


def _shapeless_outputs(graph: onnx.GraphProto) -> list[onnx.TypeProto.Tensor]:
    """The tensor graph outputs declared without a shape: the importer computes theirs."""
    return [o.type.tensor_type for o in graph.output
            if o.type.HasField("tensor_type") and not o.type.tensor_type.HasField("shape")]


@contextmanager
def _declared_scalar(tensors: list[onnx.TypeProto.Tensor]) -> Iterator[None]:
    """ONNX's checker requires a shape on graph outputs, which onnxruntime does not: an
    empty one (a scalar's) while it checks, taken away after, the proto as it was."""
    for t in tensors:
        t.shape.SetInParent()
    try:
        yield
    finally:
        for t in tensors:
            t.ClearField("shape")


# ---------------------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------------------


def _attr_value(attr: onnx.AttributeProto) -> object:
    if attr.ref_attr_name:
        raise Unsupported(f"attribute '{attr.name}' refers to a function attribute")
    if attr.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS,
                     onnx.AttributeProto.SPARSE_TENSOR, onnx.AttributeProto.SPARSE_TENSORS,
                     onnx.AttributeProto.TYPE_PROTO, onnx.AttributeProto.TYPE_PROTOS):
        raise Unsupported(f"attribute '{attr.name}' of type "
                          f"{onnx.AttributeProto.AttributeType.Name(attr.type)}")
    value = onnx.helper.get_attribute_value(attr)
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, onnx.TensorProto):
        return numpy_helper.to_array(value)
    if isinstance(value, list) and value and isinstance(value[0], bytes):
        return [v.decode() for v in value]
    return value


@cache
def _signature(fn: OpFn) -> tuple[list[str], int, bool, set[str], set[str]]:
    """(input names, required inputs, variadic, attribute names, required attributes)."""
    params = list(inspect.signature(fn).parameters.values())[1:]  # drop the builder
    inputs = [p.name for p in params if p.kind == p.POSITIONAL_OR_KEYWORD]
    required = sum(
        1 for p in params if p.kind == p.POSITIONAL_OR_KEYWORD and p.default is p.empty
    )
    variadic = any(p.kind == p.VAR_POSITIONAL for p in params)
    attrs = {p.name for p in params if p.kind == p.KEYWORD_ONLY}
    req_attrs = {p.name for p in params if p.kind == p.KEYWORD_ONLY and p.default is p.empty}
    return inputs, required, variadic, attrs, req_attrs


def _call(fn: OpFn, b: OpBuilder, inputs: list[SSAValue | None], attrs: dict[str, object]
          ) -> list[SSAValue]:
    """Check the node's inputs and attributes against fn's signature, then call it."""
    names, required, variadic, known, req_attrs = _signature(fn)
    if not variadic and len(inputs) > len(names):
        raise NodeError(f"takes at most {len(names)} inputs, got {len(inputs)}")
    for i in range(required):
        if i >= len(inputs) or inputs[i] is None:
            raise NodeError(f"missing required input #{i} ({names[i]})")
    for name in attrs:
        if name not in known:
            raise Unsupported(f"attribute '{name}' is not supported")
    for name in sorted(req_attrs - attrs.keys()):
        raise NodeError(f"missing required attribute '{name}'")
    out = fn(b, *inputs, **attrs)
    return [out] if isinstance(out, SSAValue) else list(out)


def _type_proto(t: TensorType) -> onnx.TypeProto:
    """The ONNX type of a value, for the function bodies that depend on their inputs'."""
    onnx_type = next(k for k, v in ONNX_ELEMENT_TYPES.items() if v == t.element_type)
    shape = [d if d >= 0 else None for d in t.get_shape()]
    return onnx.helper.make_tensor_type_proto(onnx_type, shape)


class _Importer:
    """Imports a graph's nodes into `@main`'s block (see `ImportContext`, the part its
    collaborators see: subgraphs, sequences and optionals, strings)."""

    def __init__(self, graph: onnx.GraphProto, opset: int, variants: Sequence[Variant]):
        self.graph = graph
        self.opset = opset
        self.variants = variants
        # a name's tensor, or the sequence or optional it is while importing
        self.values: dict[str, Value] = {}
        self.initializers = {t.name: t for t in graph.initializer}
        self.block = Block()
        self.main = self.block  # the function's own block (subgraphs have theirs)
        self.counter: SSAValue | None = None
        self.consumed = {n for node in graph.node for n in node.input if n} | {
            o.name for o in graph.output
        }
        self.rank_choices: dict[SSAValue, RankChoice] = {}
        # the prefixes of expanded bodies' names, and the graph's names they must not meet
        self.prefixes: set[str] = set()
        self.names = ({v.name for v in graph.input} | set(self.initializers)
                      | {o for node in graph.node for o in node.output})
        self.subgraphs = SubgraphImport(self)
        self.sequences = SequenceImport(self)
        self.strings = StringImport(self)

    def run(self) -> ModuleOp:
        inputs = [v for v in self.graph.input if v.name not in self.initializers]
        arg_types, arg_attrs = [], []
        structured_inputs: dict[str, Attribute] = {}
        for at, vi in enumerate(inputs):
            strings = vi.type.tensor_type.elem_type == onnx.TensorProto.STRING
            if strings or vi.type.WhichOneof("value") in ("sequence_type", "optional_type"):
                before = len(self.block.args)
                of = self.strings if strings else self.sequences
                self.values[vi.name], structured_inputs[vi.name] = of.graph_input(vi, at)
                # a string tensor's offsets have its shape, and its dims' names
                params = [d.dim_param for d in vi.type.tensor_type.shape.dim]
                for k, a in enumerate(self.block.args[before:]):
                    attrs: dict[str, Attribute] = {NAME_ATTR: StringAttr(vi.name)}
                    if strings and k > 0 and any(params):
                        attrs[DIMS_ATTR] = ArrayAttr([StringAttr(p) for p in params])
                    arg_types.append(a.type)
                    arg_attrs.append(DictionaryAttr(attrs))
                continue
            t, params = graph_tensor_type(vi, "graph input")
            arg = self.block.insert_arg(t, len(self.block.args))
            arg.name_hint = name_hint(vi.name)
            self.values[vi.name] = arg
            attrs = {NAME_ATTR: StringAttr(vi.name)}
            if any(params):
                attrs[DIMS_ATTR] = ArrayAttr([StringAttr(p) for p in params])
            arg_types.append(t)
            arg_attrs.append(DictionaryAttr(attrs))

        for i, (node, fn) in enumerate(zip(self.graph.node, self.variants, strict=True)):
            self._node(i, node, fn, self.opset)
        if self.counter is not None:  # the random ops' run number: the last argument
            arg_types.append(self.counter.type)
            arg_attrs.append(DictionaryAttr({NAME_ATTR: StringAttr(G.RUN_COUNTER)}))

        results: list[SSAValue] = []
        res_attrs = []
        structured: dict[str, Attribute] = {}
        for at, o in enumerate(self.graph.output):
            value = self.values.get(o.name)
            if isinstance(value, StaticSequence | PackedSequence | StaticOptional | StringTensor):
                tensors, structured[o.name] = self.sequences.graph_output(o, value, at)
                results += tensors
                res_attrs += [DictionaryAttr({NAME_ATTR: StringAttr(o.name)}) for _ in tensors]
                continue
            if isinstance(value, KeyedRows):
                results.append(value.scores)
                res_attrs.append(DictionaryAttr({NAME_ATTR: StringAttr(o.name)}))
                structured[o.name] = keyed_rows_entry(at, value.keys)
                continue
            r = self.value(o.name, "graph output")
            if r in self.rank_choices:
                raise UnsupportedError(f"graph output {self.rank_choices[r].refusal()}")
            params = self._check_output(o, cast(TensorType, r.type))
            attrs = {NAME_ATTR: StringAttr(o.name)}
            if any(params):
                attrs[DIMS_ATTR] = ArrayAttr([StringAttr(p) for p in params])
            results.append(r)
            res_attrs.append(DictionaryAttr(attrs))
        self.block.add_op(ReturnOp(*results))
        func = FuncOp(
            "main",
            (arg_types, [r.type for r in results]),
            Region(self.block),
            arg_attrs=ArrayAttr(arg_attrs),
            res_attrs=ArrayAttr(res_attrs),
        )
        if structured:
            func.attributes[G.STRUCTURED_ATTR] = DictionaryAttr(structured)
        if structured_inputs:
            func.attributes[G.STRUCTURED_INPUTS_ATTR] = DictionaryAttr(structured_inputs)
        return ModuleOp([func])

    def _run_counter(self) -> SSAValue:
        """The hidden input numbering the runs (G.RUN_COUNTER), added on first use."""
        if self.counter is None:
            self.counter = self.main.insert_arg(TensorType(U64, []), len(self.main.args))
            self.counter.name_hint = "run"
        return self.counter

    def value(self, name: str, what: str) -> SSAValue:
        """The tensor named `name`; initializers become constants at their first use."""
        if name in self.values:
            value = self.values[name]
            if not isinstance(value, SSAValue):
                raise UnsupportedError(f"{what} '{name}' is {kind_of(value)}, which only the "
                                       "sequence and optional ops take here")
            return value
        if name not in self.initializers:
            raise InvalidModelError(f"{what} '{name}' is not defined")
        try:
            array = numpy_helper.to_array(self.initializers[name])
            op = G.ConstantOp(np.asarray(array))
        except Exception as e:  # noqa: BLE001 - external data, strings, odd dtypes
            raise UnsupportedError(f"initializer '{name}': {one_line(str(e))}") from None
        op.output.name_hint = name_hint(name)
        self.block.add_op(op)
        self.values[name] = op.output
        return op.output

    def constant(self, value: np.ndarray) -> SSAValue:
        """`value` as a graph.constant at the end of the current block."""
        return constant_in(self.block, value)

    def name_results(self, node: onnx.NodeProto, values: Sequence[Value]) -> None:
        """Bind `node`'s output names to `values` (a tensor's SSA value named after it)."""
        for name, v in zip(node.output, values, strict=False):
            if name:
                self.values[name] = v
                if isinstance(v, SSAValue):
                    v.name_hint = v.name_hint or name_hint(name)

    def in_scope(self, index: int, node: onnx.NodeProto, opset: int, which: str,
                 block: Block, names: dict[str, Value], subgraph: onnx.GraphProto,
                 sequences: bool = False,
                 finish: Callable[[list[Value]], list[SSAValue]] | None = None
                 ) -> list[Value]:
        """Import `subgraph` of `node` into `block`, its inputs bound to `names`."""
        return self.subgraphs.in_scope(index, node, opset, which, block, names, subgraph,
                                       sequences, finish)

    def _node(self, index: int, node: onnx.NodeProto, fn: Variant, opset: int
              ) -> None:
        refused = (refused_use(node, self.values, self.initializers, self.rank_choices)
                   if self.rank_choices else None)
        if refused:
            raise node_error(node, index, opset, refused, UnsupportedError)
        if isinstance(fn, Expansion):
            self._expand(index, node, fn, opset)
            return
        if isinstance(fn, Subgraphs):
            self.subgraphs.op(fn.op_type, index, node, opset)
            return
        if isinstance(fn, Sequences) or (node.op_type == "Identity" and node.input and isinstance(
                self.values.get(node.input[0]), StaticSequence | PackedSequence | StaticOptional)):
            self.sequences.op(index, node, opset)
            return
        if isinstance(fn, Strings) or any(isinstance(self.values.get(n), StringTensor)
                                          for n in node.input if n):
            self.strings.op(index, node, opset)
            return
        try:
            inputs = [self.value(n, "input") if n else None for n in node.input]
            attrs = {a.name: _attr_value(a) for a in node.attribute}
            used = [bool(n) and n in self.consumed for n in node.output]
            b = OpBuilder(self.block, len(node.output), used, self._run_counter)
            before = self.block.last_op
            results = _call(fn, b, inputs, attrs)
            if node.name:  # errors of later stages name the node (printed by --print-debuginfo)
                op = before.next_op if before is not None else self.block.first_op
                while op is not None:
                    op.location = NameLoc(StringAttr(node.name), NoneAttr())
                    op = op.next_op
            for i, name in enumerate(node.output):
                if not name:
                    continue
                if i >= len(results):
                    if used[i]:
                        raise Unsupported(f"output #{i} ('{name}') is not supported")
                    continue
                self.values[name] = results[i]
                if isinstance(results[i], SSAValue):  # not ZipMap's KeyedRows
                    results[i].name_hint = name_hint(name)
        except Unsupported as e:
            raise node_error(node, index, opset, str(e), UnsupportedError) from None
        except InferError as e:
            raise node_error(node, index, opset, str(e), type(e)) from None
        except Exception as e:  # noqa: BLE001 - any failure is reported against its node
            raise node_error(node, index, opset, str(e) or type(e).__name__) from None

    def import_node(self, index: int, node: onnx.NodeProto, opset: int) -> None:
        """Import a node of a function body or subgraph (the graph's own are checked for
        support all at once first)."""
        default = _DOMAINS[""]  # a body's or subgraph's nodes are of the default domain
        fn, why = (default.variant(node.op_type, opset) if node.domain in ("", "ai.onnx")
                   and node.op_type in default.ops else (None, f"domain '{node.domain}'"))
        if fn is None:
            raise node_error(node, index, opset, why or "no importer", UnsupportedError)
        self._node(index, node, fn, opset)

    def prefix(self, label: str) -> str:
        """A prefix for the names of nodes the importer adds, met by no name of the graph."""
        prefix, k = f"{label}/", 1
        while prefix in self.prefixes or any(n.startswith(prefix) for n in self.names):
            k += 1
            prefix = f"{label}/{k}/"
        self.prefixes.add(prefix)
        return prefix

    def _expand(self, index: int, node: onnx.NodeProto, fn: Expansion, opset: int) -> None:
        """Import `node` as its function body, each body node through `_node`."""
        prefix = self.prefix(node.name or f"{node.op_type}{index}")
        try:
            try:
                types = [_type_proto(cast(TensorType, self.value(n, "input").type))
                         if n else onnx.TypeProto() for n in node.input]
                function = fn.body(node, opset, types)
                inner = body_opset(function, opset)
                body = instantiate(function, node, fn.defaults(), prefix)
            except Unsupported as e:
                raise node_error(node, index, opset, str(e), UnsupportedError) from None
            except NodeError as e:
                raise node_error(node, index, opset, str(e)) from None
            except Exception as e:  # noqa: BLE001 - onnx's body builders raise several types
                raise node_error(node, index, opset, str(e) or type(e).__name__,
                                  UnsupportedError) from None
            self.consumed |= {n for sub in body for n in sub.input if n}
            for j, sub in enumerate(body):
                self.import_node(j, sub, inner)
        except InferError as e:
            if f"({node_ref(node, index)}, opset {opset})" in str(e):
                raise  # its own failure, named already
            raise node_error(node, index, opset, f"expanded body: {e}", type(e)) from None

    def _check_output(self, vi: onnx.ValueInfoProto, ours: TensorType) -> list[str]:
        """A declared output type must agree with ours where both are known; returns the
        declared dim names (none when the shape is not declared)."""
        tt = vi.type.tensor_type
        if not vi.type.HasField("tensor_type") or tt.elem_type == 0:
            return []
        try:
            declared_elem = element_type(tt.elem_type)
        except Unsupported as e:
            raise UnsupportedError(f"graph output '{vi.name}': {e}") from None
        if declared_elem != ours.element_type:
            raise InvalidModelError(
                f"graph output '{vi.name}' is declared {declared_elem} but computes {ours}"
            )
        if not tt.HasField("shape"):
            return []
        declared, params = graph_tensor_type(vi, "graph output")
        if not G.compatible(ours, declared):
            raise InvalidModelError(
                f"graph output '{vi.name}' is declared {declared} but computes {ours}"
            )
        return params

"""ONNX operators defined by a function body in their schema, imported by expanding that body.

ONNX states many ops (Attention, RMSNormalization, GroupNormalization, Swish, CastLike, the
losses, the window functions, ...) as a graph of simpler ops; as onnxruntime and onnx-mlir
do, an op with no importer of its own is imported as that graph. `OPS` holds one
`Expansion` per op and version whose schema has a body (the package's table lets a native
importer win over it); the importer asks it for the body of a node (`body`), instantiates
it for the node (`instantiate`) and imports each body node through its normal path, at the
opset the body declares, expanding again where a body node is itself such an op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import onnx
import onnx.defs

from infer.frontend.onnx_ops.builder import Unsupported

PREVIEW_DOMAIN = "ai.onnx.preview"  # ops ONNX previews (FlexAttention), defined by bodies


@dataclass(frozen=True)
class Expansion:
    """The function body of `op_type` as defined since version `since` of its domain."""

    op_type: str
    since: int
    domain: str = ""

    def _schema(self) -> onnx.defs.OpSchema:
        return onnx.defs.get_schema(self.op_type, self.since, self.domain)

    def body_version(self, opset: int) -> int | None:
        """The version of the body that a model at `opset` uses (the newest not after it)."""
        s = self._schema()
        versions = [v for v in (*s.function_opset_versions,
                                *s.context_dependent_function_opset_versions) if v <= opset]
        return max(versions) if versions else None

    def body(self, node: onnx.NodeProto, opset: int,
             input_types: Sequence[onnx.TypeProto]) -> onnx.FunctionProto:
        """The body of `node` at `opset`; a context-dependent one is built from the node and
        its inputs' types (an omitted input has an empty type)."""
        s = self._schema()
        version = self.body_version(opset)
        if version is None:
            raise Unsupported(f"no function body of this op at opset {opset}")
        if version in s.context_dependent_function_opset_versions:
            raw = s.get_context_dependent_function_with_opset_version(
                version, node.SerializeToString(), [t.SerializeToString() for t in input_types])
        else:
            raw = s.get_function_with_opset_version(version)
        if isinstance(raw, onnx.FunctionProto):
            return raw
        function = onnx.FunctionProto()
        function.ParseFromString(raw)
        return function

    def defaults(self) -> dict[str, onnx.AttributeProto]:
        """The schema's default of each attribute that has one."""
        return {name: a.default_value for name, a in self._schema().attributes.items()
                if a.default_value.type != onnx.AttributeProto.UNDEFINED}


def body_opset(function: onnx.FunctionProto, model_opset: int) -> int:
    """The version of ONNX's default domain that a body's nodes are stated in: the one it
    imports, or (a previewed op's body imports only its own domain) the model's."""
    for o in function.opset_import:
        if o.domain in ("", "ai.onnx"):
            return o.version
    return model_opset


def instantiate(function: onnx.FunctionProto, node: onnx.NodeProto,
                defaults: dict[str, onnx.AttributeProto], prefix: str) -> list[onnx.NodeProto]:
    """The body's nodes for `node`: its formal inputs and outputs replaced by the node's (an
    omitted input by ""), every other value renamed under `prefix` (unique in the model),
    attribute references resolved to the node's attribute or else the schema's default
    (dropped when neither is set), each node named `prefix` + its position."""
    names = {f: (node.input[i] if i < len(node.input) else "")
             for i, f in enumerate(function.input)}
    names.update({f: node.output[i] for i, f in enumerate(function.output)
                  if i < len(node.output) and node.output[i]})
    given = {a.name: a for a in node.attribute}

    def rename(name: str) -> str:
        return names.get(name, prefix + name) if name else ""

    nodes = []
    for j, sub in enumerate(function.node):
        new = onnx.NodeProto()
        new.CopyFrom(sub)
        new.name = f"{prefix}{j}"
        new.input[:] = [rename(n) for n in sub.input]
        new.output[:] = [rename(n) for n in sub.output]
        del new.attribute[:]
        for a in sub.attribute:
            if not a.ref_attr_name:
                new.attribute.append(a)
                continue
            source = given.get(a.ref_attr_name, defaults.get(a.ref_attr_name))
            if source is not None:
                resolved = new.attribute.add()
                resolved.CopyFrom(source)
                resolved.name = a.name
        nodes.append(new)
    return nodes


def _expansions(domain: str) -> dict[str, dict[int, Expansion]]:
    table: dict[str, dict[int, Expansion]] = {}
    for s in onnx.defs.get_all_schemas_with_history():
        if s.domain == domain and (s.has_function or s.has_context_dependent_function):
            table.setdefault(s.name, {})[s.since_version] = Expansion(
                s.name, s.since_version, domain)
    return table


OPS: dict[str, dict[int, Expansion]] = _expansions("")
PREVIEW_OPS: dict[str, dict[int, Expansion]] = _expansions(PREVIEW_DOMAIN)

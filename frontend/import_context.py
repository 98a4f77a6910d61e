"""What the importer's collaborators need of it (`ImportContext`), and the helpers they and
the importer share: a node's error, a value's name hint, a graph input's type.

The importer (onnx_import) takes most nodes by calling their op function (onnx_ops). The
others go to collaborators it holds, each made with the importer as its `ImportContext`:
`SubgraphImport` (onnx_subgraphs: If, Loop, Scan), `SequenceImport` (onnx_sequences:
sequences and optionals), `StringImport` (onnx_strings: string tensors), and the ONNX
nodes they build on the importer's values (onnx_packed_sequences.Emit). They know the
importer through this interface only, never through onnx_import.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import onnx
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, SSAValue
from xdsl.ir.core import _VALUE_NAME_PATTERN  # the rule name hints must follow

from infer.dialects import graph as G
from infer.dialects.dims import DYN, Dim
from infer.errors import InferError, InvalidModelError, UnsupportedError
from infer.frontend.onnx_branch_ranks import RankChoice
from infer.frontend.onnx_ops import Unsupported, element_type
from infer.frontend.onnx_values import Value

__all__ = ["ImportContext", "graph_tensor_type", "name_hint", "node_error", "node_ref",
           "one_line"]


class ImportContext(Protocol):
    """The importer as its collaborators see it: the names in scope, where ops go, and
    importing nodes."""

    values: dict[str, Value]
    """Each name in scope and what it stands for (a tensor, sequence, optional, strings)."""
    block: Block
    """The block the next ops go to (a subgraph's own while it is imported)."""
    initializers: dict[str, onnx.TensorProto]
    """The initializers by name (a subgraph's added as it is imported)."""
    consumed: set[str]
    """The names some node or graph output reads (the outputs an importer must give)."""
    rank_choices: dict[SSAValue, RankChoice]
    """If results of a rank the branch taken decides (onnx_branch_ranks)."""

    def value(self, name: str, what: str) -> SSAValue:
        """The tensor named `name`, an initializer made a constant at its first use."""
        ...

    def constant(self, value: np.ndarray) -> SSAValue:
        """`value` as a graph.constant at the end of the current block."""
        ...

    def import_node(self, index: int, node: onnx.NodeProto, opset: int) -> None:
        """Import a node of a function body or subgraph, or one built here, at `opset`."""
        ...

    def prefix(self, label: str) -> str:
        """A new prefix for the names of nodes built here, met by no name of the graph."""
        ...

    def name_results(self, node: onnx.NodeProto, values: Sequence[Value]) -> None:
        """Bind `node`'s output names to `values` (a tensor's SSA value named after it)."""
        ...

    def in_scope(self, index: int, node: onnx.NodeProto, opset: int, which: str,
                 block: Block, names: dict[str, Value], subgraph: onnx.GraphProto,
                 sequences: bool = False,
                 finish: Callable[[list[Value]], list[SSAValue]] | None = None
                 ) -> list[Value]:
        """Import `subgraph` of `node` into `block`, its inputs bound to `names`."""
        ...


def one_line(text: str) -> str:
    """`text` with its runs of whitespace (newlines too) as single spaces."""
    return " ".join(text.split())


def node_ref(node: onnx.NodeProto, index: int) -> str:
    """How an error names a node: `node 'name'`, or `node #index` when it has no name."""
    return f"node '{node.name}'" if node.name else f"node #{index}"


def node_error(
    node: onnx.NodeProto, index: int, opset: int, reason: str,
    error: type[InferError] = InvalidModelError,
) -> InferError:
    """The error `reason` about `node`, one line naming the op, the node and the opset."""
    what = "unsupported op" if issubclass(error, UnsupportedError) else "op"
    return error(
        f"{what} '{node.op_type}' ({node_ref(node, index)}, opset {opset}): "
        f"{one_line(reason)}"
    )


def name_hint(name: str) -> str | None:
    """An SSA value's name hint for the ONNX name `name` (None when none fits)."""
    hint = re.sub(r"[^\w$.-]", "_", name)
    if hint and not _VALUE_NAME_PATTERN.fullmatch(hint):
        hint = "v" + hint
    return hint if hint and _VALUE_NAME_PATTERN.fullmatch(hint) else None


def graph_tensor_type(vi: onnx.ValueInfoProto, what: str) -> tuple[TensorType, list[str]]:
    """The builtin type of a graph input/output and its dims' dim_param names."""
    if not vi.type.HasField("tensor_type"):
        kind = vi.type.WhichOneof("value")
        raise UnsupportedError(f"{what} '{vi.name}' is not a tensor ({kind})")
    tt = vi.type.tensor_type
    try:
        elem = element_type(tt.elem_type)
    except Unsupported as e:
        raise UnsupportedError(f"{what} '{vi.name}': {e}") from None
    if not tt.HasField("shape"):
        raise UnsupportedError(f"{what} '{vi.name}' has an unknown rank (no shape)")
    shape: list[Dim] = []
    params: list[str] = []
    for d in tt.shape.dim:
        shape.append(d.dim_value if d.HasField("dim_value") and d.dim_value >= 0 else DYN)
        params.append(d.dim_param)
    return G.tensor_type(shape, elem), params
